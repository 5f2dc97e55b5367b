/** A sandbox view for tests of what a display says: a fixed home and state folders, so the words are the same on every machine. */
import type { SandboxView } from '../../../src/core/sandbox/tool-sandbox-text';
import { userPlace } from '../../../src/core/sandbox/user-place';

/** The home of TEST_SANDBOX_VIEW. */
export const TEST_HOME = '/home/u';

/** The approval store in ~/.config/workspace-tools, the history in ~/.local/state/workspace-tools, both hidden. */
export function testSandboxView(notSandboxed?: string): SandboxView {
  const place = userPlace({ approvalStorePath: `${TEST_HOME}/.config/workspace-tools/approvals.json`, historyPath: `${TEST_HOME}/.local/state/workspace-tools/history.jsonl`, home: TEST_HOME });
  return { place, ...(notSandboxed === undefined ? {} : { notSandboxed }) };
}
