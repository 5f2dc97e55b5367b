/**
 * The large-tree section of `npm run bench`: search-text, list-files, git-status and
 * git-diff-summary through the real MCP server on a tree of 30,000 files (bench/large-tree.mjs),
 * side by side with the raw programs, interleaved; and a completeness check of every answer
 * against the true count computed once with the raw programs.
 *
 * search-text runs in two servers: one finds `rg` on PATH (the ripgrep engine), the other has
 * WORKSPACE_TOOLS_RIPGREP=off (the `git grep` engine). The raw references read the program's
 * stdout line by line and kill it (SIGKILL) after the 1,000th line, as `| head -n 1000` stops it
 * (a query with fewer matches runs to completion); each one's run-to-completion time is measured
 * once, when the true totals are counted.
 */
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { callOk, connect, disconnect, time } from './mcp-clients.mjs';
import { ENGINE_PROBE } from './large-tree.mjs';

const execFileAsync = promisify(execFile);

/** The queries: a literal with many matches (the search stops early) and a rarer regex (it scans everything). */
export const LARGE_QUERIES = {
  lit: { query: 'function', regex: false },
  re: { query: 'todo[: ]+[a-z]+', regex: true },
};
export const SEARCH_MAX = 1000;
export const LIST_MAX = [5000, 500];

/** The raw commands, as the report quotes them (case-insensitive like the tool's default). */
export function rawSearchArgs(kind) {
  const { query, regex } = LARGE_QUERIES[kind];
  return {
    rg: ['--no-config', '-n', '--no-heading', '--with-filename', '--hidden', '--glob=!.git', '--no-ignore-dot', '-i', ...(regex ? [] : ['-F']), '-e', query],
    gitGrep: ['grep', '-n', '-I', '--untracked', '-i', regex ? '-E' : '-F', '-e', query],
  };
}
export const RAW_LIST_ARGS = ['ls-files', '-co', '--exclude-standard', '-z'];
export const RAW_STATUS_ARGS = ['status', '--porcelain=v1', '--branch'];
export const RAW_DIFF_ARGS = ['diff', '--stat'];
/** The git run git-status and git-diff-summary make before their own (it names the filter drivers to switch off). */
export const FILTER_CONFIG_ARGS = ['config', '--name-only', '--get-regexp', '^filter\\.'];

/**
 * Runs a program, counts the records of its stdout (newline- or NUL-terminated) and kills it once
 * `limit` records have arrived. Resolves when its pipes have closed.
 * @returns {Promise<{ records: number, killed: boolean, names?: Set<string> }>}
 */
export function rawRecords(file, args, cwd, { limit = Infinity, separator = 0x0a, keepNames = false } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd, stdio: ['ignore', 'pipe', 'ignore'] });
    let records = 0;
    let killed = false;
    const chunks = [];
    child.on('error', reject);
    child.stdout.on('data', (chunk) => {
      if (killed) {
        return;
      }
      if (keepNames) {
        chunks.push(chunk);
      }
      for (let at = chunk.indexOf(separator); at !== -1; at = chunk.indexOf(separator, at + 1)) {
        records += 1;
        if (records >= limit) {
          killed = true;
          child.kill('SIGKILL');
          return;
        }
      }
    });
    child.on('close', (code, signal) => {
      if (!killed && code !== 0 && code !== 1) {
        reject(new Error(`${file} ${args.join(' ')} exited with ${code ?? signal}`));
        return;
      }
      const names = keepNames ? new Set(Buffer.concat(chunks).toString('utf8').split(String.fromCharCode(separator)).filter((name) => name !== '')) : undefined;
      resolve({ records, killed, ...(names === undefined ? {} : { names }) });
    });
  });
}

const text = (result) => result.content.map((part) => part.text ?? '').join('');

/**
 * What a search-text or list-files answer claims and holds: the count in its header, whether it
 * says more exist, and the result lines actually in it.
 */
export function parseAnswer(tool, answer) {
  const lines = answer.split('\n');
  const header = lines[0] ?? '';
  if (/^No (matches|files)/.test(header)) {
    return { claimed: 0, more: false, returned: 0 };
  }
  const patterns =
    tool === 'search-text'
      ? { complete: /^(\d+) matching lines/, more: /^Showing the first (\d+) matching lines .*more exist:$/ }
      : { complete: /^(\d+) files/, more: /^Showing (\d+) of more than \1 files/ };
  const complete = patterns.complete.exec(header);
  const partial = patterns.more.exec(header);
  if (complete === null && partial === null) {
    throw new Error(`${tool}: unexpected answer header: ${header.slice(0, 200)}`);
  }
  const more = partial !== null;
  // The header, then the results, then (when more exist) one closing note in brackets.
  const returned = lines.length - 1 - (more ? 1 : 0);
  return { claimed: Number((complete ?? partial)[1]), more, returned };
}

/**
 * Measures the whole section. `bench` carries run.mjs's recorder and interleaving loop.
 * @param {{ tree: import('./large-tree.mjs').LargeTree, serverJs: string, record: Function,
 *   measureInTurn: Function, rounds: { search: number, regex: number, list: number, git: number, warmup: number, checks: number }, log: Function }} bench
 */
