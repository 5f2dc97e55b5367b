#!/usr/bin/env bash
# Makes the e2e fixture workspace at DEST (must not exist): a copy of test/e2e/fixture-workspace as a git
# repository on branch "main" with one commit, then a tracked file modified and an untracked file added
# (what test/e2e/driver/fixture.js expects: git.modified, git.untracked).
# Used by scripts/e2e/run.sh (code-server) and test/e2e/desktop/run.mjs (desktop VS Code).
# Usage: bash scripts/e2e/make-fixture.sh DEST
set -euo pipefail
DEST="${1:?usage: make-fixture.sh DEST}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
[ ! -e "$DEST" ] || { echo "make-fixture: $DEST already exists" >&2; exit 1; }
cp -r "$ROOT/test/e2e/fixture-workspace" "$DEST"
cd "$DEST"
git init -q -b main
git add -A
git -c user.name=e2e -c user.email=e2e@example.invalid -c commit.gpgsign=false commit -q -m "fixture"
printf '\n// modified by the e2e run\n' >> src/app.js
echo "untracked" > scratch-untracked.txt
