import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { JSONRPCMessage, Tool } from '@modelcontextprotocol/sdk/types.js';
import {
  CallToolRequestSchema,
  CallToolResultSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { Disposable } from '../core/registry/emitter';
import type { ToolRegistry } from '../core/registry/tool-registry';
import type { Logger, ToolDefinition } from '../core/types';
import { throttleProgress } from '../core/progress-throttle';
import { annotationsFor } from './annotations';
import type { OutputStore } from '../core/output/output-store';
import { UnknownOutputError } from '../core/output/output-store';
import { ToolListPages } from './tool-pages';
import { announceToolListChanges } from './list-changed';
import type { RequestGuard } from './request-guard';
import { invalidParamsGuard, servedRequestSchemas } from './request-guard';
import { promptCapabilities, servePrompts } from './serve-prompts';

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
  /** More of the first call's work to do in the background once the client is initialized. */
  readonly warmUp?: () => Promise<unknown>;
  /**
   * Whether the tool list can change while the server runs (serve: unless `--no-watch`); only
   * then is `tools.listChanged` declared. Default true.
   */
  readonly listChanged?: boolean;
}

/** JSON-RPC error of a resource that does not exist (MCP spec, resources). */
const RESOURCE_NOT_FOUND = -32002;

/**
 * The MCP server over a tool registry, with the low-level SDK `Server` (our tools carry JSON
 * Schemas, not zod). `tools/list` is served in pages (ToolListPages) from a cache rebuilt only
 * when the registry changes; `tools/call` validates and runs through the registry, honouring
 * cancellation.
 */
