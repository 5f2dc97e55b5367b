import type { TempGitRepo } from '../helpers/git-repo';
import { makeGitRepo } from '../helpers/git-repo';

/**
 * A real git repository with known changes and a plugin file that has one tool of each
 * handler type, for the stdio server tests.
 */
export function makeFixtureWorkspace(httpPort: number): TempGitRepo {
  const repo = makeGitRepo('wt-mcp-');
  repo.commit('Initial commit', {
    'src/app.ts': 'export const answer = 42;\n',
    'docs/guide.md': 'line one\nline two\nline three\n',
    '.gitignore': 'ignored.log\n',
  });
  repo.write('src/app.ts', 'export const answer = 43;\n');
  repo.write('notes.txt', 'untracked\n');
  repo.write('ignored.log', 'noise\n');
  repo.write('.vscode/tools/fixture.json', pluginFile(httpPort));
  return repo;
}

function pluginFile(httpPort: number): string {
  return `// Fixture plugin file: JSON with comments.
{
  "name": "fixture-tools",
  "tools": [
    {
      "name": "echo-args",
      "description": "Prints the argv it received as JSON",
      "inputSchema": { "type": "object", "properties": { "message": { "type": "string" } }, "required": ["message"] },
      "tags": ["read"],
      "handler": { "type": "shell", "command": ["node", "-e", "process.stdout.write(JSON.stringify(process.argv.slice(1)))", "{{message}}"] }
    },
    {
      "name": "write-marker",
      "description": "Writes a marker file",
      "inputSchema": {
        "type": "object",
        "properties": { "target": { "type": "string" }, "count": { "type": "integer" } },
        "required": ["target", "count"]
      },
      "tags": ["write"],
      "handler": { "type": "shell", "command": ["node", "-e", "require('fs').writeFileSync(process.argv[1], 'x')", "{{target}}"] }
    },
    {
      "name": "sleepy",
      "description": "Records its pid, then sleeps",
      "inputSchema": { "type": "object", "properties": { "pidfile": { "type": "string" } }, "required": ["pidfile"] },
      "tags": ["execute"],
      "handler": { "type": "shell", "script": "echo $$ > \\"$INPUT_PIDFILE\\"; exec sleep 100", "timeout": 60000 }
    },
    {
      "name": "http-status",
      "description": "Asks the local test server for a status",
      "inputSchema": { "type": "object", "properties": { "code": { "type": "string" } }, "required": ["code"] },
      "tags": ["network"],
      "handler": { "type": "http", "method": "GET", "url": "http://127.0.0.1:${httpPort}/status/{{code}}" }
    },
    {
      "name": "read-docs",
      "description": "Reads files under docs/",
      "handler": { "type": "file-read", "basePath": "docs" }
    },
  ],
}
`;
}

/** A second plugin file, written while the server runs. */
export const LATE_PLUGIN = `{
  "tools": [
    {
      "name": "late-tool",
      "description": "Added while the server runs",
      "tags": ["read"],
      "handler": { "type": "shell", "command": ["node", "-e", "process.stdout.write('late')"] }
    }
  ]
}
`;
