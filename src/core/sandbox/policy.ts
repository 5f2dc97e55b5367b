/**
 * The one place where a tool's tags (and its declared `sandbox` block) become what the OS sandbox
 * lets its processes do. Pure: no file system, no process. The engine (sandbox/runner) applies a
 * policy; approval text, `list`, the tools view and the README table describe one with
 * describePolicy, so what a person approves is what the sandbox enforces.
 *
 * | tags            | writes                                   | network                          |
 * |-----------------|------------------------------------------|----------------------------------|
 * | no `write`      | only the call's private temporary folder | -                                |
 * | `write`         | the workspace folder and the temp folder | -                                |
 * | no `network`    | -                                        | none, loopback included          |
 * | `network`       | -                                        | open, or only the declared hosts |
 * Always: the user's credentials and this tool's own state are unreadable, and nothing in the
 * user's home outside the workspace is writable.
 */
import * as path from 'node:path';
import type { DeclaredSandbox, ToolTag } from '../types';

/** A tool's declared widening (types.ts, the lowest floor that uses it: HandlerTarget and ToolDefinition carry it). */
export type { DeclaredSandbox };

/** What a policy is (sandbox-policy.ts: types alone, so the Sandbox port can name them without an import circle through types.ts). */
export type { NetworkPolicy, PolicyPlace, SandboxPolicy } from './sandbox-policy';
import type { NetworkPolicy, PolicyPlace, SandboxPolicy } from './sandbox-policy';

/**
 * Credentials a program never needs to read to do a workspace's work, relative to the home
 * folder. The list: SSH keys, cloud and CLI tokens, registry tokens, GPG.
 */
export const CREDENTIAL_PATHS: readonly string[] = ['.ssh', '.aws', '.config/gh', '.netrc', '.npmrc', '.docker/config.json', '.kube', '.gnupg'];

/** The tags a declared sandbox block adds: paths to write make a `write` tool, hosts a `network` tool. */
export function tagsImpliedBySandbox(declared: DeclaredSandbox | undefined): readonly ToolTag[] {
  return [...((declared?.write ?? []).length > 0 ? (['write'] as const) : []), ...((declared?.hosts ?? []).length > 0 ? (['network'] as const) : [])];
}

/**
 * The tags a shell handler's OS policy is built from: the tool's declared tags (the caller passes
 * the shell handler's default, `execute`, when it declares none) and those its block implies. Not
 * the tool's effective tags: a steps tool's also count what its other steps can do (a code step on
 * Node before 25 adds `network`), which its shell steps' sandbox must not get. The displays
 * (ToolSandbox.tags) and the engine (from HandlerTarget.tags and .sandbox) both build from this.
 */
export function policyTags(tags: readonly ToolTag[], declared: DeclaredSandbox | undefined): readonly ToolTag[] {
  return [...new Set([...tags, ...tagsImpliedBySandbox(declared)])];
}

/**
 * The policy for a tool with these (effective) tags. Paths in `declared` are trusted to have been
 * checked at load (inside the folder, no `..` escape): see checkDeclaredSandbox.
 */
export function policyFor(tags: readonly ToolTag[], declared: DeclaredSandbox | undefined, place: PolicyPlace): SandboxPolicy {
  const writePaths = (declared?.write ?? []).map((entry) => path.resolve(place.folder, entry));
  const hosts = declared?.hosts ?? [];
  const network: NetworkPolicy = !tags.includes('network') ? { kind: 'none' } : hosts.length > 0 ? { kind: 'hosts', hosts: [...hosts] } : { kind: 'open' };
  const write = !tags.includes('write') ? 'temp-only' : writePaths.length > 0 ? 'paths' : 'workspace';
  const credentials = CREDENTIAL_PATHS.map((entry) => path.join(place.home, entry));
  const extra = (place.extraDenyRead ?? []).map((entry) => homePath(entry, place.home));
  const statePaths = place.statePaths.map((entry) => path.resolve(entry));
  const allowRead = (declared?.read ?? []).map((entry) => homePath(entry, place.home)).filter((entry) => !statePaths.some((state) => isInside(entry, state)));
  return {
    write,
    folder: place.folder,
    writePaths: write === 'paths' ? writePaths : [],
    network,
    denyRead: unique([...credentials, ...statePaths, ...extra]),
    allowRead: unique(allowRead),
  };
}

/** What is wrong with a declared sandbox block, each as a message for the field's line. */
export function checkDeclaredSandbox(declared: DeclaredSandbox, folder: string): { readonly path: readonly (string | number)[]; readonly message: string }[] {
  const writeProblems = (declared.write ?? []).flatMap((entry, index) => {
    const resolved = path.resolve(folder, entry);
    return path.isAbsolute(entry) || !isInside(resolved, folder)
      ? [{ path: ['sandbox', 'write', index], message: `"${entry}" is not inside the workspace folder: a tool may be given writes only to paths inside it, written relative to it.` }]
      : [];
  });
  const readProblems = (declared.read ?? []).flatMap((entry, index) =>
    entry.startsWith('~/') || path.isAbsolute(entry) ? [] : [{ path: ['sandbox', 'read', index], message: `"${entry}" must be an absolute path or start with "~/".` }],
  );
  return [...writeProblems, ...readProblems];
}

/**
 * The policy in words, one line per rule, paths shown relative to the folder or as `~/...`: the
 * approval text, `list`, the tools view and the history show these lines.
 */
export function describePolicy(policy: SandboxPolicy, home: string): readonly string[] {
  const shown = (entry: string): string => shownPath(entry, policy.folder, home);
  const writes =
    policy.write === 'temp-only'
      ? 'writes: only its private temporary folder'
      : policy.write === 'workspace'
        ? 'writes: the workspace folder and its private temporary folder'
        : `writes: only ${policy.writePaths.map(shown).join(', ')} and its private temporary folder`;
  const network =
    policy.network.kind === 'none' ? 'network: none (loopback included)' : policy.network.kind === 'open' ? 'network: open' : `network: only ${policy.network.hosts.join(', ')}`;
  const hidden = `hidden: ${policy.denyRead.filter((entry) => !policy.allowRead.includes(entry)).map(shown).join(', ')}`;
  const reopened = policy.allowRead.length === 0 ? [] : [`also reads: ${policy.allowRead.map(shown).join(', ')}`];
  return [writes, network, hidden, ...reopened];
}

function homePath(entry: string, home: string): string {
  return entry === '~' ? home : entry.startsWith('~/') ? path.join(home, entry.slice(2)) : path.resolve(entry);
}

/** A path as the descriptions show it: relative to the folder inside it, `~/...` in the home, else absolute. */
export function shownPath(entry: string, folder: string, home: string): string {
  if (isInside(entry, folder)) {
    return path.relative(folder, entry) || '.';
  }
  return isInside(entry, home) ? `~/${path.relative(home, entry)}` : entry;
}

function isInside(entry: string, parent: string): boolean {
  const relative = path.relative(parent, entry);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

function unique(entries: readonly string[]): string[] {
  return [...new Set(entries)];
}
