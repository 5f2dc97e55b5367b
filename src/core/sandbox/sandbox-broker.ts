/**
 * The sandbox broker: a small Node process (dist/sandbox-broker.mjs; the compiled file in tests)
 * that hosts Anthropic's sandbox runtime (@anthropic-ai/sandbox-runtime) for one workspace folder
 * and one kind of network session, and turns each command the engine sends into the command line
 * that runs it sandboxed. The engine spawns that line itself (process/run-process.ts), so output
 * caps, timeouts and tree kills stay the engine's.
 *
 * Why a process of its own (docs/design/os-sandbox-spike.md): the runtime is a process-wide
 * singleton keyed off `process.cwd()` (it scans the folder for files a sandboxed write must never
 * touch), starts a proxy and host `socat` bridges in the process that hosts it, installs `exit`
 * handlers, and cannot mix an open and a restricted network in one session (upstream #253).
 *
 * Life: started with cwd = the folder, argv[2] = BrokerOptions as JSON, an IPC channel. It
 * starts the session, runs a wrapped `true` (no user namespaces is otherwise silent until the
 * first real run), says `ready` or `unavailable`, then answers requests. When the channel closes
 * (the engine went away) or on SIGTERM it resets the runtime, which stops the bridges (they would
 * otherwise be left running under init), and exits.
 */
import { spawn } from 'node:child_process';
import { accessSync, chmodSync, constants, existsSync } from 'node:fs';
import * as path from 'node:path';
import type { SandboxManager, SandboxRuntimeConfig } from '@anthropic-ai/sandbox-runtime' with { 'resolution-mode': 'import' };
import type { BrokerMessage, BrokerOptions, BrokerPolicy, BrokerRequest } from './broker-protocol';

type Runtime = typeof SandboxManager;

/** How long the probe's wrapped `true` may take (a loaded machine starts bwrap slowly). */
const PROBE_TIMEOUT_MS = 30_000;

/** Sends a message; resolves once it is written (so one sent just before exiting arrives). */
function send(message: BrokerMessage): Promise<void> {
  return new Promise((resolve) => {
    if (process.send === undefined || !process.connected) {
      resolve();
      return;
    }
    process.send(message, undefined, {}, () => resolve());
  });
}

function sessionConfig(options: BrokerOptions): SandboxRuntimeConfig {
  // A restricted session filters through its proxy: hosts are allowed per command
  // (registerCommandNetworkLists). An open session has no allowedDomains at all, which is the
  // runtime's "no network namespace" (the schema asks for the list; it reads its absence as open).
  const network = options.network === 'restricted' ? { allowedDomains: [], deniedDomains: [] } : ({ deniedDomains: [] } as unknown as SandboxRuntimeConfig['network']);
  return {
    network,
    filesystem: { denyRead: [], allowWrite: [], denyWrite: [] },
    ripgrep: { command: options.ripgrep },
    ...(options.bwrapPath === undefined ? {} : { bwrapPath: options.bwrapPath }),
    ...(options.socatPath === undefined ? {} : { socatPath: options.socatPath }),
  };
}

/** The runtime's per-command settings for a policy. */
function commandConfig(policy: BrokerPolicy): Partial<SandboxRuntimeConfig> {
  const filesystem = { denyRead: [...policy.denyRead], allowRead: [...policy.allowRead], allowWrite: [...policy.allowWrite], denyWrite: [...policy.denyWrite] };
  switch (policy.network.kind) {
    case 'open':
      return { filesystem };
    case 'none':
      return { filesystem, network: { allowedDomains: [], deniedDomains: [] } };
    case 'hosts':
      return { filesystem, network: { allowedDomains: [...policy.network.hosts], deniedDomains: [] } };
  }
}

/** Runs a wrapped command line to its end: its exit code and what it printed on stderr. */
function runWrapped(wrapped: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', wrapped], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = `${stderr}${chunk.toString('utf8')}`.slice(-4000);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), PROBE_TIMEOUT_MS);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ code: null, stderr: String(error) });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr: stderr.trim() });
    });
  });
}

/**
 * The runtime's seccomp loader beside the bundle (dist/vendor/, esbuild.mjs), made executable if
 * an unpacker dropped the mode (VS Code and npm keep it; a copy by hand may not): without it the
 * runtime would run commands without its seccomp filter.
 */
function keepSeccompExecutable(): void {
  const arch = process.arch === 'arm64' ? 'arm64' : 'x64';
  const loader = path.join(path.dirname(process.argv[1] ?? ''), 'vendor', 'seccomp', arch, 'apply-seccomp');
  if (!existsSync(loader)) {
    return;
  }
  try {
    accessSync(loader, constants.X_OK);
  } catch {
    chmodSync(loader, 0o755);
  }
}

