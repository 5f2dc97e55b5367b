/**
 * The MCP server: one low-level SDK `Server` (our tools carry JSON Schemas, not zod) per
 * connection, built from feature modules (serve-tools.ts, serve-resources.ts, client-log.ts and
 * whatever a caller adds), serving protocol 2025-11-25 (`initialize`) and 2026-07-28
 * (`server/discover`, stateless) alike: the SDK's `serveStdio` picks the era from the client's
 * first message and asks the factory for an instance of that era.
 */
import type { RunningCalls } from '../core/running/running-calls';
import type { JSONRPCMessage, JSONRPCRequest, Result, ServerCapabilities, ServerContext, StandardSchemaV1 } from '@modelcontextprotocol/server';
import { ProtocolError, ProtocolErrorCode, SdkError, SdkErrorCode, Server, mergeCapabilities, preloadSchemas } from '@modelcontextprotocol/server';
import type { ToolRegistry } from '../core/registry/tool-registry';
import type { ExecutionLimits, Logger } from '../core/types';
import { DEFAULT_LIMITS } from '../core/types';
import type { OutputStore } from '../core/output/output-store';
import { completionsFeature } from './serve-completions';
import { promptsFeature } from './serve-prompts';
import { resourcesFeature } from './serve-resources';
import { ListenedResources } from '../core/resources/listened-resources';
import { ListenStreams } from './listen-streams';
import { toolsFeature, toMcpTool } from './serve-tools';
import type { ProtocolEra, ServerFeature, ToolCallHook } from './server-feature';
import { tasksFeature } from './tasks/serve-tasks';
import type { TasksFeatureOptions } from './tasks/serve-tasks';
import { ToolListPages } from './tool-pages';
import { AjvJsonSchemaValidator } from './sdk-ajv-provider';
import { callToolParams, initializeParams, invalidParamsMessage, paramsSchema } from './request-params';
import type { CallToolParams } from './request-params';
import { noteRequestEnd } from './request-lifetime';
import type { HotWire } from './hot-lane';
import { HotLane } from './hot-lane';
import type { WireRoutes } from './wire-transport';

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
  /** More of the first call's work, done before the first answer (serve: the file read path). */
  readonly warmUp?: () => Promise<unknown>;
  /** The longest the first answer waits for the session's work (default SESSION_READY_WAIT_MS). */
  readonly readyWaitMs?: number;
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
  /** The bounds of the tools run as tasks (serve: `--max-tasks`, `--task-ttl`; tests: small ones). */
  readonly tasks?: TasksFeatureOptions['limits'];
  /** Lists the calls and tasks in progress (serve: `--running-file` publishes it to a VS Code window). */
  readonly running?: RunningCalls;
  /** More features (serve: the client log), registered after the tools and resources. */
  readonly features?: readonly ServerFeature[];
}

/** One server instance and what to release with it (also released when it closes). */
export interface ServerInstance {
  readonly server: Server;
  readonly cleanup: () => void;
}

