/** Turns a process outcome into the text the model reads. */
import { truncationNote } from '../../process/capped-buffer';
import { classifyOutcome, endedHow } from '../../process/outcome';
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
 * reason first when the program timed out, was cancelled, was killed by a signal, or exited with
 * a code that is not accepted (it ran and ended badly: process/outcome.ts). A program that could
 * not start is thrown: the call did not run. A stream cut at its cap ends with a note.
 */
export function formatOutcome(outcome: ProcessOutcome, context: OutcomeContext): ToolResult {
  const end = classifyOutcome(outcome, context.timeoutMs, context.exitCodes);
  if (end.kind === 'not-started') {
    throw new Error(startFailure(outcome, context.program));
  }
  const body = outputText(outcome, context.maxOutputBytes);
  switch (end.kind) {
    case 'timeout':
    case 'cancelled':
      return errorResult(withBody(`The command ${endedHow(end)}; the process tree was killed.`, body));
    case 'signal':
      return errorResult(withBody(`The command ${endedHow(end)}.`, body));
    case 'exit-code':
    case 'ok': {
      // What steps ({{steps.NAME.stdout}}, runIf exitCode) and tests (expect.exitCode) read.
      const details = { exitCode: end.exitCode, stdout: outcome.stdout };
      if (end.kind === 'exit-code') {
        const accepted = context.exitCodes.join(', ');
        return { ...errorResult(withBody(`The command failed with exit code ${end.exitCode} (accepted: ${accepted}).`, body)), details };
      }
      return { ...textResult(body === '' ? '(no output)' : body), details };
    }
  }
}

/** Why `program` could not start when it is not found: the one wording, sandboxed or not. */
export function programNotFound(program: string): string {
  return `Could not start "${program}": the program was not found (ENOENT). Check that it is installed and on PATH.`;
}

function startFailure(outcome: ProcessOutcome, program: string): string {
  switch (outcome.spawnErrorCode) {
    case 'ENOENT':
      return programNotFound(program);
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