/** Starts the session and proves it can run something; the reason when it cannot. */
async function start(runtime: Runtime, options: BrokerOptions): Promise<string | undefined> {
  if (process.platform === 'linux') {
    keepSeccompExecutable();
  }
  if (!runtime.isSupportedPlatform()) {
    return 'this platform is not one the sandbox runtime supports (Linux with bubblewrap, macOS; WSL 1 is not)';
  }
  // Without its seccomp filter the runtime still runs commands, with the machine's Unix sockets
  // (the SSH agent, Docker's) in reach: that is no sandbox here.
  const seccomp = runtime.checkDependencies({ command: options.ripgrep }).warnings.find((warning) => /seccomp/i.test(warning));
  if (seccomp !== undefined) {
    return `the sandbox runtime's seccomp filter is missing (${seccomp})`;
  }
  try {
    await runtime.initialize(sessionConfig(options));
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  const probe = await runtime.wrapWithSandbox('true', undefined, commandConfig({ denyRead: [], allowRead: [], allowWrite: [], denyWrite: [], network: { kind: options.network === 'open' ? 'open' : 'none' } }));
  const ran = await runWrapped(probe);
  runtime.cleanupAfterCommand();
  return ran.code === 0 ? undefined : `a sandboxed "true" failed (exit ${ran.code ?? 'none'}): ${ran.stderr.split('\n').slice(-3).join(' ') || 'no message'}`;
}

/**
 * The commands wrapped and not done yet: the runtime counts the sandboxes that run to remove its
 * placeholder files after the last one, so only a wrap that happened is counted down.
 */
const running = new Set<string>();

async function answer(runtime: Runtime, request: BrokerRequest): Promise<BrokerMessage> {
  try {
    if (request.kind === 'wrap') {
      if (request.policy.network.kind === 'hosts') {
        runtime.registerCommandNetworkLists(request.commandId, { allowedDomains: [...request.policy.network.hosts] });
      }
      const wrapped = await runtime.wrapWithSandbox(request.command, undefined, commandConfig(request.policy), undefined, { commandId: request.commandId });
      running.add(request.commandId);
      return { kind: 'reply', id: request.id, wrapped };
    }
    const annotated = runtime.annotateStderrWithSandboxFailures(request.commandId, '');
    runtime.unregisterCommandNetworkLists(request.commandId);
    if (running.delete(request.commandId)) {
      runtime.cleanupAfterCommand();
    }
    const violations = annotated
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('<'));
    return { kind: 'reply', id: request.id, violations };
  } catch (error) {
    return { kind: 'reply', id: request.id, error: error instanceof Error ? error.message : String(error) };
  }
}

/** How long stopping waits for a start in progress (the runtime may be starting its bridges). */
const STOP_WAIT_MS = 5_000;

/**
 * Ends this broker and everything it started: the runtime's reset (its proxy and host socat
 * bridges), after any start still in progress (a bridge started after a reset would be left
 * running under init), then the whole process group at once (the broker leads its own group:
 * broker-process.ts), so no child of the runtime outlives it whatever the reset missed.
 */
async function stopAll(runtime: Runtime, starting: Promise<unknown>): Promise<never> {
  await Promise.race([starting.catch(() => undefined), new Promise((resolve) => setTimeout(resolve, STOP_WAIT_MS))]);
  await runtime.reset().catch(() => undefined);
  if (process.platform !== 'win32') {
    try {
      process.kill(-process.pid, 'SIGKILL');
    } catch {
      // not a group leader (started by hand): the reset above is all there is
    }
  }
  process.exit(0);
}

async function main(): Promise<void> {
  const options = JSON.parse(process.argv[2] ?? '{}') as BrokerOptions;
  const { SandboxManager: runtime } = await import('@anthropic-ai/sandbox-runtime');
  let starting: Promise<string | undefined> = Promise.resolve(undefined);
  let stopping = false;
  const stop = (): void => {
    if (!stopping) {
      stopping = true;
      void stopAll(runtime, starting);
    }
  };
  process.on('disconnect', stop);
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  starting = start(runtime, options);
  const reason = await starting;
  if (reason !== undefined) {
    await send({ kind: 'unavailable', reason });
    stop();
    return;
  }
  process.on('message', (request: BrokerRequest) => {
    void answer(runtime, request).then(send);
  });
  await send({ kind: 'ready' });
}

main().catch(async (error: unknown) => {
  await send({ kind: 'unavailable', reason: `the sandbox broker failed: ${error instanceof Error ? error.message : String(error)}` });
  process.exit(1);
});
