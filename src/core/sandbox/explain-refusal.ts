/**
 * What a sandboxed call that failed was refused, in words the model and the user can act on: the
 * path or host, and the tag (or the declared `sandbox` entry) that would allow it, instead of a
 * bare `Read-only file system` or `ECONNREFUSED`. Read from what the program printed, as the
 * sandbox leaves it (docs/design/os-sandbox-spike.md §3): a refused write is EROFS, a hidden
 * file reads as "Permission denied" and a hidden folder as empty ("No such file or directory"),
 * no network is a refused or unresolvable connection, and the runtime's proxy records each host
 * it refused (`deny network-outbound host:port (...)`). Pure.
 */
import * as path from 'node:path';
import type { SandboxPolicy } from './policy';

/** What the explanation needs besides the policy. */
export interface RefusalContext {
  /** The program's working directory: relative paths in its messages start there. */
  readonly cwd: string;
  readonly home: string;
  /** This product's own state folders (never readable, whatever a tool declares). */
  readonly statePaths: readonly string[];
  /** The runtime's record of refused connections for this call. */
  readonly violations: readonly string[];
}

/** How many refused paths are named, at most (a build can fail on hundreds of files). */
const MAX_NAMED = 5;

/** Messages that name a path a write was refused on: Node, coreutils, Python, then a shell's. */
const WRITE_REFUSALS: readonly RegExp[] = [
  /EROFS: read-only file system, \w+ '([^'\n]+)'/g,
  /[‘'`"]([^’'`"\n]+)[’'`"]: Read-only file system/g,
  /Read-only file system: [‘'"]([^’'"\n]+)[’'"]/g,
  /(?:cannot create |: )([^\s:‘’'"]+): Read-only file system/g,
];

/** How a hidden path reads inside the sandbox: a hidden file is /dev/null-bound (denied), a hidden folder empty. */
const HIDDEN_READ = /No such file|Permission denied|ENOENT|EACCES|cannot (?:open|access|read|stat)/i;

const ANY_WRITE_REFUSAL = /Read-only file system|EROFS/i;

/** A connection that could not be made: refused (empty loopback), no route, no resolver. */
const NETWORK_FAILURE =
  /ECONNREFUSED|EAI_AGAIN|ENOTFOUND|ENETUNREACH|EHOSTUNREACH|Could not resolve host|Couldn't connect|Connection refused|Network is unreachable|Temporary failure in name resolution|Name or service not known|getaddrinfo|CONNECT tunnel failed|fetch failed/i;

/** The runtime's line for a refused connection: `deny network-outbound example.com:443 (host is not on the allow list)`. */
const VIOLATION = /network-outbound\s+(\S+)/;

/**
 * The lines that explain what the sandbox refused in `output` (a failed call's text), or
 * undefined when nothing in it looks refused by the sandbox.
 */
export function explainRefusal(output: string, policy: SandboxPolicy, context: RefusalContext): string | undefined {
  const lines = [...writeRefusals(output, policy, context), ...readRefusals(output, policy, context), ...networkRefusals(output, policy, context)];
  return lines.length === 0 ? undefined : ['Refused by the OS sandbox:', ...lines.map((line) => `- ${line}`)].join('\n');
}

function writeRefusals(output: string, policy: SandboxPolicy, context: RefusalContext): string[] {
  if (!ANY_WRITE_REFUSAL.test(output)) {
    return [];
  }
  const found = new Set<string>();
  for (const pattern of WRITE_REFUSALS) {
    for (const match of output.matchAll(pattern)) {
      const named = match[1]?.trim();
      if (named !== undefined && named !== '' && found.size < MAX_NAMED) {
        found.add(path.resolve(context.cwd, named));
      }
    }
  }
  if (found.size === 0) {
    return [`a write was refused (read-only file system): ${whyNoWrite(undefined, policy)}`];
  }
  return [...found].map((target) => `writing "${shown(target, policy.folder, context.home)}": ${whyNoWrite(target, policy)}`);
}

function whyNoWrite(target: string | undefined, policy: SandboxPolicy): string {
  const inFolder = target === undefined || isInside(target, policy.folder);
  if (!inFolder) {
    return 'it is outside the workspace folder, where no tag lets a tool write (a tool writes only its private temporary folder, $TMPDIR, and with the tag "write" the workspace folder).';
  }
  switch (policy.write) {
    case 'temp-only':
      return 'the tool may write only its private temporary folder ($TMPDIR); tag it "write" to let it write inside the workspace folder.';
    case 'paths':
      return `the tool may write only ${policy.writePaths.map((entry) => `"${shown(entry, policy.folder, '')}"`).join(', ')} (its "sandbox" "write" list) and $TMPDIR; add the path there to let it write it.`;
    case 'workspace':
      return 'it is protected in every sandbox (.git/hooks, .git/config, .vscode, .idea, .claude, .mcp.json, .gitmodules, shell start-up files): no tag lets a tool write it.';
  }
}

function readRefusals(output: string, policy: SandboxPolicy, context: RefusalContext): string[] {
  const hidden = policy.denyRead.filter((entry) => !policy.allowRead.includes(entry));
  const named = new Map<string, string>();
  const refusedLines = output.split('\n').filter((line) => HIDDEN_READ.test(line));
  for (const match of refusedLines.join('\n').matchAll(/(?:~|\/)[^\s:'"‘’`,;()]*/g)) {
    const raw = match[0];
    const target = raw.startsWith('~') ? path.join(context.home, raw.slice(1)) : raw;
    const under = hidden.find((entry) => isInside(target, entry));
    if (under !== undefined && !named.has(target) && named.size < MAX_NAMED) {
      named.set(target, under);
    }
  }
  return [...named].map(([target, under]) => {
    const state = context.statePaths.some((entry) => isInside(under, entry) || isInside(entry, under));
    const why = state
      ? "it is this product's own state (approvals, history), which no tool may read."
      : `"${shown(under, policy.folder, context.home)}" is hidden from every tool (credentials, and the paths workspaceTools.sandboxDenyRead adds); a plugin tool that must read it declares it in its "sandbox" "read" list, which its approval covers.`;
    return `reading "${shown(target, policy.folder, context.home)}": ${why}`;
  });
}

function networkRefusals(output: string, policy: SandboxPolicy, context: RefusalContext): string[] {
  const hosts = [...new Set(context.violations.flatMap((line) => VIOLATION.exec(line)?.[1] ?? []))].slice(0, MAX_NAMED);
  if (policy.network.kind === 'hosts') {
    const declared = policy.network.hosts.join(', ');
    return hosts.map((host) => `connecting to ${host}: the tool may reach only the hosts it declares (${declared}); add it to its "sandbox" "hosts" list to allow it.`);
  }
  if (policy.network.kind === 'none' && (hosts.length > 0 || NETWORK_FAILURE.test(output))) {
    const what = hosts.length > 0 ? `connecting to ${hosts.join(', ')}` : 'a network connection';
    return [`${what}: the tool has no network (loopback included); tag it "network" to give it one, or declare the hosts it needs in its "sandbox" "hosts" list.`];
  }
  return [];
}

function shown(entry: string, folder: string, home: string): string {
  if (isInside(entry, folder)) {
    return path.relative(folder, entry) || '.';
  }
  return home !== '' && isInside(entry, home) ? `~/${path.relative(home, entry)}` : entry;
}

function isInside(entry: string, parent: string): boolean {
  const relative = path.relative(parent, entry);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}
