/**
 * A `tools/call` request in the registry's terms, whichever path brought it (the SDK's handler or
 * the hot lane, serve-tools.ts): start the call, or resume one that waits at a question; pass its
 * progress on; word its outcome as MCP has it (an unknown tool is a protocol error, the rest a
 * result).
 */
import type { CallToolResult, ProgressToken } from '@modelcontextprotocol/server';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { OutputStore } from '../core/output/output-store';
import { throttleProgress } from '../core/progress-throttle';
import type { ThrottledProgress } from '../core/progress-throttle';
import type { CallResult } from '../core/registry/call-pipeline';
import { notLoadedText } from '../core/registry/call-pipeline';
import type { ToolRegistry } from '../core/registry/tool-registry';
import { cannotAskError } from '../core/tool-errors';
import type { ElicitAnswer, Logger } from '../core/types';
import type { RunningCalls } from '../core/running/running-calls';
import { toCallToolResult } from './call-result';
import type { CallStep, SuspendedCalls } from './suspended-calls';

/** What a call needs from the server it is served by (the same for every request). */
export interface ToolCallsOptions {
  readonly registry: ToolRegistry;
  readonly suspended: SuspendedCalls;
  readonly logger: Logger;
  readonly outputs?: OutputStore;
  /** Lists each plain call while it runs (the window's tools view, `--running-file`); a task lists itself. */
  readonly running?: RunningCalls;
}

/**
 * The least time between a request's last progress notification and its result. Clients of SDK
 * 1.x handle a notification a microtask after reading it and a response at once, so a
 * notification and the result read in one chunk reach the client in the wrong order, and it
 * reports a notification for a finished request. Only a call that reported progress in its last
 * moments waits (at most this long; a notification goes out at most every 250 ms).
 */
export const RESULT_AFTER_PROGRESS_MS = 25;

/** Where a request's progress goes: throttled notifications, and the gap its result keeps after the last. */
export interface RequestProgress extends ThrottledProgress {
  /** Stops the notifications, then resolves once the result may go out (RESULT_AFTER_PROGRESS_MS). */
  settle(): Promise<void>;
}

/** The request that drives a call now. */
export interface CallRequest {
  /** The request's cancellation: cancels the call while it runs. */
  readonly signal: AbortSignal;
  /** Where its progress goes (see progressOf). */
  readonly progress: RequestProgress | undefined;
  /** Why the request's client cannot be asked a question (ask-client.ts), or undefined when it can. */
  readonly cannotAsk: string | undefined;
  /** The call runs as an MCP task (tasks/serve-tasks.ts): the tool's task timeout applies. */
  readonly asTask?: boolean;
}

/** Starts calls and resumes the ones waiting at a question. */
export class ToolCalls {
  constructor(private readonly options: ToolCallsOptions) {}

  /**
   * Starts `name` with `input`; resolves with its first step (the result, or a question). A plain
   * call is listed in `running` for as long as it is not over, across its questions (a task lists
   * itself); the listing's Cancel cancels it.
   */
  start(name: string, input: Record<string, unknown>, request: CallRequest): Promise<CallStep> {
    const { registry, outputs, suspended } = this.options;
    const { cannotAsk } = request;
    const running = request.asTask === true ? undefined : this.options.running;
    return suspended.start(
      name,
      (ask, callSignal, callProgress, cancel) => {
        const listed = running?.begin({ tool: name, door: 'mcp', cancel });
        const call = registry.call(name, input, {
          // Cancelled by the request, and by the server's shutdown (SuspendedCalls.dispose).
          signal: callSignal,
          door: 'mcp',
          ...(request.asTask === true ? { asTask: true } : {}),
          ...(outputs === undefined ? {} : { outputs }),
          progress:
            listed === undefined
              ? callProgress
              : (message) => {
                  listed.report(message);
                  callProgress(message);
                },
          ask: cannotAsk === undefined ? ask : () => Promise.reject(cannotAskError(cannotAsk)),
        });
        if (listed !== undefined) {
          const end = (): void => listed.end();
          call.then(end, end);
        }
        return call;
      },
      request.signal,
      reporterOf(request.progress),
    );
  }

  /**
   * Hands `answer` to the call of `name` suspended under `state` and resolves with its next step;
   * a ProtocolError (-32602) when no such call waits.
   */
  resume(state: string, name: string, answer: ElicitAnswer, request: CallRequest): Promise<CallStep> {
    const step = this.options.suspended.resume(state, name, answer, request.signal, reporterOf(request.progress));
    if (step === undefined) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `No call of "${name}" waits for this answer (it was answered already, waited too long, or belongs to another tool); call the tool again.`);
    }
    return step;
  }

  /** Cancels the call suspended under `token` (its question will not be answered). */
  abandon(token: string, reason: string): void {
    this.options.suspended.abandon(token, reason);
  }

  /**
   * Progress for a request that asked for it (`_meta.progressToken`): the tool's messages as
   * `notifications/progress`, throttled; undefined without a token.
   */
  progressOf(token: ProgressToken | undefined, notify: (params: { progressToken: ProgressToken; progress: number; message: string }) => Promise<void>): RequestProgress | undefined {
    if (token === undefined) {
      return undefined;
    }
    const { logger } = this.options;
    let lastSent = -Infinity;
    const throttled = throttleProgress((message, count) => {
      lastSent = performance.now();
      notify({ progressToken: token, progress: count, message }).catch((error: unknown) => {
        logger.debug(`[mcp] could not send a progress notification: ${String(error)}`);
      });
    });
    return {
      report: (message) => throttled.report(message),
      close: () => throttled.close(),
      settle: async () => {
        throttled.close();
        const wait = lastSent + RESULT_AFTER_PROGRESS_MS - performance.now();
        if (wait > 0) {
          await new Promise((resolve) => setTimeout(resolve, wait));
        }
      },
    };
  }
}

function reporterOf(progress: RequestProgress | undefined): ((message: string) => void) | undefined {
  return progress === undefined ? undefined : (message) => progress.report(message);
}

/**
 * A finished call as MCP answers it. An unknown tool is a protocol error, as the MCP spec asks,
 * that still tells the model what it can call; everything else is a result.
 */
export function answerOf(name: string, result: CallResult): CallToolResult {
  if (result.refusal?.reason === 'unknown') {
    const { available, notLoaded } = result.refusal;
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, notLoaded === undefined ? `Unknown tool: ${name}. Available tools: ${available.join(', ') || '(none)'}.` : notLoadedText(name, notLoaded));
  }
  return toCallToolResult(result);
}
