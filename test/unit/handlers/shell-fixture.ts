/** Shared set-up for the shell handler tests: a temp workspace folder and a real run context. */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { shellHandler } from '../../../src/core/handlers/shell/handler';
import type { ShellHandlerSpec } from '../../../src/core/handlers/shell/spec';
import { runAsRegistry } from '../helpers/handler-run';
import {
  DEFAULT_LIMITS,
  type ExecutionLimits,
  type JsonObjectSchema,
  type ToolInput,
  type ToolResult,
  type ToolRunContext,
} from '../../../src/core/types';

/**
 * `node -e` that prints its arguments as JSON: proves exactly what argv the program got.
 * `--` ends node's own options, so arguments like `--name=x` reach the script.
 */
export const PRINT_ARGV = [
  process.execPath,
  '-e',
  'process.stdout.write(JSON.stringify(process.argv.slice(1)))',
  '--',
];

export const SCHEMA: JsonObjectSchema = {
  type: 'object',
  properties: {
    value: { type: 'string' },
    other: { type: 'string' },
    withDefault: { type: 'string', default: 'the-default' },
    items: { type: 'array', items: { type: 'string' } },
    count: { type: 'integer' },
    flag: { type: 'boolean' },
    'odd-name.x': { type: 'string' },
  },
};

export type Spec = Omit<ShellHandlerSpec, 'type'>;

/** A temp workspace folder (real path) for one test, removed by `dispose`. */
export class ShellFixture {
  readonly folder = realpathSync(mkdtempSync(join(tmpdir(), 'wt-shell-')));

  context(extra: Partial<ToolRunContext> = {}, limits: Partial<ExecutionLimits> = {}): ToolRunContext {
    const quiet = (): void => undefined;
    return {
      folders: [{ name: 'ws', path: this.folder }],
      signal: new AbortController().signal,
      limits: { ...DEFAULT_LIMITS, ...limits },
      logger: { trace: quiet, debug: quiet, info: quiet, warn: quiet, error: quiet },
      env: { PATH: process.env['PATH'], HOST_SECRET: 'host-value', INPUT_OTHER: 'inherited' },
      ...extra,
    };
  }

  run(spec: Spec, input: ToolInput, context: ToolRunContext = this.context()): Promise<ToolResult> {
    const target = { toolName: 'my-tool', inputSchema: SCHEMA, folder: { name: 'ws', path: this.folder } };
    return runAsRegistry(shellHandler, { type: 'shell', ...spec }, target, input, context);
  }

  /** Runs a PRINT_ARGV-style spec and returns the parsed argv it printed. */
  async argvOf(spec: Spec, input: ToolInput): Promise<unknown> {
    const result = await this.run(spec, input);
    assert.equal(result.isError, false, result.text);
    return JSON.parse(result.text);
  }

  dispose(): void {
    rmSync(this.folder, { recursive: true, force: true });
  }
}
