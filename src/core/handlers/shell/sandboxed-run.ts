/**
 * The one place a shell tool's process is put in the OS sandbox (imported tools compile to shell
 * handlers, so they go through here too): the policy from the tool's tags and declared `sandbox`
 * block (sandbox/policy.ts), the wrapped request, and afterwards the cleanup and, for a failed
 * call, what the sandbox refused (sandbox/explain-refusal.ts). What `workspaceTools.sandbox`
 * decides when the sandbox is unavailable is decided here for a call: `required` does not run
 * it, `preferred` runs it as it is, marked in its result details (and so in the history).
 */
import { accessSync, constants } from 'node:fs';
import * as path from 'node:path';
import { executableOnPath } from '../../platform/ripgrep';
import { hostPlatform } from '../../platform/platform';
import type { ProcessRequest } from '../../process/run-process';
import { explainRefusal } from '../../sandbox/explain-refusal';
import { describePolicy, policyFor, policyTags } from '../../sandbox/policy';
import { placeFor } from '../../sandbox/user-place';
import { requiredButUnavailable } from '../../sandbox/status';
import type { RunSandbox, ToolResult, ToolRunContext, ToolTag } from '../../types';
import type { HandlerTarget } from '../handler';
import { programNotFound } from './result';

/** A shell tool's tags when its file declares none: the handler's defaultTags (handler.ts). */
export const SHELL_DEFAULT_TAGS: readonly ToolTag[] = ['execute'];

/** A request ready to run, and what to do once it ran. */
export interface ShellRun {
  readonly request: ProcessRequest;
  /** What the result's details say about the sandbox (absent: this host does not sandbox). */
  readonly sandbox?: RunSandbox;
  /** Cleans up after the run (always call it) and, for an error result, adds what the sandbox refused. */
  finish(result: ToolResult): Promise<ToolResult>;
}

/**
 * The tags the policy is built from: the declared ones (else the handler's) and those the
 * `sandbox` block implies (policy.ts policyTags, as ToolDefinition.sandbox carries them for the
 * displays, so what a person approves is what runs).
 */
export function sandboxTags(target: HandlerTarget): readonly ToolTag[] {
  return policyTags(target.tags ?? SHELL_DEFAULT_TAGS, target.sandbox);
}

/** `request` as it runs for `target` in this call's sandbox (or as it is, where there is none). */
export async function prepareRun(request: ProcessRequest, target: HandlerTarget, context: ToolRunContext): Promise<ShellRun> {
  const sandbox = context.sandbox;
  if (sandbox === undefined) {
    return { request, finish: (result) => Promise.resolve(result) };
  }
  const status = sandbox.setting === 'off' ? { state: 'off' as const } : await sandbox.ready(target.folder.path);
  if (status.state === 'off') {
    return unsandboxed(request, 'the sandbox is off (workspaceTools.sandbox, --sandbox)');
  }
  if (status.state !== 'available') {
    const reason = status.state === 'unavailable' ? status.reason : 'the sandbox did not answer';
    if (sandbox.setting === 'required' && status.state === 'unavailable') {
      throw new Error(requiredButUnavailable(status));
    }
    return unsandboxed(request, `the sandbox is unavailable: ${reason}`);
  }
  if (!programExists(request)) {
    // Outside the sandbox spawn says ENOENT; inside, the shell would print "not found" (127).
    throw new Error(programNotFound(request.file));
  }
  const policy = policyFor(sandboxTags(target), target.sandbox, placeFor(sandbox.user, target.folder.path));
  const run = await sandbox.wrap(request, policy);
  return {
    request: run.request,
    sandbox: { sandboxed: true, policy: describePolicy(policy, sandbox.user.home) },
    finish: async (result) => {
      const violations = await run.done();
      if (!result.isError) {
        return result;
      }
      const refused = explainRefusal(result.text, policy, { cwd: request.cwd, home: sandbox.user.home, statePaths: sandbox.user.statePaths, violations });
      return refused === undefined ? result : { ...result, text: `${result.text}\n\n${refused}` };
    },
  };
}

function unsandboxed(request: ProcessRequest, reason: string): ShellRun {
  return { request, sandbox: { sandboxed: false, reason }, finish: (result) => Promise.resolve(result) };
}

/** Whether `request.file` is a program the process could start (a path, or a name on its PATH). */
function programExists(request: ProcessRequest): boolean {
  if (request.file.includes('/')) {
    try {
      accessSync(path.resolve(request.cwd, request.file), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  }
  return executableOnPath(request.file, request.env, hostPlatform()) !== undefined;
}
