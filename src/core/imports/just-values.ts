/**
 * Where a just recipe's parameter values go, read from `just --dump --dump-format json`
 * (expressions are JSON arrays: `["variable", name]`, `["call", fn, ...args]`, a body line a list
 * of text and `[expression]`; a dependency an object `{ recipe, arguments }`). A value is spliced
 * into shell text when a `{{...}}` of the body names it outside `quote()`, when a parameter whose
 * default names it is spliced (`suffix=(who + "!")`), when a dependency receives it as an argument
 * its own recipe splices (`fwd y: (show y)`), or when `shell()` gets it. Those parameters take only
 * inert values (import-just.ts). Whether a value would be code of a nested interpreter in a body
 * line (`bash -c {{quote(x)}}`, `eval "$1"`) is the one rule's question (handlers/shell/nested-code.ts).
 */
import { scriptValueProblem, type WordPart } from '../handlers/shell/nested-code';

/** The part of a dumped recipe read here. */
export interface DumpedRecipe {
  readonly name: string;
  readonly shebang: boolean;
  readonly parameters: readonly { readonly name: string; readonly kind: string; readonly default: unknown }[];
  readonly body: unknown;
  readonly dependencies: unknown;
  readonly attributes?: unknown;
}

/** The variables an expression names; those inside `quote()` only when `throughQuote`. */
function variablesOf(value: unknown, throughQuote: boolean, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) {
    if (value[0] === 'variable' && typeof value[1] === 'string') {
      into.add(value[1]);
    } else if (throughQuote || value[0] !== 'call' || value[1] !== 'quote') {
      value.forEach((item) => variablesOf(item, throughQuote, into));
    }
  } else if (typeof value === 'object' && value !== null) {
    Object.values(value).forEach((item) => variablesOf(item, throughQuote, into));
  }
  return into;
}

/** The variables given to `shell(...)` anywhere in an expression: always shell text. */
function shellCallVariables(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value) && value[0] === 'call' && value[1] === 'shell') {
    variablesOf(value, true, into);
  } else if (Array.isArray(value) || (typeof value === 'object' && value !== null)) {
    Object.values(value).forEach((item) => shellCallVariables(item, into));
  }
  return into;
}

/** `{ recipe, arguments }` of each dependency (objects in the dump; old dumps wrote lists). */
function dependenciesOf(recipe: DumpedRecipe): { readonly recipe: string; readonly arguments: readonly unknown[] }[] {
  const list = Array.isArray(recipe.dependencies) ? (recipe.dependencies as unknown[]) : [];
  return list.flatMap((dependency) => {
    if (typeof dependency === 'object' && dependency !== null && !Array.isArray(dependency)) {
      const { recipe: name, arguments: args } = dependency as { recipe?: unknown; arguments?: unknown };
      return typeof name === 'string' ? [{ recipe: name, arguments: Array.isArray(args) ? (args as unknown[]) : [] }] : [];
    }
    return Array.isArray(dependency) && typeof dependency[0] === 'string' ? [{ recipe: dependency[0], arguments: dependency.slice(1) as unknown[] }] : [];
  });
}

/** Reads the recipes of one justfile; each answer is kept (a dependency is read once). */
export class JustValues {
  private readonly spliced = new Map<string, ReadonlySet<string>>();

  constructor(private readonly recipes: ReadonlyMap<string, DumpedRecipe>) {}

  /** The parameters of `recipe` whose values reach shell text, by any of the ways above. */
  splicedParameters(recipe: DumpedRecipe): ReadonlySet<string> {
    const known = this.spliced.get(recipe.name);
    if (known !== undefined) {
      return known;
    }
    // A cycle (just refuses them) or a recipe being read: everything it names counts.
    this.spliced.set(recipe.name, variablesOf(recipe, true));
    const names = variablesOf(recipe.body, recipe.shebang);
    for (const dependency of dependenciesOf(recipe)) {
      const target = this.recipes.get(dependency.recipe);
      const targetSpliced = target === undefined ? undefined : this.splicedParameters(target);
      dependency.arguments.forEach((argument, index) => {
        const parameter = target?.parameters[Math.min(index, target.parameters.length - 1)];
        if (targetSpliced === undefined || parameter === undefined || targetSpliced.has(parameter.name)) {
          variablesOf(argument, false, names);
        }
        shellCallVariables(argument, names);
      });
    }
    this.addThroughDefaults(recipe, names);
    this.spliced.set(recipe.name, names);
    return names;
  }

  /** A parameter whose default names others passes them on: until nothing more is added. */
  private addThroughDefaults(recipe: DumpedRecipe, names: Set<string>): void {
    recipe.parameters.forEach((parameter) => shellCallVariables(parameter.default, names));
    for (let size = -1; size !== names.size; ) {
      size = names.size;
      recipe.parameters.filter((parameter) => names.has(parameter.name)).forEach((parameter) => variablesOf(parameter.default, false, names));
    }
  }

  /** Why a parameter's value would be code of a nested interpreter in the recipe's lines, or in a dependency it passes values to. */
  nestedCodeProblem(recipe: DumpedRecipe, seen: ReadonlySet<string> = new Set()): string | undefined {
    const own = bodyProblem(recipe);
    if (own !== undefined || seen.has(recipe.name)) {
      return own;
    }
    const parameters = new Set(recipe.parameters.map((parameter) => parameter.name));
    for (const dependency of dependenciesOf(recipe)) {
      const target = this.recipes.get(dependency.recipe);
      const passes = [...variablesOf(dependency.arguments, true)].some((name) => parameters.has(name));
      const problem = passes && target !== undefined ? this.nestedCodeProblem(target, new Set([...seen, recipe.name])) : undefined;
      if (problem !== undefined) {
        return `it passes its values to "${dependency.recipe}", where ${problem}`;
      }
    }
    return undefined;
  }
}

/** A body's lines read as `sh` reads them, each interpolation of a parameter a value. */
function bodyProblem(recipe: DumpedRecipe): string | undefined {
  if (recipe.shebang || !Array.isArray(recipe.body)) {
    return undefined;
  }
  const parameters = new Set(recipe.parameters.map((parameter) => parameter.name));
  const variables = new Map(recipe.parameters.map((parameter) => [parameter.name, `the value of the parameter ${parameter.name} (as $${parameter.name})`] as const));
  const parts = (recipe.body as unknown[]).flatMap((line, index): WordPart[] => {
    const fragments = Array.isArray(line) ? (line as unknown[]) : [];
    const pieces = fragments.map((fragment): WordPart => {
      if (typeof fragment === 'string') {
        return { text: fragment };
      }
      const named = [...variablesOf(fragment, true)].find((name) => parameters.has(name));
      return named === undefined ? { text: 'x' } : { value: `the value of the parameter ${named}` };
    });
    const first = pieces[0];
    // A line's leading @ (quiet) and - (errors ignored) are just's, not the shell's.
    const line0 = first !== undefined && 'text' in first ? [{ text: first.text.replace(/^[@-]+/, '') }, ...pieces.slice(1)] : pieces;
    return [...(index === 0 ? [] : [{ text: '\n' }]), ...line0];
  });
  return scriptValueProblem(parts, 'posix', { variables, positional: true });
}
