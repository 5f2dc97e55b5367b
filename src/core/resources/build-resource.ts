/**
 * Checks and compiles one `resources` entry (already valid against the schema): exactly one
 * source, paths and globs that stay inside the folder, a URI or an RFC 6570 template, `{{var}}`
 * placeholders that name template variables. Problems carry a path into the entry (and a span
 * inside a string) that the loader turns into line:column.
 */
import * as path from 'node:path';
import { compileGlob } from '../builtins/glob';
import type { HandlerProblem } from '../handlers/handler';
import { compileArgv } from '../handlers/shell/expand';
import { formatArgv } from '../handlers/shell/command-line';
import { hasGitSegment } from '../files/open-contained';
import { DEFAULT_MAX_FILE_BYTES } from '../files/read-text';
import { parseTemplate, placeholderNames, placeholderSpan } from '../templates';
import type { WorkspaceFolder } from '../types';
import type { PluginResource, ResourceContent, ResourcePlace } from './plugin-resource';
import type { PluginResourceSpec } from './resource-spec';
import type { UriTemplate } from './uri-template';
import { parseUriTemplate, UriTemplateError } from './uri-template';
import { commandUri, workspaceFileUri } from './workspace-uri';
import { OUTPUT_URI_PREFIX } from '../output/output-store';

/**
 * Largest `maxSize`: a client reads a resource in one message, the SDK client refuses messages
 * over 10 MB, and base64 makes binary contents a third larger.
 */
export const MAX_RESOURCE_BYTES = 7 * 1024 * 1024;

/** What every resource of a file shares. */
export interface ResourceScope {
  readonly folder: WorkspaceFolder;
  readonly pluginName: string;
  readonly place: ResourcePlace;
}

const SOURCES = ['file', 'files', 'command'] as const;
const URI = /^[A-Za-z][A-Za-z0-9+.-]*:\S+$/;

/** The compiled resource, or every problem found in its entry. */
export function buildResource(spec: PluginResourceSpec, scope: ResourceScope): { readonly resource: PluginResource } | { readonly problems: readonly HandlerProblem[] } {
  const problems: HandlerProblem[] = [];
  const sources = SOURCES.filter((key) => spec[key] !== undefined);
  if (sources.length !== 1) {
    problems.push({ path: [], message: sources.length === 0 ? 'a resource needs one of "file", "files" or "command".' : `a resource has one source; this one has ${sources.map((key) => `"${key}"`).join(' and ')}.` });
    return { problems };
  }
  const template = checkTemplate(spec, problems);
  checkUri(spec, problems);
  const content = compileContent(spec, template, problems);
  if (spec.timeout !== undefined && spec.command === undefined) {
    problems.push({ path: ['timeout'], message: '"timeout" applies to command resources only.' });
  }
  if (problems.length > 0 || content === undefined) {
    return { problems };
  }
  const uri = template !== undefined || content.kind === 'files' ? undefined : (spec.uri ?? (content.kind === 'command' ? commandUri(scope.pluginName, spec.name) : workspaceFileUri(scope.folder, toSlashes(content.path))));
  return {
    resource: {
      name: spec.name,
      ...(spec.title === undefined ? {} : { title: spec.title }),
      ...(spec.description === undefined ? {} : { description: spec.description }),
      ...(spec.mimeType === undefined ? {} : { mimeType: spec.mimeType }),
      ...(uri === undefined ? {} : { uri }),
      ...(template === undefined ? {} : { template }),
      variables: spec.variables ?? {},
      content,
      folder: scope.folder,
      pluginName: scope.pluginName,
      place: scope.place,
      maxSize: spec.maxSize ?? DEFAULT_MAX_FILE_BYTES,
      ...(spec.timeout === undefined ? {} : { timeoutMs: spec.timeout }),
      approvalLines: approvalLinesOf(spec, uri ?? template?.text ?? `${workspaceFileUri(scope.folder, '')}${spec.files ?? ''}`),
    },
  };
}

function checkTemplate(spec: PluginResourceSpec, problems: HandlerProblem[]): UriTemplate | undefined {
  const declared = Object.keys(spec.variables ?? {});
  if (spec.uriTemplate === undefined) {
    if (declared.length > 0) {
      problems.push({ path: ['variables'], message: '"variables" describe the {variables} of a "uriTemplate"; this resource has none.' });
    }
    return undefined;
  }
  if (spec.files !== undefined) {
    problems.push({ path: ['uriTemplate'], message: 'a "files" glob lists its files itself; it takes no "uriTemplate".' });
    return undefined;
  }
  try {
    const template = parseUriTemplate(spec.uriTemplate);
    for (const name of declared.filter((variable) => !template.variables.includes(variable))) {
      problems.push({ path: ['variables', name], message: `"${name}" is not a variable of the uriTemplate "${spec.uriTemplate}" (it has ${template.variables.map((one) => `{${one}}`).join(', ')}).` });
    }
    return template;
  } catch (error) {
    const offset = error instanceof UriTemplateError ? error.offset : 0;
    problems.push({ path: ['uriTemplate'], message: `uriTemplate: ${error instanceof Error ? error.message : String(error)}.`, span: { start: offset, length: 1 } });
    return undefined;
  }
}

