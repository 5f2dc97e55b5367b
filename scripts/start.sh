#!/usr/bin/env bash
# npm start: build the extension, package the .vsix and open it in a real VS Code on a copy of
# demo/workspace (a git repository with example plugin files).
#  - With a desktop `code` on PATH (and START_WITH=code or no code-server wanted), installs the
#    .vsix there and opens the demo folder.
#  - Otherwise runs code-server's VS Code on 127.0.0.1 (installed by scripts/e2e/setup.sh into
#    ~/.cache/workspace-tools-e2e) and prints the URL to open; Ctrl-C stops it.
# Knobs: PORT (default 8080, or a free one when taken), START_WITH=code|code-server, SKIP_APT=1.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
die() { echo "[start] $*" >&2; exit 1; }
log() { echo "[start] $*"; }

log "building and packaging the extension"
(cd "$ROOT" && node esbuild.mjs --production) || die "build failed"
STATE="${WORKSPACE_TOOLS_DEMO_STATE:-$HOME/.cache/workspace-tools-demo}"
mkdir -p "$STATE"
VSIX="$STATE/workspace-tools.vsix"
(cd "$ROOT" && node_modules/.bin/vsce package --no-dependencies --allow-missing-repository --skip-license \
  --no-rewrite-relative-links -o "$VSIX" >"$STATE/vsce.log" 2>&1) || { cat "$STATE/vsce.log"; die "vsce package failed"; }
log "packaged $VSIX ($(( $(stat -c %s "$VSIX") / 1024 )) KiB)"

# A fresh copy of the demo workspace, as a git repository with one change to look at.
WS="$STATE/demo-workspace"
rm -rf "$WS" && cp -r "$ROOT/demo/workspace" "$WS"
(cd "$WS" && git init -q -b main && git add -A \
  && git -c user.name=demo -c user.email=demo@example.invalid -c commit.gpgsign=false commit -q -m "Demo workspace" \
  && printf '\nexport const version = "1.0.1";\n' >> src/math.ts && echo "draft" > docs/draft.md)

if [ "${START_WITH:-}" = code ] || { [ -z "${START_WITH:-}" ] && command -v code >/dev/null && ! code --version 2>/dev/null | grep -qi code-server; }; then
  code --install-extension "$VSIX" --force
  code "$WS"
  log "opened $WS in VS Code"
  exit 0
fi

bash "$ROOT/scripts/e2e/setup.sh" | grep -v '^E2E_HOME=' || die "setting up code-server failed"
source "$ROOT/scripts/e2e/env.sh"
mkdir -p "$STATE"/{ud/User,ext,xdg-config,xdg-data}
cat > "$STATE/ud/User/settings.json" <<'JSON'
{
  "telemetry.telemetryLevel": "off",
  "extensions.autoUpdate": false,
  "extensions.autoCheckUpdates": false,
  "workbench.startupEditor": "none",
  "update.mode": "none"
}
JSON
export PATH="$NODE24_DIR/bin:$PATH" XDG_CONFIG_HOME="$STATE/xdg-config" XDG_DATA_HOME="$STATE/xdg-data"
"$CS_BIN" --user-data-dir "$STATE/ud" --extensions-dir "$STATE/ext" --force --install-extension "$VSIX" >"$STATE/install.log" 2>&1 \
  || { cat "$STATE/install.log"; die "installing the extension failed"; }

PORT="${PORT:-8080}"
if ! node -e 'const s=require("net").createServer();s.once("error",()=>process.exit(1));s.listen(+process.argv[1],"127.0.0.1",()=>s.close())' "$PORT"; then
  PORT="$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
fi
log "VS Code (code-server $CS_VERSION) with Workspace Tools on the demo workspace:"
log "  open http://127.0.0.1:$PORT/?folder=$WS"
log "  then click the Workspace Tools icon in the activity bar; Ctrl-C stops the server"
exec "$CS_BIN" --auth none --bind-addr "127.0.0.1:$PORT" --disable-telemetry --disable-update-check \
  --disable-workspace-trust --disable-getting-started-override \
  --user-data-dir "$STATE/ud" --extensions-dir "$STATE/ext" "$WS"
