#!/usr/bin/env bash
# Tests the web page: builds it (scripts/build-web: the engine for
# WebAssembly, the page bundled), then drives it in Debian's headless
# Chromium (test/e2e.mjs, playwright-core): typing, a finding, a hover board,
# fixes, a dropped file, a translation, settings, a download, offline use,
# no request outside its origin, and its findings on the shared real texts
# equal to `chess-ls --check`'s (CHESS_LS, default target/debug/chess-ls,
# built here when missing).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
step() { printf '\n==> %s\n' "$*"; }

"$ROOT/scripts/build-web"

step "Debian's chromium"
if ! command -v chromium >/dev/null; then
  SUDO=""; [[ $(id -u) -ne 0 ]] && SUDO=sudo
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q chromium >/dev/null
fi

export CHESS_LS=${CHESS_LS:-$ROOT/target/debug/chess-ls}
if [[ ! -x "$CHESS_LS" ]]; then
  step "chess-ls for the comparison (cargo build -p chess-ls)"
  (cd "$ROOT" && cargo build --locked -p chess-ls)
fi

step "the page in headless Chromium (test/e2e.mjs)"
cd "$HERE"
node test/e2e.mjs
