/**
 * The program a code tool's sandbox runs (built to dist/code-runner.js): it reads what to run from
 * fd 3, checks that Node's permission model is on, imports the module from the approved text it
 * was sent (a data: URL, so no other file is ever loaded as code), calls its default export and
 * sends back one result or one error. Only Node's built-in modules: it runs under the permission
 * model with read access to its own directory and the workspace folder alone. The context it
 * hands the module is typed by types/workspace-tools.d.ts, the file users type their modules with.
 */
import { Channel } from './runner-channel';
import { resultOf, wireError } from './runner-values';
import type { ElicitResultMessage, FailurePhase, FromSandbox, RunMessage, ToSandbox } from './protocol';
import { closeSandboxDoors } from './sandbox-doors';

/** Why the doors the permission model leaves open could not all be closed (then nothing runs). */
const doorsProblem = ((): string | undefined => {
  try {
    closeSandboxDoors();
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
})();

/** Longest progress or log message sent, in characters. */
const MAX_MESSAGE_CHARS = 2000;

const channel = new Channel();
const cancel = new AbortController();
const pendingCalls = new Map<number, (result: WorkspaceTools.ToolCallResult) => void>();
/** callTool calls waiting for one of the parent's turns, oldest first. */
const waitingCalls: Array<() => void> = [];
let nextCallId = 1;
let finished = false;
/** The question being asked, if one is: answered by the parent's elicitResult. */
let pendingQuestion: { readonly id: number; readonly settle: (message: ElicitResultMessage) => void } | undefined;

function send(message: FromSandbox): void {
  if (!finished) {
    channel.writeLine(JSON.stringify(message));
  }
}

/** Sends the last message and exits: timers or sockets the module left open do not keep the process. */
function finish(message: FromSandbox, exitCode: number): void {
  if (finished) {
    return;
  }
  finished = true;
  channel.writeLine(JSON.stringify(message));
  process.exit(exitCode);
}

function fail(phase: FailurePhase, error: unknown): void {
  finish({ type: 'error', phase, error: wireError(error) }, 1);
}

/** Starts reading the parent's later messages: callTool answers and cancellation. */
function listen(): void {
  channel.listen(
    (line) => onMessage(JSON.parse(line) as ToSandbox),
    // The parent went away: nobody will read a result.
    () => process.exit(1),
  );
}

function onMessage(message: ToSandbox): void {
  switch (message.type) {
    case 'toolResult': {
      const resolve = pendingCalls.get(message.id);
      pendingCalls.delete(message.id);
      resolve?.(message.result);
      // A turn is free: the oldest waiting call takes it.
      waitingCalls.shift()?.();
      return;
    }
    case 'elicitResult':
      if (pendingQuestion?.id === message.id) {
        const { settle } = pendingQuestion;
        pendingQuestion = undefined;
        settle(message);
      }
      return;
    case 'cancel':
      cancel.abort(new Error('the tool call was cancelled'));
      return;
    default:
      return;
  }
}

/** Node's permission model, as far as this program uses it. */
interface Permission {
  has(scope: string, reference?: string): boolean;
}

/** Why this process is not the sandbox it was meant to be, if it is not (a runtime that ignored the flags). */
function sandboxProblem(run: RunMessage): string | undefined {
  const permission = (process as { permission?: Permission }).permission;
  if (permission === undefined) {
    return `this runtime (${process.execPath}, Node ${process.versions.node}) did not turn on Node's permission model; the module was not run`;
  }
  if (doorsProblem !== undefined) {
    return `a door the permission model leaves open could not be closed (${doorsProblem}); the module was not run`;
  }
  const { expect } = run;
  const unreadable = expect.unreadable !== undefined && permission.has('fs.read', expect.unreadable);
  if (unreadable || permission.has('worker') || permission.has('child') !== expect.childProcess || permission.has('fs.write', run.workspaceFolder) !== expect.write) {
    return 'the permission model is on but does not have the permissions the sandbox was started with; the module was not run';
  }
  return undefined;
}

/** The context of the call. Reading `signal` or calling callTool opens the channel for later messages. */
function contextFor(run: RunMessage): WorkspaceTools.CodeToolContext {
  return {
    workspaceFolder: run.workspaceFolder,
    get signal(): AbortSignal {
      listen();
      return cancel.signal;
    },
    progress: (message) => send({ type: 'progress', message: String(message).slice(0, MAX_MESSAGE_CHARS) }),
    log: (message) => send({ type: 'log', message: String(message).slice(0, MAX_MESSAGE_CHARS) }),
    callTool: (name, input = {}) => callTool(String(name), input, run.maxCallsInFlight),
    elicit: (message, requestedSchema) => elicit(message, requestedSchema),
  };
}

/**
 * Asks the user through the parent (which checks the question and hands it to the door). One
 * question at a time: a form the user has not answered yet is not followed by another.
 */
function elicit(message: unknown, requestedSchema: unknown): Promise<WorkspaceTools.ElicitResult> {
  if (pendingQuestion !== undefined) {
    return Promise.reject(new Error('elicit asks one question at a time: await the answer to the previous one first'));
  }
  if (typeof message !== 'string') {
    return Promise.reject(new TypeError(`elicit(message, requestedSchema): the message is ${typeof message}, not a string`));
  }
  return new Promise((resolve, reject) => {
    listen();
    const id = nextCallId++;
    // The schema as it is now, as JSON: a later change by the module does not change the question.
    const json = JSON.stringify(requestedSchema ?? { type: 'object', properties: {} });
    pendingQuestion = {
      id,
      settle: (answer) => (answer.answer === undefined ? reject(new Error(answer.error ?? 'the question was not answered')) : resolve(answer.answer as WorkspaceTools.ElicitResult)),
    };
    send({ type: 'elicit', id, message, requestedSchema: json === undefined ? undefined : (JSON.parse(json) as unknown) });
  });
}

/**
 * Sends a callTool to the parent, or queues it until fewer than `maxInFlight` are unanswered: the
 * parent takes no more at once (it holds every answer until this process has read it), so a
 * module can start any number of calls and they run that many at a time.
 */
function callTool(name: string, input: unknown, maxInFlight: number): Promise<WorkspaceTools.ToolCallResult> {
  return new Promise((resolve) => {
    listen();
    // The input as it is now: a later change by the module does not change the call.
    const json = JSON.stringify(input);
    const message: FromSandbox = { type: 'callTool', id: 0, name, input: json === undefined ? undefined : (JSON.parse(json) as unknown) };
    const start = (): void => {
      const id = nextCallId++;
      pendingCalls.set(id, resolve);
      send({ ...message, id });
    };
    if (pendingCalls.size < maxInFlight) {
      start();
    } else {
      waitingCalls.push(start);
    }
  });
}

async function runModule(run: RunMessage): Promise<void> {
  const problem = sandboxProblem(run);
  if (problem !== undefined) {
    fail('sandbox', new Error(problem));
    return;
  }
  let main: unknown;
  try {
    const source = `${run.code}\n//# sourceURL=${run.url}\n`;
    const module = (await import(`data:text/javascript;base64,${Buffer.from(source, 'utf8').toString('base64')}`)) as { default?: unknown };
    main = module.default;
  } catch (error) {
    fail('load', error);
    return;
  }
  if (typeof main !== 'function') {
    fail('load', new TypeError(`the module's default export is ${main === undefined ? 'missing' : 'not a function'}: write \`export default async (input, context) => ...\``));
    return;
  }
  let value: unknown;
  try {
    value = await (main as WorkspaceTools.CodeTool)(run.input as Record<string, unknown>, contextFor(run));
  } catch (error) {
    fail('run', error);
    return;
  }
  const result = resultOf(value, run.maxResultBytes);
  if (typeof result === 'string') {
    fail('result', new TypeError(result));
    return;
  }
  finish(result, 0);
}

process.on('uncaughtException', (error) => fail('run', error));
// The event loop ran dry before the function settled: it awaits something that can never happen.
process.on('exit', () => {
  if (!finished) {
    fail('run', new Error('the function\'s promise never settled: nothing was left for it to wait on (an unresolved promise with no timer or I/O behind it)'));
  }
});
process.on('unhandledRejection', (reason) => fail('run', reason));
const first = channel.readLine();
const run = first === undefined ? undefined : (JSON.parse(first) as ToSandbox);
if (run?.type === 'run') {
  void runModule(run);
} else {
  process.exit(1);
}
