/**
 * `serve` (the default): the MCP server on stdio. Plugin loading starts with the process, not
 * after `initialize`, so no file written in between counts as present, and the first answer
 * waits for it (server.ts, sessionReadiness), so that `tools/list` and the first calls do not.
 * stdout is protocol only; logs go to stderr.
 */
import { version } from '../../../package.json';
import type { Disposable } from '../../core/registry/emitter';
import { watchPluginSources } from '../../core/registry/watch-sources';
import type { Logger } from '../../core/types';
import { RunningCalls } from '../../core/running/running-calls';
import { publishRunning } from '../../core/running/running-file';
import { readLiveSettings } from '../../core/settings/live-settings';
import { pluginDirectoriesFor } from '../../core/workspace-registry';
import type { ServerConfig } from '../../core/settings/server-config';
import { OutputStore } from '../../core/output/output-store';
import { warmUpFileReads } from '../../core/files/read-warm-up';
import { ClientLog } from '../client-log';
import { watchForChanges } from '../../core/files/watch-paths';
import { approveCommandFor, reportPluginNotices } from '../plugin-notices';
import { launcherForScript } from '../../core/client-config/launch';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { createServerFactory } from '../server';
import { WireTransport } from '../wire-transport';
import { stderrLogger } from '../stderr-logger';
import type { CommandSetup } from './setup';
import { setUp } from './setup';
import type { EditorBridgeState } from '../../core/editor-bridge/bridged-tools';

const WATCH_DEBOUNCE_MS = 150;

/** Serves until the client closes stdin (or stdout), or a signal arrives; returns once listening. */
export function serve(options: ServerConfig, scriptPath: string, editor: EditorBridgeState): void {
  const logger = stderrLogger(options.logLevel);
  const setup = setUp(options, logger, undefined, editor.tools);
  const { registry, folders } = setup;
  const firstLoad = registry.initialize();
  // Every call also ends when the server shuts down: children are in their own process
  // groups and would otherwise outlive us.
  const shutdown = new AbortController();
  // The calls and tasks in progress, published to the VS Code window that started us (--running-file).
  const running = options.runningFile === undefined ? undefined : new RunningCalls();
  const published = running === undefined || options.runningFile === undefined ? undefined : publishRunning(running, options.runningFile, logger);
  const outputs = new OutputStore();
  const approveCommand = approveCommandFor(launcherForScript(scriptPath, version), options.workspaces, options.approvalsFile);
  // A client that turns logging on after the first load is sent what it missed.
  const clientLog = new ClientLog(logger, () => notices.current().forEach((notice) => clientLog.send('warning', notice.text)));
  const notices = reportPluginNotices(registry, approveCommand, (notice) => {
    logger.warn(`[plugins] ${notice.text}`);
    clientLog.send('warning', notice.text);
  });
  void firstLoad.then(() => notices.report());
  // The sandbox brokers the served tools need start in the background once they are known (and
  // again for what each later load serves), so a first call does not wait for the runtime.
  void firstLoad.then(() => registry.warmSandbox());
  const sandboxWarm = registry.onDidChange(() => registry.warmSandbox());
  const factory = createServerFactory({
    registry,
    name: 'workspace-tools',
    version,
    logger,
    shutdownSignal: shutdown.signal,
    outputs,
    ...(options.plugins ? { pluginResources: { env: process.env, limits: () => setup.limits() } } : {}),
    warmUp: () => warmUpFileReads(scriptPath),
    // Only the watchers reload or apply settings: without them the list never changes.
    listChanged: options.watch,
    features: [clientLog.feature()],
    ...(running === undefined ? {} : { running }),
    ...(options.maxTasks === undefined && options.taskTtlMs === undefined
      ? {}
      : { tasks: { ...(options.maxTasks === undefined ? {} : { maxActive: options.maxTasks }), ...(options.taskTtlMs === undefined ? {} : { defaultTtlMs: options.taskTtlMs }) } }),
  });

  const watched = options.plugins && options.watch ? watchPlugins(options, setup, logger) : undefined;
  const sourcesWatched = options.plugins && options.watch ? watchSources(setup, logger) : undefined;
  const settingsWatched = options.settingsFile !== undefined && options.watch ? watchSettings(options.settingsFile, setup, logger) : undefined;
  // The client's first message picks the protocol era (2025-11-25 `initialize`, or 2026-07-28);
  // the factory builds the server instance for it (and maybe one for a discarded discover probe).
  const connection = serveStdio(({ era }) => factory.create(era).server, {
    transport: new WireTransport(factory, factory.listenStreams, logger),
    onerror: (error) => logger.debug(`[mcp] ${error.message}`),
  });
  closeOnExit(logger, () => {
    shutdown.abort();
    published?.dispose();
    watched?.dispose();
    sourcesWatched?.dispose();
    settingsWatched?.dispose();
    notices.dispose();
    sandboxWarm.dispose();
    registry.dispose();
    editor.connection?.close();
    setup.sandbox.dispose();
    outputs.dispose();
    // The last calls' records are written before the process exits.
    return Promise.all([connection.close(), setup.history?.flush()]).then(() => undefined);
  });

  logger.info(`[mcp] workspace-tools ${version} serving ${folders.map((folder) => folder.path).join(', ')}; approvals from ${setup.storePath}`);
}

/** Reloads on changes to the plugin directories and to the approval store. */
function watchPlugins(options: ServerConfig, setup: CommandSetup, logger: Logger): Disposable {
  const storePath = setup.approval.storePath;
  return watchForChanges({
    targets: [
      ...pluginDirectoriesFor(setup.folders, options.pluginDirectories).map((directory) => directory.path),
      ...(storePath === undefined ? [] : [storePath]),
    ],
    debounceMs: WATCH_DEBOUNCE_MS,
    logger,
    onChange: () => void setup.registry.reload(),
  });
}

/** Reloads when a code module or an imported source of a loaded plugin file changes (core/registry/watch-sources.ts). */
function watchSources(setup: CommandSetup, logger: Logger): Disposable {
  return watchPluginSources(setup.registry, { debounceMs: WATCH_DEBOUNCE_MS, logger, onChange: () => void setup.registry.reload() });
}

/**
 * Applies the live settings file whenever it changes: toggling a tool in VS Code's tools view
 * changes what the client is offered (tools/list_changed) without restarting the server.
 */
function watchSettings(file: string, setup: CommandSetup, logger: Logger): Disposable {
  return watchForChanges({
    targets: [file],
    debounceMs: WATCH_DEBOUNCE_MS,
    logger,
    onChange: () => {
      const settings = readLiveSettings(file, (problem) => logger.warn(`[settings] ${problem}`));
      if (settings !== undefined) {
        setup.applyLiveSettings(settings);
        logger.info(`[settings] applied ${file}`);
      }
    },
  });
}

/**
 * Shuts down once, when the client closes stdin or stdout (a write then fails with EPIPE) or a
 * signal arrives, then exits.
 */
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
  process.stdout.on('error', (error: NodeJS.ErrnoException) => close(`stdout closed: ${error.code ?? error.message}`));
  // With stderr gone too there is nobody to tell; a failed log line must not crash the exit.
  process.stderr.on('error', () => undefined);
  process.on('SIGINT', () => close('SIGINT'));
  process.on('SIGTERM', () => close('SIGTERM'));
}
