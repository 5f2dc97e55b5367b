#!/usr/bin/env bash
# End-to-end tests of Workspace Tools in a REAL VS Code: code-server 4.139.1 (VS Code 1.139.1, Node extension
# host) opened in headless Chromium via playwright-core. The checks run inside the extension host in the driver
# extension test/e2e/driver, which writes a JSON result file.
#
# Usage (from anywhere; dist/ must be built, e.g. `npm run build`, else it is built here):
#   bash scripts/e2e/run.sh [SCENARIO...]      default: trusted restricted grant demo
# Scenarios:
#   trusted      Workspace Trust enabled, folder pre-trusted (TRUST_SEED); modal dialogs answered "Yes" (MCP "Run ...?")
#                or "Approve" (plugin file approval)
#   restricted   Workspace Trust enabled, folder untrusted (Restricted Mode); any trust request answered "Cancel"
#   trust-off    --disable-workspace-trust (every folder trusted), same checks and answers as "trusted"
#   grant        Workspace Trust enabled, folder untrusted at start; the driver requests trust and the browser clicks
#                "Trust Folder & Continue", then plugin tools load (awaiting approval) and are approved ("Approve")
#   demo         the README's "first ten minutes" walked in a copy of demo/workspace (the project `npm start` opens),
#                trusted, dialogs answered as a user would ("Approve", "Yes"); each step saves a screenshot, and the
#                README's pictures come from this scenario (SCREENSHOTS_DIR)
#   desktop-sim  the driver's "desktop" scenario (npm run test:desktop) in code-server with trust off and NO dialog
#                answered: proves the desktop check set needs no click (a check that did would time out)
# Output: per check "PASS|FAIL [scenario] name (ms)", a failure's error/detail, and as the LAST line
#   "N passed, N failed" (summed over scenarios). Exit status 0 only if nothing failed.
# Env knobs:
#   E2E_SKIP_SETUP=1   do not run scripts/e2e/setup.sh first (it is idempotent and fast when warm)
#   SKIP_APT=1         passed to setup.sh
#   E2E_BUILD=1        run `node esbuild.mjs --production` first (default: only if dist/extension.js is missing)
#   TIMEOUT_S=480      per scenario: how long the browser waits for the driver's result (a loaded 2-core machine needs 4-6 min)
#   KEEP_RUN=1         keep the run directory even when everything passed (it is always kept on failure)
#   E2E_RUN_BASE=/tmp  where the run directory (wte2e.XXXX) goes; keep it short (unix sockets < 108 chars)
#   AUTO_CONFIRM       override the dialog answers of every scenario (see test/e2e/harness/browser.js)
#   SCREENSHOTS_DIR    copy the README's and docs/' pictures the demo scenario's walk takes (tools view, approval
#                      dialog, Run Tool, its result, CodeLens and hover, walkthrough, Plugin Files view) there, e.g.
#                      SCREENSHOTS_DIR=media/readme bash scripts/e2e/run.sh demo (relative to the repo root)
#   E2E_WALK_OUT       where the demo walk's step screenshots (walk-*.png) are kept, passed or failed; default
#                      $CACHE_ROOT/last-e2e-walk, outside the clone (emptied at each demo run)
#   E2E_METRICS_OUT    where the run's activation times, VS Code version and .vsix size go (JSON, read by
#                      bench/report.mjs); default $CACHE_ROOT/last-e2e-metrics.json, outside the clone
#   E2E_ONLY           a regular expression: only the checks whose names match (and activation's), while working on them
#   CS_EXTRA_ARGS      extra code-server flags (e.g. "--log trace"); SHOTS=1 a screenshot every 3 s
set -uo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
source "$HERE/env.sh"
log() { echo "[e2e $(date +%H:%M:%S)] $*"; }
die() { log "$*"; echo "0 passed, 1 failed"; exit 1; }
T_ALL=$(ts)
SCENARIOS=("$@"); [ ${#SCENARIOS[@]} -gt 0 ] || SCENARIOS=(trusted restricted grant demo)
for s in "${SCENARIOS[@]}"; do case "$s" in trusted|restricted|trust-off|grant|demo|desktop-sim) ;; *) die "unknown scenario '$s' (trusted|restricted|trust-off|grant|demo|desktop-sim)";; esac; done

# ---------- 1. tools (code-server, Node 24, chromium), installed outside the clone
if [ -z "${E2E_SKIP_SETUP:-}" ]; then
  bash "$HERE/setup.sh" | grep -v '^E2E_HOME=' || die "setup failed"
