// Entry of the startup-snapshot trial (bench/startup-snapshot/run.mjs): the server's modules are
// evaluated when the snapshot is built; `serve` runs when a process starts from the snapshot.
import { startupSnapshot } from 'node:v8';
import { parseCli } from '../../src/mcp/cli';
import { serve } from '../../src/mcp/commands/serve';

function main() {
  // Started from a snapshot (`node --snapshot-blob server.blob -- <args>`), argv[1] is the first
  // argument: no script path is consumed.
  const outcome = parseCli(process.argv.slice(1), process.cwd());
  if (outcome.kind !== 'run' || outcome.command !== 'serve') {
    process.stderr.write('snapshot trial: only `serve` is supported\n');
    process.exit(2);
  }
  serve(outcome.options, 'mcp-server-snapshot').catch((error) => {
    process.stderr.write(`snapshot trial: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}

startupSnapshot.setDeserializeMainFunction(main);
