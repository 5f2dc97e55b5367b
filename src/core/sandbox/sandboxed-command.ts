/**
 * The command text the sandbox runtime wraps: the runtime takes one POSIX shell command string
 * (it runs it with `bash -c` inside bubblewrap or sandbox-exec), while the shell handler has an
 * argv and never builds shell text from values. So each word is quoted whole with POSIX single
 * quotes, which the shell takes literally (no expansion of any kind), and the program is
 * `exec`ed so it is the process the sandbox runs, with nothing of a shell left around it.
 */

/** One word as POSIX shell text that reads back as exactly that word. */
export function posixQuote(word: string): string {
  if (word.includes('\0')) {
    // A C string ends at NUL: the word could not reach the program whole (spawn refuses it too).
    throw new Error('an argument contains a NUL character, which no program can receive');
  }
  // Inside single quotes nothing is special but the quote itself: close, add an escaped quote, reopen.
  return `'${word.replaceAll("'", "'\\''")}'`;
}

/**
 * `export NAME='value' ...; exec 'program' 'arg' ...`: the variables the sandbox would otherwise
 * set its own way (TMPDIR is the runtime's shared folder) and the argv, each word quoted.
 */
export function sandboxedCommand(file: string, args: readonly string[], exports: Readonly<Record<string, string>>): string {
  const names = Object.keys(exports);
  for (const name of names) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
      throw new Error(`"${name}" is not an environment variable name a shell can export`);
    }
  }
  const exported = names.length === 0 ? '' : `export ${names.map((name) => `${name}=${posixQuote(exports[name] ?? '')}`).join(' ')}; `;
  return `${exported}exec ${[file, ...args].map(posixQuote).join(' ')}`;
}
