#!/usr/bin/env bash
# `v4a mcp` against a real client: the official MCP Python SDK, pinned, in a venv under
# target/ (created on the first run; needs PyPI once). Builds the command, then runs
# client.py, whose last line is "N passed, N failed". Not part of `cargo test`, which never
# installs anything; scripts/test-all.sh calls this.
#
#   bash crates/cli/tests/mcp/run.sh            (V4A_MCP_TRANSCRIPT=1 prints two results)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../../../.." && pwd)"
target="${CARGO_TARGET_DIR:-$repo/target}"
venv="$target/mcp-venv"
mcp_version="2.3.0"

if ! "$venv/bin/python" -c "import mcp, importlib.metadata as m; assert m.version('mcp') == '$mcp_version'" 2>/dev/null; then
    echo "mcp: installing the MCP Python SDK $mcp_version in $venv"
    if ! python3 -m venv "$venv" 2>/dev/null; then
        # Debian ships venv apart.
        if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
            apt-get update -qq && apt-get install -y -qq python3-venv
        fi
        rm -rf "$venv"
        python3 -m venv "$venv"
    fi
    "$venv/bin/pip" install --quiet --disable-pip-version-check "mcp==$mcp_version"
fi

# The MCP Inspector's command-line mode, when npm is here (skipped otherwise).
inspector_version="2.12.0"
inspector_dir="$target/mcp-inspector"
inspector="$inspector_dir/node_modules/.bin/mcp-inspector"
if command -v npm >/dev/null && ! grep -qs "\"version\": \"$inspector_version\"" \
        "$inspector_dir/node_modules/@modelcontextprotocol/inspector/package.json"; then
    echo "mcp: installing the MCP Inspector $inspector_version in $inspector_dir"
    mkdir -p "$inspector_dir"
    (cd "$inspector_dir" && npm install --no-audit --no-fund --silent \
        "@modelcontextprotocol/inspector@$inspector_version") || echo "mcp: no Inspector"
fi
if [ -x "$inspector" ]; then export V4A_MCP_INSPECTOR="$inspector"; fi

cargo build --quiet --locked --manifest-path "$repo/Cargo.toml" -p v4a-cli
exec "$venv/bin/python" "$here/client.py" "$target/debug/v4a"
