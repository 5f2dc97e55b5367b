/**
 * What one MCP feature module (serve-tools.ts, serve-resources.ts, client-log.ts, ...) gives the
 * server: the capabilities it serves and a function that registers its handlers on one server
 * instance. server.ts composes them; see ARCHITECTURE.md, "Adding an MCP feature".
 */
import type { Result, Server, ServerCapabilities, ServerContext } from '@modelcontextprotocol/server';
import type { Disposable } from '../core/registry/emitter';
import type { Logger } from '../core/types';
import type { HotLane } from './hot-lane';
import type { CallToolParams } from './request-params';

/**
 * Answers a `tools/call` before the SDK handles it (and checks its result as a CallToolResult):
 * a call that runs as a task (tasks/serve-tasks.ts). Undefined: the call is not the hook's.
 */
export type ToolCallHook = (params: CallToolParams, ctx: ServerContext) => Promise<Result> | undefined;

/**
 * The protocol era of a server instance: `legacy` for a connection opened with `initialize`
 * (2025-11-25 and older), `modern` for 2026-07-28 (stateless: no `initialize`, the client's
 * capabilities travel in each request's `ctx.mcpReq.envelope`).
 */
export type ProtocolEra = 'legacy' | 'modern';

/** What a feature registers on: one server instance (one connection, or a discarded probe). */
export interface FeatureContext {
  readonly server: Server;
  readonly era: ProtocolEra;
  readonly logger: Logger;
  /**
   * The instance's hot lane (hot-lane.ts): a feature may route a frequent request there too,
   * beside its SDK handler, answering it the same way. Used only on a 2025-11-25 connection.
   */
  readonly hot: HotLane;
  /** Sets the instance's ToolCallHook (one per instance: the tasks feature's). */
  answerToolCallFirst(hook: ToolCallHook): void;
}

export interface ServerFeature {
  /** Merged into the server's capabilities: declare only what `register` serves. */
  readonly capabilities: ServerCapabilities;
  /** Capabilities of one protocol era only, merged over `capabilities` (the tasks: core in 2025-11-25, an extension in 2026-07-28). */
  readonly capabilitiesFor?: (era: ProtocolEra) => ServerCapabilities;
  /**
   * Registers the feature's request handlers on `context.server`. What it returns (registry
   * subscriptions, ...) is disposed when that instance closes: an instance may be built for a
   * `server/discover` probe and dropped, so registering must be cheap and leave nothing behind.
   */
  register(context: FeatureContext): Disposable | undefined;
}
