/**
 * Makefile targets to tools: `make-<target>` runs `make <target>` in the folder. The makefile is
 * read as text, never run: `make -p` would evaluate it, and a `$(shell ...)` in it would run
 * before anyone approved anything. So the targets are the explicit ones written at the start of a
 * rule line: no pattern rules (`%`), no targets made of variables (`$`), no special or hidden
 * targets (`.PHONY`, `.c.o`, `.venv`); targets declared `.PHONY` are ordinary targets of their
 * own rules. Rules that only an `include`d file or a variable expansion writes are not seen.
 */
import type { ImportedTool, ImportResult, NotServed, SourceLocation } from './imported-tool';
import type { ImportOptions } from './import-options';
import { readImportSource } from './import-source';
import { toolNameOf } from './tool-names';
import { formatArgv } from '../handlers/shell/command-line';
import { placeholderNames } from '../templates';
import { workspaceProgramFiles } from '../handlers/shell/program-words';
import { makeIncludes } from './included-files';
import { redactSecrets } from '../redact';

/** The names GNU make looks for, in its order. */
export const MAKEFILE_NAMES = ['GNUmakefile', 'makefile', 'Makefile'] as const;

/** A target as written: its name, where, and the comment lines just above its rule. */
export interface MakeTarget {
  readonly name: string;
  readonly line: number;
  readonly column: number;
  readonly comment?: string;
}

/** Imports the targets of the folder's makefile. */
export async function importMakeTargets(options: ImportOptions): Promise<ImportResult> {
  for (const file of MAKEFILE_NAMES) {
    const read = await readImportSource(options.folder, file);
    if ('absent' in read) {
      continue;
    }
    if ('problem' in read) {
      return { tools: [], notServed: [{ name: file, reason: read.problem, source: { file, line: 1, column: 1 } }], sources: [] };
    }
    const tools: ImportedTool[] = [];
    const notServed: NotServed[] = includeNotices(file, read.text);
    // What make reads besides the file (its includes) and runs (scripts its recipes name) is approved with it.
    const included = await makeIncludes(options.folder, file, read.text);
    const covered = { programFiles: recipeProgramFiles(read.text, options.folder.path), ...(included.notCovered.length === 0 ? {} : { notCovered: included.notCovered }) };
    const rules = makeRules(read.text);
    for (const target of makeTargets(read.text)) {
      const source: SourceLocation = { file, line: target.line, column: target.column };
      const name = toolNameOf(options.prefix ?? 'make-', target.name);
      if ('reason' in name) {
        notServed.push({ name: target.name, reason: name.reason, source });
        continue;
      }
      // make reads the same file by itself: the first of its names that exists.
      const argv = ['make', target.name];
      const description = `${target.comment === undefined ? '' : `${target.comment} `}Runs the make target "${target.name}" of ${file}: ${formatArgv(argv)}.`;
      const inputSchema = { type: 'object' as const, properties: {}, additionalProperties: false };
      tools.push({
        name: name.name,
        taskName: target.name,
        description,
        inputSchema,
        source,
        run: { kind: 'process', argv },
        spec: { name: name.name, description, inputSchema, handler: { type: 'shell', command: argv } },
        ...covered,
        body: recipeBody(rules, file, target.name),
      });
    }
    // Every earlier name is absent: creating one would make make read another file.
    const earlier = MAKEFILE_NAMES.slice(0, MAKEFILE_NAMES.indexOf(file)).map((name) => ({ path: name, content: null }));
    return { tools, notServed, sources: [...earlier, { path: file, content: read.text }, ...included.sources] };
  }
  return { tools: [], notServed: [], sources: MAKEFILE_NAMES.map((name) => ({ path: name, content: null })) };
}

/**
 * Each `include` line, said rather than skipped: make reads the included file's rules too, but
 * only the targets written in the makefile itself become tools (approval covers the included
 * files all the same: included-files.ts).
 */
