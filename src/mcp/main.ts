/**
 * Entry point of the standalone MCP stdio server (dist/mcp-server.js): picks the transport and
 * wires the engine; everything else lives in createServer and src/core.
 * stdout is protocol only; logs go to stderr.
 */
import * as path from 'node:path';
import { version } from '../../package.json';
import type { ApprovalPolicy } from '../core/registry/approval';
import { ApproveAllPolicy, StartupSnapshotPolicy, StoredApprovalPolicy } from '../core/registry/approval';
import type { Disposable } from '../core/registry/emitter';
import type { ToolRegistry } from '../core/registry/tool-registry';
import type { Logger, WorkspaceFolder } from '../core/types';
import { DEFAULT_LIMITS } from '../core/types';
import { createWorkspaceRegistry, pluginDirectoriesFor } from '../core/workspace-registry';
import type { ServerCliOptions } from './cli';
import { USAGE, parseCli } from './cli';
import { watchForChanges } from './plugin-watcher';
import { ToolListTransport, createServer } from './server';
import { stderrLogger } from './stderr-logger';

const WATCH_DEBOUNCE_MS = 150;

async function main(): Promise<void> {
  const outcome = parseCli(process.argv.slice(2), process.cwd());
  if (outcome.kind === 'help' || outcome.kind === 'version') {
    process.stderr.write(outcome.kind === 'help' ? USAGE : `${version}\n`);
    return;
  }
  if (outcome.kind === 'error') {
    process.stderr.write(`workspace-tools-mcp: ${outcome.message}\n\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  await serve(outcome.options);
}

async function serve(options: ServerCliOptions): Promise<void> {
  const logger = stderrLogger(options.logLevel);
  const folders = options.workspaces.map((dir) => ({ name: path.basename(dir), path: dir }));
  const limits = {
    ...DEFAULT_LIMITS,
    ...(options.timeoutMs === undefined ? {} : { shellTimeoutMs: options.timeoutMs }),
    ...(options.maxOutputBytes === undefined ? {} : { maxOutputBytes: options.maxOutputBytes }),
  };
  const approval = approvalPolicyFor(options);
  const registry = createWorkspaceRegistry({
    folders: () => folders,
    extraPluginDirectories: () => options.pluginDirectories,
    includeBuiltins: options.builtins,
    includePlugins: options.plugins,
    approval,
    limits: () => limits,
    env: process.env,
    logger,
    disabledTools: options.disabledTools,
  });
  // Every call also ends when the server shuts down: children are in their own process
  // groups and would otherwise outlive us.
  const shutdown = new AbortController();
  const { server, cleanup, serialized } = createServer({ registry, name: 'workspace-tools', version, logger, shutdownSignal: shutdown.signal });
  // The initialize answer does not wait for plugin loading; it starts once the handshake is
  // done (or on the first request, whichever comes first).
  server.oninitialized = () => void registry.initialize();

  const watched = options.plugins && options.watch ? watchPlugins(options, folders, approval, registry, logger) : undefined;
  closeOnExit(logger, () => {
    shutdown.abort();
    watched?.dispose();
    cleanup();
    registry.dispose();
    return server.close();
  });

  await server.connect(new ToolListTransport(serialized));
  logger.info(`[mcp] workspace-tools ${version} serving ${folders.map((folder) => folder.path).join(', ')}`);
}

/** Reloads on changes to the plugin directories and to the approval store, if there is one. */
function watchPlugins(
  options: ServerCliOptions,
  folders: readonly WorkspaceFolder[],
  approval: ApprovalPolicy,
  registry: ToolRegistry,
  logger: Logger,
): Disposable {
  return watchForChanges({
    targets: [
      ...pluginDirectoriesFor(folders, options.pluginDirectories).map((directory) => directory.path),
      ...(approval.storePath === undefined ? [] : [approval.storePath]),
    ],
    debounceMs: WATCH_DEBOUNCE_MS,
    logger,
    onChange: () => void registry.reload(),
  });
}

/** Shuts down once, when the client closes stdin or a signal arrives, then exits. */
function closeOnExit(logger: Logger, release: () => Promise<void>): void {
  let closing = false;
  const close = (reason: string): void => {
    if (closing) {
      return;
    }
    closing = true;
    logger.info(`[mcp] shutting down (${reason})`);
    void release().finally(() => process.exit(0));
  };
  process.stdin.on('end', () => close('stdin closed'));
  process.stdin.on('close', () => close('stdin closed'));
  process.on('SIGINT', () => close('SIGINT'));
  process.on('SIGTERM', () => close('SIGTERM'));
}

function approvalPolicyFor(options: ServerCliOptions): ApprovalPolicy {
  if (options.approvalsFile !== undefined) {
    return new StoredApprovalPolicy(options.approvalsFile);
  }
  return options.approveChanges ? new ApproveAllPolicy() : new StartupSnapshotPolicy();
}

main().catch((error: unknown) => {
  process.stderr.write(`workspace-tools-mcp: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
