/**
 * The MCP server's side of the bridge: it connects to the window whose terminal started it (the
 * address and token in its environment), asks what the window serves, and forwards calls. A
 * stale address (the window closed or reloaded) or a token the window does not know is an
 * BridgeUnavailableError worded for the person reading `list` or the server's log.
 */
import { lstat } from 'node:fs/promises';
import * as net from 'node:net';
import * as path from 'node:path';
import type { ToolResult } from '../types';
import type { BridgeCaller, BridgeHello, BridgeRequest, BridgeResponse } from './protocol';
import { BRIDGE_ADDRESS_VARIABLE, BRIDGE_OFF_VARIABLE, BRIDGE_TOKEN_VARIABLE, LineReader, lineOf } from './protocol';

/** How long connecting and `hello` may take: a local socket answers in milliseconds. */
export const CONNECT_TIMEOUT_MS = 3000;

/** The bridge cannot be used; `message` says why and what to do. */
export class BridgeUnavailableError extends Error {
  override readonly name = 'BridgeUnavailableError';
}

/** Where a window's bridge is, from a terminal's environment. */
export type BridgeAddress = { readonly address: string; readonly token: string } | { readonly none: string };

/** The bridge a terminal's environment names, or why there is none. */
export function bridgeAddressOf(env: Readonly<Record<string, string | undefined>>): BridgeAddress {
  const address = env[BRIDGE_ADDRESS_VARIABLE];
  const token = env[BRIDGE_TOKEN_VARIABLE];
  if (address === undefined || address === '') {
    const off = env[BRIDGE_OFF_VARIABLE];
    return {
      none:
        off !== undefined && off !== ''
          ? `the VS Code window opened no bridge: ${off}`
          : `no VS Code window: ${BRIDGE_ADDRESS_VARIABLE} is not set (start the server from an integrated terminal of a VS Code window with the Workspace Tools extension)`,
    };
  }
  if (token === undefined || token === '') {
    return { none: `${BRIDGE_ADDRESS_VARIABLE} is set but ${BRIDGE_TOKEN_VARIABLE} is not: the bridge answers only with its token` };
  }
  return { address, token };
}

/** A connection to one window's bridge. */
export interface BridgeConnection {
  readonly address: string;
  readonly hello: BridgeHello;
  /** Why the connection ended, once it has (the window closed); undefined while it is open. */
  readonly closedBecause: string | undefined;
  call(name: string, input: unknown, signal: AbortSignal): Promise<ToolResult>;
  close(): void;
}

