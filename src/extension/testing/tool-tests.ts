/**
 * The tests declared in plugin files, in VS Code's Testing view: plugin files → tools → tests, each
 * at its line (so the editor shows a run button in the gutter), with run, re-run and cancel. A
 * failure shows expected and actual at the test's line. Runs go through the core runner, so every
 * rule of a call applies; a tool whose file is not approved is reported as skipped, with why.
 */
import * as vscode from 'vscode';
import type { TestCase, TestOutcome } from '../../core/declared-tests/run-tests';
import { collectTests, runTest } from '../../core/declared-tests/run-tests';
import type { WorkspaceToolsService } from '../service';
import { TESTS_AWAITING_APPROVAL } from '../context-keys';

/** The controller's id (the Testing view groups tests under its label). */
export const TEST_CONTROLLER_ID = 'workspaceTools.tests';


/** What a test item of a waiting file says beside its name. */
const AWAITING_APPROVAL = 'awaiting approval';

/** Passed and failed counts of a tool's tests in the latest run. */
export interface ToolTestSummary {
  readonly passed: number;
  readonly failed: number;
}

/** Runs tool tests (all, or the named tools'), the way the Testing view does. */
export interface ToolTestRunner {
  /** Runs and resolves to each test's outcome; the Testing view shows the run too. */
  run(tools?: readonly string[], token?: vscode.CancellationToken): Promise<TestOutcome[]>;
  /** The latest run's counts per tool. */
  summary(tool: string): ToolTestSummary | undefined;
  readonly onDidRun: vscode.Event<void>;
}

/** Registers the test controller; everything it creates ends in context.subscriptions. */
export function registerToolTests(context: vscode.ExtensionContext, service: WorkspaceToolsService, log: vscode.LogOutputChannel): ToolTestRunner {
  const controller = vscode.tests.createTestController(TEST_CONTROLLER_ID, 'Workspace Tools');
  const ran = new vscode.EventEmitter<void>();
  const summaries = new Map<string, ToolTestSummary>();
  const cases = new Map<string, TestCase>();
  const refresh = (): void => {
    cases.clear();
    const tests = service.pluginsAllowed ? collectTests(service.registry) : [];
    tests.forEach((testCase) => cases.set(testId(testCase), testCase));
    const waiting = new Set(tests.filter((testCase) => service.registry.get(testCase.tool)?.state === 'pending-approval').map((testCase) => testCase.file));
    controller.items.replace(fileItems(controller, tests, waiting));
    const ids = tests.filter((testCase) => waiting.has(testCase.file)).flatMap((testCase) => [`file:${testCase.file}`, toolItemId(testCase), testId(testCase)]);
    vscode.commands.executeCommand('setContext', TESTS_AWAITING_APPROVAL, [...new Set(ids)]).then(undefined, (error: unknown) => log.warn(`[tests] could not set ${TESTS_AWAITING_APPROVAL}: ${String(error)}`));
  };
  const execute = async (request: vscode.TestRunRequest, token: vscode.CancellationToken): Promise<TestOutcome[]> => {
    const run = controller.createTestRun(request);
    const outcomes: TestOutcome[] = [];
    try {
      for (const item of leavesOf(request, controller)) {
        const testCase = cases.get(item.id);
        if (token.isCancellationRequested || testCase === undefined) {
          run.skipped(item);
          continue;
        }
        const outcome = await runOne(run, item, testCase, service, token);
        if (outcome !== undefined) {
          outcomes.push(outcome);
        }
      }
    } finally {
      run.end();
    }
    record(summaries, outcomes);
    log.info(`[tests] ran ${outcomes.length} tests: ${outcomes.filter((outcome) => outcome.passed).length} passed`);
    ran.fire();
    return outcomes;
  };
  controller.createRunProfile('Run', vscode.TestRunProfileKind.Run, (request, token) => execute(request, token).then(() => undefined), true);
  controller.refreshHandler = () => service.reload().then(refresh);
  // No refresh now: the tests come with the first load, which fires onDidChange.
  context.subscriptions.push(controller, ran, service.onDidChange(refresh));
  return {
    run: (tools, token) => {
      const include = [...cases.values()].filter((testCase) => tools === undefined || tools.includes(testCase.tool)).flatMap((testCase) => findItem(controller, testCase) ?? []);
      return execute(new vscode.TestRunRequest(include), token ?? new vscode.CancellationTokenSource().token);
    },
    summary: (tool) => summaries.get(tool),
    onDidRun: ran.event,
  };
}

