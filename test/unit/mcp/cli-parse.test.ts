import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseCli } from '../../../src/mcp/cli';

describe('parseCli: subcommands', () => {
  test('no command is serve, so existing client configurations keep working', () => {
    const outcome = parseCli(['--workspace', 'repo'], '/home');
    assert.equal(outcome.kind === 'run' && outcome.command, 'serve');
    assert.deepEqual(outcome.kind === 'run' ? outcome.options.workspaces : [], ['/home/repo']);
  });

  test('approve takes files (resolved), --yes and --list', () => {
    const outcome = parseCli(['approve', 'a.json', '-y', '--workspace', '.'], '/w');
    assert.deepEqual(outcome.kind === 'run' && outcome.command === 'approve' ? [outcome.files, outcome.yes, outcome.list] : undefined, [['/w/a.json'], true, false]);
  });

  test('list --allowed-names takes an optional server name', () => {
    const bare = parseCli(['list', '--allowed-names'], '/w');
    assert.equal(bare.kind === 'run' && bare.command === 'list' ? bare.allowedNames : undefined, 'workspace-tools');
    const before = parseCli(['list', '--allowed-names', '--workspace', '.'], '/w');
    assert.equal(before.kind === 'run' && before.command === 'list' ? before.allowedNames : undefined, 'workspace-tools');
    const named = parseCli(['list', '--allowed-names', 'mine'], '/w');
    assert.equal(named.kind === 'run' && named.command === 'list' ? named.allowedNames : undefined, 'mine');
  });

  test('call needs a tool; JSON is optional', () => {
    assert.deepEqual(parseCli(['call'], '/w'), { kind: 'error', command: 'call', message: 'call needs the name of a tool: call TOOL [JSON]' });
    const outcome = parseCli(['call', 'git-log', '{"maxCount":1}'], '/w');
    assert.deepEqual(outcome.kind === 'run' && outcome.command === 'call' ? [outcome.tool, outcome.input] : undefined, ['git-log', '{"maxCount":1}']);
  });

  test('an option of another subcommand is refused with where it belongs; help per command', () => {
    assert.match(parseCli(['check', '--yes'], '/w').kind === 'error' ? (parseCli(['check', '--yes'], '/w') as { message: string }).message : '', /--yes is an option of "approve", not of "check"/);
    assert.deepEqual(parseCli(['approve', '--help'], '/w'), { kind: 'help', command: 'approve' });
    assert.equal(parseCli(['init'], '/w').kind, 'error');
    assert.equal(parseCli(['serve', 'extra'], '/w').kind, 'error');
  });

  test('init sets up one or more clients (--claude, --cursor, --vscode), with --local for the path form', () => {
    const outcome = parseCli(['init', '--vscode', '--claude', '--local'], '/w');
    assert.deepEqual(outcome.kind === 'run' && outcome.command === 'init' ? [outcome.clients, outcome.local] : outcome, [['claude', 'vscode'], true]);
    const plain = parseCli(['init', '--cursor'], '/w');
    assert.deepEqual(plain.kind === 'run' && plain.command === 'init' ? [plain.clients, plain.local] : plain, [['cursor'], false]);
    const none = parseCli(['init'], '/w');
    assert.match(none.kind === 'error' ? none.message : '', /--claude, --vscode, --copilot, --cursor, --codex, --gemini, --zed, or --all/);
    const misplaced = parseCli(['serve', '--local'], '/w');
    assert.match(misplaced.kind === 'error' ? misplaced.message : '', /--local is an option of "init"/);
  });

  test('init --all names every agent; --user and --list are init\'s own', () => {
    const all = parseCli(['init', '--all'], '/w');
    assert.deepEqual(all.kind === 'run' && all.command === 'init' ? [all.clients, all.user, all.listAgents] : all, [['claude', 'vscode', 'copilot', 'cursor', 'codex', 'gemini', 'zed'], false, false]);
    const user = parseCli(['init', '--copilot', '--user'], '/w');
    assert.deepEqual(user.kind === 'run' && user.command === 'init' ? [user.clients, user.user] : user, [['copilot'], true]);
    const list = parseCli(['init', '--list'], '/w');
    assert.deepEqual(list.kind === 'run' && list.command === 'init' ? [list.clients, list.listAgents] : list, [[], true]);
    assert.match((parseCli(['list', '--user'], '/w') as { message?: string }).message ?? '', /--user is an option of "init"/);
    assert.equal(parseCli(['approve', '--list'], '/w').kind, 'run', '--list is still approve\'s');
  });
});
