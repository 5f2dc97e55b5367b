/** Turns a process outcome into the text the model reads. */
import { truncationNote } from '../../process/capped-buffer';
import type { ProcessOutcome } from '../../process/run-process';
import { errorResult, textResult, type ToolResult } from '../../types';

/** What the result needs to know besides the outcome. */
export interface OutcomeContext {
  /** The program that was started (argv[0]), for "could not start" messages. */
  readonly program: string;
  readonly timeoutMs: number;
  readonly exitCodes: readonly number[];
  /** The cap each stream was cut at, for the note that says so. */
  readonly maxOutputBytes: number;
}

/**
 * stdout, then stderr under a "stderr:" heading when there is any; an error result with the
 * reason first when the program could not start, timed out, was cancelled, was killed by a
 * signal, or exited with a code that is not accepted. A stream cut at its cap ends with a note.
 */
export function formatOutcome(outcome: ProcessOutcome, context: OutcomeContext): ToolResult {
  if (outcome.spawnError !== undefined) {
    return errorResult(startFailure(outcome, context.program));
  }
  const body = outputText(outcome, context.maxOutputBytes);
  if (outcome.timedOut) {
    return errorResult(
      withBody(`The command timed out after ${context.timeoutMs} ms; the process tree was killed.`, body),
    );
  }
  if (outcome.cancelled) {
    return errorResult(withBody('The command was cancelled; the process tree was killed.', body));
  }
  if (outcome.exitCode === null) {
    const signal = outcome.exitSignal ?? 'a signal';
    return errorResult(withBody(`The command was killed by ${signal}.`, body));
  }
  // What steps ({{steps.NAME.stdout}}, runIf exitCode) and tests (expect.exitCode) read.
  const details = { exitCode: outcome.exitCode, stdout: outcome.stdout };
  if (!context.exitCodes.includes(outcome.exitCode)) {
    const accepted = context.exitCodes.join(', ');
    return { ...errorResult(withBody(`The command failed with exit code ${outcome.exitCode} (accepted: ${accepted}).`, body)), details };
  }
  return { ...textResult(body === '' ? '(no output)' : body), details };
}

function startFailure(outcome: ProcessOutcome, program: string): string {
  switch (outcome.spawnErrorCode) {
    case 'ENOENT':
      return `Could not start "${program}": the program was not found (ENOENT). Check that it is installed and on PATH.`;
    case 'EACCES':
      return `Could not start "${program}": permission denied (EACCES). Check that it is executable.`;
    default:
      return `Could not start "${program}": ${outcome.spawnError ?? 'unknown error'}`;
  }
}

function outputText(outcome: ProcessOutcome, cap: number): string {
  const stdout = withNote(outcome.stdout, outcome.stdoutDroppedBytes, cap);
  const stderr = withNote(outcome.stderr, outcome.stderrDroppedBytes, cap);
  if (stderr === '') {
    return stdout;
  }
  const separator = stdout === '' || stdout.endsWith('\n') ? '' : '\n';
  return `${stdout}${separator}stderr:\n${stderr}`;
}

function withNote(text: string, droppedBytes: number, cap: number): string {
  return droppedBytes === 0 ? text : `${text}\n${truncationNote(droppedBytes, cap)}`;
}

function withBody(reason: string, body: string): string {
  return body === '' ? reason : `${reason}\n\n${body}`;
}
