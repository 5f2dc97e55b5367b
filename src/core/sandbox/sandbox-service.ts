/**
 * The sandbox of one engine (the MCP server, the extension host): brokers hosting Anthropic's
 * sandbox runtime, one per workspace folder and kind of network session, started in the
 * background and reused by every call; the probe that finds whether this machine can sandbox at
 * all (the first broker's start: the runtime's checks, then a wrapped `true`); and the wrapping of
 * one process request, each call with its own temporary folder.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Platform } from '../platform/platform';
import { hostPlatform } from '../platform/platform';
import { executableOnPath } from '../platform/ripgrep';
import type { ProcessRequest } from '../process/run-process';
import type { Logger } from '../types';
import { BrokerProcess, defaultBrokerPath } from './broker-process';
import type { BrokerNetwork, BrokerOptions, BrokerPolicy } from './broker-protocol';
import type { SandboxPolicy } from './policy';
import type { Sandbox, SandboxedRun } from './sandbox';
import { unsandboxed } from './sandbox';
import { sandboxedCommand } from './sandboxed-command';
import type { SandboxSetting, SandboxStatus } from './status';
import { howToFix, unavailableNotice } from './status';
import type { UserPlace } from './user-place';

export interface SandboxServiceOptions {
  readonly setting: SandboxSetting;
  readonly user: UserPlace;
  /**
   * The environment that finds the programs the sandbox needs: `WORKSPACE_TOOLS_BWRAP` (the
   * bubblewrap to use; a path that is not one makes the sandbox unavailable, as a missing
   * bubblewrap does), `WORKSPACE_TOOLS_RIPGREP` (the extension's: VS Code's ripgrep), else PATH.
   */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly logger: Logger;
  /** Told once, when the probe finds the sandbox unavailable (stderr, the extension's output). */
  readonly onUnavailable?: (status: Extract<SandboxStatus, { state: 'unavailable' }>) => void;
  readonly platform?: Platform;
  /** The Node that runs brokers (default: this process's). */
  readonly execPath?: string;
  readonly brokerPath?: string;
}

/** The engine's sandbox for `setting`: none when it is `off` (no broker ever starts). */
export function createSandbox(options: SandboxServiceOptions): Sandbox {
  return options.setting === 'off' ? unsandboxed(options.user) : new SandboxService(options);
}

/**
 * Home folders the runtime keeps writable for its own users' comfort when nothing hides them
 * (`~/.npm/_logs`, `~/.claude/debug`): a channel from one call to the next and into the home,
 * which the tags never grant. Hidden, they become empty folders private to the call.
 */
const RUNTIME_HOME_WRITES = ['.npm/_logs', '.claude/debug'];

/** The runtime's shared temporary folder, writable to every call when it exists: never. */
const RUNTIME_SHARED_TEMP = ['/tmp/claude', '/private/tmp/claude'];

class SandboxService implements Sandbox {
  readonly setting: SandboxSetting;
  readonly user: UserPlace;
  private known: SandboxStatus = { state: 'checking' };
  private probe: Promise<SandboxStatus> | undefined;
  private readonly brokers = new Map<string, BrokerProcess>();
  private readonly platform: Platform;

  constructor(private readonly options: SandboxServiceOptions) {
    this.setting = options.setting;
    this.user = options.user;
    this.platform = options.platform ?? hostPlatform();
  }

  status(): SandboxStatus {
    return this.known;
  }

  ready(folder?: string): Promise<SandboxStatus> {
    this.probe ??= this.startProbe(folder ?? os.tmpdir());
    return this.probe;
  }

  warm(folder: string, network: BrokerNetwork): void {
    void this.ready(folder).then((status) => {
      if (status.state === 'available') {
        this.broker(folder, network);
      }
    });
  }

  async wrap(request: ProcessRequest, policy: SandboxPolicy): Promise<SandboxedRun> {
    const status = await this.ready(policy.folder);
    if (status.state !== 'available') {
      throw new Error(`the OS sandbox is unavailable: ${status.state === 'unavailable' ? status.reason : status.state}`);
    }
    const network: BrokerNetwork = policy.network.kind === 'open' ? 'open' : 'restricted';
    const broker = this.broker(policy.folder, network);
    const failure = await broker.started;
    if (failure !== undefined) {
      this.brokers.delete(brokerKey(policy.folder, network));
      throw new Error(`the OS sandbox could not start for ${policy.folder}: ${failure}`);
    }
    // Made before the call: the runtime binds only what exists, so a declared folder to write
    // that is not there yet could never be made by the tool.
    await Promise.all(policy.writePaths.map((entry) => mkdir(entry, { recursive: true })));
    const tempFolder = await mkdtemp(path.join(os.tmpdir(), 'wt-call-'));
    const removeTemp = (): Promise<void> => rm(tempFolder, { recursive: true, force: true }).catch(() => undefined);
    // 128 random bits: on a call with declared hosts the id is what the proxy allows them for.
    const commandId = randomBytes(16).toString('base64url');
    try {
      const exports = { TMPDIR: tempFolder, ...(policy.network.kind === 'hosts' ? { NODE_USE_ENV_PROXY: '1' } : {}) };
      const wrapped = await broker.wrap(sandboxedCommand(request.file, request.args, exports), commandId, this.brokerPolicy(policy, tempFolder));
      return {
        request: { ...request, file: '/bin/sh', args: ['-c', wrapped], env: { ...request.env, SHLVL: shellLevelFor(request.env['SHLVL']) } },
        tempFolder,
        done: async () => {
          const violations = await broker.done(commandId).catch(() => []);
          await removeTemp();
          return violations;
        },
      };
    } catch (error) {
      await broker.done(commandId).catch(() => undefined);
      await removeTemp();
      throw error;
    }
  }