function includeNotices(file: string, text: string): NotServed[] {
  return text.split(/\r\n|\r|\n/).flatMap((line, index) => {
    const match = /^ *(-include|sinclude|include)\s+([^#]*)/.exec(line);
    const names = match?.[2]?.trim() ?? '';
    if (match === null || names === '') {
      return [];
    }
    const reason = `the targets of ${names} (which make reads here) are not imported: only the targets written in ${file} are tools`;
    return [{ name: `${match[1] ?? 'include'} ${names}`, reason, source: { file, line: index + 1, column: line.indexOf(match[1] ?? '') + 1 } }];
  });
}

/** The workspace files the makefile's recipe lines run (tab-led lines, without make's `@`, `-`, `+`) and its SHELL, relative to the folder. */
function recipeProgramFiles(text: string, folder: string): string[] {
  const recipes = text
    .replace(/\\\r?\n\t?/g, ' ')
    .split(/\r?\n/)
    .filter((line) => line.startsWith('\t'))
    .map((line) => line.slice(1).replace(/^[@+-]+/, ''));
  // `SHELL = ./tools/sh` makes every recipe line run by that program.
  const shells = [...text.matchAll(/^\s*(?:override\s+)?SHELL\s*[:?]?=\s*(\S+)/gm)].map((match) => match[1] ?? '');
  return [...new Set([...shells.flatMap((shell) => workspaceProgramFiles({ command: [shell], shell: 'sh' }, folder, folder)), ...recipes.flatMap((line) => workspaceProgramFiles({ script: line, shell: 'sh' }, folder, folder))])];
}
/** A rule as the makefile writes it: its line, its prerequisites and its recipe lines (without the tab). */
interface MakeRule {
  readonly line: number;
  readonly prerequisites: readonly string[];
  readonly recipe: readonly string[];
}

/** Recipe lines shown for approval (a target's and its prerequisites' together) before pointing at the file. */
const MAX_RECIPE_LINES = 60;

/**
 * What `make <target>` runs as the makefile writes it, for the person who approves it: the
 * target's recipe, then the recipe of each prerequisite that is a target of the file (each once,
 * in the order make reaches them). Variables are shown as written (`$(CC)`), which is what the
 * approval covers; a prerequisite made by a pattern rule or an included file is named only.
 */
export function recipeBody(rules: ReadonlyMap<string, MakeRule>, file: string, target: string): string[] {
  const lines: string[] = [];
  const seen = new Set<string>();
  let shown = 0;
  const visit = (name: string, neededBy: string | undefined): void => {
    const rule = rules.get(name);
    if (rule === undefined || seen.has(name)) {
      return;
    }
    seen.add(name);
    const needs = rule.prerequisites.length === 0 ? '' : ` (needs ${rule.prerequisites.join(' ')})`;
    const heading = neededBy === undefined ? `${file}:${rule.line} recipe of "${name}"${needs}:` : `${file}:${rule.line} recipe of "${name}", which "${neededBy}" needs${needs}:`;
    const recipe = rule.recipe.length === 0 ? ['| (no recipe of its own)'] : rule.recipe.map((line) => `| ${redactSecrets(line)}`);
    const room = Math.max(0, MAX_RECIPE_LINES - shown);
    lines.push(heading, ...recipe.slice(0, room), ...(recipe.length > room ? [`| … ${recipe.length - room} more lines: read them in ${file}`] : []));
    shown += recipe.length;
    for (const prerequisite of rule.prerequisites) {
      visit(prerequisite, name);
    }
  };
  visit(target, undefined);
  return lines;
}

/**
 * The makefile's explicit rules by target (the first rule of each, as makeTargets takes them):
 * the prerequisites (order-only ones too, without the `|`) and the recipe: an inline `; recipe`,
 * then the tab-led lines that follow, with the comment and blank lines between them left out and
 * a line ended by `\` joined with the next.
 */
export function makeRules(text: string): Map<string, MakeRule> {
  const lines = text.split(/\r\n|\r|\n/);
  const rules = new Map<string, MakeRule>();
  let inDefine = false;
  for (let index = 0; index < lines.length; index++) {
    const number = index + 1;
    let line = lines[index] ?? '';
    while (line.endsWith('\\') && index + 1 < lines.length) {
      index++;
      line = `${line.slice(0, -1)} ${lines[index] ?? ''}`;
    }
    if (/^\s*define\b/.test(line) || inDefine) {
      inDefine = !/^\s*endef\b/.test(line);
      continue;
    }
    const rule = splitRule(line);
    if (rule === undefined || isAssignment(rule.rest)) {
      continue;
    }
    const semicolon = rule.rest.indexOf(';');
    const prerequisiteText = (semicolon >= 0 ? rule.rest.slice(0, semicolon) : rule.rest).split('#')[0] ?? '';
    const prerequisites = words(prerequisiteText).map((word) => word.name).filter((name) => name !== '|');
    const recipe = semicolon >= 0 && rule.rest.slice(semicolon + 1).trim() !== '' ? [rule.rest.slice(semicolon + 1).trim()] : [];
    index = recipeLines(lines, index + 1, recipe) - 1;
    for (const { name } of words(rule.targets)) {
      if (!rules.has(name)) {
        rules.set(name, { line: number, prerequisites, recipe });
      }
    }
  }
  return rules;
}

/** Pushes the recipe lines that start at `start` onto `recipe`; returns the index of the first line after them. */
function recipeLines(lines: readonly string[], start: number, recipe: string[]): number {
  let end = start;
  for (let index = start; index < lines.length; index++) {
    const line = lines[index] ?? '';
    if (line.startsWith('\t')) {
      let joined = line.slice(1);
      while (joined.endsWith('\\') && index + 1 < lines.length) {
        index++;
        joined = `${joined}\n${(lines[index] ?? '').replace(/^\t/, '')}`;
      }
      recipe.push(...joined.split('\n'));
      end = index + 1;
    } else if (line.trim() !== '' && !line.trimStart().startsWith('#')) {
      break;
    }
  }
  return end;
}

const SPECIAL_OR_HIDDEN = /^\./;

/**
 * Directives whose line may hold a colon without being a rule: `include $(SRCS:.c=.d)`,
 * `ifeq ($(A),b:c)`, `export PATH:=...`.
 */
const DIRECTIVES = new Set(['include', '-include', 'sinclude', 'ifeq', 'ifneq', 'ifdef', 'ifndef', 'else', 'endif', 'export', 'unexport', 'override', 'private', 'vpath', 'undefine', 'load', '-load', 'define', 'endef']);

/** The explicit targets of a makefile's text, each once (its first rule), in order. */
export function makeTargets(text: string): MakeTarget[] {
  const lines = text.split(/\r\n|\r|\n/);
  const targets: MakeTarget[] = [];
  const seen = new Set<string>();
  let comment: string[] = [];
  let inDefine = false;
  for (let index = 0; index < lines.length; index++) {
    let line = lines[index] ?? '';
    const number = index + 1;
    // A backslash at the end joins the next line (a rule's prerequisites may go on).
    while (line.endsWith('\\') && index + 1 < lines.length) {
      index++;
      line = `${line.slice(0, -1)} ${lines[index] ?? ''}`;
    }
    if (/^\s*define\b/.test(line)) {
      inDefine = true;
    }
    if (inDefine) {
      inDefine = !/^\s*endef\b/.test(line);
      comment = [];
      continue;
    }
    const commentText = /^#+\s?(.*)$/.exec(line)?.[1];
    if (commentText !== undefined) {
      comment.push(commentText.trim());
      continue;
    }
    const rule = splitRule(line);
    if (rule !== undefined && !isAssignment(rule.rest)) {
      const inline = /##\s*(.*)$/.exec(rule.rest)?.[1];
      const described = inline ?? (comment.length > 0 ? comment.join(' ') : undefined);
      for (const { name, column } of words(rule.targets)) {
        if (seen.has(name) || SPECIAL_OR_HIDDEN.test(name) || /[%$]/.test(name) || name.startsWith('-') || placeholderNames(name).length > 0) {
          continue;
        }
        seen.add(name);
        targets.push({ name, line: number, column, ...(described === undefined || described === '' ? {} : { comment: described }) });
      }
    }
    comment = [];
  }
  return targets;
}

/**
 * A rule line split at its rule colon (one or two, not `:=`): the targets and the rest. A colon
 * or `=` inside a variable reference belongs to it (`$(shell touch x):` has one target, made of
 * a variable, and `$(error not: $(x))` none); an `=` or `#` before the colon means no rule.
 */
function splitRule(line: string): { targets: string; rest: string } | undefined {
  if (line.startsWith('\t') || DIRECTIVES.has(line.trimStart().split(/\s/, 1)[0] ?? '')) {
    return undefined;
  }
  let depth = 0;
  for (let i = 0; i < line.length; i++) {
    const char = line[i];
    if (char === '$') {
      const next = line[i + 1];
      depth += next === '(' || next === '{' ? 1 : 0;
      i++;
    } else if (depth > 0) {
      depth += char === '(' || char === '{' ? 1 : char === ')' || char === '}' ? -1 : 0;
    } else if (char === '#' || char === '=') {
      return undefined;
    } else if (char === ':') {
      const rest = line.slice(i + 1);
      return /^:{0,2}=/.test(rest) ? undefined : { targets: line.slice(0, i), rest: rest.startsWith(':') ? rest.slice(1) : rest };
    }
  }
  return undefined;
}

/** The words of a rule's targets, each with its 1-based column; a variable reference stays in one word. */
function words(text: string): { name: string; column: number }[] {
  const found: { name: string; column: number }[] = [];
  let depth = 0;
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    const char = text[i] ?? ' ';
    if (depth === 0 && /\s/.test(char)) {
      if (start >= 0) {
        found.push({ name: text.slice(start, i), column: start + 1 });
      }
      start = -1;
      continue;
    }
    start = start < 0 ? i : start;
    if (char === '$' && (text[i + 1] === '(' || text[i + 1] === '{')) {
      depth++;
      i++;
    } else if (depth > 0) {
      depth += char === '(' || char === '{' ? 1 : char === ')' || char === '}' ? -1 : 0;
    }
  }
  return found;
}

/** `target: VAR = value` (a target-specific variable) is not a rule of its own. */
function isAssignment(rest: string): boolean {
  const beforeComment = rest.split('#')[0] ?? '';
  return /^\s*(export\s+|override\s+|private\s+)*[A-Za-z_][A-Za-z0-9_.-]*\s*(\+|\?|!|::?)?=/.test(beforeComment);
}
