/**
 * A recording wrapper around a stdio MCP server, for clients whose protocol traffic a test must
 * see (Claude Code: which revision it really spoke). Run as a program
 * (`node stdio-recorder.js DIR COMMAND [ARGS...]`), it starts COMMAND, passes standard input and
 * output through unchanged, and appends what the client sent to DIR/sent.jsonl and what the
 * server answered to DIR/answered.jsonl, synchronously, so a client that ends the wrapper at once
 * loses nothing. A signal is passed on to the server, and the wrapper exits with it.
 */
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

/** One JSON-RPC message as it went over the wire. */
export type WireMessage = { readonly method?: string; readonly id?: string | number; readonly params?: Record<string, unknown>; readonly result?: Record<string, unknown> } & Record<string, unknown>;

/** The command line that runs `command args` behind the recorder, recording into `dir`. */
export function recordedCommand(dir: string, command: string, args: readonly string[]): { command: string; args: string[] } {
  return { command: process.execPath, args: [__filename, dir, command, ...args] };
}

/** The messages recorded in `dir` so far, in order. */
export function recordedMessages(dir: string): { sent: WireMessage[]; answered: WireMessage[] } {
  const read = (file: string): WireMessage[] =>
    existsSync(path.join(dir, file))
      ? readFileSync(path.join(dir, file), 'utf8')
          .split('\n')
          .filter((line) => line.trim() !== '')
          .map((line) => JSON.parse(line) as WireMessage)
      : [];
  return { sent: read('sent.jsonl'), answered: read('answered.jsonl') };
}

function record(): void {
  const [dir, command, ...args] = process.argv.slice(2);
  if (dir === undefined || command === undefined) {
    process.stderr.write('usage: stdio-recorder DIR COMMAND [ARGS...]\n');
    process.exit(2);
  }
  mkdirSync(dir, { recursive: true });
  const server = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  // A client may write after the server is gone (its exit is reported below).
  server.stdin.on('error', () => undefined);
  process.stdin.on('data', (chunk: Buffer) => {
    appendFileSync(path.join(dir, 'sent.jsonl'), chunk);
    server.stdin.write(chunk);
  });
  process.stdin.on('end', () => server.stdin.end());
  server.stdout.on('data', (chunk: Buffer) => {
    appendFileSync(path.join(dir, 'answered.jsonl'), chunk);
    process.stdout.write(chunk);
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => server.kill(signal));
  }
  server.on('error', (error) => {
    process.stderr.write(`stdio-recorder: ${error.message}\n`);
    process.exit(1);
  });
  server.on('exit', (code, signal) => process.exit(code ?? (signal === null ? 1 : 128)));
}

if (require.main === module) {
  record();
}
