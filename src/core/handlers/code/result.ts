/**
 * How a code tool call ended, in the words the model reads: the function's value, or what went
 * wrong and where in the module (file:line:col), or which permission the sandbox did not have.
 */
import { truncationNote } from '../../process/capped-buffer';
import { classifyOutcome, endedHow } from '../../process/outcome';
import { errorResult, textResult } from '../../types';
import type { ContentPart, ToolResult } from '../../types';
import { contentPartProblem, contentResult, formatSize, partBytes, textOfParts } from '../../content/parts';
import type { WireError } from './protocol';
import type { SandboxOutcome, SandboxPermissions } from './sandbox';
import { RESIDENT_MARGIN_MB } from './sandbox';
import { locateSyntaxError } from './strip-types';

/** What wording an outcome needs besides the outcome. */
export interface OutcomeContext {
  /** The module as the plugin file names it (tools/x.ts): how the model is told where. */
  readonly moduleName: string;
  /** The URL stack traces name the module by. */
  readonly moduleUrl: string;
  /** The module's text, to place a syntax error V8 did not place. */
  readonly source: string;
  readonly folder: string;
  readonly permissions: SandboxPermissions;
  readonly timeoutMs: number;
  readonly maxHeapMb: number;
  readonly maxOutputBytes: number;
}

/** Most stack frames of the module shown under an error. */
const MAX_FRAMES = 5;

/** The tool result for a sandbox outcome. */
export function resultOf(outcome: SandboxOutcome, context: OutcomeContext): ToolResult {
  const { reply, process: ended } = outcome;
  if (reply?.type === 'result') {
    // MCP structured content is an object; any other JSON value is in the text alone.
    const structured = isJsonObject(reply.structured) ? { structured: reply.structured } : {};
    if (reply.content !== undefined) {
      return contentResultOf(reply.content, reply.text, reply.structured, context.maxOutputBytes);
    }
    const text = reply.droppedBytes === undefined || reply.droppedBytes === 0 ? reply.text : `${reply.text}\n${truncationNote(reply.droppedBytes, context.maxOutputBytes)}`;
    return { ...textResult(text === '' ? '(no output)' : text), ...structured };
  }
  const end = classifyOutcome(ended, context.timeoutMs);
  if (end.kind === 'not-started') {
    // The call could not run: thrown, as every runner does (process/outcome.ts).
    throw new Error(`Could not start the code tool's sandbox: ${end.error}`);
  }
  const output = outputOf(outcome, context.maxOutputBytes);
  if (outcome.residentMb !== undefined) {
    return errorResult(
      `The code tool ran out of memory: its process used ${Math.round(outcome.residentMb)} MB, more than the cap of ${context.maxHeapMb + RESIDENT_MARGIN_MB} MB ` +
        `(the heap cap "maxHeapMb" plus ${RESIDENT_MARGIN_MB} MB for Node and Buffers); its process tree was killed.`,
    );
  }
  // Before timeout and cancellation: a sandbox that broke the protocol is stopped for it.
  if (outcome.protocolError !== undefined) {
    return errorResult(withOutput(`The code tool's sandbox stopped being understood (${outcome.protocolError}); nothing it sent after that was used.`, output));
  }
  if (end.kind === 'timeout' || end.kind === 'cancelled') {
    return errorResult(withOutput(`The code tool ${endedHow(end)}; its process tree was killed.`, output));
  }
  if (reply?.type === 'error') {
    return errorResult(withOutput(failureText(reply.phase, reply.error, context), output));
  }
  if (ended.stderr.includes('Check failed: !IsFrozen()')) {
    // V8 ends the process when a frozen flag is set (--freeze-flags-after-init, runtime.ts).
    return errorResult(
      'Refused by the sandbox: changing V8\'s flags (v8.setFlagsFromString) ends a code tool\'s process; code tools never change V8\'s flags.',
    );
  }
  if (ranOutOfMemory(outcome)) {
    // V8's report (the last GCs, a native stack) says nothing the model can use.
    return errorResult(`The code tool ran out of memory: its JavaScript heap reached the cap of ${context.maxHeapMb} MB ("maxHeapMb") and the process was stopped.`);
  }
  return errorResult(withOutput(`The code tool's process ${endedHow(end)} before it returned a result.`, output));
}

