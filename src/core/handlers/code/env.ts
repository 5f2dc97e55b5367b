/**
 * A code tool's environment: an allowlist of what programs need to behave (PATH, HOME, locale,
 * temp directory), then what the tool's `env` names. Nothing else of the host's environment
 * reaches the module, so tokens (GITHUB_TOKEN, cloud credentials) stay out unless the tool asks.
 */
import { envReferenceProblem, fillEnvReferences, placeholderNames } from '../../templates';

/** The host variables every sandbox gets, when they are set. */
export const INHERITED_VARIABLES: readonly string[] = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'LANG',
  'LANGUAGE',
  'LC_ALL',
  'LC_CTYPE',
  'LC_MESSAGES',
  'TZ',
  'TMPDIR',
  'TEMP',
  'TMP',
  // Windows: programs and Node itself need these to start.
  'SystemRoot',
  'windir',
  'ComSpec',
  'PATHEXT',
  'USERPROFILE',
];

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** What is wrong with an `env` object (paths relative to it). */
export function envProblems(env: Readonly<Record<string, string>>): Array<{ path: string[]; message: string }> {
  const problems: Array<{ path: string[]; message: string }> = [];
  for (const [name, value] of Object.entries(env)) {
    if (!NAME.test(name)) {
      problems.push({ path: [name], message: `"${name}" is not an environment variable name (letters, digits and "_", not first a digit)` });
    } else if (/^(NODE_|ELECTRON_)/i.test(name)) {
      problems.push({ path: [name], message: `"${name}" would change how the sandbox's Node runs; code tools cannot set NODE_* or ELECTRON_* variables` });
    } else if (placeholderNames(value).length > 0) {
      problems.push({ path: [name], message: 'a code tool gets its input as the function\'s argument: "env" values take text and ${env:NAME}, not {{placeholders}}' });
    } else {
      const message = envReferenceProblem(value);
      if (message !== undefined) {
        problems.push({ path: [name], message });
      }
    }
  }
  return problems;
}

/** The sandbox's environment: the allowlist from `host`, the tool's `env` filled in, and Electron told to run as Node. */
export function sandboxEnv(env: Readonly<Record<string, string>>, host: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const name of INHERITED_VARIABLES) {
    const value = host[name];
    if (value !== undefined) {
      result[name] = value;
    }
  }
  for (const [name, template] of Object.entries(env)) {
    result[name] = fillEnvReferences(template, (reference) => host[reference] ?? '');
  }
  // process.execPath is the editor's Electron under VS Code; plain node ignores this.
  result['ELECTRON_RUN_AS_NODE'] = '1';
  return result;
}
