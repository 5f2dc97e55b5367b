/**
 * justfile recipes to tools: `just-<recipe>` runs `just <recipe> <values...>` (argv, no shell of
 * ours), each recipe parameter a tool parameter (`*` and `+` ones arrays). The recipes come from
 * `just --dump --dump-format json`, which parses the justfile without evaluating it (no backtick
 * runs); `just` runs with a timeout and an output cap, and when it is not installed that is said.
 *
 * just splices a `{{parameter}}` into the recipe's shell line as text, so a parameter the body
 * interpolates (outside `quote(...)`), directly or through a default or a dependency
 * (just-values.ts), takes only values that no shell reads as syntax or as an option: the schema
 * says so, and the model is told. A recipe whose line would run a value as code of a nested
 * interpreter is not served. A parameter read as `$name` (exported) or
 * `$1` (positional arguments), or through `quote()`, takes any text.
 */
import { runProcess } from '../process/run-process';
import { classifyOutcome, endedHow } from '../process/outcome';
import type { JsonSchema } from '../types';
import type { ImportedTool, ImportResult, NotServed, SourceLocation } from './imported-tool';
import type { ImportOptions } from './import-options';
import { readImportSource } from './import-source';
import { toolNameOf } from './tool-names';
import { formatArgv } from '../handlers/shell/command-line';
import { placeholderNames } from '../templates';
import { workspaceProgramFiles } from '../handlers/shell/program-words';
import { justIncludes } from './included-files';
import { redactSecrets } from '../redact';
import { JustValues } from './just-values';

/** The names just looks for (it matches them case-insensitively; these are the usual spellings). */
export const JUSTFILE_NAMES = ['justfile', 'Justfile', 'JUSTFILE', '.justfile'] as const;

/** What a value of an interpolated parameter may be: no whitespace, no shell syntax, no leading `-`. */
export const INTERPOLATED_VALUE = '^([A-Za-z0-9_./:=@+,][A-Za-z0-9_./:=@+,-]*)?$';

const DUMP_TIMEOUT_MS = 10_000;
const DUMP_MAX_BYTES = 4 * 1024 * 1024;

/** The just importer's options: which program is just (default `just` on PATH). */
export interface JustImportOptions extends ImportOptions {
  readonly justProgram?: string;
  /**
   * Restricted Mode: no program of the workspace's may run, and `just --dump` reads (and may
   * evaluate parts of) the workspace's justfile, so its recipes are not listed.
   */
  readonly runsNoPrograms?: boolean;
}

interface DumpParameter {
  readonly name: string;
  readonly kind: 'singular' | 'plus' | 'star';
  readonly default: unknown;
  readonly export: boolean;
  readonly help?: string | null;
  readonly long?: string | null;
  readonly short?: string | null;
}

interface DumpRecipe {
  readonly name: string;
  readonly doc: string | null;
  readonly private: boolean;
  readonly shebang: boolean;
  readonly parameters: readonly DumpParameter[];
  readonly body: unknown;
  readonly dependencies: unknown;
}

/** Imports the recipes of the folder's justfile. */
export async function importJustRecipes(options: JustImportOptions): Promise<ImportResult> {
  const found = await findJustfile(options);
  if (found === undefined) {
    return { tools: [], notServed: [], sources: JUSTFILE_NAMES.map((name) => ({ path: name, content: null })) };
  }
  if ('problem' in found) {
    return { tools: [], notServed: [{ name: found.file, reason: found.problem, source: { file: found.file, line: 1, column: 1 } }], sources: [] };
  }
  const { file, text } = found;
  // The files it imports (and its modules) decide what its recipes run: approved with it.
  const included = await justIncludes(options.folder, file, text);
  const sources = [{ path: file, content: text }, ...included.sources];
  const dump = await dumpJustfile(file, options);
  if ('reason' in dump) {
    return { tools: [], notServed: [{ name: file, reason: dump.reason, source: { file, line: 1, column: 1 } }], sources };
  }
  const tools: ImportedTool[] = [];
  const notServed: NotServed[] = [];
  const values = new JustValues(new Map(dump.recipes.map((recipe) => [recipe.name, recipe])));
  for (const recipe of dump.recipes) {
    if (recipe.private) {
      continue;
    }
    const position = headerPosition(text, recipe.name);
    const source: SourceLocation = { file, ...(position ?? { line: 1, column: 1 }) };
    const built = position === undefined
      ? { reason: `it is not written in ${file} (it comes from an imported file, which approval does not cover)` }
      : recipeTool(recipe, values, { file, source, prefix: options.prefix ?? 'just-', program: options.justProgram ?? 'just' });
    if ('reason' in built) {
      notServed.push({ name: recipe.name, reason: built.reason, source });
    } else {
      tools.push({
        ...built,
        programFiles: bodyProgramFiles(recipe, options.folder.path),
        ...(included.notCovered.length === 0 ? {} : { notCovered: included.notCovered }),
        body: recipeText(text, file, recipe.name, source.line),
      });
    }
  }
  for (const module of dump.modules) {
    notServed.push({ name: module, reason: 'it is a module (mod); its recipes are not imported', source: { file, ...(headerPosition(text, `mod ${module}`) ?? { line: 1, column: 1 }) } });
  }
  return { tools, notServed, sources };
}

