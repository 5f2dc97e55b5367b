/**
 * The kinds of value a setting can hold, each written three ways: in VS Code's settings (read
 * leniently: a value that is not one gives the default, as VS Code's own editor only warns), in
 * the live settings file (strict: a wrong value is reported), and on the server's command line
 * (strict: a wrong flag refuses to start). A row of the settings table (settings-table.ts) names
 * its kind, so its type, its parsing and its flag cannot disagree.
 */
import * as path from 'node:path';

/** Where a flag is read or written: the flag's name, for messages, and the folders paths are relative to. */
export interface FlagPlace {
  /** The flag, `--timeout`. */
  readonly flag: string;
  /** Reading: the directory relative paths resolve against (the process's). */
  readonly cwd: string;
  /** Writing: the folder relative paths resolve against (the first workspace), so the line is self-contained. */
  readonly base?: string;
}

/** A flag's value, or what is wrong with it (naming the flag). */
export type FlagReading<T> = { readonly value: T } | { readonly problem: string };

/** How one kind of value is declared, read and carried. */
export interface ValueKind<T> {
  /** package.json's JSON Schema for it (`type`, and `items`, `enum`, `minimum`). */
  readonly schema: Readonly<Record<string, unknown>>;
  /** What a value must be, for the live settings file's messages: "a positive whole number". */
  readonly expected: string;
  /** The value in VS Code's settings, or undefined when it is not one (the default is then used). */
  fromEditor(raw: unknown): T | undefined;
  /** The value in the live settings file (JSON), or undefined when it is not one (reported). */
  fromJson(raw: unknown): T | undefined;
  /** How parseArgs reads its flag: a switch, one string, or repeated strings. */
  readonly parseArgs: { readonly type: 'boolean' | 'string'; readonly multiple?: true };
  /** The value of a flag parseArgs gave (never undefined: an absent flag is the default), or what is wrong. */
  fromFlag(raw: boolean | string | readonly string[], place: FlagPlace, fallback: T): FlagReading<T>;
  /** The flag's arguments for a value that is not the default: `['--timeout', '500']`. */
  toFlag(value: T, place: FlagPlace): string[];
  /** Whether two values are the same setting (the default is left off the command line). */
  same(a: T, b: T): boolean;
}

/**
 * A switch: VS Code's true or false. Its flag is a switch that sets the value that is not the
 * default (`--no-builtins` for a setting that is on by default).
 */
export function onOff(): ValueKind<boolean> {
  return {
    schema: { type: 'boolean' },
    expected: 'true or false',
    fromEditor: (raw) => (typeof raw === 'boolean' ? raw : undefined),
    fromJson: (raw) => (typeof raw === 'boolean' ? raw : undefined),
    parseArgs: { type: 'boolean' },
    fromFlag: (raw, _place, fallback) => ({ value: raw === true ? !fallback : fallback }),
    toFlag: (_value, place) => [place.flag],
    same: (a, b) => a === b,
  };
}

/**
 * A whole number of at least 1 (a count, milliseconds, bytes): the server's command line and live
 * settings file take only whole numbers, so a fraction in VS Code is rounded down (a timeout of
 * 1500.5 is 1500) rather than written to the live file, where the server would refuse it.
 * `minimum` is package.json's, the settings editor's hint; below 1 gives the default.
 */
export function wholeNumber(minimum: number): ValueKind<number> {
  const whole = (raw: unknown): number | undefined => (typeof raw === 'number' && Number.isInteger(raw) && raw > 0 ? raw : undefined);
  return {
    schema: { type: 'integer', minimum },
    expected: 'a positive whole number',
    fromEditor: (raw) => (typeof raw === 'number' && Number.isFinite(raw) ? whole(Math.floor(raw)) : undefined),
    fromJson: whole,
    parseArgs: { type: 'string' },
    fromFlag: (raw, place) => found(whole(Number(raw))) ?? { problem: `${place.flag} needs a positive whole number, got "${String(raw)}"` },
    toFlag: (value, place) => [place.flag, String(Math.round(value))],
    same: (a, b) => a === b,
  };
}

/** One of `values` (package.json's enum, with a description of each for the settings editor). */
export function oneOf<T extends string>(values: readonly T[], descriptions: readonly string[]): ValueKind<T> {
  const known = (raw: unknown): T | undefined => (values as readonly unknown[]).includes(raw) ? (raw as T) : undefined;
  return {
    schema: { type: 'string', enum: values, enumDescriptions: descriptions },
    expected: `one of ${values.join(', ')}`,
    fromEditor: known,
    fromJson: known,
    parseArgs: { type: 'string' },
    fromFlag: (raw, place) => found(known(raw)) ?? { problem: `${place.flag} must be one of ${values.join(', ')}, got "${String(raw)}"` },
    toFlag: (value, place) => [place.flag, value],
    same: (a, b) => a === b,
  };
}

/** What the strings of a list are, which decides how its flag reads and writes them. */
export type ListItems =
  /** Names (of tools): written sorted and once each, so the same list in another order is no change. */
  | 'names'
  /** Paths: relative ones resolve against the current directory when read, the first workspace when written. */
  | 'paths'
  /** Paths that must be absolute or start with `~/` (they are read in another process's home). */
  | 'absolute-paths';

/** A list of strings; its flag is repeated, once per item. */
export function stringList(items: ListItems, uniqueItems = false): ValueKind<readonly string[]> {
  const strings = (raw: unknown): readonly string[] | undefined => (Array.isArray(raw) && raw.every((item) => typeof item === 'string') ? raw : undefined);
  return {
    schema: { type: 'array', items: { type: 'string' }, ...(uniqueItems ? { uniqueItems } : {}) },
    expected: 'a list of strings',
    fromEditor: strings,
    fromJson: strings,
    parseArgs: { type: 'string', multiple: true },
    fromFlag: (raw, place) => {
      const given = typeof raw === 'string' ? [raw] : Array.isArray(raw) ? (raw as readonly string[]) : [];
      if (items === 'paths') {
        return { value: given.map((entry) => path.resolve(place.cwd, entry)) };
      }
      const relative = items === 'absolute-paths' ? given.find((entry) => !entry.startsWith('~/') && entry !== '~' && !path.isAbsolute(entry)) : undefined;
      return relative === undefined ? { value: given } : { problem: `${place.flag} needs an absolute path or one starting with ~/, got "${relative}"` };
    },
    toFlag: (value, place) => {
      const written = items === 'names' ? [...new Set(value)].sort() : items === 'paths' && place.base !== undefined ? value.map((entry) => path.resolve(place.base ?? '', entry)) : value;
      return written.flatMap((entry) => [place.flag, entry]);
    },
    same: (a, b) => a.length === b.length && a.every((entry, index) => entry === b[index]),
  };
}

/** A value that was found, as a flag's reading; undefined when none was. */
function found<T>(value: T | undefined): FlagReading<T> | undefined {
  return value === undefined ? undefined : { value };
}
