import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { annotationsFor } from '../../../src/mcp/annotations';
import type { ToolAnnotationHints } from '../../../src/mcp/annotations';
import type { ToolTag } from '../../../src/core/types';

interface Seen {
  readonly readOnly: boolean;
  readonly destructive: boolean;
  readonly openWorld: boolean;
}

/** The hints as a client reads them: absent ones take the spec's defaults. */
function asRead(hints: ToolAnnotationHints): Seen {
  return { readOnly: hints.readOnlyHint ?? false, destructive: hints.destructiveHint ?? true, openWorld: hints.openWorldHint ?? true };
}

describe('annotationsFor', () => {
  const cases: [readonly ToolTag[], ToolAnnotationHints, Seen][] = [
    [['read'], { readOnlyHint: true, openWorldHint: false }, { readOnly: true, destructive: true, openWorld: false }],
    [['read', 'network'], { destructiveHint: false }, { readOnly: false, destructive: false, openWorld: true }],
    [['write'], { openWorldHint: false }, { readOnly: false, destructive: true, openWorld: false }],
    [['execute', 'network'], {}, { readOnly: false, destructive: true, openWorld: true }],
    [[], { openWorldHint: false }, { readOnly: false, destructive: true, openWorld: false }],
  ];
  for (const [tags, hints, seen] of cases) {
    test(`tags [${tags.join(', ')}]: only the hints that differ from the defaults`, () => {
      const actual = annotationsFor(tags);
      assert.deepEqual(actual, hints);
      // On a read-only tool destructiveHint means nothing (spec), so it is left out altogether.
      assert.deepEqual(asRead(actual), seen);
    });
  }
});
