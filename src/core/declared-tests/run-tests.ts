/**
 * The tests declared in plugin files (`tests` of a tool), run for real through the registry, so
 * every rule of a call applies: an unapproved file's tests do not run, input is validated, the
 * tool's process tree is killed when a test's time is up. One runner for every door: the
 * `test` subcommand, VS Code's Testing view and the tools view.
 */
import { endedHow } from '../process/outcome';
import type { ToolRegistry } from '../registry/tool-registry';
import type { FilePosition, TestExpectation, ToolResult, ToolTest } from '../types';

/** A test and where it is: its tool and plugin file. */
export interface TestCase {
  readonly file: string;
  readonly tool: string;
  /** Where the tool's object starts in the file (the test's own place is `test.line`). */
  readonly toolAt: FilePosition;
  readonly test: ToolTest;
}

/** How a test went. `expected`/`actual` are set for a failed expectation, to show side by side. */
export interface TestOutcome {
  readonly testCase: TestCase;
  readonly passed: boolean;
  /** Why it failed (empty when it passed). */
  readonly message: string;
  readonly durationMs: number;
  readonly expected?: string;
  readonly actual?: string;
}

/** Default time a test may take before it is stopped and failed. */
export const DEFAULT_TEST_TIMEOUT_MS = 60_000;

/** Every declared test of the registry's tools (served or not), or of the named tools only. */
export function collectTests(registry: ToolRegistry, tools?: readonly string[]): TestCase[] {
  return registry.all().flatMap(({ definition }) => {
    if (definition.source.kind !== 'plugin' || (tools !== undefined && tools.length > 0 && !tools.includes(definition.name))) {
      return [];
    }
    const { file, line, column } = definition.source;
    return (definition.tests ?? []).map((test) => ({ file, tool: definition.name, toolAt: { line, column }, test }));
  });
}

/** Runs one test; never throws. `signal` cancels it (the Testing view's Cancel). */
export async function runTest(registry: ToolRegistry, testCase: TestCase, signal?: AbortSignal): Promise<TestOutcome> {
  const timeoutMs = testCase.test.timeoutMs ?? DEFAULT_TEST_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const started = performance.now();
  const result = await registry.call(testCase.tool, testCase.test.input, { signal: signal === undefined ? timeout : AbortSignal.any([signal, timeout]), door: 'test' });
  if (result.refusal !== undefined) {
    // Not approved, disabled or gone: the registry says why, and nothing ran.
    return { testCase, passed: false, message: `not run: ${result.text}`, durationMs: 0 };
  }
  const durationMs = performance.now() - started;
  if (timeout.aborted) {
    return { testCase, passed: false, message: `${endedHow({ kind: 'timeout', timeoutMs })} (ran ${Math.round(durationMs)} ms); the tool's processes were killed`, durationMs };
  }
  if (signal?.aborted === true) {
    return { testCase, passed: false, message: 'cancelled', durationMs };
  }
  const failures = unmetExpectations(testCase.test.expect, result);
  if (failures.length === 0) {
    return { testCase, passed: true, message: '', durationMs };
  }
  return { testCase, passed: false, message: failures.map((failure) => failure.message).join('; '), durationMs, expected: failures.map((failure) => failure.expected).join('\n'), actual: actualOf(result) };
}

interface Unmet {
  readonly message: string;
  readonly expected: string;
}

/** Each expectation that does not hold, with what was expected. */
export function unmetExpectations(expect: TestExpectation, result: ToolResult): Unmet[] {
  const unmet: Unmet[] = [];
  const output = result.text;
  if (expect.isError !== undefined && result.isError !== expect.isError) {
    unmet.push({ message: expect.isError ? 'expected an error result, got a result' : `expected a result, got an error: ${firstLine(output)}`, expected: `isError: ${expect.isError}` });
  }
  if (expect.isError === undefined && result.isError && expect.exitCode === undefined) {
    unmet.push({ message: `the tool returned an error: ${firstLine(output)}`, expected: 'a result that is not an error' });
  }
  if (expect.exitCode !== undefined && result.details?.exitCode !== expect.exitCode) {
    unmet.push({ message: `expected exit code ${expect.exitCode}, got ${result.details?.exitCode ?? 'none'}`, expected: `exitCode: ${expect.exitCode}` });
  }
  if (expect.outputContains !== undefined && !output.includes(expect.outputContains)) {
    unmet.push({ message: `the output does not contain ${JSON.stringify(expect.outputContains)}`, expected: `output containing ${JSON.stringify(expect.outputContains)}` });
  }
  if (expect.outputNotContains !== undefined && output.includes(expect.outputNotContains)) {
    unmet.push({ message: `the output contains ${JSON.stringify(expect.outputNotContains)}`, expected: `output without ${JSON.stringify(expect.outputNotContains)}` });
  }
  if (expect.outputMatches !== undefined && !matches(expect.outputMatches, output)) {
    unmet.push({ message: `the output does not match /${expect.outputMatches}/`, expected: `output matching /${expect.outputMatches}/` });
  }
  return unmet;
}

/** The test's regular expression against the output; an invalid one never matches. */
function matches(pattern: string, output: string): boolean {
  try {
    return new RegExp(pattern, 'm').test(output);
  } catch {
    return false;
  }
}

function actualOf(result: ToolResult): string {
  const code = result.details?.exitCode === undefined ? '' : `exit code ${result.details.exitCode}\n`;
  return `${result.isError ? 'error result' : 'result'}\n${code}${result.text}`;
}

/** The first line of an output, as a clause: its closing period is left to the sentence ("failed.; the output ..."). */
function firstLine(text: string): string {
  return (text.split('\n')[0] ?? '').replace(/\.+$/, '');
}
