/**
 * The environment the read-only git tools run git in. They ask no confirmation, and the
 * repository's config (`.git/config`, files it includes, `.gitattributes`) is something the model
 * or a downloaded archive can write, so every setting through which that config could make git
 * start a program is overridden here, and git is kept quiet, lock-free and stable to parse.
 *
 * Overrides go through `GIT_CONFIG_COUNT` / `GIT_CONFIG_KEY_n` / `GIT_CONFIG_VALUE_n`, not
 * `-c name=value`: git splits `-c` at the first `=`, so a name taken from the repository (a filter
 * driver called `a=b`) would be mis-parsed and its program would run. Environment pairs keep the
 * name and the value apart. They apply to every git process the tool starts, with the highest
 * precedence of all config.
 */

/** One config override: a key and its value, never joined into one string. */
export type GitConfigPair = readonly [key: string, value: string];

/**
 * What the repository's config can no longer do from a read-only tool (docs/builtin-tools.md#built-in-tools lists the
 * same, and test/unit/security/git-config-knobs.test.ts plants each one with a marker file):
 * - fsmonitor hooks (`core.fsmonitor`), hooks (`core.hooksPath`);
 * - pagers (`core.pager`), external diff (`diff.external`), textconv is off by flag;
 * - any network or transport: lazy fetches of a partial clone, `core.sshCommand`, `ssh://`,
 *   `ext::` remotes, credential helpers, `core.askPass`;
 * - signature checks (`log.showSignature` → `gpg.program`);
 * - filter drivers (`filter.<name>.clean/smudge/process`): see filterOverrides in git.ts.
 */
export const SAFE_CONFIG: readonly GitConfigPair[] = [
  // Paths printed as they are, not octal-quoted.
  ['core.quotepath', 'off'],
  ['core.fsmonitor', 'false'],
  ['core.hooksPath', '/dev/null'],
  ['core.pager', 'cat'],
  ['diff.external', ''],
  ['log.showSignature', 'false'],
  // No transport at all (see GIT_ALLOW_PROTOCOL below), and the programs one would run emptied.
  ['protocol.allow', 'never'],
  ['core.sshCommand', 'false'],
  ['core.gitProxy', ''],
  ['core.askPass', ''],
  // An empty value resets the list of credential helpers.
  ['credential.helper', ''],
  ['submodule.recurse', 'false'],
  // `git status` would run `git submodule summary`; diffs would read submodule logs.
  ['status.submoduleSummary', 'false'],
  ['diff.submodule', 'short'],
];

/**
 * Variables from the caller's environment that would point git somewhere else or name a program
 * (`GIT_DIR`, `GIT_SSH_COMMAND`, `GIT_EXTERNAL_DIFF`, `GIT_CONFIG_PARAMETERS`...): every `GIT_*`
 * variable is dropped except these, which only narrow what git looks at.
 */
const KEPT_GIT_VARIABLES = new Set(['GIT_CEILING_DIRECTORIES', 'GIT_DISCOVERY_ACROSS_FILESYSTEM', 'GIT_CONFIG_NOSYSTEM', 'GIT_CONFIG_GLOBAL', 'GIT_CONFIG_SYSTEM']);

/** Programs named by variables outside the GIT_ namespace that git would run. */
const DROPPED_VARIABLES = ['SSH_ASKPASS', 'PAGER', 'EDITOR', 'VISUAL'];

/**
 * The caller's environment with git's own variables replaced: SAFE_CONFIG plus `extra` pairs as
 * GIT_CONFIG_* variables, no prompts, no optional locks, C locale (we match "not a git
 * repository", and sorting is byte-stable).
 */
export function gitEnvironment(
  base: Readonly<Record<string, string | undefined>>,
  extra: readonly GitConfigPair[] = [],
): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(base)) {
    const upper = name.toUpperCase();
    if ((upper.startsWith('GIT_') && !KEPT_GIT_VARIABLES.has(upper)) || DROPPED_VARIABLES.includes(upper)) {
      continue;
    }
    env[name] = value;
  }
  const pairs = [...SAFE_CONFIG, ...extra];
  pairs.forEach(([key, value], index) => {
    env[`GIT_CONFIG_KEY_${index}`] = key;
    env[`GIT_CONFIG_VALUE_${index}`] = value;
  });
  env['GIT_CONFIG_COUNT'] = String(pairs.length);
  return {
    ...env,
    // Every transport refused, overriding any `protocol.<name>.allow` in the repository's config
    // (which beats protocol.allow): a partial clone's lazy fetch fails instead of running an
    // `ext::` command or ssh. GIT_NO_LAZY_FETCH does the same earlier on git ≥ 2.44.
    GIT_ALLOW_PROTOCOL: '',
    GIT_NO_LAZY_FETCH: '1',
    GIT_TERMINAL_PROMPT: '0',
    // `git status` would otherwise refresh the index and take index.lock, racing the user's git.
    GIT_OPTIONAL_LOCKS: '0',
    GIT_PAGER: 'cat',
    LC_ALL: 'C',
  };
}

/**
 * Overrides that switch off the filter drivers named in `configKeys` (the output of
 * `git config --name-only --get-regexp ^filter\.`): an empty command is no filter. Any name
 * works, `=` and `.` included, because the pairs never pass through `-c`.
 */
export function filterOverrides(configKeys: string): GitConfigPair[] {
  const names = new Set<string>();
  for (const key of configKeys.split('\n')) {
    const match = /^filter\.(.+)\.[^.]+$/s.exec(key.trim());
    if (match?.[1] !== undefined) {
      names.add(match[1]);
    }
  }
  return [...names].flatMap((name) =>
    // `required=false` too: a required driver without a command would fail the whole command.
    (['clean', 'smudge', 'process', 'required'] as const).map(
      (kind): GitConfigPair => [`filter.${name}.${kind}`, kind === 'required' ? 'false' : ''],
    ),
  );
}