/**
 * A result with content parts: each part checked (what came over the channel is trusted for
 * nothing), and everything within the output cap, decoded. Parts are never cut (half an image is
 * no image): an oversize result is an error that lists the sizes.
 */
function contentResultOf(content: readonly unknown[], text: string, structured: unknown, maxBytes: number): ToolResult {
  const notAResult = (problem: string): ToolResult => errorResult(`The code tool's module returned something that is not a result: ${problem}`);
  for (const [index, part] of content.entries()) {
    const problem = contentPartProblem(part, `content[${index}]`);
    if (problem !== undefined) {
      return notAResult(problem);
    }
  }
  const parts = content as readonly ContentPart[];
  const shown = text === '' ? textOfParts(parts) : text;
  const structuredBytes = structured === undefined ? 0 : Buffer.byteLength(JSON.stringify(structured), 'utf8');
  const bytes = parts.reduce((sum, part) => sum + partBytes(part), Buffer.byteLength(shown, 'utf8') + structuredBytes);
  if (bytes > maxBytes) {
    const sizes = parts.map((part, index) => `content[${index}] ${part.type} ${formatSize(partBytes(part))}`).join(', ');
    return notAResult(`the result is ${formatSize(bytes)} (${sizes}), over the output cap of ${formatSize(maxBytes)}; content parts are never cut, so return less or raise the handler's "maxOutputBytes"`);
  }
  return contentResult(parts, isJsonObject(structured) ? structured : undefined, shown);
}

/** The sentence for an error the runner reported. */
function failureText(phase: string, error: WireError, context: OutcomeContext): string {
  const permission = permissionText(error, context);
  if (permission !== undefined) {
    return withFrames(permission, error, context);
  }
  const message = cleanMessage(error.message, context);
  switch (phase) {
    case 'sandbox':
      return `The code tool's sandbox could not be set up: ${message}`;
    case 'load':
      return loadFailure(error, message, context);
    case 'result':
      return `The code tool's module returned something that is not a result: ${message}`;
    default:
      return withFrames(`The code tool's module threw ${error.name}: ${message}`, error, context);
  }
}

function loadFailure(error: WireError, message: string, context: OutcomeContext): string {
  if (error.code === 'ERR_UNKNOWN_BUILTIN_MODULE') {
    const specifier = /module: (\S+)/.exec(error.message)?.[1] ?? 'a built-in module';
    const why = specifier.endsWith('sqlite') ? ': node:sqlite opens and creates files that Node\'s permission model does not check, so the sandbox leaves it out' : '';
    return `${context.moduleName} imports "${specifier}", which this runtime (or the sandbox) does not have${why}.`;
  }
  if (error.code === 'ERR_UNSUPPORTED_RESOLVE_REQUEST' || error.code === 'ERR_MODULE_NOT_FOUND') {
    const specifier = /specifier "([^"]*)"/.exec(error.message)?.[1] ?? /'([^']*)'/.exec(error.message)?.[1] ?? 'a module';
    return (
      `${context.moduleName} imports "${specifier}", which a code tool cannot load: its module may import only Node's built-in modules (node:fs, node:path, ...). ` +
      'Only the module file itself is approved and run; put the code it needs into it.'
    );
  }
  if (error.name === 'SyntaxError' && !hasModuleFrame(error, context)) {
    const at = locateSyntaxError(context.source, context.moduleName);
    const where = at === undefined ? context.moduleName : `${context.moduleName}:${at.line}:${at.column}`;
    return `${where}: SyntaxError: ${message}`;
  }
  return withFrames(`The code tool's module could not be loaded: ${error.name}: ${message}`, error, context);
}