/** Lines of a recipe shown for approval before pointing at the justfile. */
const MAX_RECIPE_LINES = 60;

/**
 * The recipe as the justfile writes it, for the person who approves it (`just build` alone says
 * nothing of what `build` runs): its attributes (`[confirm]`, `[positional-arguments]`), its header
 * (parameters, dependencies) and its indented body lines, credentials hidden.
 */
function recipeText(text: string, file: string, name: string, line: number): string[] {
  const lines = text.split(/\r\n|\r|\n/);
  let first = line - 1;
  while (first > 0 && /^\s*\[/.test(lines[first - 1] ?? '')) {
    first -= 1;
  }
  let last = line - 1;
  for (let index = line; index < lines.length; index++) {
    const next = lines[index] ?? '';
    if (/^[ \t]+\S/.test(next)) {
      last = index;
    } else if (next.trim() !== '') {
      break;
    }
  }
  const recipe = lines.slice(first, last + 1);
  const shown = recipe.slice(0, MAX_RECIPE_LINES).map((entry) => `| ${redactSecrets(entry)}`);
  const more = recipe.length > MAX_RECIPE_LINES ? [`| … ${recipe.length - MAX_RECIPE_LINES} more lines: read them in ${file}`] : [];
  return [`${file}:${line} recipe "${name}":`, ...shown, ...more];
}

/** The workspace files a recipe's body lines run (an interpolation names no file), relative to the folder. */
function bodyProgramFiles(recipe: DumpRecipe, folder: string): string[] {
  const lines = Array.isArray(recipe.body) ? (recipe.body as unknown[]) : [];
  const text = lines.map((line) => (Array.isArray(line) ? line.map((part) => (typeof part === 'string' ? part : '$interpolated')).join('') : '').replace(/^[@-]+/, '')).join('\n');
  return workspaceProgramFiles({ script: text, shell: 'sh' }, folder, folder);
}

async function findJustfile(options: ImportOptions): Promise<{ readonly file: string; readonly text: string } | { readonly file: string; readonly problem: string } | undefined> {
  for (const file of JUSTFILE_NAMES) {
    const read = await readImportSource(options.folder, file);
    if ('text' in read) {
      return { file, text: read.text };
    }
    if ('problem' in read) {
      return { file, problem: read.problem };
    }
  }
  return undefined;
}

/** The recipes and module names `just --dump` gives, or why it gave none. */
async function dumpJustfile(file: string, options: JustImportOptions): Promise<{ readonly recipes: readonly DumpRecipe[]; readonly modules: readonly string[] } | { readonly reason: string }> {
  if (options.runsNoPrograms === true) {
    return { reason: `the recipes of ${file} are listed by running just --dump, which waits until the workspace is trusted (Restricted Mode runs nothing of it)` };
  }
  const program = options.justProgram ?? 'just';
  const outcome = await runProcess({
    file: program,
    args: ['--justfile', file, '--working-directory', '.', '--dump', '--dump-format', 'json'],
    cwd: options.folder.path,
    env: options.env ?? {},
    timeoutMs: DUMP_TIMEOUT_MS,
    maxOutputBytes: DUMP_MAX_BYTES,
  });
  const ending = classifyOutcome(outcome, DUMP_TIMEOUT_MS);
  if (ending.kind === 'not-started') {
    return { reason: ending.code === 'ENOENT' ? `just is not installed (no "${program}" on PATH), so the recipes of ${file} cannot be listed` : `just ${endedHow(ending)}` };
  }
  if (ending.kind !== 'ok') {
    return { reason: `just --dump ${endedHow(ending)}: ${outcome.stderr.trim()}` };
  }
  try {
    const parsed = JSON.parse(outcome.stdout) as { recipes?: Record<string, DumpRecipe>; modules?: Record<string, unknown> };
    return { recipes: Object.values(parsed.recipes ?? {}), modules: Object.keys(parsed.modules ?? {}) };
  } catch (error) {
    return { reason: `just --dump gave output that is not JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** Line:column of a recipe's header (`name ...:`, `@name`), or of another line start (`mod x`). */
function headerPosition(text: string, name: string): { readonly line: number; readonly column: number } | undefined {
  const lines = text.split(/\r\n|\r|\n/);
  const index = lines.findIndex((line) => line.startsWith(name) || line.startsWith(`@${name}`) ? /^@?[^\s:]+/.exec(line)?.[0].replace(/^@/, '') === name || line.startsWith(`${name} `) : false);
  return index === -1 ? undefined : { line: index + 1, column: 1 };
}

/** Where a recipe is and what runs it. */
interface RecipePlace {
  readonly file: string;
  readonly source: SourceLocation;
  readonly prefix: string;
  readonly program: string;
}

function recipeTool(recipe: DumpRecipe, values: JustValues, place: RecipePlace): ImportedTool | { readonly reason: string } {
  const { file, source, prefix, program } = place;
  const name = toolNameOf(prefix, recipe.name);
  if ('reason' in name) {
    return name;
  }
  if (recipe.name.startsWith('-') || placeholderNames(recipe.name).length > 0) {
    return { reason: 'its name cannot be passed to just as a recipe name' };
  }
  const option = recipe.parameters.find((parameter) => (parameter.long ?? null) !== null || (parameter.short ?? null) !== null);
  if (option !== undefined) {
    return { reason: `its parameter "${option.name}" is an option (--long/-short), which is not imported yet` };
  }
  const badName = recipe.parameters.find((parameter) => !/^[a-zA-Z0-9_-]+$/.test(parameter.name));
  if (badName !== undefined) {
    return { reason: `its parameter name "${badName.name}" is not a parameter name` };
  }
  const nested = values.nestedCodeProblem(recipe);
  if (nested !== undefined) {
    return { reason: `${nested} (a value must stay one literal argument)` };
  }
  const interpolated = values.splicedParameters(recipe);
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const dependencies: Record<string, string[]> = {};
  recipe.parameters.forEach((parameter, index) => {
    properties[parameter.name] = parameterSchema(parameter, interpolated.has(parameter.name));
    const hasDefault = typeof parameter.default === 'string' || parameter.default !== null;
    // A parameter with a default may be left out, a variadic one (`+args="x"`) too: just uses the default.
    if (!hasDefault && parameter.kind !== 'star') {
      required.push(parameter.name);
    }
    // A later positional value needs the earlier ones, or it would take their place.
    const earlier = recipe.parameters.slice(0, index).filter((other) => other.default !== null && typeof other.default !== 'string').map((other) => other.name);
    if (earlier.length > 0) {
      dependencies[parameter.name] = earlier;
    }
  });
  const inputSchema = {
    type: 'object' as const,
    properties,
    ...(required.length > 0 ? { required } : {}),
    ...(Object.keys(dependencies).length > 0 ? { dependencies } : {}),
    additionalProperties: false,
  };
  // The just that listed the recipes is the one that runs them.
  const argv = [program, '--justfile', file, '--working-directory', '.', recipe.name, ...recipe.parameters.map((parameter) => `{{${parameter.name}}}`)];
  const restricted = [...interpolated].filter((parameter) => properties[parameter] !== undefined);
  const description = [
    recipe.doc ?? `Runs the just recipe "${recipe.name}" of ${file}.`,
    `Runs: ${formatArgv(argv)}.`,
    restricted.length > 0 ? `The recipe splices ${restricted.join(', ')} into its shell text, so those take only letters, digits and _ . / : = @ + , - (not first).` : '',
  ].filter((part) => part !== '').join(' ');
  return {
    name: name.name,
    taskName: recipe.name,
    description: redactSecrets(description),
    inputSchema,
    source,
    run: { kind: 'process', argv },
    // Values follow the recipe name as its arguments: just reads none of them as its own options
    // (a spliced parameter's pattern refuses a leading "-" itself, the recipe's shell would see it).
    spec: { name: name.name, description: redactSecrets(description), inputSchema, handler: { type: 'shell', command: argv, allowLeadingDash: true } },
  };
}

function parameterSchema(parameter: DumpParameter, interpolated: boolean): JsonSchema {
  const text: Record<string, unknown> = { type: 'string', ...(interpolated ? { pattern: INTERPOLATED_VALUE } : {}) };
  const description = parameter.help ?? `The recipe's parameter ${parameter.name}${parameter.export ? ' (exported as $' + parameter.name + ')' : ''}.`;
  if (parameter.kind === 'singular') {
    return { ...text, description, ...(typeof parameter.default === 'string' ? { default: parameter.default } : {}) };
  }
  return { type: 'array', items: text, description, ...(parameter.kind === 'plus' ? { minItems: 1 } : {}) };
}
