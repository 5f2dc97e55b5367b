/**
 * Types for code tools of the Workspace Tools extension: a plugin file's
 * `{ "type": "code", "module": "tools/my-tool.ts" }` runs the module's default export, a `CodeTool`.
 *
 * Copy this file beside your modules (the New Plugin File command does) and reference it:
 *
 *   /// <reference path="./workspace-tools.d.ts" />
 *   const hello: WorkspaceTools.CodeTool<{ name?: string }> = async (input) => `Hello ${input.name ?? 'world'}`;
 *   export default hello;
 *
 * It declares only types: nothing is imported at run time.
 */
declare namespace WorkspaceTools {
  /** What the function receives besides its input. */
  interface CodeToolContext {
    /** Absolute path of the workspace folder: the process's working directory and the only place it may read. */
    readonly workspaceFolder: string;
    /** Aborted when the call is cancelled; the process is killed 100 ms later. */
    readonly signal: AbortSignal;
    /** Says what the tool is doing now (MCP progress notifications, where the client asks for them). */
    progress(message: string): void;
    /** A line for the log (VS Code's Workspace Tools output, or the MCP server's stderr). */
    log(message: string): void;
    /**
     * Calls another served tool through the extension, with the rules of any call: the tool must be
     * approved and enabled, and its input is validated. It may do only what this tool's tags allow
     * (a tool without `execute` cannot reach one tagged `execute`; a read-only tool reaches only
     * read-only tools). Call as many as you like: a few run at once (8 by default), the rest wait.
     * One call of your tool makes at most 1000 such calls, each result is cut at the output limit,
     * and at most 64 MB of results come back in all; past that a call is an error result.
     */
    callTool(name: string, input?: object): Promise<ToolCallResult>;
    /**
     * Asks the user a question and waits for the answer (MCP form elicitation): `message`, and a
     * flat form of strings, numbers, integers, booleans and multi-selects (`requestedSchema`; pass
     * `{ type: 'object', properties: {} }` for a plain yes/no). Resolves to what the user did:
     * `accept` (with `content`, the values, checked against the form), `decline` or `cancel`.
     * Rejects when the client cannot ask ("this client cannot ask the user: ..."; for example an MCP
     * client without the elicitation capability, the command line without a terminal, VS Code's
     * chat tools), and for a form a client cannot show. One question at a time. The tool's timeout
     * keeps running while the user answers: give a tool that asks a longer `timeout`.
     */
    elicit(message: string, requestedSchema?: ElicitSchema): Promise<ElicitResult>;
  }

  /** One field of a form: a string (maybe an enum or titled choices), a number, a boolean, or a multi-select. */
  type ElicitField =
    | { readonly type: 'string'; readonly title?: string; readonly description?: string; readonly default?: string; readonly minLength?: number; readonly maxLength?: number; readonly format?: 'email' | 'uri' | 'date' | 'date-time'; readonly enum?: readonly string[]; readonly enumNames?: readonly string[]; readonly oneOf?: ReadonlyArray<{ readonly const: string; readonly title: string }> }
    | { readonly type: 'number' | 'integer'; readonly title?: string; readonly description?: string; readonly default?: number; readonly minimum?: number; readonly maximum?: number }
    | { readonly type: 'boolean'; readonly title?: string; readonly description?: string; readonly default?: boolean }
    | {
        readonly type: 'array';
        readonly title?: string;
        readonly description?: string;
        readonly default?: readonly string[];
        readonly minItems?: number;
        readonly maxItems?: number;
        readonly items: { readonly type: 'string'; readonly enum: readonly string[] } | { readonly anyOf: ReadonlyArray<{ readonly const: string; readonly title: string }> };
      };

  /** The form `elicit` shows: flat, nothing nested. */
  interface ElicitSchema {
    readonly type: 'object';
    readonly properties: Readonly<Record<string, ElicitField>>;
    readonly required?: readonly string[];
  }

  /** What the user did with the question. */
  interface ElicitResult {
    readonly action: 'accept' | 'decline' | 'cancel';
    /** The values, when accepted. */
    readonly content?: Readonly<Record<string, string | number | boolean | readonly string[]>>;
  }

  /**
   * One part of a rich result (MCP content). `data` and `blob` are base64 (standard alphabet,
   * padded). Clients that read only text get each part described ("[image/png, 12.3 KB]").
   */
  type ContentPart =
    | { readonly type: 'text'; readonly text: string }
    | { readonly type: 'image' | 'audio'; readonly data: string; readonly mimeType: string }
    | { readonly type: 'resource'; readonly resource: { readonly uri: string; readonly mimeType?: string; readonly text: string } | { readonly uri: string; readonly mimeType?: string; readonly blob: string } }
    | { readonly type: 'resource_link'; readonly uri: string; readonly name: string; readonly mimeType?: string; readonly description?: string };

  /** What callTool gives back. A failed call is a result with `isError`, not a rejection. */
  interface ToolCallResult {
    readonly text: string;
    readonly isError: boolean;
    readonly structured?: unknown;
  }

  /**
   * What the function returns: text, or text and/or a JSON value (`structured`) and/or content
   * parts (`content`: images, audio, embedded resources, links). Without `text`, the model reads
   * `structured` as indented JSON, or the parts described; an object `structured` is also passed
   * on as structured content where the client takes it (MCP `structuredContent`). With `content`,
   * an MCP client gets the parts as they are and `text` goes to readers of text alone. Everything
   * together must fit in the handler's `maxOutputBytes` (decoded): parts are never cut.
   */
  type CodeToolResult = string | { readonly text?: string; readonly structured?: unknown; readonly content?: readonly ContentPart[] };

  /** A code tool: the default export of its module. Throwing (or rejecting) is an error result. */
  type CodeTool<Input extends object = Record<string, unknown>> = (input: Input, context: CodeToolContext) => CodeToolResult | Promise<CodeToolResult>;
}
