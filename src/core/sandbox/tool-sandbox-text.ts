/**
 * What confines one tool, in the words every display uses (the approval text, `approve --list`,
 * `list` and `list --json`, the tool's page in the tools view): the OS sandbox policy its tags and
 * declared block give (policy.ts, the one mapping), or, when the sandbox does not run, the
 * engine's "not sandboxed" mark with the policy it would have; what else confines a tool that
 * starts no process in it (a code tool's permission model, an http request); a built-in's trust.
 */
import type { ToolDefinition } from '../types';
import type { SandboxPolicy } from './policy';
import { describePolicy, policyFor, shownPath } from './policy';
import type { UserPlace } from './user-place';
import { placeFor } from './user-place';

/** What the displays of one engine need to word each tool's sandbox. */
export interface SandboxView {
  /** The user-level facts this engine's policies share (home, its own state, the setting's extra paths). */
  readonly place: UserPlace;
  /**
   * Set when shell and imported tools run without the OS sandbox (unavailable under `preferred`,
   * or `off`): the engine's "not sandboxed" mark, e.g. `not sandboxed (bubblewrap is missing:
   * apt-get install bubblewrap socat)`, shown on each such tool instead of a policy it would not get.
   */
  readonly notSandboxed?: string;
}

/** How a tool is confined, for a listing. */
export type SandboxKind = 'os' | 'not-sandboxed' | 'other' | 'built-in';

/** One tool's sandbox in words. */
export interface ToolSandboxText {
  readonly kind: SandboxKind;
  /** The policy it runs under (kind `os`), or would run under (`not-sandboxed`). */
  readonly policy?: SandboxPolicy;
  /** Every rule, one a line (describePolicy's lines, or what else confines it). */
  readonly lines: readonly string[];
  /**
   * One line for a tool among others (the approval text, a table): the rules without the hidden
   * paths, which every sandboxed tool shares and a listing says once (`hidden`).
   */
  readonly short: string;
  /** The paths it cannot read, as describePolicy words them (`~/.ssh, ~/.aws, ...`), when it is in the OS sandbox. */
  readonly hidden?: string;
  /** A few words for a table's column: `writes workspace, no network`, `NOT SANDBOXED`, `Node's permission model`. */
  readonly compact: string;
}

/** The sandbox of a tool as the displays word it. */
export function toolSandboxText(tool: Pick<ToolDefinition, 'sandbox'> & { readonly source: Pick<ToolDefinition['source'], 'kind'> }, view: SandboxView): ToolSandboxText {
  const confinement = tool.sandbox;
  if (confinement === undefined) {
    const builtin = tool.source.kind === 'builtin';
    const lines = builtin ? [BUILT_IN] : ['not known: this tool says nothing of what confines it'];
    return { kind: builtin ? 'built-in' : 'other', lines, short: lines.join('; '), compact: builtin ? 'built-in, not sandboxed' : 'not known' };
  }
  if (confinement.kind === 'own') {
    return { kind: 'other', lines: confinement.says, short: confinement.says.join('; '), compact: compactOwn(confinement.says) };
  }
  // Its policy's own tags, as the engine builds it: a steps tool's tags may say more (what its other steps do).
  const policy = policyFor(confinement.tags, confinement.declared, placeFor(view.place, confinement.folder));
  const rules = describePolicy(policy, view.place.home);
  const hiddenLine = rules.find((line) => line.startsWith(HIDDEN_PREFIX));
  const hidden = hiddenLine === undefined ? {} : { hidden: hiddenLine.slice(HIDDEN_PREFIX.length) };
  const shown = rules.filter((line) => line !== hiddenLine);
  const also = confinement.also ?? [];
  if (view.notSandboxed !== undefined) {
    const lines = [view.notSandboxed, ...rules.map((line) => `with the sandbox it would get: ${line}`), ...also];
    const short = [`${view.notSandboxed} (with the sandbox: ${shown.join('; ')})`, ...also].join('; ');
    return { kind: 'not-sandboxed', policy, lines, short, compact: 'NOT SANDBOXED', ...hidden };
  }
  return { kind: 'os', policy, lines: [...rules, ...also], short: [...shown, ...also].join('; '), compact: compactPolicy(policy, view.place.home), ...hidden };
}

/** `writes workspace, no network`, `writes dist, network: registry.npmjs.org, reads ~/.npmrc`. */
function compactPolicy(policy: SandboxPolicy, home: string): string {
  const shown = (entry: string): string => shownPath(entry, policy.folder, home);
  const writes = policy.write === 'temp-only' ? 'writes temp only' : policy.write === 'workspace' ? 'writes workspace' : `writes ${policy.writePaths.map(shown).join(' ')}`;
  const network = policy.network.kind === 'none' ? 'no network' : policy.network.kind === 'open' ? 'network' : `network: ${policy.network.hosts.join(' ')}`;
  const reads = policy.allowRead.length === 0 ? [] : [`reads ${policy.allowRead.map(shown).join(' ')}`];
  return [writes, network, ...reads].join(', ');
}

/** The words of what confines a tool up to its first colon: `Node's permission model (a code tool; ...)`, `starts no process`. */
function compactOwn(says: readonly string[]): string {
  const first = (says[0] ?? '').split(/[:(]/)[0]?.trim() ?? '';
  return says.length > 1 ? `${first}; …` : first;
}

/**
 * What a listing says once for all its sandboxed tools: the paths none of them can read (a
 * tool's own `also reads` is on its line), or undefined when no tool is in the OS sandbox.
 */
export function hiddenText(texts: readonly ToolSandboxText[]): string | undefined {
  return texts.find((text) => text.hidden !== undefined && text.policy?.allowRead.length === 0)?.hidden ?? texts.find((text) => text.hidden !== undefined)?.hidden;
}

/** What describePolicy's line of the hidden paths starts with. */
const HIDDEN_PREFIX = 'hidden: ';

const BUILT_IN = 'not sandboxed: a built-in tool, code of Workspace Tools itself; it only reads (its git and ripgrep searches run outside the OS sandbox)';
