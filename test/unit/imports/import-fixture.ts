/**
 * A temp workspace for the importer tests: real files, an imported tool built by the plugin
 * loader's own buildTool (the shell handler and steps that run it), and a real run of it.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import type { ShellHandlerSpec } from '../../../src/core/handlers/shell/spec';
import type { ImportedTool, ImportResult } from '../../../src/core/imports/imported-tool';
import { buildTool } from '../../../src/core/plugins/build-tool';
import { InputValidator } from '../../../src/core/registry/input-validator';
import { ToolInputError, errorResultFor } from '../../../src/core/tool-errors';
import { DEFAULT_LIMITS, type ToolInput, type ToolResult, type ToolRunContext, type WorkspaceFolder } from '../../../src/core/types';

/** A script that prints its arguments as JSON (what argv the program really got). */
export const PRINT_ARGV_SCRIPT = 'process.stdout.write(JSON.stringify(process.argv.slice(2)))\n';

const validator = new InputValidator();

export class ImportFixture {
  readonly path = realpathSync(mkdtempSync(join(tmpdir(), 'wt-imports-')));
  readonly folder: WorkspaceFolder = { name: 'ws', path: this.path };
  /** The environment a tool runs with (what `${env:NAME}` reads at run time). */
  readonly hostEnv: Record<string, string | undefined> = { PATH: process.env['PATH'], HOME: process.env['HOME'] };

  write(name: string, text: string): this {
    const file = join(this.path, name);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    return this;
  }

  context(): ToolRunContext {
    const quiet = (): void => undefined;
    return {
      folders: [this.folder],
      signal: new AbortController().signal,
      limits: DEFAULT_LIMITS,
      logger: { trace: quiet, debug: quiet, info: quiet, warn: quiet, error: quiet },
      env: this.hostEnv,
    };
  }

  /** Builds the tool as the plugin loader would and runs it once, input validated first. */
  async run(tool: ImportedTool, input: ToolInput = {}): Promise<ToolResult> {
    const built = buildTool(tool.spec, {
      source: { kind: 'plugin', pluginName: 'imports', file: join(this.path, '.vscode/tools/imports.json'), line: 1, column: 1 },
      folder: this.folder,
      locate: () => ({ line: 1, column: 1 }),
    });
    if ('problems' in built) {
      throw new Error(`the imported spec does not build: ${built.problems.map((problem) => problem.message).join('; ')}`);
    }
    try {
      const checked = validator.check(built.tool.inputSchema, input);
      if (!checked.ok) {
        throw new ToolInputError(checked.message);
      }
      return await built.tool.run(checked.input, this.context());
    } catch (error) {
      return errorResultFor(tool.name, error);
    }
  }

  /** The argv the print-argv script got from the tool (the tool must run it). */
  async argvOf(tool: ImportedTool, input: ToolInput): Promise<string[]> {
    const result = await this.run(tool, input);
    assert.equal(result.isError, false, result.text);
    // The program's JSON line; a runner (npm, just) may print its own lines around it.
    const printed = /^\[.*\]$/m.exec(result.text)?.[0];
    assert.ok(printed !== undefined, `no argv line in: ${result.text}`);
    return JSON.parse(printed) as string[];
  }

  dispose(): void {
    rmSync(this.path, { recursive: true, force: true });
  }
}

/** The tool of that name; fails the test with what there is when it is missing. */
export function toolNamed(result: Pick<ImportResult, 'tools' | 'notServed'>, name: string): ImportedTool {
  const tool = result.tools.find((candidate) => candidate.name === name);
  assert.ok(tool, `no tool ${name}; tools: ${result.tools.map((candidate) => candidate.name).join(', ')}; not served: ${JSON.stringify(result.notServed)}`);
  return tool;
}

/** The reason a task is not served; fails when it is served. */
export function reasonFor(result: Pick<ImportResult, 'tools' | 'notServed'>, name: string): string {
  const entry = result.notServed.find((candidate) => candidate.name === name);
  assert.ok(entry, `"${name}" is not in notServed: ${JSON.stringify(result.notServed)}`);
  return entry.reason;
}

/** Injection values: each must reach the program as exactly itself. */
export const INJECTIONS = ['; rm -rf ~', '$(id)', '`id`', "it's \"quoted\"", 'a\nb; echo pwned', '%PATH% !PATH!', '${HOME} $HOME', '{{other}}', '-rf', 'x\' ; echo "y'];

/** The shell handler spec of a one-step imported tool. */
export function shellSpecOf(tool: ImportedTool): ShellHandlerSpec {
  const handler = tool.spec.handler;
  assert.ok(handler !== undefined && handler.type === 'shell', `${tool.name} has no shell handler: ${JSON.stringify(tool.spec)}`);
  return handler;
}

/**
 * A fresh workspace with the print-argv script for each test of a file, handed to `use`, and
 * removed after the test.
 */
export function workspaceForEachTest(use: (fixture: ImportFixture) => void): void {
  let current: ImportFixture | undefined;
  beforeEach(() => {
    current = new ImportFixture().write('argv.js', PRINT_ARGV_SCRIPT);
    use(current);
  });
  afterEach(() => {
    current?.dispose();
  });
}