  dispose(): void {
    for (const broker of this.brokers.values()) {
      broker.stop();
    }
    this.brokers.clear();
  }

  private brokerPolicy(policy: SandboxPolicy, tempFolder: string): BrokerPolicy {
    const writes = policy.write === 'temp-only' ? [] : policy.write === 'workspace' ? [policy.folder] : policy.writePaths;
    return {
      denyRead: [...policy.denyRead, ...RUNTIME_HOME_WRITES.map((entry) => path.join(this.user.home, entry))],
      allowRead: [...policy.allowRead],
      allowWrite: [tempFolder, ...writes],
      denyWrite: RUNTIME_SHARED_TEMP,
      network: policy.network,
    };
  }

  private startProbe(folder: string): Promise<SandboxStatus> {
    const found = (status: SandboxStatus): SandboxStatus => {
      this.known = status;
      if (status.state === 'unavailable') {
        // Said once per engine (the probe runs once): stderr for the server, the output for the extension.
        this.options.logger.warn(`[sandbox] ${unavailableNotice(status, this.setting)}`);
        this.options.onUnavailable?.(status);
      } else {
        this.options.logger.info('[sandbox] available');
      }
      return status;
    };
    if (this.platform.windows) {
      const reason = 'Windows is not sandboxed by this version';
      return Promise.resolve(found({ state: 'unavailable', reason, howToFix: howToFix(reason, this.platform) }));
    }
    return this.broker(folder, 'restricted').started.then((reason) => {
      if (reason !== undefined) {
        this.brokers.delete(brokerKey(folder, 'restricted'));
      }
      return found(reason === undefined ? { state: 'available' } : { state: 'unavailable', reason, howToFix: howToFix(reason, this.platform) });
    });
  }

  /** The broker for a folder and network kind, started now if there is none (or it died). */
  private broker(folder: string, network: BrokerNetwork): BrokerProcess {
    const key = brokerKey(folder, network);
    const existing = this.brokers.get(key);
    if (existing !== undefined && existing.alive) {
      return existing;
    }
    const broker = new BrokerProcess({
      folder,
      options: this.brokerOptions(network),
      execPath: this.options.execPath ?? process.execPath,
      brokerPath: this.options.brokerPath ?? defaultBrokerPath(),
      env: this.options.env,
      log: (line) => this.options.logger.debug(`[sandbox] ${line}`),
    });
    this.brokers.set(key, broker);
    return broker;
  }

  private brokerOptions(network: BrokerNetwork): BrokerOptions {
    const { env } = this.options;
    const chosenBwrap = env['WORKSPACE_TOOLS_BWRAP'];
    const bwrapPath = chosenBwrap !== undefined && chosenBwrap !== '' ? path.resolve(chosenBwrap) : executableOnPath('bwrap', env, this.platform);
    const socatPath = executableOnPath('socat', env, this.platform);
    const chosenRipgrep = env['WORKSPACE_TOOLS_RIPGREP'];
    const ripgrep = chosenRipgrep !== undefined && chosenRipgrep !== '' && chosenRipgrep !== 'off' && chosenRipgrep !== 'git' ? chosenRipgrep : (executableOnPath('rg', env, this.platform) ?? 'rg');
    return {
      network,
      ripgrep,
      ...(bwrapPath === undefined ? {} : { bwrapPath }),
      ...(socatPath === undefined ? {} : { socatPath }),
    };
  }
}

function brokerKey(folder: string, network: BrokerNetwork): string {
  return `${network}\0${folder}`;
}

/**
 * SHLVL for the runtime's inner bash. Its stdin is a socket (Node's pipes are socket pairs), so
 * at a level below 2 (after its own +1) it takes itself for a shell started by sshd and sources
 * the user's ~/.bashrc before every command: 100-300 ms, and whatever that prints (pyenv's
 * "cannot rehash" in a read-only home) in the tool's output. An inherited level of 1 or more is
 * kept; none, 0 (a process started outside any shell may have it) or anything else becomes 1.
 */
export function shellLevelFor(inherited: string | undefined): string {
  const level = Number(inherited);
  return Number.isInteger(level) && level >= 1 ? String(level) : '1';
}
