#!/usr/bin/env bash
# End-to-end test of the README's Emacs configuration in a real Emacs with
# eglot: the README's elisp as pasted, a Russian *.pgn, a LaTeX and a
# Markdown chapter, their diagnostics compared with `chess-ls --check
# --format json` (count, lines, columns, codes, messages), a hover through
# eldoc, a quick-fix through eglot-code-actions; then, in another project,
# the server started from the LaTeX chapter and a game opened after it
# (eglot 1.9 sends the first buffer's language id for every buffer).
# Installs Emacs and eglot with apt-get when missing (Debian 12: Emacs 28.2,
# eglot 1.9). Exit status 0 only when every check passed.
#
#   editors/emacs/test.sh            (from anywhere in the checkout)
#   EMACS=/path/to/emacs editors/emacs/test.sh     (use that Emacs instead)
#   CHESS_LS_BINARY=target/debug/chess-ls editors/emacs/test.sh
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
export PATH="$HOME/.cargo/bin:$PATH"

step() { printf '\n==> %s\n' "$*"; }

# Eglot is built into Emacs 29+; Emacs 28 needs it from ELPA (Debian:
# elpa-eglot), activated at startup as package.el does for a user.
has_eglot() {
  "$EMACS" --batch --eval "(progn (package-activate-all) (require 'eglot))" >/dev/null 2>&1
}
step "Emacs and eglot"
EMACS="${EMACS:-emacs}"
if ! command -v "$EMACS" >/dev/null 2>&1 || ! has_eglot; then
  if [ "$EMACS" != emacs ]; then
    echo "$EMACS has no eglot" >&2
    exit 1
  fi
  packages=(elpa-eglot)
  command -v emacs >/dev/null 2>&1 || packages=(emacs-nox elpa-eglot)
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
fi
"$EMACS" --version | head -n 1

# CHESS_LS_BINARY: a chess-ls already built (a debug build while
# developing); otherwise the release build, as a user installs it.
bindir="$(mktemp -d)"
work="$(mktemp -d)"
trap 'rm -rf "$bindir" "$work"' EXIT
if [ -n "${CHESS_LS_BINARY:-}" ]; then
  step "chess-ls ($CHESS_LS_BINARY)"
  ln -s "$(realpath "$CHESS_LS_BINARY")" "$bindir/chess-ls"
else
  step "chess-ls (cargo build --release -p chess-ls)"
  (cd "$repo" && cargo build --release -p chess-ls)
  ln -s "$repo/target/release/chess-ls" "$bindir/chess-ls"
fi
"$bindir/chess-ls" --version

step "Emacs end to end"
# The README's Emacs configuration, exactly as printed: the first elisp
# block after the line naming Emacs.
awk '/^ *Emacs [0-9]/ { found = 1 }
     found && /^ *```elisp/ { inside = 1; next }
     inside && /^ *```/ { exit }
     inside { sub(/^  /, ""); print }' "$repo/README.md" >"$work/init.el"
if [ ! -s "$work/init.el" ]; then
  echo "no Emacs configuration (an elisp block after a line beginning 'Emacs 2x') in README.md" >&2
  exit 1
fi
mkdir -p "$work/files" "$work/expected" "$work/home"
cp "$repo/tests/fixtures/ru-errors.pgn" "$work/files/game.pgn"
cp "$repo/editors/vscode/test/e2e/book.tex" "$work/files/book.tex"
cp "$repo/editors/vscode/test/e2e/chapter.md" "$work/files/chapter.md"
# Another project: the server started from the LaTeX chapter, then a game
# whose comment holds a wrong move (checked only if the game is read as prose).
mkdir -p "$work/chapter-first"
cp "$repo/editors/vscode/test/e2e/book.tex" "$here/test/notes.pgn" "$work/chapter-first/"
# What the editor must show: the command line's findings for each file.
for f in files/game.pgn files/book.tex files/chapter.md chapter-first/book.tex chapter-first/notes.pgn; do
  mkdir -p "$work/expected/$(dirname "$f")"
  (cd "$work/$(dirname "$f")" && "$bindir/chess-ls" --check --format json "$(basename "$f")" \
    >"$work/expected/$f.json" 2>/dev/null) || true
done
start=$(date +%s)
status=0
# HOME in the scratch dir: no user configuration, nothing written to $HOME.
env PATH="$bindir:$PATH" HOME="$work/home" \
  CHESS_LS_INIT="$work/init.el" CHESS_LS_TEST_DIR="$work" \
  timeout 120 "$EMACS" --batch -l "$here/test/e2e.el" </dev/null || status=$?
echo "($(($(date +%s) - start)) s)"
if [ "$status" -ne 0 ]; then
  echo "Emacs tests failed (exit status $status)" >&2
  exit 1
fi
