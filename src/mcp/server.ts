/**
 * The MCP server: one low-level SDK `Server` (our tools carry JSON Schemas, not zod) per
 * connection, built from feature modules (serve-tools.ts, serve-resources.ts, client-log.ts and
 * whatever a caller adds), serving protocol 2025-11-25 (`initialize`) and 2026-07-28
 * (`server/discover`, stateless) alike: the SDK's `serveStdio` picks the era from the client's
 * first message and asks the factory for an instance of that era.
 */
import type { JSONRPCMessage, JSONRPCRequest, Result, ServerCapabilities, ServerContext, Transport } from '@modelcontextprotocol/server';
import { ProtocolError, ProtocolErrorCode, Server, mergeCapabilities, preloadSchemas } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import type { Disposable } from '../core/registry/emitter';
import type { ToolRegistry } from '../core/registry/tool-registry';
import type { ExecutionLimits, Logger } from '../core/types';
import { DEFAULT_LIMITS } from '../core/types';
import type { OutputStore } from '../core/output/output-store';
import { completionsFeature } from './serve-completions';
import { promptsFeature } from './serve-prompts';
import { resourcesFeature } from './serve-resources';
import { ListenedResources } from '../core/resources/listened-resources';
import type { TransportObserver } from './listen-streams';
import { ListenStreams } from './listen-streams';
import { toolsFeature, toMcpTool } from './serve-tools';
import type { ProtocolEra, ServerFeature } from './server-feature';
import { ToolListPages } from './tool-pages';
import { AjvJsonSchemaValidator } from './sdk-ajv-provider';
import { initializeParams } from './request-params';
import { noteRequestEnd } from './request-lifetime';
import type { OversizedLine } from './line-limit';
import { LineLimit, MAX_LINE_BYTES, oversizedReply } from './line-limit';

export { toMcpTool };

/** What createServer serves, and how it names itself to clients. */
export interface CreateServerOptions {
  readonly registry: ToolRegistry;
  readonly name: string;
  readonly version: string;
  readonly logger: Logger;
  /** Aborts every call in flight when the server shuts down. */
  readonly shutdownSignal?: AbortSignal;
  /** Keeps large outputs whole, served as workspace-tools://output/<id> resources. */
  readonly outputs?: OutputStore;
  /** More of the first call's work to do in the background once the client is connected. */
  readonly warmUp?: () => Promise<unknown>;
  /**
   * Whether the tool list can change while the server runs (serve: unless `--no-watch`); only
   * then is `tools.listChanged` declared. Default true.
   */
  readonly listChanged?: boolean;
  /**
   * Serves the plugin files' resources (read with this environment and these limits) beside the
   * kept outputs (serve-resources.ts); absent: only the kept outputs, when there is an output store.
   */
  readonly pluginResources?: { readonly env: Readonly<Record<string, string | undefined>>; readonly limits: () => ExecutionLimits };
  /** More features (serve: the client log), registered after the tools and resources. */
  readonly features?: readonly ServerFeature[];
}

/** One server instance and what to release with it (also released when it closes). */
export interface ServerInstance {
  readonly server: Server;
  readonly cleanup: () => void;
}

/** Builds server instances for the SDK's `serveStdio`, all over one tool list cache. */
export interface ServerFactory {
  create(era: ProtocolEra): ServerInstance;
  /** A `tools/list` answer as bytes, when `message` is one from the cache (see ToolListTransport). */
  serialized(message: JSONRPCMessage): Buffer | undefined;
  /** The connection's 2026-07-28 listen streams, for ToolListTransport to observe. */
  readonly listenStreams: ListenStreams;
}

/**
 * Cache hints of the 2026-07-28 list results (`ttlMs`/`cacheScope`; the 2025 era has none). The
 * tools and prompts depend on this workspace's files and approvals: `private`. While watching, the list can
 * change any moment (a listening client is told): 0; without watching it never does.
 */
function cacheHintsFor(listChanged: boolean): Record<'tools/list' | 'prompts/list', { ttlMs: number; cacheScope: 'private' }> {
  const hint = { ttlMs: listChanged ? 0 : UNCHANGING_LIST_TTL_MS, cacheScope: 'private' } as const;
  return { 'tools/list': hint, 'prompts/list': hint };
}

/** How long a client may keep the tool list of a server that does not watch (`--no-watch`). */
const UNCHANGING_LIST_TTL_MS = 60 * 60 * 1000;

const INSTRUCTIONS = "Tools that act on the open workspace: git status, diffs, logs, file reading and search, plus the team's own tools from .vscode/tools.";

