/**
 * The ripgrep that VS Code ships (its own search uses it), for search-text: desktop VS Code keeps
 * it in `@vscode/ripgrep` (unpacked from the asar archive), code-server in
 * `@vscode/ripgrep-universal` with one binary per platform.
 */
import { existsSync } from 'node:fs';
import * as vscode from 'vscode';
import { hostPlatform } from '../core/platform/platform';
import { bundledRipgrepCandidates } from '../core/platform/ripgrep';

/** The bundled ripgrep's path, or undefined when this VS Code has none where we look. */
function bundledRipgrep(): string | undefined {
  return bundledRipgrepCandidates(vscode.env.appRoot, hostPlatform(), process.arch).find((candidate) => existsSync(candidate));
}

/**
 * The environment for tools run by this window: the extension host's, plus the bundled ripgrep
 * unless the user chose one (or "off") with WORKSPACE_TOOLS_RIPGREP.
 */
export function toolEnvironment(): NodeJS.ProcessEnv {
  if (process.env['WORKSPACE_TOOLS_RIPGREP'] !== undefined) {
    return process.env;
  }
  const rg = bundledRipgrep();
  return rg === undefined ? process.env : { ...process.env, WORKSPACE_TOOLS_RIPGREP: rg };
}