function checkUri(spec: PluginResourceSpec, problems: HandlerProblem[]): void {
  if (spec.uri === undefined) {
    return;
  }
  if (spec.uriTemplate !== undefined || spec.files !== undefined) {
    problems.push({ path: ['uri'], message: `"uri" names a single resource; a resource with ${spec.files === undefined ? '"uriTemplate"' : '"files"'} has many.` });
  } else if (!URI.test(spec.uri)) {
    problems.push({ path: ['uri'], message: `"${spec.uri}" is not a URI: write scheme:rest, for example "docs://handbook".` });
  } else if (spec.uri.startsWith(OUTPUT_URI_PREFIX)) {
    problems.push({ path: ['uri'], message: `URIs under ${OUTPUT_URI_PREFIX} are the server's kept outputs; choose another.` });
  }
}

function compileContent(spec: PluginResourceSpec, template: UriTemplate | undefined, problems: HandlerProblem[]): ResourceContent | undefined {
  const variables = template?.variables ?? [];
  if (spec.file !== undefined) {
    const before = problems.length;
    checkRelativePath(spec.file, ['file'], problems);
    checkPlaceholders(spec.file, ['file'], variables, problems);
    if (problems.length > before) {
      return undefined;
    }
    return placeholderNames(spec.file).length === 0 ? { kind: 'file', path: spec.file } : { kind: 'file-template', path: spec.file, parts: parseTemplate(spec.file) };
  }
  if (spec.files !== undefined) {
    try {
      return { kind: 'files', glob: spec.files, matcher: compileGlob(spec.files) };
    } catch (error) {
      problems.push({ path: ['files'], message: error instanceof Error ? error.message : String(error) });
      return undefined;
    }
  }
  const command = spec.command ?? [];
  const before = problems.length;
  if (command.length === 0 || command[0] === '') {
    problems.push({ path: ['command'], message: '"command" needs at least the program to run.' });
  } else if (placeholderNames(command[0] ?? '').length > 0) {
    problems.push({ path: ['command', 0], message: 'the program must be fixed text: a {{variable}} may only be one of its arguments.' });
  }
  command.forEach((token, index) => checkPlaceholders(token, ['command', index], variables, problems));
  return problems.length > before ? undefined : { kind: 'command', command, argv: compileArgv(command) };
}

/** Every `{{name}}` in `text` must be a variable of the template. */
function checkPlaceholders(text: string, at: readonly (string | number)[], variables: readonly string[], problems: HandlerProblem[]): void {
  for (const name of placeholderNames(text)) {
    if (!variables.includes(name)) {
      const span = placeholderSpan(text, name);
      const message =
        variables.length === 0
          ? `"{{${name}}}" needs a "uriTemplate" with a {${name}} variable to fill it.`
          : `"{{${name}}}" is not a variable of the uriTemplate (it has ${variables.map((one) => `{${one}}`).join(', ')}).`;
      problems.push({ path: at, message, ...(span === undefined ? {} : { span }) });
    }
  }
}

/** A path that is relative and does not climb out of the folder (containment is checked again at read). */
function checkRelativePath(file: string, at: readonly (string | number)[], problems: HandlerProblem[]): void {
  if (file.includes('\0')) {
    problems.push({ path: at, message: 'the path contains a NUL byte.' });
  } else if (path.isAbsolute(file) || path.win32.isAbsolute(file) || file.startsWith('/')) {
    problems.push({ path: at, message: `"${file}" must be relative to the workspace folder, not absolute.` });
  } else if (file.split(/[\\/]/).includes('..')) {
    problems.push({ path: at, message: `"${file}" contains "..": a resource stays inside the workspace folder.` });
  } else if (hasGitSegment(file)) {
    problems.push({ path: at, message: `"${file}" is or lies inside .git, which is never served (it can hold credentials, such as a token in a remote URL).` });
  }
}

function approvalLinesOf(spec: PluginResourceSpec, address: string): string[] {
  const what = spec.command !== undefined ? `runs: ${formatArgv(spec.command)}` : spec.files !== undefined ? `reads the files matching: ${spec.files}` : `reads: ${spec.file ?? ''}`;
  return [`resource ${spec.name} (${address}) ${what}`];
}

function toSlashes(relative: string): string {
  return relative.replace(/\\/g, '/').replace(/^(\.\/)+/, '');
}
