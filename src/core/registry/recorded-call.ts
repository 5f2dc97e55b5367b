/**
 * A top-level call as every door makes it: through the pipeline with a fresh call tree's budget,
 * then recorded in the history. The record's line is taken here, redacted and with only what the
 * history keeps of the output (history/finished-call.ts); it is written in a batch after the door
 * has sent the result (history/history-file.ts).
 */
import type { CallOptions } from '../types';
import type { CallHistory } from '../history/history-file';
import { finishedCall } from '../history/finished-call';
import { CallBudget } from './call-budget';
import type { CallResult, PipelineSources } from './call-pipeline';
import { runCall } from './call-pipeline';

/** Runs `name` once `ready` (the first load) is done, and records it in `history` if any. */
export async function runRecordedCall(
  pipeline: PipelineSources,
  history: CallHistory | undefined,
  ready: () => Promise<void>,
  call: { readonly name: string; readonly input: unknown; readonly options: CallOptions },
): Promise<CallResult> {
  const { name, input, options } = call;
  const started = Date.now();
  const startedAt = performance.now();
  await ready();
  const root = { tools: [], node: CallBudget.root(pipeline.limits().nestedConcurrency) };
  const result = await runCall(pipeline, name, input, options, root);
  const durationMs = performance.now() - startedAt;
  history?.record(finishedCall(name, input, result, { door: options.door ?? 'cli', ...(options.caller === undefined ? {} : { caller: options.caller }), started, durationMs, workspace: pipeline.folders()[0]?.path }));
  return result;
}
