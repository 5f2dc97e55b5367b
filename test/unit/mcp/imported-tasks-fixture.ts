/**
 * The workspace of issue 28's "Done when": a real tasks.json (a shell task with a pickString
 * input, a process task, a dependsOn chain, a `$tsc` problem matcher), package.json scripts and a
 * Makefile, imported by one plugin file. Built in a temp directory for each test.
 */
import type { TempDir } from '../helpers/git-repo';
import { makeTempDir } from '../helpers/git-repo';

/** Prints the arguments it got as one JSON line: what argv the program really received. */
const PRINT_ARGV = 'process.stdout.write(JSON.stringify(process.argv.slice(2)) + "\\n");\n';

/** Prints one diagnostic as tsc does and fails, as a failing type check would. */
const TSC_LIKE = [
  'const fs = require("fs");',
  'if (!fs.existsSync("prepared.txt")) { console.log("not prepared"); process.exit(9); }',
  'console.log("src/app.ts(3,7): error TS2322: Type \'string\' is not assignable to type \'number\'.");',
  'process.exit(2);',
  '',
].join('\n');

export const TASKS_JSON = `// The workspace's own tasks, as VS Code runs them.
{
  "version": "2.0.0",
  "inputs": [
    { "id": "mode", "type": "pickString", "description": "Build mode", "options": ["debug", "release"], "default": "debug" },
    { "id": "note", "type": "promptString", "description": "A note to print" }
  ],
  "tasks": [
    { "label": "show mode", "type": "shell", "command": "node argv.js \${input:mode} \${input:note}" },
    { "label": "print args", "type": "process", "command": "node", "args": ["argv.js", "\${input:note}", "fixed"] },
    { "label": "prepare", "type": "shell", "command": "node -e \\"require('fs').writeFileSync('prepared.txt', 'yes')\\"" },
    { "label": "typecheck", "type": "shell", "command": "node tsc-like.js", "dependsOn": ["prepare"], "problemMatcher": "$tsc" },
  ]
}
`;

export const PACKAGE_JSON = `${JSON.stringify({ name: 'done-when', private: true, scripts: { greet: 'node argv.js greet' } }, null, 2)}\n`;

export const MAKEFILE = 'hello:\n\t@echo made-hello\n\n.PHONY: hello\n';

export const IMPORTS_PLUGIN = `{
  "name": "declared",
  "import": [
    { "from": "tasks" },
    { "from": "npm-scripts" },
    { "from": "make" }
  ]
}
`;

/** The workspace, plugin file included. */
export function makeImportWorkspace(): TempDir {
  const workspace = makeTempDir('wt-imports-cli-');
  workspace.write('argv.js', PRINT_ARGV);
  workspace.write('tsc-like.js', TSC_LIKE);
  workspace.write('src/app.ts', 'export const a = 1;\n\nconst b: number = "x";\n');
  workspace.write('.vscode/tasks.json', TASKS_JSON);
  workspace.write('package.json', PACKAGE_JSON);
  workspace.write('Makefile', MAKEFILE);
  workspace.write('.vscode/tools/declared.json', IMPORTS_PLUGIN);
  return workspace;
}