export async function measureLargeTree(bench) {
  const { tree, serverJs, record, measureInTurn, rounds, log } = bench;
  const cwd = tree.path;
  const args = [serverJs, '--workspace', cwd, '--approve-existing'];
  const servers = {
    rg: await connect({ id: 'large-rg', label: 'ours, ripgrep engine', args }),
    git: await connect({ id: 'large-git', label: 'ours, git grep engine', args, env: { WORKSPACE_TOOLS_RIPGREP: 'off' } }),
  };
  try {
    await checkEngines(servers);
    log('large tree: true totals (raw programs run to completion)');
    const truth = await trueTotals(cwd, record);
    log('large tree: completeness');
    const completeness = await checkCompleteness(servers, truth, rounds.checks);

    const search = (server, kind) => () =>
      callOk(server.client, 'search-text', { query: LARGE_QUERIES[kind].query, regex: LARGE_QUERIES[kind].regex, maxResults: SEARCH_MAX });
    for (const kind of Object.keys(LARGE_QUERIES)) {
      log(`large tree: search-text ${kind === 'lit' ? 'literal' : 'regex'}`);
      const raw = rawSearchArgs(kind);
      await measureInTurn(
        [
          [`large.${kind}.ours.rg`, search(servers.rg, kind)],
          [`large.${kind}.raw.rg`, () => rawRecords('rg', raw.rg, cwd, { limit: SEARCH_MAX })],
          [`large.${kind}.ours.git`, search(servers.git, kind)],
          [`large.${kind}.raw.gitgrep`, () => rawRecords('git', raw.gitGrep, cwd, { limit: SEARCH_MAX })],
        ],
        rounds.warmup,
        kind === 'lit' ? rounds.search : rounds.regex,
      );
    }
    log('large tree: list-files');
    await measureInTurn(
      [
        ...LIST_MAX.map((max) => [`large.list${max}.ours`, () => callOk(servers.rg.client, 'list-files', { maxResults: max })]),
        ['large.list.raw', () => rawRecords('git', RAW_LIST_ARGS, cwd, { separator: 0x00 })],
      ],
      rounds.warmup,
      rounds.list,
    );
    log('large tree: git');
    const rawGit = (gitArgs) => () => execFileAsync('git', gitArgs, { cwd, maxBuffer: 64 * 1024 * 1024 });
    await measureInTurn(
      [
        ['large.status.ours', () => callOk(servers.rg.client, 'git-status', {})],
        ['large.status.raw', rawGit(RAW_STATUS_ARGS)],
        ['large.diff.ours', () => callOk(servers.rg.client, 'git-diff-summary', {})],
        ['large.diff.raw', rawGit(RAW_DIFF_ARGS)],
        // Exits 1 when there is no filter driver, hence rawRecords rather than execFile.
        ['large.config.raw', () => rawRecords('git', FILTER_CONFIG_ARGS, cwd)],
      ],
      rounds.warmup,
      rounds.git,
    );
    return { truth, completeness };
  } finally {
    await Promise.all(Object.values(servers).map(disconnect));
  }
}

/**
 * The two search servers really run different engines: only ripgrep reads `\d` as a digit, so
 * only it finds the probe file (bench/large-tree.mjs).
 */
async function checkEngines(servers) {
  const found = async (server) =>
    text(await callOk(server.client, 'search-text', { query: ENGINE_PROBE.query, regex: true })).includes(ENGINE_PROBE.file);
  const [rg, git] = await Promise.all([found(servers.rg), found(servers.git)]);
  if (!rg || git) {
    throw new Error(`search engines are not the expected ones (probe found by the rg server: ${rg}, by the git server: ${git}); is rg on PATH?`);
  }
}

/** Totals from the raw programs, run to completion once; their times are recorded as one sample each. */
async function trueTotals(cwd, record) {
  const truth = {};
  for (const kind of Object.keys(LARGE_QUERIES)) {
    const raw = rawSearchArgs(kind);
    let rg;
    let gitGrep;
    record(`large.${kind}.full.rg`, await time(async () => (rg = await rawRecords('rg', raw.rg, cwd))));
    record(`large.${kind}.full.gitgrep`, await time(async () => (gitGrep = await rawRecords('git', raw.gitGrep, cwd))));
    truth[kind] = { rg: rg.records, git: gitGrep.records };
  }
  const listed = await rawRecords('git', RAW_LIST_ARGS, cwd, { separator: 0x00, keepNames: true });
  truth.list = listed.names.size;
  return truth;
}

/**
 * Every search-text and list-files case `checks` times: how many results each answer holds
 * against min(maxResults, true total), and whether it says "more exist" exactly when more do.
 */
async function checkCompleteness(servers, truth, checks) {
  const cases = [
    ...Object.keys(LARGE_QUERIES).flatMap((kind) =>
      ['rg', 'git'].map((engine) => ({
        key: `${kind}.${engine}`,
        tool: 'search-text',
        server: servers[engine],
        input: { query: LARGE_QUERIES[kind].query, regex: LARGE_QUERIES[kind].regex, maxResults: SEARCH_MAX },
        max: SEARCH_MAX,
        total: truth[kind][engine],
      })),
    ),
    ...LIST_MAX.map((max) => ({ key: `list${max}`, tool: 'list-files', server: servers.rg, input: { maxResults: max }, max, total: truth.list })),
  ];
  const outcome = {};
  for (const item of cases) {
    const expected = Math.min(item.max, item.total);
    const answers = [];
    for (let i = 0; i < checks; i++) {
      const parsed = parseAnswer(item.tool, text(await callOk(item.server.client, item.tool, item.input)));
      answers.push({ ...parsed, ok: parsed.returned === expected && parsed.claimed === parsed.returned && parsed.more === item.total > item.max });
    }
    outcome[item.key] = {
      expected,
      total: item.total,
      max: item.max,
      returned: Math.min(...answers.map((answer) => answer.returned)),
      moreSaid: answers.some((answer) => answer.more),
      ok: answers.every((answer) => answer.ok),
      checks,
    };
  }
  return outcome;
}
