/**
 * What a person most likely meant by a name or value the schema does not allow, for the problem's
 * message and the editor's quick fixes: a property name one or two typing slips away from an
 * allowed one (closestName), and a handler `type` named after what people call that kind of
 * program ("bash", "fetch", "javascript") or misspelt ("shel").
 */
import type { JsonPath } from './locate';

/** Words people write for a handler type, by the type that does that. */
const HANDLER_TYPE_WORDS: Readonly<Record<string, readonly string[]>> = {
  // A program run without a shell, or a `script` given to one ("shell": "bash" picks which).
  shell: ['bash', 'sh', 'zsh', 'fish', 'dash', 'ksh', 'cmd', 'powershell', 'pwsh', 'command', 'exec', 'process', 'program', 'script', 'terminal', 'run', 'cli'],
  http: ['https', 'fetch', 'request', 'rest', 'api', 'url', 'curl', 'web', 'webhook', 'get', 'post'],
  'file-read': ['file', 'files', 'read', 'readfile', 'read-file', 'read_file', 'fs', 'cat', 'filesystem'],
  code: ['js', 'javascript', 'ts', 'typescript', 'node', 'nodejs', 'module', 'function', 'mjs', 'mts'],
};

/** Whether `path` is a handler's `type` (of a tool, a step, or a platform's override). */
export function isHandlerTypePath(path: JsonPath): boolean {
  return path.at(-1) === 'type' && path.at(-2) === 'handler';
}

/**
 * The allowed value `written` most likely means at `path`, if one is likely. Only for a handler's
 * type: elsewhere a guess by spelling alone misleads more than it helps ("FETCH" is two letters
 * from the method PATCH, and meant GET).
 */
export function likelyValue(path: JsonPath, written: string, allowed: readonly string[]): string | undefined {
  if (!isHandlerTypePath(path)) {
    return undefined;
  }
  const word = written.trim().toLowerCase();
  const named = Object.entries(HANDLER_TYPE_WORDS).find(([type, words]) => allowed.includes(type) && words.includes(word))?.[0];
  return named ?? closestName(written.trim(), allowed);
}

/** The allowed name a typo most likely meant: same letters ignoring case, or 1-2 edits away. */
export function closestName(key: string, allowed: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.min(2, Math.floor(key.length / 2)) + 1;
  for (const name of allowed) {
    const distance = name.toLowerCase() === key.toLowerCase() ? 0 : editDistance(key, name);
    if (distance < bestDistance) {
      best = name;
      bestDistance = distance;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