/** The server factory over a tool registry (serve.ts hands `create` to `serveStdio`). */
export function createServerFactory(options: CreateServerOptions): ServerFactory {
  const { registry, logger } = options;
  const listChanged = options.listChanged ?? true;
  const pages = new ToolListPages(registry, toMcpTool);
  // One factory serves one stdio connection: the URIs its listen streams name.
  const listened = new ListenedResources();
  const features: ServerFeature[] = [
    toolsFeature({ registry, pages, logger, listChanged, ...(options.shutdownSignal === undefined ? {} : { shutdownSignal: options.shutdownSignal }), ...(options.outputs === undefined ? {} : { outputs: options.outputs }) }),
    ...(options.outputs === undefined && options.pluginResources === undefined
      ? []
      : [
          resourcesFeature({
            ...(options.pluginResources === undefined ? {} : { source: registry }),
            ...(options.outputs === undefined ? {} : { outputs: options.outputs }),
            env: options.pluginResources?.env ?? {},
            limits: options.pluginResources?.limits ?? (() => DEFAULT_LIMITS),
            listChanged,
            listened,
          }),
        ]),
    // Prompts and completions come from plugin files: none where they do not load (--no-plugins, Restricted Mode).
    ...(registry.loadsPluginFiles ? [promptsFeature(registry, listChanged), completionsFeature(registry)] : []),
    ...(options.features ?? []),
  ];
  const capabilities = features.reduce<ServerCapabilities>((merged, feature) => mergeCapabilities(merged, feature.capabilities), { logging: {} });
  const warmUp = warmUpOnce(registry, options.warmUp);
  // The SDK's own JSON Schema checks (elicitation answers) load Ajv on first use too.
  const jsonSchemaValidator = new AjvJsonSchemaValidator();

  return {
    create: (era) => {
      const server = new ConnectedServer(
        { name: options.name, version: options.version },
        { capabilities, instructions: INSTRUCTIONS, cacheHints: cacheHintsFor(listChanged), jsonSchemaValidator },
      );
      const registered = features.map((feature) => feature.register({ server, era, logger }));
      const ready = getReadyAfterHandshake(server, era, registry, warmUp);
      let released = false;
      const cleanup = (): void => {
        if (!released) {
          released = true;
          ready.dispose();
          registered.forEach((subscription) => subscription?.dispose());
        }
      };
      const onclose = server.onclose;
      server.onclose = () => {
        cleanup();
        onclose?.();
      };
      return { server, cleanup };
    },
    serialized: (message) => pages.serialized(message),
    listenStreams: new ListenStreams(listened),
  };
}

/** One server instance on its own (tests; serve.ts uses createServerFactory). */
export function createServer(options: CreateServerOptions, era: ProtocolEra = 'legacy'): ServerInstance {
  return createServerFactory(options).create(era);
}

/**
 * The SDK's `Server`, which also says when it has sent its first answer (the 2026-07-28
 * handshake's end), and answers an `initialize` with invalid params `-32602` (the SDK serves
 * `initialize` itself, and answers those `-32603`: request-params.ts).
 */
class ConnectedServer extends Server {
  private firstAnswer: (() => void) | undefined;