fi
[ -x "$CS_BIN" ] || die "code-server missing at $CS_BIN: run scripts/e2e/setup.sh"
NODE20="$(command -v node)" || die "node is not on PATH"   # the repo's node runs vsce, the harness, the reports
CS_PATH="$NODE24_DIR/bin:$PATH"   # code-server (and what it spawns) runs `node`: it must be Node 24
VSCE="$ROOT/node_modules/.bin/vsce"
[ -x "$VSCE" ] && [ -d "$ROOT/node_modules/playwright-core" ] || die "run npm ci in $ROOT first (needs @vscode/vsce and playwright-core)"

# ---------- 2. the run directory (short path) and packaging
RUN_BASE="${E2E_RUN_BASE:-/tmp}"; mkdir -p "$RUN_BASE"
BASE="$(mktemp -d "$RUN_BASE/wte2e.XXXX")"
mkdir -p "$BASE/cache" "$BASE/tmp"
export TMPDIR="$BASE/tmp" XDG_CACHE_HOME="$BASE/cache"   # vsce writes ~/.cache/Microsoft otherwise
log "run dir $BASE"

if [ -n "${E2E_BUILD:-}" ] || [ ! -f "$ROOT/dist/extension.js" ]; then
  t=$(ts); (cd "$ROOT" && "$NODE20" esbuild.mjs --production) || die "build failed"; log "built dist/ in $(since "$t")s"
fi
t=$(ts)
# NB: vsce runs the manifest's vscode:prepublish script, if any
# the same packaging as `npm run package` (scripts/package.mjs: vsce flags, no warning, the size limit)
"$NODE20" "$ROOT/scripts/package.mjs" --vsix --no-build --out "$BASE" >"$BASE/vsce-ext.log" 2>&1 \
  || { cat "$BASE/vsce-ext.log"; die "packaging the extension failed"; }
(cd "$ROOT/test/e2e/driver" && "$NODE20" "$VSCE" package --no-dependencies --allow-missing-repository --skip-license -o "$BASE/driver.vsix" >"$BASE/vsce-driver.log" 2>&1) \
  || { cat "$BASE/vsce-driver.log"; die "vsce package failed for the driver"; }
VSIX_KB=$(( $(stat -c %s "$BASE/workspace-tools.vsix") / 1024 ))
log "packaged workspace-tools.vsix (${VSIX_KB} KiB) and driver.vsix in $(since "$t")s"
unzip -l "$BASE/workspace-tools.vsix" 2>/dev/null | awk 'NR>3 && $4 ~ /^extension\// {print "    " $4 " (" $1 " B)"}' | head -40

free_port() { "$NODE20" -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }
healthy() { "$NODE20" -e 'require("http").get(process.argv[1],r=>process.exit(r.statusCode===200?0:1)).on("error",()=>process.exit(1))' "$1"; }

TOTAL_P=0; TOTAL_F=0
CS_PGID=""
cleanup_cs() { if [ -n "$CS_PGID" ]; then kill -- "-$CS_PGID" 2>/dev/null; sleep 0.5; kill -9 -- "-$CS_PGID" 2>/dev/null; CS_PGID=""; fi; return 0; }
trap 'cleanup_cs' EXIT
trap 'cleanup_cs; exit 130' INT TERM

