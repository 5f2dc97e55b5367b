/**
 * `call TOOL [JSON]`: runs one tool once through the same registry the server uses (input
 * validated, the approval rule applied) and prints its result. Ctrl-C cancels the call, which
 * kills what the tool started.
 */
import type { CliCommand } from '../cli';
import { stderrLogger } from '../stderr-logger';
import { setUp } from './setup';

/** Exit status of an error result (a wrong command line is 2). */
const ERROR_RESULT = 1;

/** Runs the tool; resolves to 0 for a result, 1 for an error result, 2 for input that is not JSON. */
export async function call(command: Extract<CliCommand, { command: 'call' }>): Promise<number> {
  const { options } = command;
  const text = command.input ?? (process.stdin.isTTY === true ? '' : await readStdin());
  let input: unknown;
  try {
    input = text.trim() === '' ? {} : JSON.parse(text);
  } catch (error) {
    process.stderr.write(`workspace-tools-mcp: the input of ${command.tool} is not JSON: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
  const { registry } = setUp(options, stderrLogger(options.logLevel === 'info' ? 'warn' : options.logLevel));
  const controller = new AbortController();
  const cancel = (): void => controller.abort();
  process.once('SIGINT', cancel);
  process.once('SIGTERM', cancel);
  try {
    const result = await registry.call(command.tool, input, controller.signal);
    (result.isError ? process.stderr : process.stdout).write(result.text.endsWith('\n') ? result.text : `${result.text}\n`);
    return result.isError ? ERROR_RESULT : 0;
  } finally {
    process.off('SIGINT', cancel);
    process.off('SIGTERM', cancel);
    registry.dispose();
  }
}

function readStdin(): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    process.stdin.on('data', (chunk: Buffer) => chunks.push(chunk));
    process.stdin.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    process.stdin.on('error', reject);
  });
}
