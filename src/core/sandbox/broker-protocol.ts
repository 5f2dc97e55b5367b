/**
 * The messages between an engine and a sandbox broker (sandbox-broker.ts), over the Node IPC
 * channel of the broker process. Types only, shared by both ends; nothing of the runtime's own
 * types crosses, so the engine never loads the runtime.
 */

/**
 * The runtime's two kinds of session. It cannot mix them in one process (upstream #253): once a
 * session restricts the network, every wrap gets its own network namespace behind the proxy, so
 * "network as it is" needs a session of its own.
 */
export type BrokerNetwork = 'restricted' | 'open';

/** How a broker is started: argv[2] of the broker, as JSON. */
export interface BrokerOptions {
  readonly network: BrokerNetwork;
  /** bubblewrap to use (absolute); absent: the runtime finds `bwrap` on PATH. */
  readonly bwrapPath?: string;
  /** socat to use (absolute); absent: found on PATH. */
  readonly socatPath?: string;
  /** The ripgrep the runtime scans the folder with (it needs one on Linux and macOS). */
  readonly ripgrep: string;
}

/** What one call's processes may touch, as the runtime's filesystem and network settings. */
export interface BrokerPolicy {
  readonly denyRead: readonly string[];
  readonly allowRead: readonly string[];
  readonly allowWrite: readonly string[];
  readonly denyWrite: readonly string[];
  /** `none`: no network (own namespace, nothing reachable); `hosts`: only these, through the proxy; `open`: as it is (an open broker only). */
  readonly network: { readonly kind: 'none' } | { readonly kind: 'open' } | { readonly kind: 'hosts'; readonly hosts: readonly string[] };
}

/** Engine → broker. */
export type BrokerRequest =
  | { readonly id: number; readonly kind: 'wrap'; readonly command: string; readonly commandId: string; readonly policy: BrokerPolicy }
  /** The wrapped command has exited (or never started): clean up after it, and say what the runtime saw it refused. */
  | { readonly id: number; readonly kind: 'done'; readonly commandId: string };

/** Broker → engine. */
export type BrokerMessage =
  /** Sent once: the session started and a wrapped `true` ran. */
  | { readonly kind: 'ready' }
  /** Sent once instead of `ready`: why this machine cannot sandbox. */
  | { readonly kind: 'unavailable'; readonly reason: string }
  | { readonly kind: 'reply'; readonly id: number; readonly wrapped?: string; readonly violations?: readonly string[]; readonly error?: string };