/** What a permission refusal means for this tool, or undefined when the error is not one. */
function permissionText(error: WireError, context: OutcomeContext): string | undefined {
  if (error.code === 'ERR_DLOPEN_DISABLED') {
    return 'Refused by the sandbox: loading a native addon needs the Addons permission, which code tools never have.';
  }
  if (error.code !== 'ERR_ACCESS_DENIED') {
    return undefined;
  }
  const resource = error.resource === undefined || error.resource === '' ? '' : ` ${error.resource}`;
  const { permissions, folder } = context;
  const reasons: Record<string, readonly [string, string]> = {
    FileSystemRead: [`reading${resource}`, `code tools may read only inside the workspace folder ${folder}`],
    FileSystemWrite: [`writing${resource}`, permissions.write ? `the tool is tagged "write", which allows writing only inside the workspace folder ${folder}` : 'the tool is not tagged "write"'],
    ChildProcess: ['starting a process', 'the tool is not tagged "execute"'],
    WorkerThreads: ['starting a worker thread', 'code tools never get worker threads'],
    WASI: ['using WASI', 'code tools never get WASI'],
    Inspector: [`opening the inspector${resource}`, 'code tools never get the inspector, their own or another process\'s'],
    Net: [`network access${resource}`, 'the tool is not tagged "network"'],
    // The doors the runner closes itself (sandbox-doors.ts), worded like Node's own refusals.
    Signal: [`sending${resource}`, 'code tools never send signals, to any process, whatever their tags'],
    ProcessPriority: [`changing the priority${resource}`, 'code tools never change a process\'s priority'],
    InternalBinding: [`loading Node's internal binding${resource}`, 'code tools never get Node\'s internal bindings'],
    TraceEvents: ['writing trace events', 'code tools never write trace files'],
    SQLite: ['opening a database with node:sqlite', 'code tools never get node:sqlite, which opens files the permission model does not check'],
  };
  const permission = error.permission ?? 'an unknown';
  const [what, why] = reasons[permission] ?? [`this operation${resource}`, 'the sandbox does not grant it'];
  return `Refused by the sandbox: ${what} needs the ${permission} permission, which this tool does not have (${why}).`;
}

/** The error's message with the data: URL the module was loaded from replaced by its name. */
function cleanMessage(message: string, context: OutcomeContext): string {
  return message.replace(/data:text\/javascript;base64,[A-Za-z0-9+/=]+/g, context.moduleName).split(context.moduleUrl).join(context.moduleName);
}

/** The module's own stack frames, with its name instead of its URL: where in the module it happened. */
function moduleFrames(error: WireError, context: OutcomeContext): string[] {
  return (error.stack ?? '')
    .split('\n')
    .filter((line) => /^\s+at /.test(line) && line.includes(context.moduleUrl))
    .slice(0, MAX_FRAMES)
    .map((line) => `  ${line.trim().split(context.moduleUrl).join(context.moduleName)}`);
}

function hasModuleFrame(error: WireError, context: OutcomeContext): boolean {
  return moduleFrames(error, context).length > 0;
}

function withFrames(text: string, error: WireError, context: OutcomeContext): string {
  return [text, ...moduleFrames(error, context)].join('\n');
}

function ranOutOfMemory(outcome: SandboxOutcome): boolean {
  return /JavaScript heap out of memory|Reached heap limit/.test(outcome.process.stderr) || (outcome.process.exitSignal === 'SIGABRT' && outcome.process.stderr.includes('FATAL ERROR'));
}

/** What the module printed (console.log and friends), under headings, each stream cut at the cap. */
function outputOf(outcome: SandboxOutcome, cap: number): string {
  const { stdout, stderr, stdoutDroppedBytes, stderrDroppedBytes } = outcome.process;
  const stream = (heading: string, text: string, dropped: number): string[] => (text === '' ? [] : [`${heading}:\n${text}${dropped > 0 ? `\n${truncationNote(dropped, cap)}` : ''}`]);
  return [...stream('stdout', stdout, stdoutDroppedBytes), ...stream('stderr', stderr, stderrDroppedBytes)].join('\n');
}

function withOutput(reason: string, output: string): string {
  return output === '' ? reason : `${reason}\n\n${output}`;
}

function isJsonObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
