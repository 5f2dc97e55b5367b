/**
 * The window's side of the bridge: a local socket in a private folder (0700, only this user),
 * answering only requests that carry its random token, and only for the tools its host lists
 * (the editor tools and the extension tools the user chose). What a call runs is the host's
 * (BridgeHost): the extension runs the editor tools against VS Code's language services and
 * another extension's tool through `vscode.lm.invokeTool`. Nothing else is reachable from it:
 * no plugin tool, no built-in, no file.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Logger, ToolResult } from '../types';
import type { BridgeCaller, BridgeErrorCode, BridgeHello, BridgeResponse } from './protocol';
import { BRIDGE_ADDRESS_VARIABLE, BRIDGE_TOKEN_VARIABLE, LineReader, lineOf } from './protocol';

/** What the bridge serves: decided by the window, asked at each request (a setting may change). */
export interface BridgeHost {
  hello(): BridgeHello;
  /** Runs a tool that `hello` lists; the bridge has checked the name and the token. */
  call(name: string, input: unknown, caller: BridgeCaller, signal: AbortSignal): Promise<ToolResult>;
}

export interface BridgeServer {
  /** The socket's path (a named pipe's name on Windows). */
  readonly address: string;
  readonly token: string;
  /** The variables a terminal of the window gets: the address and the token. */
  readonly environment: Readonly<Record<string, string>>;
  /** Stops listening, ends every connection and removes the private folder. */
  close(): Promise<void>;
}

export interface BridgeServerOptions {
  readonly host: BridgeHost;
  readonly logger: Logger;
  /** Where the private folder is made (default the system's temporary folder). */
  readonly parent?: string;
  readonly platform?: NodeJS.Platform;
}

/** Opens a bridge; it lives until `close` (the window's end). */
export async function startBridgeServer(options: BridgeServerOptions): Promise<BridgeServer> {
  const token = randomBytes(32).toString('base64url');
  const windows = (options.platform ?? process.platform) === 'win32';
  const folder = windows ? undefined : await mkdtemp(path.join(options.parent ?? os.tmpdir(), 'wt-bridge-'));
  if (folder !== undefined) {
    // mkdtemp makes it 0700 already; said again so that a umask or a platform never widens it.
    await chmod(folder, 0o700);
  }
  const address = folder === undefined ? `\\\\.\\pipe\\workspace-tools-bridge-${randomBytes(16).toString('hex')}` : path.join(folder, 'bridge.sock');
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    serveConnection(socket, token, options);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(address, () => {
      server.off('error', reject);
      resolve();
    });
  });
  if (folder !== undefined) {
    await chmod(address, 0o600);
  }
  server.on('error', (error) => options.logger.error(`[bridge] ${error.message}`));
  options.logger.info(`[bridge] listening at ${address}`);
  let closed: Promise<void> | undefined;
  return {
    address,
    token,
    environment: { [BRIDGE_ADDRESS_VARIABLE]: address, [BRIDGE_TOKEN_VARIABLE]: token },
    close: () => {
      closed ??= (async () => {
        for (const socket of sockets) {
          socket.destroy();
        }
        await new Promise<void>((resolve) => server.close(() => resolve()));
        if (folder !== undefined) {
          await rm(folder, { recursive: true, force: true });
        }
      })();
      return closed;
    },
  };
}

/** Compares tokens in constant time (over their digests, so lengths may differ). */
function sameToken(given: unknown, token: string): boolean {
  if (typeof given !== 'string') {
    return false;
  }
  const digest = (text: string): Buffer => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(token));
}