export function createServer(options: CreateServerOptions): {
  server: Server;
  cleanup: () => void;
  /** A `tools/list` answer as bytes, when `message` is one from the cache (see ToolListTransport). */
  serialized: (message: JSONRPCMessage) => Buffer | undefined;
  /** The answer to a request with invalid params, before the SDK sees it (see ToolListTransport). */
  guard: RequestGuard;
} {
  const { registry, logger } = options;
  const server = new Server(
    { name: options.name, version: options.version },
    {
      capabilities: {
        tools: { listChanged: options.listChanged ?? true },
        logging: {},
        ...(options.outputs === undefined ? {} : { resources: {} }),
        ...(registry.loadsPluginFiles ? promptCapabilities(options.listChanged ?? true) : {}),
      },
      instructions:
        'Tools that act on the open workspace: git status, diffs, logs, file reading and search, plus the team\'s own tools from .vscode/tools.',
    },
  );

  const pages = new ToolListPages(registry, toMcpTool);

  server.setRequestHandler(ListToolsRequestSchema, async (request) => {
    await registry.initialize();
    return pages.page(request.params?.cursor);
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name, arguments: input } = request.params;
    const signal = options.shutdownSignal === undefined ? extra.signal : AbortSignal.any([extra.signal, options.shutdownSignal]);
    const token = request.params._meta?.progressToken;
    const progress =
      token === undefined
        ? undefined
        : throttleProgress((message, count) => {
            const params = { progressToken: token, progress: count, message };
            extra.sendNotification({ method: 'notifications/progress', params }).catch((error: unknown) => {
              logger.debug(`[mcp] could not send a progress notification: ${String(error)}`);
            });
          });
    try {
      const result = await registry.call(name, input ?? {}, {
        signal,
        door: 'mcp',
        ...(options.outputs === undefined ? {} : { outputs: options.outputs }),
        ...(progress === undefined ? {} : { progress: (message: string) => progress.report(message) }),
      });
      if (result.refusal?.reason === 'unknown') {
        // A protocol error, as the MCP spec asks, that still tells the model what it can call.
        throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}. Available tools: ${result.refusal.available.join(', ') || '(none)'}.`);
      }
      const links = (result.resources ?? []).map((resource) => ({ type: 'resource_link' as const, ...resource }));
      return {
        content: [{ type: 'text', text: result.text }, ...links],
        ...(result.structured === undefined || result.isError ? {} : { structuredContent: result.structured }),
        isError: result.isError,
      };
    } finally {
      // Before the result is sent: nothing may follow it.
      progress?.close();
    }
  });

  const outputs = options.outputs;
  if (outputs !== undefined) {
    server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: outputs.list() }));
    server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
      try {
        const { text, resource } = await outputs.read(request.params.uri);
        return { contents: [{ uri: resource.uri, mimeType: resource.mimeType, text }] };
      } catch (error) {
        if (error instanceof UnknownOutputError) {
          throw new McpError(RESOURCE_NOT_FOUND, error.message, { uri: request.params.uri });
        }
        throw error;
      }
    });
  }

  const prompts = registry.loadsPluginFiles ? servePrompts(server, registry, logger) : undefined;
  const subscription = announceToolListChanges(registry, () => {
    if (server.transport === undefined) {
      return;
    }
    server.sendToolListChanged().catch((error: unknown) => {
      logger.warn(`[mcp] could not send tools/list_changed: ${String(error)}`);
    });
  });
  const warmUp = getReadyAfterHandshake(server, registry, options.warmUp);

  return {
    server,
    cleanup: () => {
      subscription.dispose();
      prompts?.dispose();
      warmUp.dispose();
    },
    serialized: (message) => pages.serialized(message),
    guard: invalidParamsGuard(servedRequestSchemas({ resources: options.outputs !== undefined, prompts: registry.loadsPluginFiles })),
  };
}

/**
 * Parses one sample `tools/call` request and result with the SDK's schemas, in the background:
 * zod builds its parsers on first use, which was ~40% of the first call's server time.
 */
function warmUpProtocolParsing(): void {
  CallToolRequestSchema.safeParse({ method: 'tools/call', params: { name: 'warm-up', arguments: { path: 'x' }, _meta: { progressToken: 1 } } });
  CallToolResultSchema.safeParse({ content: [{ type: 'text', text: 'x' }, { type: 'resource_link', uri: 'workspace-tools://output/x', name: 'x' }], structuredContent: {}, isError: false });
}

/**
 * Gets the first call ready in the background once the client is initialized, so that it costs
 * about what later calls do: the SDK's parsing of a call (warmUpProtocolParsing), the tools'
 * input validators (the registry compiles them, one per turn, and again for the tools each later
 * load serves), and `warmUp` (serve: the file read path). Never before `initialize` is answered:
 * loading Ajv and compiling (~1 ms a schema) is work start-up must not pay for. A call that comes
 * first does its own.
 */
function getReadyAfterHandshake(server: Server, registry: ToolRegistry, warmUp?: () => Promise<unknown>): Disposable {
  let initialized = false;
  const compile = (): void => {
    // Neither promise rejects: loading and compiling failures are logged by the registry.
    void registry.initialize().then(() => registry.compileValidators());
  };
  server.oninitialized = () => {
    initialized = true;
    setImmediate(warmUpProtocolParsing);
    compile();
    void warmUp?.();
  };
  return registry.onDidChange(() => {
    if (initialized) {
      compile();
    }
  });
}

/**
 * One registry tool as MCP describes it. `annotations.title` repeats `title` on purpose: clients
 * of protocol 2025-03-26 know only that one.
 */
export function toMcpTool(definition: ToolDefinition): Tool {
  const annotations = {
    ...(definition.title === undefined ? {} : { title: definition.title }),
    ...annotationsFor(definition.tags),
  };
  return {
    name: definition.name,
    ...(definition.title === undefined ? {} : { title: definition.title }),
    description: definition.description,
    inputSchema: definition.inputSchema as Tool['inputSchema'],
    ...(definition.outputSchema === undefined ? {} : { outputSchema: definition.outputSchema as Tool['outputSchema'] }),
    ...(Object.keys(annotations).length === 0 ? {} : { annotations }),
  };
}

/**
 * The stdio transport, except that a message `serialized` knows (a cached `tools/list` page)
 * is written as ready-made bytes instead of being stringified again, and a request `guard`
 * refuses is answered here, never reaching the SDK. Everything else, and the back-pressure
 * handling, is the SDK's.
 */
export class ToolListTransport extends StdioServerTransport {
  constructor(
    private readonly serialized: (message: JSONRPCMessage) => Buffer | undefined,
    private readonly guard: RequestGuard = () => undefined,
    private readonly output: NodeJS.WritableStream = process.stdout,
  ) {
    super(process.stdin, output as NodeJS.WriteStream);
  }

  /** Starts reading, with the guard in front of the SDK (which has set `onmessage` by now). */
  override start(): Promise<void> {
    const deliver = this.onmessage;
    this.onmessage = (message: JSONRPCMessage) => {
      const refusal = this.guard(message);
      if (refusal === undefined) {
        deliver?.(message);
      } else {
        this.send(refusal).catch((error: unknown) => this.onerror?.(error instanceof Error ? error : new Error(String(error))));
      }
    };
    return super.start();
  }

  override send(message: JSONRPCMessage): Promise<void> {
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
