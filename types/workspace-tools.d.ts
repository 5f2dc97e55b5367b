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
  }

  /** What callTool gives back. A failed call is a result with `isError`, not a rejection. */
  interface ToolCallResult {
    readonly text: string;
    readonly isError: boolean;
    readonly structured?: unknown;
  }

  /**
   * What the function returns: text, or text and/or a JSON value (`structured`). Without `text`,
   * the model reads `structured` as indented JSON; an object `structured` is also passed on as
   * structured content where the client takes it (MCP `structuredContent`).
   */
  type CodeToolResult = string | { readonly text?: string; readonly structured?: unknown };

  /** A code tool: the default export of its module. Throwing (or rejecting) is an error result. */
  type CodeTool<Input extends object = Record<string, unknown>> = (input: Input, context: CodeToolContext) => CodeToolResult | Promise<CodeToolResult>;
}
