/**
 * Whether shell and imported tools run in the OS sandbox, said once for everyone who shows it:
 * the setting that decides what happens when it cannot (`workspaceTools.sandbox`, `--sandbox`),
 * the status an engine found, the mark a tool gets when it runs without it, and what to do about
 * it on each platform. Pure: the probe that finds the status is the broker's (sandbox-service.ts).
 */
import type { Platform } from '../platform/platform';

/** `workspaceTools.sandbox` / `--sandbox`: what happens to shell and imported tools. */
export type SandboxSetting = 'required' | 'preferred' | 'off';

/** Every value, the default first. */
export const SANDBOX_SETTINGS: readonly SandboxSetting[] = ['preferred', 'required', 'off'];

/** The value when unset: run sandboxed where the OS can, marked "not sandboxed" where it cannot. */
export const DEFAULT_SANDBOX_SETTING: SandboxSetting = 'preferred';

export function isSandboxSetting(value: unknown): value is SandboxSetting {
  return typeof value === 'string' && (SANDBOX_SETTINGS as readonly string[]).includes(value);
}

/** What an engine knows about its sandbox. */
export type SandboxStatus =
  /** Probed: a wrapped `true` ran. */
  | { readonly state: 'available' }
  /** Not probed yet (nothing needed it), or the probe is running. */
  | { readonly state: 'checking' }
  /** The probe failed: why, in the runtime's or bubblewrap's words, and what the user can do. */
  | { readonly state: 'unavailable'; readonly reason: string; readonly howToFix: string }
  /** `workspaceTools.sandbox` is `off`: nothing is probed, no broker starts. */
  | { readonly state: 'off' };

/**
 * The mark of a shell or imported tool that runs without the sandbox (under `preferred`, or
 * `off`), for the tools view, `list` and the approval text; under `required` it says the tool is
 * not served. Undefined when it runs sandboxed (or the probe has not answered yet: a call waits
 * for it).
 */
export function sandboxMark(status: SandboxStatus, setting: SandboxSetting = DEFAULT_SANDBOX_SETTING): string | undefined {
  switch (status.state) {
    case 'unavailable':
      return setting === 'required' ? `not served: the OS sandbox is required and unavailable: ${status.reason}` : `not sandboxed: ${status.reason}`;
    case 'off':
      return 'not sandboxed: the sandbox is off (workspaceTools.sandbox, --sandbox)';
    default:
      return undefined;
  }
}

/**
 * The one notice of an unavailable sandbox (stderr at server start, the extension's output),
 * with what it means under the setting in force.
 */
export function unavailableNotice(status: Extract<SandboxStatus, { state: 'unavailable' }>, setting: SandboxSetting): string {
  const consequence =
    setting === 'required'
      ? 'Shell and imported tools are not served (workspaceTools.sandbox / --sandbox is "required").'
      : 'Shell and imported tools run NOT sandboxed, with all of your rights (workspaceTools.sandbox / --sandbox is "preferred"; "required" would not serve them).';
  return `The OS sandbox is unavailable: ${status.reason}\n${consequence}\nTo fix: ${status.howToFix}`;
}

/**
 * What `init` says about the sandbox on this machine: that it works, or why not and what to do
 * (the packages of this platform, the sysctl), or that the setting turned it off.
 */
export function sandboxAdvice(status: SandboxStatus, setting: SandboxSetting): string {
  switch (status.state) {
    case 'available':
      return `Shell and imported tools run in the OS sandbox their tags allow (${SANDBOX_DOCS}).`;
    case 'unavailable':
      return `${unavailableNotice(status, setting)}\n(${SANDBOX_DOCS} says what each platform needs.)`;
    case 'off':
      return `Shell and imported tools run NOT sandboxed: --sandbox is "off" (${SANDBOX_DOCS}).`;
    case 'checking':
      return `Whether this machine can sandbox shell and imported tools is found when the server starts (${SANDBOX_DOCS}).`;
  }
}

/** Why a tool that needs the sandbox is not served under `required`: its problem's message. */
export function requiredButUnavailable(status: Extract<SandboxStatus, { state: 'unavailable' }>): string {
  return `not served: workspaceTools.sandbox (--sandbox) is "required" and the OS sandbox is unavailable: ${status.reason}. To fix: ${status.howToFix}`;
}

/** Where the user docs say how to get the sandbox on each platform. */
export const SANDBOX_DOCS = 'docs/sandbox.md';

/**
 * What the user can do about `reason` (the runtime's or bubblewrap's own words) on `platform`:
 * the packages to install, the sysctl that lets user namespaces be made, or the platform's limit.
 */
export function howToFix(reason: string, platform: Platform): string {
  if (platform.windows) {
    return `the Windows sandbox of the runtime is an alpha this version does not use yet; set workspaceTools.sandbox (--sandbox) to "preferred" or "off" (${SANDBOX_DOCS}).`;
  }
  if (/WSL ?1|WSL version 1/i.test(reason)) {
    return `WSL 1 has no user namespaces; use WSL 2 (wsl --set-version <distro> 2) (${SANDBOX_DOCS}).`;
  }
  if (/seccomp/i.test(reason)) {
    return `the sandbox runtime's seccomp loader (dist/vendor/seccomp/<x64|arm64>/apply-seccomp beside the server) is missing or this processor has none: reinstall Workspace Tools; 32-bit x86 is not supported (${SANDBOX_DOCS}).`;
  }
  if (platform.name === 'darwin') {
    return /ripgrep|\brg\b/.test(reason)
      ? `install ripgrep (brew install ripgrep), which the sandbox runtime needs (${SANDBOX_DOCS}).`
      : `macOS sandboxes with sandbox-exec, which is part of the system: see ${SANDBOX_DOCS}.`;
  }
  const missing = [/bubblewrap|bwrap/i.test(reason) && /not (executable|found|available)|ENOENT/i.test(reason) ? 'bubblewrap' : undefined, /socat/i.test(reason) ? 'socat' : undefined, /ripgrep|\brg\b/.test(reason) ? 'ripgrep' : undefined].filter(
    (name): name is string => name !== undefined,
  );
  if (missing.length > 0) {
    const packages = missing.join(' ');
    return `install ${missing.join(', ')}: sudo apt-get install ${packages} (Debian, Ubuntu) or sudo dnf install ${packages} (Fedora); a WORKSPACE_TOOLS_BWRAP path must name an executable bubblewrap (${SANDBOX_DOCS}).`;
  }
  if (/namespace|uid map|setting up uid|Operation not permitted|No permissions/i.test(reason)) {
    return `let unprivileged user namespaces be made: on Ubuntu 24.04 and later, sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0 (or an AppArmor profile for bwrap); elsewhere check that kernel.unprivileged_userns_clone and user.max_user_namespaces are not 0; in a container, run it with user namespaces allowed (${SANDBOX_DOCS}).`;
  }
  return `see ${SANDBOX_DOCS} for what the sandbox needs on this platform.`;
}