async function runOne(run: vscode.TestRun, item: vscode.TestItem, testCase: TestCase, service: WorkspaceToolsService, token: vscode.CancellationToken): Promise<TestOutcome | undefined> {
  const state = service.registry.get(testCase.tool)?.state;
  if (state !== 'active') {
    run.appendOutput(`${testCase.tool} › ${testCase.test.name}: not run: ${state === 'pending-approval' ? 'its plugin file waits for approval (Approve… on the test item, or in the tools view)' : 'the tool is not served'}\r\n`, undefined, item);
    run.skipped(item);
    return undefined;
  }
  run.started(item);
  const controller = new AbortController();
  const listener = token.onCancellationRequested(() => controller.abort());
  try {
    const outcome = await runTest(service.registry, testCase, controller.signal);
    if (outcome.passed) {
      run.passed(item, outcome.durationMs);
    } else {
      run.failed(item, failureMessage(outcome, item), outcome.durationMs);
    }
    return outcome;
  } finally {
    listener.dispose();
  }
}

/** Expected vs actual when an expectation failed, at the test's line. */
function failureMessage(outcome: TestOutcome, item: vscode.TestItem): vscode.TestMessage {
  const message = outcome.expected !== undefined && outcome.actual !== undefined
    ? vscode.TestMessage.diff(outcome.message, outcome.expected, outcome.actual)
    : new vscode.TestMessage(outcome.message);
  if (item.uri !== undefined && item.range !== undefined) {
    message.location = new vscode.Location(item.uri, item.range);
  }
  return message;
}

function record(summaries: Map<string, ToolTestSummary>, outcomes: readonly TestOutcome[]): void {
  const byTool = new Map<string, TestOutcome[]>();
  outcomes.forEach((outcome) => byTool.set(outcome.testCase.tool, [...(byTool.get(outcome.testCase.tool) ?? []), outcome]));
  for (const [tool, results] of byTool) {
    const passed = results.filter((outcome) => outcome.passed).length;
    summaries.set(tool, { passed, failed: results.length - passed });
  }
}

function testId(testCase: TestCase): string {
  return `${testCase.file}#${testCase.tool}#${testCase.test.name}#${testCase.test.line}`;
}

function toolItemId(testCase: TestCase): string {
  return `tool:${testCase.file}#${testCase.tool}`;
}

/**
 * file → tool → test items, each at its own place in the plugin file. The file and tool items of a
 * file in `waiting` say "awaiting approval" (their tests are skipped until it is approved).
 */
function fileItems(controller: vscode.TestController, tests: readonly TestCase[], waiting: ReadonlySet<string>): vscode.TestItem[] {
  const files = new Map<string, vscode.TestItem>();
  const tools = new Map<string, vscode.TestItem>();
  for (const testCase of tests) {
    const uri = vscode.Uri.file(testCase.file);
    let file = files.get(testCase.file);
    if (file === undefined) {
      file = controller.createTestItem(`file:${testCase.file}`, vscode.workspace.asRelativePath(uri), uri);
      if (waiting.has(testCase.file)) {
        file.description = AWAITING_APPROVAL;
      }
      files.set(testCase.file, file);
    }
    let tool = tools.get(`${testCase.file}#${testCase.tool}`);
    if (tool === undefined) {
      tool = controller.createTestItem(toolItemId(testCase), testCase.tool, uri);
      if (waiting.has(testCase.file)) {
        tool.description = AWAITING_APPROVAL;
      }
      // The tool's own line: VS Code draws one gutter icon per line, the worst state of the items
      // there, so a tool placed on its first test's line showed that passing test as failed.
      tool.range = rangeAt(testCase.toolAt.line, testCase.toolAt.column);
      tools.set(`${testCase.file}#${testCase.tool}`, tool);
      file.children.add(tool);
    }
    const test = controller.createTestItem(testId(testCase), testCase.test.name, uri);
    test.range = rangeAt(testCase.test.line, testCase.test.column);
    tool.children.add(test);
  }
  return [...files.values()];
}

function rangeAt(line: number, column: number): vscode.Range {
  const position = new vscode.Position(Math.max(0, line - 1), Math.max(0, column - 1));
  return new vscode.Range(position, position);
}

/** The test items a request covers: the requested ones (all when none), their leaves, minus excluded. */
function leavesOf(request: vscode.TestRunRequest, controller: vscode.TestController): vscode.TestItem[] {
  const roots: vscode.TestItem[] = [];
  if (request.include === undefined) {
    controller.items.forEach((item) => roots.push(item));
  } else {
    roots.push(...request.include);
  }
  const excluded = new Set(request.exclude ?? []);
  const leaves: vscode.TestItem[] = [];
  const walk = (item: vscode.TestItem): void => {
    if (excluded.has(item)) {
      return;
    }
    if (item.children.size === 0) {
      leaves.push(item);
    }
    item.children.forEach(walk);
  };
  roots.forEach(walk);
  return leaves;
}

function findItem(controller: vscode.TestController, testCase: TestCase): vscode.TestItem | undefined {
  return controller.items.get(`file:${testCase.file}`)?.children.get(toolItemId(testCase))?.children.get(testId(testCase));
}