  protected override _wrapHandler(method: string, handler: (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>): (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result> {
    const wrapped = super._wrapHandler(method, handler);
    if (method === 'tools/call') {
      // Outside the SDK's input_required shim: its rounds of questions end with the request.
      return noteRequestEnd(wrapped);
    }
    if (method !== 'initialize') {
      return wrapped;
    }
    return async (request, ctx) => {
      const outcome = await initializeParams['~standard'].validate(request.params);
      if (outcome.issues !== undefined) {
        const problems = outcome.issues.map((issue) => `${(issue.path ?? []).map(String).join('.')}: ${issue.message}`).join(', ');
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid params for initialize: ${problems}`);
      }
      return wrapped(request, ctx);
    };
  }

  /** Runs `listener` once, after the first response of this instance is written. */
  onFirstAnswer(listener: () => void): void {
    this.firstAnswer = listener;
  }

  override async connect(transport: Transport): Promise<void> {
    await super.connect(transport);
    const send = transport.send.bind(transport);
    transport.send = async (message, sendOptions) => {
      await send(message, sendOptions);
      if (this.firstAnswer !== undefined && ('result' in message || 'error' in message)) {
        const listener = this.firstAnswer;
        this.firstAnswer = undefined;
        listener();
      }
    };
  }
}

/** The validators (again after each change), the host's warm-up and the SDK's protocol schemas (once per process). */
function warmUpOnce(registry: ToolRegistry, warmUp?: () => Promise<unknown>): () => void {
  let done = false;
  return () => {
    // Neither promise rejects: loading and compiling failures are logged by the registry.
    void registry.initialize().then(() => registry.compileValidators());
    if (!done) {
      done = true;
      // The SDK builds its protocol schemas (zod) on first use: ~40% of a first call's server time in SDK 1.x.
      setImmediate(preloadSchemas);
      void warmUp?.();
    }
  };
}

/**
 * Gets the first call ready in the background once the client is connected, so that it costs
 * about what later calls do: the tools' input validators (the registry compiles them, one per
 * turn, and again for the tools each later load serves) and `warmUp` (serve: the file read path).
 * Never before the handshake is over: loading Ajv and compiling (~1 ms a schema) is work start-up
 * must not pay for. On 2025-11-25 that is the client's `initialized`; 2026-07-28 has no
 * handshake, so it is the first answer sent (usually `server/discover`'s). A call that comes
 * first does its own.
 */
function getReadyAfterHandshake(server: ConnectedServer, era: ProtocolEra, registry: ToolRegistry, warmUp: () => void): Disposable {
  let ready = false;
  const start = (): void => {
    ready = true;
    warmUp();
  };
  if (era === 'legacy') {
    server.oninitialized = start;
  } else {
    server.onFirstAnswer(() => setImmediate(start));
  }
  return registry.onDidChange(() => {
    if (ready) {
      void registry.compileValidators();
    }
  });
}

/**
 * The stdio transport, except that a message `serialized` knows (a cached `tools/list` page) is
 * written with ready-made bytes for its tools instead of stringifying them again, and that an
 * observer sees the messages (serveStdio answers `subscriptions/listen` before any server
 * instance could). Everything else, and the back-pressure handling, is the SDK's.
 */
export class ToolListTransport extends StdioServerTransport {
  constructor(
    private readonly serialized: (message: JSONRPCMessage) => Buffer | undefined,
    /** Sees every message both ways, and the close (the listen streams, listen-streams.ts). */
    private readonly observer?: TransportObserver,
    /** Where a line too long to read is reported (a warning). */
    private readonly logger?: Logger,
    private readonly output: NodeJS.WritableStream = process.stdout,
    input: NodeJS.ReadableStream = process.stdin,
  ) {
    // The lines reach the SDK one at a time, each within MAX_LINE_BYTES, so its buffer limit
    // (which closes the connection) is never reached; a longer line is answered here instead.
    const lines = new LineLimit(MAX_LINE_BYTES, (line) => this.refuseOversized(line), () => this.answerUnreadable(ProtocolErrorCode.ParseError));
    super(lines, output as NodeJS.WriteStream, { maxBufferSize: 2 * MAX_LINE_BYTES });
    input.pipe(lines);
  }

  /** A line over the limit: a warning, and the error response when it was a request. */
  private refuseOversized(line: OversizedLine): void {
    const reply = oversizedReply(line, MAX_LINE_BYTES);
    this.logger?.warn(`[mcp] skipped a message of ${line.bytes} bytes from the client, over the ${MAX_LINE_BYTES} bytes read in one line${reply === undefined ? '' : `; answered ${reply.id === null ? 'with id null' : `request ${JSON.stringify(reply.id)}`} with an error`}; the connection goes on`);
    if (reply !== undefined) {
      const error = { jsonrpc: '2.0', id: reply.id, error: { code: ProtocolErrorCode.InvalidRequest, message: reply.message } };
      this.write(error as unknown as JSONRPCMessage).catch(() => undefined);
    }
  }

  /**
   * A line that cannot be read gets the JSON-RPC answer it is owed (JSON-RPC 2.0 section 5.1, id
   * null: no id can be read from it), where the SDK skips it or only reports it (onerror) and the
   * client would wait forever: a line that is not JSON is -32700 (LineLimit spots it), JSON that
   * is no JSON-RPC message -32600 (the SDK's schema refused it).
   */
  private answerUnreadable(code: ProtocolErrorCode.ParseError | ProtocolErrorCode.InvalidRequest): void {
    const message = code === ProtocolErrorCode.ParseError ? 'Parse error: the line is not JSON' : 'Invalid Request: the line is not a JSON-RPC 2.0 message';
    this.write({ jsonrpc: '2.0', id: null, error: { code, message } } as unknown as JSONRPCMessage).catch(() => undefined);
  }

  override start(): Promise<void> {
    // serveStdio sets onmessage and onerror before it starts the transport.
    const report = this.onerror;
    this.onerror = (error) => {
      if (/ZodError/.test(error.name)) {
        this.answerUnreadable(ProtocolErrorCode.InvalidRequest);
      }
      report?.(error);
    };
    const deliver = this.onmessage;
    const observer = this.observer;
    if (observer !== undefined && deliver !== undefined) {
      this.onmessage = (message) => {
        observer.inbound(message);
        deliver(message);
      };
    }
    return super.start();
  }

  override async close(): Promise<void> {
    await super.close();
    this.observer?.closed();
  }

  override send(message: JSONRPCMessage): Promise<void> {
    const held = this.observer?.outbound(message);
    return held === undefined ? this.write(message) : held.then(() => this.write(message));
  }

  private write(message: JSONRPCMessage): Promise<void> {
    const bytes = this.serialized(message);
    if (bytes === undefined) {
      return super.send(message);
    }
    return new Promise((resolve) => {
      if (this.output.write(bytes)) {
        resolve();
      } else {
        this.output.once('drain', resolve);
      }
    });
  }
}
