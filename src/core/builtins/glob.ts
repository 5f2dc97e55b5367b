/**
 * The globs that list-files and search-text take from the model: `{a,b}` alternatives, `*` and
 * `?` within one path segment, `**` as a whole segment for any depth, `[abc]` classes; a glob
 * without `/` matches names at any depth (as in .gitignore) and a glob that names a directory
 * covers what is below it. The same rules reach git as `:(glob)` pathspecs and, outside a
 * repository, run in compileGlob's matcher.
 *
 * Safety: every alternative is checked after brace expansion and normalisation (`{..,.}/x` is
 * `../x`), and matching takes time linear in the name times the pattern, never exponential: a
 * backtracking regular expression made from `*a*a*a…b` froze the server on one file name.
 */
import * as path from 'node:path';
import { ToolInputError } from '../tool-errors';

const MAX_BRACE_EXPANSIONS = 64;
/** Longer globs are refused: nobody types one, and it bounds the matcher's cost per name. */
export const MAX_GLOB_LENGTH = 1_000;

/**
 * The glob as git pathspecs, one pair per alternative: `:(glob)<alt>` and `:(glob)<alt>/**` (so a
 * directory covers what is below it). Throws ToolInputError for an alternative that is absolute
 * or climbs out of the folder with `..`.
 */
export function globPathspecs(glob: string): string[] {
  return checkedAlternatives(glob).flatMap((one) => [`:(glob)${one}`, `:(glob)${one}/**`]);
}

/** The glob's alternatives, each normalised and checked to stay inside the folder. */
export function checkedAlternatives(glob: string): string[] {
  if (glob.includes('\0')) {
    throw new ToolInputError('The glob contains a NUL byte. Refused.');
  }
  if (glob.length > MAX_GLOB_LENGTH) {
    throw new ToolInputError(`The glob is longer than ${MAX_GLOB_LENGTH} characters. Refused.`);
  }
  const alternatives = expandBraces(glob).map((one) => {
    if (path.isAbsolute(one) || path.win32.isAbsolute(one) || one.startsWith('/') || one.split(/[\\/]/).includes('..')) {
      throw new ToolInputError(
        `The glob "${glob}" must stay inside the workspace folder: "${one}" is absolute or contains "..". Refused.`,
      );
    }
    return normalizeGlob(one);
  });
  return alternatives.filter((one) => one !== '');
}

/** Drops `./` and a trailing `/`; a glob without `/` matches at any depth, as in .gitignore. */
export function normalizeGlob(glob: string): string {
  const trimmed = glob.replace(/^(\.\/)+/, '').replace(/\/+$/, '');
  return trimmed === '' || trimmed.includes('/') ? trimmed : `**/${trimmed}`;
}

/**
 * `{a,b}` alternatives expanded into separate globs (git's glob magic has no braces), nested
 * braces included; capped so `{a,b}{c,d}...` cannot explode.
 */
export function expandBraces(glob: string): string[] {
  const open = glob.indexOf('{');
  if (open === -1) {
    return [glob];
  }
  let depth = 0;
  const commas: number[] = [];
  for (let i = open; i < glob.length; i++) {
    const char = glob[i];
    depth += char === '{' ? 1 : char === '}' ? -1 : 0;
    if (char === ',' && depth === 1) {
      commas.push(i);
    }
    if (depth === 0) {
      const cuts = [open, ...commas, i];
      const head = glob.slice(0, open);
      const tails = expandBraces(glob.slice(i + 1));
      const options = cuts.slice(1).flatMap((cut, k) => expandBraces(glob.slice((cuts[k] ?? 0) + 1, cut)));
      const all = options.flatMap((option) => tails.map((tail) => `${head}${option}${tail}`));
      if (all.length > MAX_BRACE_EXPANSIONS) {
        throw new ToolInputError(`The glob "${glob}" expands to more than ${MAX_BRACE_EXPANSIONS} patterns. Simplify it.`);
      }
      return all;
    }
  }
  return [glob]; // an unclosed "{" is a literal character
}

/** One character test inside a path segment. */
type CharToken =
  | { readonly kind: 'literal'; readonly char: string }
  | { readonly kind: 'any' }
  | { readonly kind: 'class'; readonly negated: boolean; readonly ranges: readonly (readonly [string, string])[] };
type SegmentToken = CharToken | { readonly kind: 'star' };
/** A pattern segment: `**` (any number of path segments) or a sequence of tokens. */
type PatternSegment = 'globstar' | readonly SegmentToken[];

