/**
 * `registerTools` of the extension API: another extension's tools, written as plugin files into
 * this window's registered-tools directory, which the tools view and the MCP server this window
 * starts both load as an extra plugin directory (src/core/plugins/registered-tool-file.ts). Like any
 * plugin file they wait for the user's approval of their exact content; disposing the returned
 * Disposable (or this extension deactivating) deletes the file and so removes them everywhere.
 */
import { rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RegisterToolsOptions } from '../core/plugins/registered-tool-file';
import { registeredFileName, registeredFileText } from '../core/plugins/registered-tool-file';
import type { WorkspaceToolsService } from './service';
import { currentFolders } from './service';

/** The registrations of this session; the directory holds exactly their files. */
export class RegisteredTools implements vscode.Disposable {
  private readonly files = new Set<string>();

  constructor(
    private readonly service: WorkspaceToolsService,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  /**
   * Registers `definitions` (plugin-file tools) for the extension `options.extensionId`; throws
   * with every problem the loader finds, or when that extension already registered this name.
   */
  register(definitions: unknown, options: RegisterToolsOptions): vscode.Disposable {
    if (typeof options?.extensionId !== 'string' || options.extensionId === '') {
      throw new Error('registerTools: options.extensionId (the calling extension\'s id) is required.');
    }
    // Another extension may register as soon as this one's activate() returns, before any load.
    this.service.clearRegisteredLeftovers();
    const file = path.join(this.service.registeredToolsDirectory, registeredFileName(options));
    if (this.files.has(file)) {
      throw new Error(`registerTools: ${options.extensionId} already registered ${options.name === undefined ? 'its tools' : `"${options.name}"`}; dispose that registration first.`);
    }
    const folder = currentFolders()[0] ?? { name: 'workspace', path: process.cwd() };
    const name = options.name ?? displayNameOf(options.extensionId);
    const built = registeredFileText(definitions, name, options.description, file, folder);
    if (!built.ok) {
      throw new Error(`registerTools: the tools of ${options.extensionId} do not load:\n${built.problems.join('\n')}`);
    }
    writeFileSync(file, built.text, 'utf8');
    this.files.add(file);
    this.log.info(`[api] ${options.extensionId} registered tools in ${file}`);
    this.reload();
    return new vscode.Disposable(() => {
      if (this.files.delete(file)) {
        rmSync(file, { force: true });
        this.log.info(`[api] ${options.extensionId} removed its tools (${path.basename(file)})`);
        this.reload();
      }
    });
  }

  dispose(): void {
    for (const file of this.files) {
      rmSync(file, { force: true });
    }
    this.files.clear();
  }

  private reload(): void {
    this.service.reload().catch((error: unknown) => this.log.error(`[api] reload failed: ${String(error)}`));
  }
}

/** The name the tools view shows: the extension's display name, else its id. */
function displayNameOf(extensionId: string): string {
  const manifest = vscode.extensions.getExtension(extensionId)?.packageJSON as { displayName?: unknown } | undefined;
  const displayName = manifest?.displayName;
  return typeof displayName === 'string' && displayName !== '' ? displayName : extensionId;
}