/** Builds server instances for the SDK's `serveStdio`, all over one tool list cache. */
export interface ServerFactory extends WireRoutes {
  create(era: ProtocolEra): ServerInstance;
  /** A `tools/list` answer as bytes, when `message` is one from the cache (see WireTransport). */
  serialized(message: JSONRPCMessage): Buffer | undefined;
  /** The hot lane of the connection's 2025-11-25 instance, once its `initialize` is answered (hot-lane.ts). */
  take(message: unknown, wire: HotWire): boolean;
  /** The connection's 2026-07-28 listen streams, for WireTransport to observe. */
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
    toolsFeature({ registry, pages, logger, listChanged, ...(options.running === undefined ? {} : { running: options.running }), ...(options.shutdownSignal === undefined ? {} : { shutdownSignal: options.shutdownSignal }), ...(options.outputs === undefined ? {} : { outputs: options.outputs }) }),
    tasksFeature({ registry, logger, ...(options.running === undefined ? {} : { running: options.running }), ...(options.shutdownSignal === undefined ? {} : { shutdownSignal: options.shutdownSignal }), ...(options.outputs === undefined ? {} : { outputs: options.outputs }), ...(options.tasks === undefined ? {} : { limits: options.tasks }) }),
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
  const shared = features.reduce<ServerCapabilities>((merged, feature) => mergeCapabilities(merged, feature.capabilities), { logging: {} });
  // What only one era has (the tasks: core in 2025-11-25, an extension in 2026-07-28).
  const capabilitiesOf = (era: ProtocolEra): ServerCapabilities => features.reduce((merged, feature) => (feature.capabilitiesFor === undefined ? merged : mergeCapabilities(merged, feature.capabilitiesFor(era))), shared);
  const capabilities = { legacy: capabilitiesOf('legacy'), modern: capabilitiesOf('modern') };
  const ready = sessionReadiness(registry, options.warmUp, options.readyWaitMs ?? SESSION_READY_WAIT_MS);
  // The SDK's own JSON Schema checks (elicitation answers) load Ajv on first use too.
  const jsonSchemaValidator = new AjvJsonSchemaValidator();
  // One stdio connection serves one pinned instance: the lane of its 2025-11-25 instance, once armed.
  let armed: HotLane | undefined;