/** One client: its requests in, answers out, its calls cancelled when it goes. */
function serveConnection(socket: net.Socket, token: string, { host, logger }: BridgeServerOptions): void {
  const running = new Map<number, AbortController>();
  let caller: BridgeCaller = { pid: 0, program: 'unknown (no hello)' };
  const send = (response: BridgeResponse): void => {
    if (!socket.destroyed) {
      socket.write(lineOf(response));
    }
  };
  const refuse = (id: number | null, code: BridgeErrorCode, message: string): void => send({ id, error: { code, message } });
  const reader = new LineReader((line) => {
    const request = parseRequest(line);
    if (typeof request === 'string') {
      refuse(null, 'bad-request', request);
      return;
    }
    if (!sameToken(request.token, token)) {
      logger.warn('[bridge] refused a request with a wrong token, and closed its connection');
      refuse(request.id, 'token', "The bridge refused the token: it is not this VS Code window's (a new one is made each time the window opens).");
      socket.end();
      return;
    }
    switch (request.method) {
      case 'hello':
        caller = callerOf(request.params);
        logger.info(`[bridge] ${caller.program} (pid ${caller.pid}) connected`);
        send({ id: request.id, result: host.hello() });
        return;
      case 'cancel':
        running.get(cancelledId(request.params) ?? -1)?.abort();
        send({ id: request.id, result: null });
        return;
      case 'call': {
        const { name, input } = (request.params ?? {}) as { name?: unknown; input?: unknown };
        const served = host.hello().tools.map((tool) => tool.name);
        if (typeof name !== 'string' || !served.includes(name)) {
          refuse(
            request.id,
            'unknown-tool',
            `The VS Code window does not serve "${String(name)}" to outside callers: it serves the editor tools and the other extensions' tools listed in the setting workspaceTools.bridge.extensionTools (${served.join(', ')}).`,
          );
          return;
        }
        if (running.has(request.id)) {
          // Its controller would replace the running call's, which then could neither be
          // cancelled nor be stopped when the connection closes.
          refuse(request.id, 'bad-request', `A call with the id ${request.id} is still running on this connection: give each request a new id.`);
          return;
        }
        const controller = new AbortController();
        running.set(request.id, controller);
        host
          .call(name, input ?? {}, caller, controller.signal)
          .then(
            (result) => send({ id: request.id, result }),
            (error: unknown) => refuse(request.id, 'failed', error instanceof Error ? error.message : String(error)),
          )
          .finally(() => running.delete(request.id));
        return;
      }
    }
  });
  socket.on('data', (chunk: Buffer) => {
    try {
      reader.push(chunk);
    } catch (error) {
      refuse(null, 'bad-request', `The bridge closed the connection: ${error instanceof Error ? error.message : String(error)}.`);
      socket.end();
    }
  });
  socket.on('error', () => socket.destroy());
  socket.on('close', () => {
    for (const controller of running.values()) {
      controller.abort();
    }
  });
}

type ParsedRequest = { id: number; token: unknown; method: 'hello' | 'call' | 'cancel'; params: unknown };

/** The request a line holds, or what is wrong with it. */
function parseRequest(line: string): ParsedRequest | string {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return 'The bridge reads one JSON object a line; this line is not JSON.';
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return 'The bridge reads one JSON object a line.';
  }
  const { id, token, method, params } = value as Record<string, unknown>;
  if (typeof id !== 'number' || !Number.isInteger(id)) {
    return 'A bridge request needs an integer "id".';
  }
  if (method !== 'hello' && method !== 'call' && method !== 'cancel') {
    return `Unknown bridge method ${JSON.stringify(method)}: use hello, call or cancel.`;
  }
  return { id, token, method, params };
}

/**
 * Control characters, line and paragraph separators, and bidirectional overrides: what would let
 * a caller's name start a forged line in the window's log or hide text in the History view.
 */
const UNPRINTABLE = /[\p{Cc}\p{Zl}\p{Zp}\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

/** The caller as it says it is: its name on one printable line, its pid a whole number. */
function callerOf(params: unknown): BridgeCaller {
  const { pid, program } = (params ?? {}) as { pid?: unknown; program?: unknown };
  return {
    pid: typeof pid === 'number' && Number.isSafeInteger(pid) && pid >= 0 ? pid : 0,
    program: typeof program === 'string' ? program.replace(UNPRINTABLE, ' ').slice(0, 200) : 'unknown',
  };
}

function cancelledId(params: unknown): number | undefined {
  const { id } = (params ?? {}) as { id?: unknown };
  return typeof id === 'number' ? id : undefined;
}
