/**
 * What a sandbox policy is, as types alone: policy.ts makes one from a tool's tags, the Sandbox
 * port (sandbox.ts) applies one. Apart from policy.ts because types.ts names the port
 * (ToolRunContext.sandbox) and policy.ts imports types.ts: no import circle is allowed, type-only
 * ones included (test/unit/lint/import-cycles.test.ts).
 */

/** Where the tool's network goes. */
export type NetworkPolicy =
  | { readonly kind: 'none' }
  | { readonly kind: 'open' }
  | { readonly kind: 'hosts'; readonly hosts: readonly string[] };

/** What one tool's processes may do; absolute paths throughout. */
export interface SandboxPolicy {
  /** `temp-only`: nothing but the call's private temporary folder; `workspace`: the folder too; `paths`: only `writePaths`. */
  readonly write: 'temp-only' | 'workspace' | 'paths';
  /** The folder of the workspace the tool belongs to. */
  readonly folder: string;
  /** With `write: 'paths'`: the writable paths inside the folder. */
  readonly writePaths: readonly string[];
  readonly network: NetworkPolicy;
  /** Never readable: credentials, this tool's state, and the paths a setting adds. */
  readonly denyRead: readonly string[];
  /** Re-opened out of `denyRead` because the tool declares it reads them. */
  readonly allowRead: readonly string[];
}

/** Where the tool's user-level facts are. */
export interface PolicyPlace {
  /** The workspace folder, absolute. */
  readonly folder: string;
  /** The user's home folder, absolute. */
  readonly home: string;
  /** This product's own state (the approval store's and the history's folders): never readable, never re-opened. */
  readonly statePaths: readonly string[];
  /** More paths no tool may read (the `workspaceTools.sandboxDenyRead` setting), absolute or `~/`. */
  readonly extraDenyRead?: readonly string[];
}
