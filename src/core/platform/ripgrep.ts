/**
 * Where ripgrep is, on each platform: VS Code ships one (its own search uses it) as `rg`, or
 * `rg.exe` on Windows, in `@vscode/ripgrep` (desktop, unpacked from the asar archive) or in
 * `@vscode/ripgrep-universal` with one binary per platform and architecture (code-server);
 * otherwise `rg` on PATH.
 */
import { accessSync, constants, statSync } from 'node:fs';
import type { Platform } from './platform';
import { envValue, resolveProgram } from './program-lookup';

/** ripgrep's file name on the platform. */
function ripgrepFileName(platform: Platform): string {
  return platform.windows ? 'rg.exe' : 'rg';
}

/** Where VS Code (at `appRoot`, vscode.env.appRoot) may keep its ripgrep, best first. */
export function bundledRipgrepCandidates(appRoot: string, platform: Platform, arch: string): string[] {
  const join = (...parts: string[]): string => platform.path.join(...parts);
  const exe = ripgrepFileName(platform);
  return [
    join(appRoot, 'node_modules.asar.unpacked', '@vscode', 'ripgrep', 'bin', exe),
    join(appRoot, 'node_modules', '@vscode', 'ripgrep', 'bin', exe),
    join(appRoot, 'node_modules', '@vscode', 'ripgrep-universal', 'bin', `${platform.name}-${arch}`, exe),
  ];
}

/** `rg` on the environment's PATH (Windows: rg.exe, by PATHEXT, never the working directory), or undefined. */
export function ripgrepOnPath(env: Readonly<Record<string, string | undefined>>, platform: Platform, isExecutable = isExecutableFile): string | undefined {
  return executableOnPath('rg', env, platform, isExecutable);
}

/** The program `name` on the environment's PATH (Windows: by PATHEXT, never the working directory), or undefined. */
export function executableOnPath(name: string, env: Readonly<Record<string, string | undefined>>, platform: Platform, isExecutable = isExecutableFile): string | undefined {
  if (platform.windows) {
    const found = resolveProgram(name, { platform, env, cwd: platform.path.sep, isFile: isExecutable });
    return found.kind === 'executable' ? found.file : undefined;
  }
  for (const directory of (envValue(env, 'PATH', platform) ?? '').split(platform.delimiter)) {
    if (directory !== '') {
      const candidate = platform.path.join(directory, name);
      if (isExecutable(candidate)) {
        return candidate;
      }
    }
  }
  return undefined;
}

function isExecutableFile(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}
