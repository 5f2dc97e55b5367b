/**
 * `call TOOL [JSON]`: runs one tool once through the same registry the server uses (input
 * validated, the approval rule applied) and prints its result. On a terminal the tool's latest
 * output line shows while it runs; Ctrl-C cancels the call, which kills what the tool started.
 */
import type { ToolRegistry } from '../../core/registry/tool-registry';
import type { CliCommand } from '../cli';
import { stderrLogger } from '../stderr-logger';
import { terminalAsk } from '../terminal-ask';
import { terminalProgress } from '../terminal-progress';
import { editorBridgeOfThisProcess } from '../editor-bridge';
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
  const logger = stderrLogger(options.logLevel === 'info' ? 'warn' : options.logLevel);
  const editor = await editorBridgeOfThisProcess('call', logger);
  const { registry } = setUp(options, logger, undefined, editor.tools);
  if (command.dryRun) {
    return dryRun(registry, command.tool, input);
  }
  const controller = new AbortController();
  const cancel = (): void => controller.abort();
  process.once('SIGINT', cancel);
  process.once('SIGTERM', cancel);
  // On a terminal, the tool's latest output line while it runs (stderr, cleared before the result).
  const progress = terminalProgress(command.tool);
  try {
    const result = await registry.call(command.tool, input, { signal: controller.signal, door: 'cli', ask: terminalAsk(), ...(progress === undefined ? {} : { progress: (message: string) => progress.report(message) }) });
    progress?.close();
    if (command.json) {
      // Everything a script needs, parts whole (an image's base64 included): the text is a stand-in.
      const { text, isError, structured, content, folder } = result;
      process.stdout.write(`${JSON.stringify({ isError, text, ...(structured === undefined ? {} : { structured }), ...(content === undefined ? {} : { content }), ...(folder === undefined ? {} : { folder }) })}\n`);
    } else {
      // Binary parts are described in the text ("[image/png, 12.3 KB]"), never printed.
      (result.isError ? process.stderr : process.stdout).write(result.text.endsWith('\n') ? result.text : `${result.text}\n`);
    }
    return result.isError ? ERROR_RESULT : 0;
  } finally {
    progress?.close();
    process.off('SIGINT', cancel);
    process.off('SIGTERM', cancel);
    registry.dispose();
    editor.connection?.close();
  }
}

/** `--dry-run`: what the call would run, one part a line; nothing runs. */
async function dryRun(registry: ToolRegistry, tool: string, input: unknown): Promise<number> {
  try {
    await registry.initialize();
    const known = registry.get(tool);
    if (known === undefined) {
      process.stderr.write(`workspace-tools-mcp: no tool named "${tool}"\n`);
      return ERROR_RESULT;
    }
    const preview = registry.previewCall(tool, input);
    if (preview === undefined) {
      process.stdout.write(`${tool}: ${known.definition.handlerSummary}\n(the exact command is known only for plugin tools with a handler)\n`);
      return 0;
    }
    if ('error' in preview) {
      process.stderr.write(`workspace-tools-mcp: ${tool} would refuse this input:\n${preview.error}\n`);
      return ERROR_RESULT;
    }
    const state = known.state === 'active' ? '' : ` (not served now: ${known.state})`;
    process.stdout.write(`${tool} would run${state}:\n${preview.lines.map((line) => `  ${line}`).join('\n')}\n`);
    return 0;
  } finally {
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
