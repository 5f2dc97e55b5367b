/**
 * `activate()` in the real VS Code, several times per scenario: runs scripts/e2e/run.sh `--runs`
 * times (default 5), each run the three scenarios in turn (trusted, restricted, grant: so the
 * machine's load reaches every scenario alike), with only the checks that find the extension
 * (E2E_ONLY matching no other check), and collects what scripts/e2e/metrics.js wrote for each:
 * VS Code's own measurement of activate() and of loading dist/extension.js before it, the
 * extension host's start to activation, the activation the extension's API reports. The runs are
 * kept in one JSON file, which bench/report.mjs shows as medians with min-max (BENCHMARKS.md).
 * `npm run bench` runs this first unless given --no-activation; on its own:
 *
 *   node bench/activation-runs.mjs [--runs 5] [--out FILE]
 *
 * The production bundle is built first (`node esbuild.mjs --production`), as the .vsix ships it.
 * About 2-3 minutes a run on a quiet 2-core machine.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { option } from './hand-run-args.mjs';

const root = new URL('..', import.meta.url).pathname;
export const SCENARIOS = ['trusted', 'restricted', 'grant'];
/** A regular expression no check's name matches: the driver then runs activation's checks only. */
const NO_OTHER_CHECK = '^no-check-but-activation$';

/** Where the runs are kept: beside the e2e run's own metrics, outside the clone. */
export function activationRunsFile() {
  const cacheRoot = process.env.WORKSPACE_TOOLS_E2E_CACHE || join(homedir(), '.cache', 'workspace-tools-e2e');
  return process.env.E2E_ACTIVATION_RUNS_OUT || join(cacheRoot, 'e2e-activation-runs.json');
}

/** The figures of one scenario of one run (scripts/e2e/metrics.js), by name. */
function figuresOf(scenario) {
  const timing = scenario.vscodeTiming;
  return {
    activateMs: timing?.activateMs,
    codeLoadingMs: timing?.codeLoadingMs,
    extHostStartToActivatedMs: timing?.extHostStartToActivatedMs,
    reportedActivationMs: scenario.reportedActivationMs,
  };
}

/**
 * Runs the e2e activation `runs` times and writes the collected samples to `out`; returns them.
 * @param {{ runs: number, out: string, log: (message: string) => void }} options
 */
export function collectActivationRuns({ runs, out, log }) {
  execFileSync(process.execPath, [join(root, 'esbuild.mjs'), '--production'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  const work = mkdtempSync(join(tmpdir(), 'wt-activation-'));
  const samples = Object.fromEntries(SCENARIOS.map((name) => [name, { activateMs: [], codeLoadingMs: [], extHostStartToActivatedMs: [], reportedActivationMs: [] }]));
  let last;
  const started = Date.now();
  try {
    for (let run = 1; run <= runs; run++) {
      const metricsFile = join(work, `run-${run}.json`);
      log(`activation in VS Code: run ${run} of ${runs} (${SCENARIOS.join(', ')})`);
      const result = spawnSync('bash', [join(root, 'scripts/e2e/run.sh'), ...SCENARIOS], {
        cwd: root,
        encoding: 'utf8',
        env: { ...process.env, E2E_ONLY: NO_OTHER_CHECK, E2E_METRICS_OUT: metricsFile, ...(run > 1 ? { E2E_SKIP_SETUP: '1' } : {}) },
        maxBuffer: 64 * 1024 * 1024,
      });
      let metrics;
      try {
        metrics = JSON.parse(readFileSync(metricsFile, 'utf8'));
      } catch {
        throw new Error(`run ${run} of scripts/e2e/run.sh left no metrics (exit ${result.status}):\n${(result.stdout ?? '').split('\n').slice(-30).join('\n')}`);
      }
      for (const name of SCENARIOS) {
        const scenario = metrics.scenarios?.[name];
        if (scenario === undefined) {
          throw new Error(`run ${run}: scenario ${name} left no result:\n${(result.stdout ?? '').split('\n').slice(-30).join('\n')}`);
        }
        for (const [key, value] of Object.entries(figuresOf(scenario))) {
          if (typeof value === 'number') {
            samples[name][key].push(value);
          }
        }
      }
      last = metrics;
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const collected = {
    date: new Date().toISOString(),
    runs,
    minutes: (Date.now() - started) / 60_000,
    vscodeVersion: last?.vscodeVersion,
    vsixBytes: last?.vsixBytes,
    scenarios: samples,
  };
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(`${out}.tmp`, `${JSON.stringify(collected, null, 2)}\n`);
  renameSync(`${out}.tmp`, out);
  return collected;
}

/** The collected runs, or undefined when there are none or the file is not theirs. */
export function readActivationRuns(file = activationRunsFile()) {
  try {
    const runs = JSON.parse(readFileSync(file, 'utf8'));
    return typeof runs.date === 'string' && typeof runs.scenarios === 'object' ? runs : undefined;
  } catch {
    return undefined;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const out = option('out', activationRunsFile());
  const collected = collectActivationRuns({ runs: Number(option('runs', '5')), out, log: (message) => process.stderr.write(`[activation] ${message}\n`) });
  for (const [name, figures] of Object.entries(collected.scenarios)) {
    process.stdout.write(`${name}: activate() ${figures.activateMs.join(', ')} ms; code loading ${figures.codeLoadingMs.join(', ')} ms\n`);
  }
  process.stdout.write(`-> ${out}\n`);
}