  return {
    create: (era) => {
      const hot = new HotLane(logger);
      hot.route('ping', PING_ROUTE);
      const server = new ConnectedServer(
        { name: options.name, version: options.version },
        { capabilities: capabilities[era], instructions: INSTRUCTIONS, cacheHints: cacheHintsFor(listChanged), jsonSchemaValidator },
      );
      server.answerAfter(ready);
      if (era === 'modern') {
        // Its requests are the SDK's to parse (no hot lane on 2026-07-28): its zod schemas are built
        // now, as the first request arrives, instead of on the first calls.
        preloadSchemasOnce();
      }
      if (era === 'legacy') {
        server.onInitializeAnswered(() => {
          armed = hot;
          hot.arm();
        });
      }
      const answerToolCallFirst = (hook: ToolCallHook): void => server.answerToolCallFirst(hook);
      const registered = features.map((feature) => feature.register({ server, era, logger, hot, answerToolCallFirst }));
      // Tools a later load adds get their validators compiled in the background too.
      const compiling = registry.onDidChange(() => void registry.compileValidators());
      let released = false;
      const cleanup = (): void => {
        if (!released) {
          released = true;
          if (armed === hot) {
            armed = undefined;
          }
          hot.close(new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed'));
          compiling.dispose();
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
    take: (message, wire) => armed?.take(message, wire) ?? false,
    listenStreams: new ListenStreams(listened),
  };
}

/** `ping` on the hot lane: `{}`, as the SDK's own handler answers. */
const PING_ROUTE = { params: paramsSchema<Record<string, never>>({}), members: [], handle: () => Promise.resolve({}) };

/**
 * The requests whose params are checked here, before the SDK's handling: the SDK serves
 * `initialize` itself and answers invalid params `-32603` (request-params.ts), and checks
 * `tools/call` with its own schema first, answering with the schema's raw issue dump; here both
 * are `-32602 Invalid params for <method>: params.<field>: <problem>`, as the hot lane answers.
 */
const CHECKED_FIRST: Readonly<Record<string, StandardSchemaV1<unknown, unknown>>> = {
  initialize: initializeParams,
  'tools/call': callToolParams,
};

/** One server instance on its own (tests; serve.ts uses createServerFactory). */
export function createServer(options: CreateServerOptions, era: ProtocolEra = 'legacy'): ServerInstance {
  return createServerFactory(options).create(era);
}

/**
 * The SDK's `Server`, which answers nothing before the session's work is done (answerAfter,
 * sessionReadiness), says when its `initialize` is answered (the hot lane starts then), and checks
 * the params of `initialize` and `tools/call` first (CHECKED_FIRST).
 */
class ConnectedServer extends Server {
  private initializeAnswered: (() => void) | undefined;
  /** What every answer waits for until it settles (the session's work, sessionReadiness). */
  private ready: Promise<void> | undefined;
  /** Answers a `tools/call` that runs as a task, before the SDK's handling (answerToolCallFirst). */
  private toolCallHook: ToolCallHook | undefined;

  protected override _wrapHandler(method: string, handler: (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>): (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result> {
    const sdkWrapped = super._wrapHandler(method, handler);
    const wrapped: typeof sdkWrapped = async (request, ctx) => {
      if (this.ready !== undefined) {
        await this.ready;
      }
      const first = method === 'tools/call' ? this.toolCallHook?.(request.params as unknown as CallToolParams, ctx) : undefined;
      return first ?? sdkWrapped(request, ctx);
    };
    const schema = CHECKED_FIRST[method];
    const checked: typeof wrapped =
      schema === undefined
        ? wrapped
        : async (request, ctx) => {
            // As the SDK's 3-argument form checks them: a copy, so absent params are {}.
            const outcome = await schema['~standard'].validate({ ...request.params });
            if (outcome.issues !== undefined) {
              throw new ProtocolError(ProtocolErrorCode.InvalidParams, invalidParamsMessage(method, outcome.issues));
            }
            const result = await wrapped(request, ctx);
            if (method === 'initialize') {
              this.initializeAnswered?.();
            }
            return result;
          };
    // Outside the SDK's input_required shim: its rounds of questions end with the request.
    return method === 'tools/call' ? noteRequestEnd(checked) : checked;
  }

  /** Answers nothing before `ready` settles (read at each request: the SDK wraps handlers while constructing). */
  answerAfter(ready: Promise<void>): void {
    this.ready = ready;
    void ready.then(() => {
      this.ready = undefined;
    });
  }

  /** Answers `tools/call` with `hook` first (a call that runs as a task; see ToolCallHook). */
  answerToolCallFirst(hook: ToolCallHook): void {
    this.toolCallHook = hook;
  }

  /** Runs `listener` once this instance's `initialize` handler has returned its answer. */
  onInitializeAnswered(listener: () => void): void {
    this.initializeAnswered = listener;
  }
}

/** The longest the first answer of a connection waits for the session's work (sessionReadiness). */
export const SESSION_READY_WAIT_MS = 2_000;

/**
 * The work a session needs from its first moments on, done before the server answers its first
 * request (`initialize`, or a 2026-07-28 client's first request), so that none of it lands on
 * `tools/list` or the first calls: the first load of the plugin files (the tool list and every
 * call wait for it), Ajv when a served tool needs it (the built-ins' validators are precompiled;
 * the plugin tools' then compile in the background, one per turn), and the host's `warmUp`
 * (serve: the file read path, whose first use costs Node a few ms). Started once per process,
 * with the factory, so it runs beside start-up and the handshake's own work. Bounded: a load that
 * takes longer than `waitMs` (thousands of tasks) lets the first answer go, and the first
 * `tools/list` waits for the rest, as it would without this. Never rejects.
 */
function sessionReadiness(registry: ToolRegistry, warmUp: (() => Promise<unknown>) | undefined, waitMs: number): Promise<void> {
  // Neither rejects: loading and compiling failures are logged by the registry, the warm-up's are its own.
  const work = Promise.all([registry.initialize().then(() => void registry.compileValidators()), warmUp?.().catch(() => undefined)]);
  return new Promise((resolve) => {
    const late = setTimeout(resolve, waitMs);
    void work.then(() => {
      clearTimeout(late);
      resolve();
    });
  });
}

let schemasPreloaded = false;

/** The SDK's zod schemas of both revisions, built once per process (they are built on first use otherwise). */
function preloadSchemasOnce(): void {
  if (!schemasPreloaded) {
    schemasPreloaded = true;
    preloadSchemas();
  }
}
