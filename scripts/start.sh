#!/usr/bin/env bash
# npm start: build the extension, package the .vsix and open it in a real VS Code on a copy of
# demo/workspace (a git repository with example plugin files).
#  - With a desktop `code` on PATH (and START_WITH=code or no code-server wanted), installs the
#    .vsix there and opens the demo folder.
#  - Otherwise runs code-server's VS Code on 127.0.0.1 (installed by scripts/e2e/setup.sh into
#    ~/.cache/workspace-tools-e2e) and prints the URL to open; Ctrl-C stops it.
# Options: --restricted opens the demo in Restricted Mode (Workspace Trust on, folder not trusted),
# to see what an untrusted repository gets: the built-in tools, and why no plugin tool runs. It
# uses a demo folder of its own (and, in code-server, an approval store of its own, emptied each
# time), so what was approved in the plain demo is not approved there.
# Knobs: PORT (default 8080, or a free one when taken), START_WITH=code|code-server, SKIP_APT=1,
# START_DRY_RUN=1 (print the demo folder and approval store it would use, and stop).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
die() { echo "[start] $*" >&2; exit 1; }
log() { echo "[start] $*"; }

RESTRICTED=""
for arg in "$@"; do
  case "$arg" in
    --restricted) RESTRICTED=1 ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) die "unknown option $arg (npm start -- --restricted, or npm start -- --help)" ;;
  esac
done

# What to do once the window is open, for both ways of opening it.
next_steps() {
  log "then:"
  log "  - the Workspace Tools icon in the activity bar lists the tools; the status bar counts them"
  if [ -n "$RESTRICTED" ]; then
    log "  - Restricted Mode: the built-in tools work, no plugin tool loads (the Plugin Files view says why);"
    log "    Manage Workspace Trust there trusts the folder, and its plugin files then wait for your approval"
  else
    log "  - the demo's plugin files wait for your approval: Approve… shows exactly what they run"
    log "  - Help > Welcome > \"Get Started with Workspace Tools\" walks through the rest"
    log "  - npm start -- --restricted opens the same demo in Restricted Mode"
  fi
}

STATE="${WORKSPACE_TOOLS_DEMO_STATE:-$HOME/.cache/workspace-tools-demo}"
# Approvals are keyed by the plugin file's path: the Restricted Mode demo's own folder (and store)
# keeps the plain demo's approvals out of it.
WS="$STATE/demo-workspace${RESTRICTED:+-restricted}"
XDG_CONFIG="$STATE/xdg-config${RESTRICTED:+-restricted}"
if [ -n "${START_DRY_RUN:-}" ]; then
  echo "workspace=$WS"
  echo "approvals=$XDG_CONFIG/workspace-tools/approvals.json"
  exit 0
fi
# Desktop VS Code when its `code` is on PATH (and is not code-server's), else code-server, whose
# setup builds native modules with apt packages: Linux only, so elsewhere say so before building.
DESKTOP=""
if [ "${START_WITH:-}" = code ] || { [ -z "${START_WITH:-}" ] && command -v code >/dev/null && ! code --version 2>/dev/null | grep -qi code-server; }; then
  DESKTOP=1
fi
[ -n "$DESKTOP" ] || [ "$(uname -s)" = Linux ] || die "no desktop VS Code found: install VS Code and its \"code\" command on PATH (Command Palette: Shell Command: Install 'code' command in PATH), then run npm start again"
log "building and packaging the extension"
mkdir -p "$STATE"
VSIX="$STATE/workspace-tools.vsix"
node "$ROOT/scripts/package.mjs" --vsix --out "$STATE" >"$STATE/vsce.log" 2>&1 || { cat "$STATE/vsce.log"; die "packaging the extension failed"; }
log "packaged $VSIX ($(( $(wc -c < "$VSIX") / 1024 )) KiB)"

# A fresh copy of the demo workspace, as a git repository with changes to look at: the same one the e2e
# walk of the README's first ten minutes opens (and takes the README's pictures in).
rm -rf "$WS"
bash "$ROOT/scripts/e2e/make-fixture.sh" "$WS" demo || die "making the demo workspace at $WS failed"

if [ -n "$DESKTOP" ]; then
  code --install-extension "$VSIX" --force
  code "$WS"
  log "opened $WS in VS Code"
  # Desktop VS Code asks whether to trust a new folder: "No, I don't trust the authors" is Restricted Mode.
  [ -n "$RESTRICTED" ] && log "for Restricted Mode, answer \"No, I don't trust the authors\" when VS Code asks (or Manage Workspace Trust)"
  next_steps
  exit 0
fi

# No desktop VS Code: code-server's VS Code, in the browser (the platform was checked above).
source "$ROOT/scripts/e2e/env.sh"
log "no desktop VS Code (\"code\") on PATH: using code-server $CS_VERSION, VS Code in your browser; the first time,"
log "  it is installed into ${WORKSPACE_TOOLS_E2E_CACHE:-$HOME/.cache/workspace-tools-e2e} (apt packages for its native modules, Node 24), which takes a few minutes"
E2E_NO_BROWSER=1 bash "$ROOT/scripts/e2e/setup.sh" | grep -v '^E2E_HOME=' || die "setting up code-server failed"
[ -n "$RESTRICTED" ] && rm -rf "$XDG_CONFIG"
mkdir -p "$STATE"/{ud/User,ext,xdg-data} "$XDG_CONFIG"
# Trust on (and so Restricted Mode for the demo folder, since nothing has trusted it) only with --restricted.
cat > "$STATE/ud/User/settings.json" <<JSON
{
  "security.workspace.trust.enabled": $( [ -n "$RESTRICTED" ] && echo true || echo false ),
  "security.workspace.trust.startupPrompt": "never",
  "telemetry.telemetryLevel": "off",
  "extensions.autoUpdate": false,
  "extensions.autoCheckUpdates": false,
  "workbench.startupEditor": "none",
  "update.mode": "none"
}
JSON
export PATH="$NODE24_DIR/bin:$PATH" XDG_CONFIG_HOME="$XDG_CONFIG" XDG_DATA_HOME="$STATE/xdg-data"
"$CS_BIN" --user-data-dir "$STATE/ud" --extensions-dir "$STATE/ext" --force --install-extension "$VSIX" >"$STATE/install.log" 2>&1 \
  || { cat "$STATE/install.log"; die "installing the extension failed"; }

PORT="${PORT:-8080}"
if ! node -e 'const s=require("net").createServer();s.once("error",()=>process.exit(1));s.listen(+process.argv[1],"127.0.0.1",()=>s.close())' "$PORT"; then
  PORT="$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
fi
log "VS Code (code-server $CS_VERSION) with Workspace Tools on the demo workspace$( [ -n "$RESTRICTED" ] && echo ', in Restricted Mode' ):"
log "  open http://127.0.0.1:$PORT/?folder=$WS in a browser"
next_steps
log "Ctrl-C stops the server"
# (a browser that trusted this folder before keeps it trusted: its trust store is the browser's)
exec "$CS_BIN" --auth none --bind-addr "127.0.0.1:$PORT" --disable-telemetry --disable-update-check \
  $( [ -z "$RESTRICTED" ] && echo --disable-workspace-trust ) --disable-getting-started-override \
  --user-data-dir "$STATE/ud" --extensions-dir "$STATE/ext" "$WS"
