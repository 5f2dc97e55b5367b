'use strict';
// What the walk (checks/walk.js) knows about the demo workspace (demo/workspace, the project `npm start` opens) and
// the changes scripts/e2e/make-fixture.sh makes to its copy. Keep in sync with those two.
module.exports = {
  files: {
    team: 'team-tools.json',        // "team-tools": list-todos (the README's first tool), count-lines, read-docs, npm-package-info
    scripts: 'scripts.json',        // "package-scripts": imports package.json's build and test scripts
    workflows: 'workflows.json',    // "workflows": source-report (steps), find-fixme (an alias of list-todos)
    broken: 'broken-example.json',  // show-branch: "comand", reported at 9:37; nothing of it loads
  },
  teamTools: ['list-todos', 'count-lines', 'read-docs', 'npm-package-info'],
  scriptTools: { 'npm-build': 'tsc -p .', 'npm-test': 'node --test' }, // as package.json declares them
  brokenAt: '9:37',
  git: { modified: 'src/math.ts', untracked: 'docs/draft.md' },
  todos: ['src/greeting.ts:1', 'src/math.ts:2', 'src/math.ts:10'], // list-todos over src after the change
};
