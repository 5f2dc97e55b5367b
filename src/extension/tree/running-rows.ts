import * as vscode from 'vscode';
import type { RunningCall } from '../../core/running/running-calls';
import { readRunningFile, requestCancel, watchRunningFile } from '../../core/running/running-file';
import type { WorkspaceToolsService } from '../service';
import type { Startup } from '../startup';
import type { RunningRow } from './nodes';

/** How often the Running rows' elapsed times are redrawn while calls run. */
const TICK_MS = 1000;

/**
 * The tools view's Running rows: the extension host's own calls (service.running) and the calls
 * and tasks the window's MCP server publishes to its running file (core/running/running-file.ts).
 * `onDidChange` fires when a call begins or ends, and every second while something runs (the
 * elapsed time, and each call's latest line: a build can print thousands of lines a second).
 */
export class RunningRows implements vscode.Disposable {
  /** The server's calls: none until its running file is read, after activate() (startup.ts). */
  private server: readonly RunningCall[] = [];
  private readonly subscriptions: vscode.Disposable[];
  private timer: NodeJS.Timeout | undefined;
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChange = this.emitter.event;

  constructor(
    private readonly service: WorkspaceToolsService,
    log: vscode.LogOutputChannel,
    startup: Startup,
  ) {
    this.subscriptions = [
      this.emitter,
      // A call that began or ended is drawn at once; a new latest line at the next tick.
      service.running.onDidChange((membership) => (membership ? this.changed() : this.tick())),
    ];
    startup.later('the running calls', () => {
      this.subscriptions.push(
        watchRunningFile(service.runningFile, log, (calls) => {
          this.server = calls;
          this.changed();
        }),
      );
      this.server = readRunningFile(service.runningFile);
      if (this.server.length > 0) {
        this.changed();
      }
    });
  }

  rows(): readonly RunningRow[] {
    return [...this.service.running.list().map((call): RunningRow => ({ ...call, source: 'window' })), ...this.server.map((call): RunningRow => ({ ...call, source: 'server' }))];
  }

  /** Cancels a row's call: in this extension host at once, in the MCP server through its cancel file. */
  async cancel(row: RunningRow): Promise<void> {
    if (row.source === 'window') {
      this.service.running.cancel(row.id);
      return;
    }
    await requestCancel(this.service.runningFile, row.id);
  }

  dispose(): void {
    clearTimeout(this.timer);
    vscode.Disposable.from(...this.subscriptions).dispose();
  }

  private changed(): void {
    this.emitter.fire();
    this.tick();
  }

  private tick(): void {
    if (this.timer !== undefined || this.rows().length === 0) {
      return;
    }
    this.timer = setTimeout(() => {
      this.timer = undefined;
      // Read again: a server that died without clearing its list lists nothing (its pid is gone).
      this.server = readRunningFile(this.service.runningFile);
      this.changed();
    }, TICK_MS);
  }
}