# ---------- 3. one scenario
run_scenario() {
  # dialogs: "Yes" = VS Code's MCP "Run <tool>?" confirmation; "Approve" = the extension's plugin-file approval
  # "{Enter}@@e2e-enter-key": Enter pressed in that plugin file's approval dialog (it must not approve)
  local sc="$1" RUN="$BASE/$1" trust_on="" seed="" expect=true confirm="{Enter}@@e2e-enter-key|Yes|Approve|Run|Don't Save@@Do you want to save" drv_sc=trusted
  local workspace=fixture home="" ud="$RUN/ud" xdg_config="$RUN/xdg-config"
  case "$sc" in
    trusted)    trust_on=1; seed=1 ;;
    restricted) trust_on=1; expect=false; confirm="Cancel"; drv_sc=restricted ;;
    trust-off)  ;;
    # Restricted Mode at start; the driver calls requestWorkspaceTrust and the harness clicks "Trust Folder & Continue"
    grant)      trust_on=1; expect=""; confirm="Trust Folder & Continue|Approve|Yes"; drv_sc=grant ;;
    # the README's first ten minutes on the demo project
    # HOME is the run dir and the other folders sit where a desktop Linux user has them: the pictures show
    # ~/.config/workspace-tools, not /tmp/wte2e.XXXX/...
    demo)       trust_on=1; seed=1; confirm="Approve|Yes"; drv_sc=demo; workspace=demo
                home="$RUN"; ud="$RUN/.config/Code"; xdg_config="$RUN/.config" ;;
    # what `npm run test:desktop` runs, here: nobody answers dialogs, so a desktop check that needs one would hang
    desktop-sim) confirm=""; drv_sc=desktop ;;
  esac
  confirm="${AUTO_CONFIRM-$confirm}"
  local T_SC; T_SC=$(ts)
  log "=== scenario $sc"

  if [ "$sc" = restricted ] && ! "$NODE20" -e 'const c=require(process.argv[1]).capabilities; process.exit(c&&c.untrustedWorkspaces?0:1)' "$ROOT/package.json"; then
    # without the declaration VS Code disables the extension in Restricted Mode, and the driver with it (no result)
    echo "FAIL  [$sc] manifest.capabilities.untrustedWorkspaces declared (0 ms)"
    echo "      package.json has no capabilities.untrustedWorkspaces: the extension (and the driver that depends on it) is disabled in Restricted Mode; scenario not run"
    TOTAL_F=$((TOTAL_F + 1)); return
  fi

  mkdir -p "$RUN"/{ext,xdg-data,chrome,tmp} "$ud/User" "$xdg_config"
  # the fixture (or demo) workspace, as a real git repository with known changes
  bash "$HERE/make-fixture.sh" "$RUN/ws" "$workspace" \
    || { echo "FAIL  [$sc] $workspace git repository (0 ms)"; TOTAL_F=$((TOTAL_F + 1)); return; }

  cat > "$ud/User/settings.json" <<JSON
{
  "security.workspace.trust.enabled": $( [ -n "$trust_on" ] && echo true || echo false ),
  "telemetry.telemetryLevel": "off",
  "extensions.autoUpdate": false,
  "extensions.autoCheckUpdates": false,
  "extensions.ignoreRecommendations": true,
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "workbench.secondarySideBar.defaultVisibility": "hidden",
  "chat.commandCenter.enabled": false,
  "git.autofetch": false,
  "git.openRepositoryInParentFolders": "never",
  "update.mode": "none"$( [ "$sc" = demo ] && printf ',\n  "editor.minimap.enabled": false,\n  "editor.wordWrap": "on"' )
}
JSON
  local t; t=$(ts)
  HOME="${home:-$HOME}" PATH="$CS_PATH" XDG_CONFIG_HOME="$xdg_config" XDG_DATA_HOME="$RUN/xdg-data" XDG_STATE_HOME="$RUN/xdg-state" TMPDIR="$RUN/tmp" \
    "$CS_BIN" --user-data-dir "$ud" --extensions-dir "$RUN/ext" \
      --install-extension "$BASE/workspace-tools.vsix" --install-extension "$BASE/driver.vsix" >"$RUN/install-ext.log" 2>&1 \
    || { cat "$RUN/install-ext.log"; echo "FAIL  [$sc] install extensions (0 ms)"; TOTAL_F=$((TOTAL_F + 1)); return; }
  log "installed both extensions in $(since "$t")s"

  local PORT; PORT="$(free_port)"
  local T_LAUNCH; T_LAUNCH=$(ts)
  # the environment reaches the extension host (and the driver)
  E2E_RESULT_FILE="$RUN/result.json" E2E_SCENARIO="$drv_sc" E2E_EXPECT_TRUSTED="$expect" \
  HOME="${home:-$HOME}" PATH="$CS_PATH" XDG_CONFIG_HOME="$xdg_config" XDG_DATA_HOME="$RUN/xdg-data" XDG_STATE_HOME="$RUN/xdg-state" XDG_CACHE_HOME="$RUN/xdg-cache" TMPDIR="$RUN/tmp" \
    setsid "$CS_BIN" --auth none --bind-addr "127.0.0.1:$PORT" --disable-telemetry --disable-update-check \
      $( [ -z "$trust_on" ] && echo --disable-workspace-trust ) --disable-getting-started-override \
      --user-data-dir "$ud" --extensions-dir "$RUN/ext" ${CS_EXTRA_ARGS:-} "$RUN/ws" >"$RUN/code-server.log" 2>&1 &
  CS_PGID=$!
  for _ in $(seq 1 120); do healthy "http://127.0.0.1:$PORT/healthz" && break; sleep 0.25; done
  log "code-server listening on 127.0.0.1:$PORT after $(since "$T_LAUNCH")s"

  # the README's pictures come from the demo walk only (the fixture's plugin files are test cases, not a project)
  local shots_dir=""
  if [ -n "${SCREENSHOTS_DIR:-}" ] && [ "$sc" = demo ]; then
    case "$SCREENSHOTS_DIR" in /*) shots_dir="$SCREENSHOTS_DIR" ;; *) shots_dir="$ROOT/$SCREENSHOTS_DIR" ;; esac
  fi
  local brc=0
  # the README's pictures: vsce points them at the repository's raw URLs; the harness serves those from this checkout
  README_IMAGES_BASE="$("$NODE20" -e 'const r=require(process.argv[1]).repository; console.log(String(r.url||r).replace(/\.git$/,"")+"/raw/HEAD/")' "$ROOT/package.json")" \
  README_IMAGES_ROOT="$ROOT" \
  AUTO_CONFIRM="$confirm" TRUST_SEED="$( [ -n "$seed" ] && echo "[\"$RUN/ws\"]" )" SCREENSHOTS_DIR="$shots_dir" NODE_PATH="$ROOT/node_modules" \
    "$NODE20" "$ROOT/test/e2e/harness/browser.js" "http://127.0.0.1:$PORT/?folder=$RUN/ws" "$RUN/result.json" "${TIMEOUT_S:-480}" "$RUN" \
    >"$RUN/browser.log" 2>&1 || brc=$?
  log "launch -> result: $(since "$T_LAUNCH")s (browser rc=$brc)"
  cleanup_cs
  if [ "$sc" = demo ]; then
    # the walk's step pictures outlive the run directory (removed when everything passed)
    local walk_out="${E2E_WALK_OUT:-$CACHE_ROOT/last-e2e-walk}"
    rm -rf "$walk_out" && mkdir -p "$walk_out" && cp "$RUN"/shots/walk-*.png "$RUN"/dialog-*.png "$walk_out"/ 2>/dev/null
    log "the walk's screenshots: $walk_out ($(ls "$walk_out" | wc -l) files)"
  fi
  [ -s "$RUN/dialogs.jsonl" ] && { log "modal dialogs:"; sed 's/^/    /' "$RUN/dialogs.jsonl"; }

  if [ ! -f "$RUN/result.json" ]; then
    echo "FAIL  [$sc] driver result file (no result after ${TIMEOUT_S:-480}s)"
    sed 's/^/    browser: /' "$RUN/browser.log" | tail -15
    tail -20 "$RUN/code-server.log" | sed 's/^/    code-server: /'
    [ -f "$RUN/result.progress.json" ] && { echo "    partial results:"; "$NODE20" -e 'for (const c of require(process.argv[1]).checks) console.log(`      ${c.pass?"PASS":"FAIL"} ${c.name}`)' "$RUN/result.progress.json"; }
    TOTAL_F=$((TOTAL_F + 1)); return
  fi
  local out counts
  out="$("$NODE20" "$HERE/report.js" "$RUN/result.json" "$sc")" || true
  printf '%s\n' "$out" | sed '$d'
  counts="$(printf '%s\n' "$out" | tail -1)"   # "P F"
  [[ "$counts" =~ ^[0-9]+\ [0-9]+$ ]] || { echo "FAIL  [$sc] unreadable result.json"; counts="0 1"; }
  TOTAL_P=$((TOTAL_P + ${counts% *})); TOTAL_F=$((TOTAL_F + ${counts#* }))
  log "scenario $sc: ${counts% *} passed, ${counts#* } failed ($(since "$T_SC")s)"
}

for sc in "${SCENARIOS[@]}"; do run_scenario "$sc"; done
"$NODE20" "$HERE/metrics.js" "${E2E_METRICS_OUT:-$CACHE_ROOT/last-e2e-metrics.json}" "$BASE/workspace-tools.vsix" "$BASE" "${SCENARIOS[@]}" \
  | while IFS= read -r line; do log "$line"; done

if [ "$TOTAL_F" -eq 0 ] && [ -z "${KEEP_RUN:-}" ]; then rm -rf "$BASE"; else log "run dir kept: $BASE (screenshots, browser-console.log, code-server.log, result.json per scenario)"; fi
log "total wall time $(since "$T_ALL")s"
echo "$TOTAL_P passed, $TOTAL_F failed"
[ "$TOTAL_F" -eq 0 ]