/** A compiled glob: `matches(relativePath)` with `/` separators. */
export interface GlobMatcher {
  matches(relativePath: string): boolean;
}

/** Compiles the glob (checked as globPathspecs checks it) into a linear-time matcher. */
export function compileGlob(glob: string): GlobMatcher {
  const patterns = checkedAlternatives(glob).map((one) => one.split('/').map(parseSegment));
  return {
    matches: (relativePath) => {
      const segments = relativePath.split('/');
      return patterns.some((pattern) => matchesPrefix(pattern, segments));
    },
  };
}

function parseSegment(segment: string): PatternSegment {
  if (segment === '**') {
    return 'globstar';
  }
  const tokens: SegmentToken[] = [];
  for (let i = 0; i < segment.length; i++) {
    const char = segment[i] ?? '';
    if (char === '*') {
      // Consecutive stars inside a segment are one star, as in git's wildmatch.
      if (tokens.at(-1)?.kind !== 'star') {
        tokens.push({ kind: 'star' });
      }
    } else if (char === '?') {
      tokens.push({ kind: 'any' });
    } else if (char === '[' && segment.indexOf(']', i + 2) !== -1) {
      const end = segment.indexOf(']', i + 2);
      tokens.push(parseClass(segment.slice(i + 1, end)));
      i = end;
    } else if (char === '\\' && i + 1 < segment.length) {
      tokens.push({ kind: 'literal', char: segment[++i] ?? '' });
    } else {
      tokens.push({ kind: 'literal', char });
    }
  }
  return tokens;
}

function parseClass(body: string): CharToken {
  const negated = body.startsWith('!') || body.startsWith('^');
  const chars = [...(negated ? body.slice(1) : body)];
  const ranges: [string, string][] = [];
  for (let i = 0; i < chars.length; i++) {
    const from = chars[i] ?? '';
    if (chars[i + 1] === '-' && i + 2 < chars.length) {
      ranges.push([from, chars[i + 2] ?? '']);
      i += 2;
    } else {
      ranges.push([from, from]);
    }
  }
  return { kind: 'class', negated, ranges };
}

/**
 * True when the pattern matches the path's first k segments for some k ≥ 1 (a directory covers
 * what is below it). A set of reachable pattern positions is carried along the path, so the cost
 * is segments × pattern segments × one segment match, with no backtracking between segments.
 */
function matchesPrefix(pattern: readonly PatternSegment[], segments: readonly string[]): boolean {
  let states = closure(pattern, new Set([0]));
  for (const segment of segments) {
    const next = new Set<number>();
    for (const state of states) {
      const current = pattern[state];
      if (current === 'globstar') {
        next.add(state);
      } else if (current !== undefined && matchesSegment(current, segment)) {
        next.add(state + 1);
      }
    }
    states = closure(pattern, next);
    if (states.has(pattern.length)) {
      return true;
    }
    if (states.size === 0) {
      return false;
    }
  }
  return false;
}

/** `**` may match no segment at all. */
function closure(pattern: readonly PatternSegment[], states: Set<number>): Set<number> {
  for (const state of states) {
    if (pattern[state] === 'globstar') {
      states.add(state + 1);
    }
  }
  return states;
}

/**
 * One segment against a star pattern: the classic single-backtrack-point algorithm, O(n × m) in
 * the worst case, because only the latest star ever needs to take more characters.
 */
function matchesSegment(tokens: readonly SegmentToken[], text: string): boolean {
  const chars = [...text];
  let t = 0;
  let i = 0;
  let starToken = -1;
  let starChar = 0;
  while (i < chars.length) {
    const token = tokens[t];
    if (token?.kind === 'star') {
      starToken = t++;
      starChar = i;
    } else if (token !== undefined && matchesChar(token, chars[i] ?? '')) {
      t++;
      i++;
    } else if (starToken !== -1) {
      t = starToken + 1;
      i = ++starChar;
    } else {
      return false;
    }
  }
  while (tokens[t]?.kind === 'star') {
    t++;
  }
  return t === tokens.length;
}

function matchesChar(token: CharToken, char: string): boolean {
  switch (token.kind) {
    case 'literal':
      return token.char === char;
    case 'any':
      return true;
    case 'class':
      return token.ranges.some(([from, to]) => char >= from && char <= to) !== token.negated;
  }
}
