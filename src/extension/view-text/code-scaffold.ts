/**
 * What "New Plugin File" writes for a code tool: a plugin file whose one tool runs a TypeScript
 * module, the module (it type-checks against the types file with no other package), and the name
 * of the types file copied beside it. Pure, so the template is tested to load, type-check and run.
 */

/** The types file the extension ships (types/workspace-tools.d.ts), copied beside the module. */
export const CODE_TYPES_FILE = 'workspace-tools.d.ts';

/** Where the module of a new code plugin file `name` goes, relative to the workspace folder. */
export function codeModulePath(name: string): string {
  return `.vscode/tools/${name}.ts`;
}

/** A new plugin file `name` with one code tool running `codeModulePath(name)`. */
export function codePluginFileTemplate(name: string): string {
  return `// Tools for AI chat in this workspace (Workspace Tools extension).
// Chat (Copilot agent mode) and MCP clients can use these tools once you approve this file in
// the Workspace Tools view; an edit that changes what they run (of this file, not a comment or a
// description, or of a module it names) waits for your approval again. The editor checks this
// file as you type: press Ctrl+Space for suggestions.
{
  "name": ${JSON.stringify(name)},
  "version": "1.0.0",
  "tools": [
    {
      // Unique across all tools: letters, digits, "-" and "_".
      "name": ${JSON.stringify(`${name}-text-stats`)},
      // Written for the AI model: what the tool does and what it returns.
      "description": "Count the lines, words and characters of a text and measure its longest line. Returns a one-line summary, and the numbers as JSON.",
      "inputSchema": {
        "type": "object",
        "properties": {
          "text": { "type": "string", "description": "The text to measure" }
        },
        "required": ["text"]
      },
      // read | write | execute | network. A code tool's tags are also what its sandbox may do:
      // "write" lets it write inside this folder, "execute" lets it start processes.
      "tags": ["read"],
      "handler": {
        "type": "code",
        // A TypeScript or JavaScript module, relative to the workspace folder. Its default export
        // runs in a separate Node process for each call, which may read only this folder.
        "module": ${JSON.stringify(codeModulePath(name))},
        "timeout": 10000
      }
    }
  ]
}
`;
}

/** The module of a new code plugin file: a typed default export, no imports. */
export function codeModuleTemplate(): string {
  return `/// <reference path="./${CODE_TYPES_FILE}" />
// A code tool (Workspace Tools extension). Its default export runs in a sandboxed Node process for
// each call: it may read files inside the workspace folder only (context.workspaceFolder), import
// only Node's built-in modules (node:fs/promises, node:path, ...: add @types/node to type-check
// them), and returns text or { text, structured }. Types are stripped when the file loads: no build
// step, but TypeScript-only runtime syntax (enum, namespace, parameter properties) is refused.

interface Input {
  /** The text to measure. */
  readonly text: string;
}

const textStats: WorkspaceTools.CodeTool<Input> = async (input, context) => {
  const lines = input.text.split(/\\r?\\n/);
  const words = input.text.split(/\\s+/).filter((word) => word !== '').length;
  const longest = lines.reduce((best, line) => Math.max(best, line.length), 0);
  context.log(\`measured \${input.text.length} characters\`);
  return {
    text: \`\${lines.length} lines, \${words} words, \${input.text.length} characters; the longest line has \${longest} characters.\`,
    structured: { lines: lines.length, words, characters: input.text.length, longestLine: longest },
  };
};

export default textStats;
`;
}
