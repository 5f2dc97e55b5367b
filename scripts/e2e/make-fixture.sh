#!/usr/bin/env bash
# Makes an e2e workspace at DEST (must not exist), as a git repository on branch "main" with one commit and then
# changes to look at:
#   fixture (default)  a copy of test/e2e/fixture-workspace; a tracked file modified and an untracked file added
#                      (what test/e2e/driver/fixture.js expects: git.modified, git.untracked)
#   demo               a copy of demo/workspace, the project `npm start` opens, with the change a developer has in
#                      progress (a TODO added to src/math.ts) and a draft note (what test/e2e/driver/demo.js expects)
# Used by scripts/e2e/run.sh (code-server) and test/e2e/desktop/run.mjs (desktop VS Code).
# Usage: bash scripts/e2e/make-fixture.sh DEST [fixture|demo]
set -euo pipefail
DEST="${1:?usage: make-fixture.sh DEST [fixture|demo]}"
KIND="${2:-fixture}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
[ ! -e "$DEST" ] || { echo "make-fixture: $DEST already exists" >&2; exit 1; }
case "$KIND" in
  fixture) cp -r "$ROOT/test/e2e/fixture-workspace" "$DEST" ;;
  demo)    cp -r "$ROOT/demo/workspace" "$DEST" ;;
  *) echo "make-fixture: unknown kind '$KIND' (fixture|demo)" >&2; exit 1 ;;
esac
cd "$DEST"
git init -q -b main
git add -A
git -c user.name=e2e -c user.email=e2e@example.invalid -c commit.gpgsign=false commit -q -m "$KIND"
if [ "$KIND" = demo ]; then
  printf '\n// TODO: round totals to cents before display\nexport const roundToCents = (value: number): number => Math.round(value * 100) / 100;\n' >> src/math.ts
  printf '# Draft\n\nRelease notes for 1.1, not ready to commit.\n' > docs/draft.md
else
  printf '\n// modified by the e2e run\n' >> src/app.js
  echo "untracked" > scratch-untracked.txt
fi
