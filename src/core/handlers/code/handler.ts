/**
 * The `code` handler: a tool written as a TypeScript or JavaScript module whose default export
 * runs in a sandbox, a new Node process per call under Node's permission model (sandbox.ts). The
 * module is read with the plugin file and its hash is part of the file's approval; a call runs
 * exactly the text that was read, after checking that the file on disk is still that text.
 */
import { realpath } from 'node:fs/promises';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { SourceFile } from '../../files/source-file';
import { readSourceFile } from '../../files/source-file';
import { StaleToolError } from '../../tool-errors';
import type { ToolInput, ToolResult, ToolRunContext, ToolTag } from '../../types';
import type { HandlerProblem, HandlerTarget, HandlerType } from '../handler';
import { codeConfinement, describeCode } from './describe';
import { sandboxEnv, envProblems } from './env';
import { resultOf } from './result';
import type { SandboxPermissions } from './sandbox';
import { defaultRunnerPath, runSandbox } from './sandbox';
import type { SandboxRuntime } from './runtime';
import { currentRuntime } from './runtime';
import type { CodeHandlerSpec } from './spec';
import { DEFAULT_MAX_HEAP_MB, MODULE_EXTENSIONS } from './spec';
import { stripTypes } from './strip-types';
import { WarmSandbox } from './warm-sandbox';

/** A code tool as loading leaves it: the module's JavaScript and everything a call needs. */
interface CompiledCode {
  readonly spec: CodeHandlerSpec;
  readonly target: HandlerTarget;
  readonly source: SourceFile;
  /** The module as JavaScript: its text, or its text with the types stripped. */
  readonly code: string;
  readonly runtime: SandboxRuntime;
  readonly permissions: SandboxPermissions;
  /** The sandbox started ahead of the next call. */
  readonly warm: WarmSandbox;
  /** The folder's real path, found on the first call. */
  realFolder?: Promise<string>;
}

/** Tags a code tool has when it declares none: it reads the workspace, and nothing more is granted. */
const DEFAULT_TAGS: readonly ToolTag[] = ['read'];

/** The `code` handler type. */
export const codeHandler: HandlerType<CodeHandlerSpec> = {
  defaultTags: DEFAULT_TAGS,
  compile(spec, target) {
    const runtime = currentRuntime();
    const loaded = loadModule(spec, target, runtime);
    if ('problems' in loaded) {
      return loaded;
    }
    const tags = target.tags ?? DEFAULT_TAGS;
    const compiled: CompiledCode = {
      spec,
      target,
      ...loaded,
      runtime,
      permissions: { write: tags.includes('write'), childProcess: tags.includes('execute'), network: tags.includes('network') },
      warm: new WarmSandbox(),
    };
    return {
      run: (input, context) => runCode(compiled, input, context),
      summary: `code: ${spec.module}`,
      approvalLines: describeCode(compiled),
      confinement: codeConfinement(compiled.permissions, runtime),
      // The permission model of Node before 25 cannot deny the network: say so in the tags.
      ...(runtime.restrictsNetwork ? {} : { impliedTags: ['network'] as const }),
    };
  },
};

/** The module read with the plugin file, as JavaScript; or why it cannot be used. */
function loadModule(spec: CodeHandlerSpec, target: HandlerTarget, runtime: SandboxRuntime): { source: SourceFile; code: string } | { problems: HandlerProblem[] } {
  const at = (message: string, ...where: string[]): { problems: HandlerProblem[] } => ({ problems: [{ path: ['handler', ...where], message }] });
  if (runtime.permissionFlag === undefined) {
    return at(`code tools need Node's permission model, which this runtime (Node ${runtime.nodeVersion}) does not have`);
  }
  const kind = MODULE_EXTENSIONS.get(path.extname(spec.module).toLowerCase());
  if (kind === undefined) {
    return at(`"module" must end in ${[...MODULE_EXTENSIONS.keys()].join(', ')}; "${spec.module}" does not`, 'module');
  }
  const env = envProblems(spec.env ?? {});
  if (env.length > 0) {
    return { problems: env.map((problem) => ({ path: ['handler', 'env', ...problem.path], message: problem.message })) };
  }
  const entry = target.sources?.get(spec.module);
  if (entry === undefined) {
    return at(`the module "${spec.module}" was not read with the plugin file`, 'module');
  }
  if ('problem' in entry) {
    return at(`the module ${entry.problem}`, 'module');
  }
  if (!kind.typescript) {
    return { source: entry.file, code: entry.file.text };
  }
  const stripped = stripTypes(entry.file.text, spec.module);
  if ('problem' in stripped) {
    const { line, column, message } = stripped.problem;
    return at(`${spec.module}:${line}:${column}: ${message}`, 'module');
  }
  return { source: entry.file, code: stripped.code };
}

async function runCode(compiled: CompiledCode, input: ToolInput, context: ToolRunContext): Promise<ToolResult> {
  const { spec, target, source } = compiled;
  await checkUnchanged(compiled);
  const folder = target.folder.path;
  const timeoutMs = spec.timeout ?? context.limits.timeoutMs;
  const maxHeapMb = spec.maxHeapMb ?? DEFAULT_MAX_HEAP_MB;
  const maxOutputBytes = spec.maxOutputBytes ?? context.limits.maxOutputBytes;
  const moduleUrl = pathToFileURL(source.path).href;
  const logPrefix = `[code] ${target.toolName}:`;
  context.logger.debug(`${logPrefix} running ${spec.module} in a sandbox`);
  const outcome = await runSandbox({
    runtime: compiled.runtime,
    runnerPath: defaultRunnerPath(),
    folder,
    realFolder: await (compiled.realFolder ??= realpath(folder).catch(() => folder)),
    run: { code: compiled.code, url: moduleUrl, input, workspaceFolder: folder, maxResultBytes: maxOutputBytes },
    permissions: compiled.permissions,
    maxHeapMb,
    timeoutMs,
    maxOutputBytes,
    env: sandboxEnv(spec.env ?? {}, context.env),
    signal: context.signal,
    ...(context.progress === undefined ? {} : { onProgress: context.progress }),
    onLog: (message) => context.logger.info(`${logPrefix} ${message}`),
    ...(context.callTool === undefined ? {} : { callTool: context.callTool }),
    ...(context.ask === undefined ? {} : { ask: context.ask }),
    maxCallsInFlight: context.limits.nestedConcurrency,
    warm: compiled.warm,
  });
  const printed = `${outcome.process.stdout}${outcome.process.stderr}`;
  if (printed !== '') {
    context.logger.debug(`${logPrefix} printed:\n${printed}`);
  }
  return resultOf(outcome, { moduleName: spec.module, moduleUrl, source: source.text, folder, permissions: compiled.permissions, timeoutMs, maxHeapMb, maxOutputBytes });
}

/**
 * Throws StaleToolError when the module on disk is no longer the text that was loaded (and
 * approved with the plugin file): the registry then reloads, and the new text waits for approval.
 */
async function checkUnchanged(compiled: CompiledCode): Promise<void> {
  const { spec, target, source } = compiled;
  const now = await readSourceFile(target.folder, spec.module);
  if ('file' in now && now.file.hash === source.hash && now.file.path === source.path) {
    return;
  }
  const how = 'problem' in now ? `can no longer be used (${now.problem})` : 'changed';
  throw new StaleToolError(
    `its module ${spec.module} ${how} since the tool was loaded, so it was not run. ` +
      'The tools are loaded again; a changed module waits for the user\'s approval like a changed plugin file.',
  );
}
