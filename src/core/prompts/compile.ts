/**
 * A prompt's spec compiled once, at load, into a PromptDefinition or its problems: every
 * `{{name}}` must name one of its arguments (the template language is templates/), a path written
 * without placeholders must stay inside the workspace folder, and completion sources must be usable.
 */
import * as path from 'node:path';
import { checkedAlternatives } from '../builtins/glob';
import { completionApprovalLines } from '../completions/source';
import type { HandlerProblem } from '../handlers/handler';
import { parseTemplate, placeholderSpan } from '../templates';
import type { TemplatePart } from '../templates';
import type { WorkspaceFolder } from '../types';
import type { CompiledMessage, PromptArgument, PromptDefinition, PromptSource } from './prompt';
import { isImagePath } from '../files/read-image';
import type { PromptMessageSpec, PromptSpec } from './spec';

/** A compiled prompt, or its problems (paths relative to the prompt object). */
export type CompiledPrompt = { readonly prompt: PromptDefinition } | { readonly problems: readonly HandlerProblem[] };

/** Compiles one prompt of a plugin file whose tools work in `folder`. */
export function compilePrompt(spec: PromptSpec, folder: WorkspaceFolder, source: PromptSource): CompiledPrompt {
  const problems: HandlerProblem[] = [];
  const args = compileArguments(spec, problems);
  const known = new Set(args.map((argument) => argument.name));
  const messages = spec.messages.map((message, index) => compileMessage(message, index, known, problems));
  if (problems.length > 0) {
    return { problems };
  }
  return {
    prompt: {
      name: spec.name,
      ...(spec.title === undefined ? {} : { title: spec.title }),
      ...(spec.description === undefined ? {} : { description: spec.description }),
      arguments: args,
      messages,
      source,
      folder,
      approvalLines: approvalLinesOf(args, messages),
    },
  };
}

function compileArguments(spec: PromptSpec, problems: HandlerProblem[]): PromptArgument[] {
  const seen = new Map<string, number>();
  const args: PromptArgument[] = [];
  (spec.arguments ?? []).forEach((argument, index) => {
    const first = seen.get(argument.name);
    if (first !== undefined) {
      problems.push({ path: ['arguments', index, 'name'], message: `duplicate argument name "${argument.name}" (first at arguments[${first}])` });
      return;
    }
    seen.set(argument.name, index);
    const files = argument.complete?.files;
    if (files !== undefined) {
      try {
        checkedAlternatives(files);
      } catch (error) {
        problems.push({ path: ['arguments', index, 'complete', 'files'], message: error instanceof Error ? error.message : String(error) });
      }
    }
    argument.complete?.command?.forEach((token, at) => {
      const placeholder = parseTemplate(token).find((part) => part.kind === 'placeholder');
      if (placeholder !== undefined) {
        const span = placeholderSpan(token, placeholder.name);
        problems.push({ path: ['arguments', index, 'complete', 'command', at], message: 'a completion command takes no {{placeholders}}: it runs as written', ...(span === undefined ? {} : { span }) });
      }
    });
    args.push({
      name: argument.name,
      ...(argument.title === undefined ? {} : { title: argument.title }),
      ...(argument.description === undefined ? {} : { description: argument.description }),
      required: argument.required === true,
      ...(argument.enum === undefined ? {} : { enum: argument.enum }),
      ...(argument.complete === undefined ? {} : { complete: argument.complete }),
    });
  });
  return args;
}

function compileMessage(message: PromptMessageSpec, index: number, known: ReadonlySet<string>, problems: HandlerProblem[]): CompiledMessage {
  const kind = message.text !== undefined ? 'text' : message.file !== undefined ? 'file' : 'image';
  const written = message.text ?? message.file ?? message.image ?? '';
  const parts = parseTemplate(written);
  const at = ['messages', index, kind];
  for (const part of parts) {
    if (part.kind === 'placeholder' && !known.has(part.name)) {
      const span = placeholderSpan(written, part.name);
      const names = [...known].join(', ') || 'none';
      problems.push({ path: at, message: `{{${part.name}}} is not an argument of this prompt (its arguments: ${names})`, ...(span === undefined ? {} : { span }) });
    }
  }
  if (kind === 'text') {
    return { role: message.role, kind, parts };
  }
  checkLiteralPath(kind, written, parts, at, problems);
  return { role: message.role, kind, path: parts, written };
}

/** A path written without placeholders is checked now: relative, inside the folder, an image's type. */
function checkLiteralPath(kind: 'file' | 'image', written: string, parts: readonly TemplatePart[], at: readonly (string | number)[], problems: HandlerProblem[]): void {
  if (parts.some((part) => part.kind === 'placeholder')) {
    return;
  }
  const problem = relativePathProblem(written);
  if (problem !== undefined) {
    problems.push({ path: at, message: problem });
  } else if (kind === 'image' && !isImagePath(written)) {
    problems.push({ path: at, message: `"${written}" is not a PNG, JPEG, GIF or WebP image (by its extension)` });
  }
}

/** Why a path a prompt reads is refused before the file system is asked: absolute, or climbing out. */
export function relativePathProblem(written: string): string | undefined {
  if (written.includes('\0')) {
    return 'the path contains a NUL byte';
  }
  if (path.isAbsolute(written) || path.win32.isAbsolute(written)) {
    return `"${written}" must be relative to the workspace folder, not absolute`;
  }
  if (written.split(/[\\/]/).includes('..')) {
    return `"${written}" contains "..": prompts read files inside the workspace folder only`;
  }
  return undefined;
}

function approvalLinesOf(args: readonly PromptArgument[], messages: readonly CompiledMessage[]): string[] {
  const reads = messages.flatMap((message) => (message.kind === 'text' ? [] : [`reads workspace ${message.kind === 'image' ? 'image' : 'file'}: ${message.written}`]));
  return [...new Set(reads), ...args.flatMap((argument) => completionApprovalLines(`"${argument.name}"`, argument))];
}
