/**
 * The command line of the hand-run benches (activation-runs, call-instructions, history-cost, profile-calls, thread-split):
 * `--name value` options, and `--build label=file` for each build of the server to compare.
 */
const argv = process.argv.slice(2);

/** The value after `--name`, else `fallback`. */
export function option(name, fallback) {
  const index = argv.indexOf(`--${name}`);
  return index === -1 ? fallback : argv[index + 1];
}

/** Each `--build label=file`; `fallback` (one build) when none is given. */
export function builds(fallback) {
  const given = argv.flatMap((arg, index) => (arg === '--build' ? [argv[index + 1]] : [])).map((spec) => {
    const [label, file] = spec.split('=');
    return { label, file };
  });
  return given.length === 0 ? [fallback] : given;
}

/** Whether the flag `--name` is given. */
export function flag(name) {
  return argv.includes(`--${name}`);
}
