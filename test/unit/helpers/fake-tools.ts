import type { Logger, ToolDefinition, ToolInput, ToolResult, ToolRunContext } from '../../../src/core/types';
import { DEFAULT_LIMITS, textResult } from '../../../src/core/types';

/** A logger that keeps lines in memory so tests can assert on them. */
export function memoryLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const push = (level: string) => (message: string) => lines.push(`${level} ${message}`);
  return { lines, trace: push('trace'), debug: push('debug'), info: push('info'), warn: push('warn'), error: push('error') };
}

/** A plain tool definition whose behaviour the test supplies. */
export function toolDefinition(
  name: string,
  options: {
    file?: string;
    line?: number;
    run?: (input: ToolInput, context: ToolRunContext) => Promise<ToolResult>;
    inputSchema?: ToolDefinition['inputSchema'];
  } = {},
): ToolDefinition {
  return {
    name,
    description: `The ${name} tool`,
    inputSchema: options.inputSchema ?? { type: 'object', properties: {} },
    tags: ['read'],
    source:
      options.file === undefined
        ? { kind: 'builtin' }
        : { kind: 'plugin', pluginName: 'p', file: options.file, line: options.line ?? 1, column: 5 },
    handlerSummary: `run ${name}`,
    run: options.run ?? (() => Promise.resolve(textResult(`${name} ran`))),
  };
}

export const testRegistryDefaults = {
  folders: () => [{ name: 'ws', path: process.cwd() }],
  limits: () => DEFAULT_LIMITS,
  env: process.env,
};
