/**
 * Entry point of dist/mcp-server.js: reads the command line and runs the subcommand (`serve`
 * when none is named, so existing client configurations keep working).
 */
// First: on Windows the process title must be set before any other module's code reads it.
import './process-title';
// Then, before anything of the server runs: SIGUSR1 is made harmless.
import './ignore-inspector-signal';
import { version } from '../../package.json';
import type { CliOutcome, CommandName } from './cli';
import { USAGE, commandUsage, parseCli } from './cli';
import { approve } from './commands/approve';
import { call } from './commands/call';
import { check } from './commands/check';
import { init } from './commands/init';
import { list } from './commands/list';
import { read } from './commands/read';
import { prompt } from './commands/prompt';
import { serve } from './commands/serve';
import { test } from './commands/test';
import { history } from './commands/history';
import { workspaceProblem } from './workspace-check';
import { editorBridgeOfThisProcess, takeBridgeToken } from './editor-bridge';
import { stderrLogger } from './stderr-logger';
import { enableDirectReads } from '../core/platform/file-access';

/** Exit status of a wrong command line. */
const USAGE_ERROR = 2;

async function main(): Promise<void> {
  // Before anything copies the environment or runs a program (editor-bridge.ts).
  takeBridgeToken();
  // A process of its own: workspace files on a local disk are read with direct system calls
  // (platform/file-access.ts; the extension host, shared with other extensions, does not).
  enableDirectReads();
  const outcome = parseCli(process.argv.slice(2), process.cwd());
  const scriptPath = process.argv[1] ?? 'mcp-server.js';
  switch (outcome.kind) {
    // Asked for, help and the version are the output, on stdout (`| less`, `v=$(... --version)`);
    // the process exits at once, so no client reads them as protocol for long.
    case 'help':
      process.stdout.write(outcome.command === undefined ? USAGE : commandUsage(outcome.command));
      return;
    case 'version':
      process.stdout.write(`${version}\n`);
      return;
    // A mistake is said in one line with where to look, not buried above 60 lines of usage.
    case 'error':
      process.stderr.write(`workspace-tools-mcp: ${outcome.message}\n${helpHint(outcome.command)}\n`);
      process.exitCode = USAGE_ERROR;
      return;
    case 'run': {
      const problem = workspaceProblem(outcome.options.workspaces);
      if (problem !== undefined) {
        process.stderr.write(`workspace-tools-mcp: ${problem}\n`);
        process.exitCode = USAGE_ERROR;
        return;
      }
      process.exitCode = await run(outcome, scriptPath);
    }
  }
}

/** Where the options of `command` (or the list of commands) are explained. */
function helpHint(command: CommandName | undefined): string {
  return command === undefined || command === 'serve'
    ? 'Run "workspace-tools-mcp --help" for the commands and options.'
    : `Run "workspace-tools-mcp ${command} --help" for its options.`;
}

/** Runs a subcommand; resolves to the exit status (serve: once it is listening). */
async function run(command: Extract<CliOutcome, { kind: 'run' }>, scriptPath: string): Promise<number> {
  switch (command.command) {
    case 'serve':
      // A VS Code window's editor tools, when its terminal started the server (editor-bridge.ts).
      serve(command.options, scriptPath, await editorBridgeOfThisProcess('serve', stderrLogger(command.options.logLevel)));
      return 0;
    case 'approve':
      return approve(command, scriptPath);
    case 'check':
      return check(command.options);
    case 'list':
      return list(command);
    case 'call':
      return call(command);
    case 'read':
      return read(command);
    case 'prompt':
      return prompt(command);
    case 'test':
      return test(command);
    case 'history':
      return history(command);
    case 'init':
      return init(command, scriptPath);
  }
}

main().catch((error: unknown) => {
  // A person reads the message; the (minified) stack helps only who debugs, so it needs asking.
  const debugging = /--log-level[= ](debug|trace)\b/.test(process.argv.join(' '));
  const detail = error instanceof Error ? (debugging ? (error.stack ?? error.message) : error.message) : String(error);
  process.stderr.write(`workspace-tools-mcp: ${detail}\n`);
  process.exit(1);
});
