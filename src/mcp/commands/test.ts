/**
 * `test [TOOL...]`: runs the tests declared in plugin files, one line per test and a final
 * `N passed, N failed`; exit 1 on any failure. Approval applies as for `serve`: the tests of a
 * file that is not approved fail with that reason (use --approve-existing in CI).
 */
import type { TestOutcome } from '../../core/declared-tests/run-tests';
import { collectTests, runTest } from '../../core/declared-tests/run-tests';
import type { PluginFileStatus } from '../../core/registry/snapshot';
import { awaitsApproval } from '../../core/registry/snapshot';
import { formatDiagnostic } from '../../core/types';
import type { CliCommand } from '../cli';
import { stderrLogger } from '../stderr-logger';
import { displayPath, setUp } from './setup';

/** Runs the tests one after another; resolves to 0 when all passed, else 1. */
export async function test(command: Extract<CliCommand, { command: 'test' }>): Promise<number> {
  const { options } = command;
  const { registry } = setUp(options, stderrLogger(options.logLevel === 'info' ? 'warn' : options.logLevel));
  await registry.initialize();
  const controller = new AbortController();
  const cancel = (): void => controller.abort();
  process.once('SIGINT', cancel);
  let failed = 0;
  let passed = 0;
  try {
    // A tool that does not load runs no tests: say so (`check` lists every problem).
    const problems = registry.diagnostics();
    if (problems.length > 0) {
      process.stderr.write(`${problems.length} plugin problem${problems.length === 1 ? '' : 's'}; the tools they concern run no tests:\n${problems.map((problem) => `  ${formatDiagnostic({ ...problem, file: displayPath(problem.file) })}\n`).join('')}`);
    }
    for (const tool of command.tools.filter((name) => registry.get(name) === undefined)) {
      process.stdout.write(`FAIL ${tool}: no tool has this name\n`);
      failed++;
    }
    const outcomes: TestOutcome[] = [];
    for (const testCase of collectTests(registry, command.tools)) {
      const outcome = await runTest(registry, testCase, controller.signal);
      outcomes.push(outcome);
      process.stdout.write(describe(outcome));
    }
    passed = outcomes.filter((outcome) => outcome.passed).length;
    failed += outcomes.length - passed;
    if (outcomes.length === 0 && failed === 0) {
      process.stderr.write('No tests: add "tests" to a tool in a plugin file (see docs/steps-aliases-tests.md#tests in the Workspace Tools repository).\n');
    }
    process.stderr.write(approvalHint(registry.files().filter(awaitsApproval), options.workspaces));
    process.stdout.write(`${passed} passed, ${failed} failed\n`);
    return failed === 0 ? 0 : 1;
  } finally {
    process.off('SIGINT', cancel);
    registry.dispose();
  }
}

/** The tests of a file that waits for approval do not run: say how to approve it (once, after the results). */
function approvalHint(waiting: readonly PluginFileStatus[], workspaces: readonly string[]): string {
  if (waiting.length === 0) {
    return '';
  }
  const files = waiting.map((file) => displayPath(file.file)).join(', ');
  const folders = workspaces.map((folder) => ` --workspace ${displayPath(folder)}`).join('');
  return `The tests of ${files} did not run: ${waiting.length === 1 ? 'it waits' : 'they wait'} for approval. Review and approve with "workspace-tools-mcp approve${folders}" (or pass --approve-existing in CI).\n`;
}

function describe(outcome: TestOutcome): string {
  const { testCase } = outcome;
  const time = `${Math.round(outcome.durationMs)} ms`;
  if (outcome.passed) {
    return `PASS ${testCase.tool} › ${testCase.test.name} (${time})\n`;
  }
  const where = `${displayPath(testCase.file)}:${testCase.test.line}:${testCase.test.column}`;
  return `FAIL ${testCase.tool} › ${testCase.test.name} (${time})\n     ${where}: ${outcome.message}\n`;
}