/** Connects, says who calls, and returns what the window serves; throws BridgeUnavailableError. */
export async function connectBridge(address: string, token: string, caller: BridgeCaller, timeoutMs = CONNECT_TIMEOUT_MS): Promise<BridgeConnection> {
  await refuseUnlessPrivate(address);
  const socket = await openSocket(address, timeoutMs);
  const pending = new Map<number, { resolve: (response: BridgeResponse) => void }>();
  let nextId = 1;
  let closedBecause: string | undefined;
  const fail = (reason: string): void => {
    closedBecause ??= reason;
    for (const waiting of pending.values()) {
      waiting.resolve({ id: null, error: { code: 'failed', message: closedBecause } });
    }
    pending.clear();
    socket.destroy();
  };
  const reader = new LineReader((line) => {
    let response: BridgeResponse;
    try {
      response = JSON.parse(line) as BridgeResponse;
    } catch {
      fail(`the bridge at ${address} sent a line that is not JSON`);
      return;
    }
    if (typeof response.id === 'number') {
      const waiting = pending.get(response.id);
      pending.delete(response.id);
      waiting?.resolve(response);
    } else if ('error' in response) {
      fail(`the bridge at ${address} closed the connection: ${response.error.message}`);
    }
    refIfBusy();
  });
  // Idle, the connection keeps no process alive (`list`, `call`); a call in flight does.
  const refIfBusy = (): void => {
    if (pending.size === 0) {
      socket.unref();
    } else {
      socket.ref();
    }
  };
  socket.on('data', (chunk: Buffer) => {
    try {
      reader.push(chunk);
    } catch (error) {
      fail(`the bridge at ${address} sent ${error instanceof Error ? error.message : String(error)}`);
    }
  });
  socket.on('error', (error) => fail(`the connection to the VS Code window's bridge failed: ${error.message}`));
  socket.on('close', () => fail('the VS Code window that served the editor tools has closed (or reloaded): start the server again from a terminal of an open window'));

  const request = (message: Omit<BridgeRequest, 'id' | 'token'>, timeout?: number): Promise<BridgeResponse> => {
    if (closedBecause !== undefined) {
      return Promise.resolve({ id: null, error: { code: 'failed', message: closedBecause } });
    }
    const id = nextId++;
    return new Promise((resolve) => {
      const timer = timeout === undefined ? undefined : setTimeout(() => fail(`the bridge at ${address} did not answer within ${timeout} ms`), timeout);
      pending.set(id, {
        resolve: (response) => {
          clearTimeout(timer);
          resolve(response);
        },
      });
      refIfBusy();
      socket.write(lineOf({ ...message, id, token } as BridgeRequest));
    });
  };

  const greeting = await request({ method: 'hello', params: caller }, timeoutMs);
  if ('error' in greeting) {
    socket.destroy();
    throw new BridgeUnavailableError(
      greeting.error.code === 'token'
        ? `The VS Code window's bridge at ${address} refused the token in ${BRIDGE_TOKEN_VARIABLE}: it belongs to another opening of the window. Open a new integrated terminal in the window and start the server there.`
        : `The VS Code window's bridge at ${address} did not answer: ${greeting.error.message}`,
    );
  }
  const hello = greeting.result as BridgeHello;
  return {
    address,
    hello,
    get closedBecause() {
      return closedBecause;
    },
    async call(name, input, signal) {
      const answer = request({ method: 'call', params: { name, input } });
      const id = nextId - 1;
      const onAbort = (): void => void request({ method: 'cancel', params: { id } });
      signal.addEventListener('abort', onAbort, { once: true });
      try {
        const response = await answer;
        if ('error' in response) {
          throw new Error(response.error.message);
        }
        return response.result as ToolResult;
      } finally {
        signal.removeEventListener('abort', onAbort);
      }
    },
    close: () => {
      closedBecause ??= 'closed';
      socket.destroy();
    },
  };
}

/**
 * Refuses a socket that is not in a folder only this user can enter, as the window makes it
 * (bridge-server.ts: mkdtemp, 0700). A terminal can outlive its window (a reload keeps the shell
 * and its environment) while the window removed its folder: another local user may then make a
 * folder of that name in the shared temporary directory and listen there, to hand this server
 * tools of its own. A folder that is missing is left to the connection, which says the window is gone.
 */
async function refuseUnlessPrivate(address: string): Promise<void> {
  const uid = process.getuid?.();
  if (process.platform === 'win32' || uid === undefined) {
    return;
  }
  const folder = path.dirname(address);
  const [folderStat, socketStat] = await Promise.all([lstat(folder).catch(() => undefined), lstat(address).catch(() => undefined)]);
  if (folderStat === undefined || socketStat === undefined) {
    return;
  }
  const problem = !folderStat.isDirectory()
    ? `${folder} is not a folder (a symbolic link?)`
    : folderStat.uid !== uid
      ? `${folder} belongs to user ${folderStat.uid}, not to this user (${uid})`
      : (folderStat.mode & 0o077) !== 0
        ? `${folder} may be entered by other users (mode ${(folderStat.mode & 0o777).toString(8)})`
        : socketStat.uid !== uid
          ? `the socket belongs to user ${socketStat.uid}, not to this user (${uid})`
          : undefined;
  if (problem !== undefined) {
    throw new BridgeUnavailableError(
      `The address in ${BRIDGE_ADDRESS_VARIABLE} is not a VS Code window's private bridge: ${problem}. Another user may have made it, so the server does not connect. Open a new integrated terminal in the window and start the server there.`,
    );
  }
}

/** Connects to a local socket; a missing or dead one is a BridgeUnavailableError saying so. */
function openSocket(address: string, timeoutMs: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.createConnection(address);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new BridgeUnavailableError(`The VS Code window's bridge at ${address} did not accept a connection within ${timeoutMs} ms.`));
    }, timeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.removeAllListeners('error');
      resolve(socket);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      const stale = error.code === 'ENOENT' || error.code === 'ECONNREFUSED';
      reject(
        new BridgeUnavailableError(
          stale
            ? `The VS Code window's bridge at ${address} is gone (${error.code}): the window that opened it has closed or reloaded. Open a new integrated terminal in the window and start the server there.`
            : `Cannot connect to the VS Code window's bridge at ${address}: ${error.message}`,
        ),
      );
    });
  });
}
