#!/usr/bin/env bash
# Shows that --fix, --fix --diff, --translate --diff, SARIF of a big zip,
# reading a pipe and a manuscript's long line of games are linear: each
# input at a size and at twice that size, timed with /usr/bin/time (wall
# seconds, user CPU seconds, peak RSS). Twice the input
# should cost about twice the time.
#
#   bench/linear.sh                      # the sizes of issue 35
#   BIN=/path/to/chess-ls bench/linear.sh   # another build (e.g. before)
#
# The inputs are written under target/bench/linear/ by python3 (fixed
# content, no randomness).
set -euo pipefail

cd "$(dirname "$0")/.."
OUT=${OUT:-target/bench/linear}
BIN=${BIN:-target/release/chess-ls}
mkdir -p "$OUT"
if [ "$BIN" = target/release/chess-ls ]; then
  cargo build -q --release -p chess-ls
fi

python3 - "$OUT" <<'PY'
import io, os, sys, zipfile
out = sys.argv[1]
def games(mb):
    # One certain fix a game: a Cyrillic look-alike `е` in `е4`.
    game = '[Event "{}"]\n\n1. е4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n\n'
    parts, size, i = [], 0, 0
    while size < mb << 20:
        g = game.format(i); parts.append(g); size += len(g.encode()); i += 1
    return ''.join(parts)
for mb in (4, 8, 16, 32):
    path = f'{out}/fix-{mb}mb.pgn'
    if not os.path.exists(path):
        open(path, 'w').write(games(mb))
for n in (12500, 25000):
    path = f'{out}/members-{n}.zip'
    if not os.path.exists(path):
        with zipfile.ZipFile(path, 'w', zipfile.ZIP_DEFLATED) as z:
            for i in range(n):
                z.writestr(f'm{i}.pgn', '1. e4 e5 2. Ke3 *\n')
for mb in (32, 64):
    path = f'{out}/blank-{mb}mib.txt'
    if not os.path.exists(path):
        open(path, 'wb').write(b'\n' * (mb << 20))
for n in (4, 8):
    path = f'{out}/words-{n}.pgn'
    if not os.path.exists(path):
        # Words just under the 64 KiB bound: each is 15,000 syntax errors.
        open(path, 'w').write(' '.join(['e' * 60000] * n) + '\n')
for mb in (8, 16):
    path = f'{out}/games-on-a-line-{mb}mib.txt'
    if not os.path.exists(path):
        # Games one after another on one line, read as a manuscript.
        game = '1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 1-0 '
        open(path, 'w').write(game * ((mb << 20) // len(game)) + '\n')
for mb in (24, 48):
    path = f'{out}/line-{mb}mib.pgn'
    if not os.path.exists(path):
        open(path, 'wb').write(b'e' * (mb << 20) + b'\n')
PY

t() { # label, command...
  local label=$1; shift
  /usr/bin/time -f "$label: %e s wall, %U s user, %M KB" "$@" > /dev/null 2> "$OUT/err" || true
  tail -1 "$OUT/err"
}
for mb in 16 32; do
  cp "$OUT/fix-${mb}mb.pgn" "$OUT/work.pgn"
  t "--fix, ${mb} MB, one fix a game" "$BIN" --fix --format json "$OUT/work.pgn"
done
for mb in 4 8; do
  t "--fix --diff, ${mb} MB, one fix a game" "$BIN" --fix --diff "$OUT/fix-${mb}mb.pgn"
done
for mb in 4 8; do
  t "--translate ru --diff, ${mb} MB" "$BIN" --translate ru --diff "$OUT/fix-${mb}mb.pgn"
done
for n in 12500 25000; do
  t "--check --format sarif, a zip of $n members" "$BIN" --check --format sarif "$OUT/members-$n.zip"
done
for mb in 32 64; do
  t "--check -, ${mb} MiB of blank lines through a pipe" sh -c "cat $OUT/blank-${mb}mib.txt | $BIN --check -"
done
for n in 4 8; do
  t "--check, $n words of 60,000 bytes" "$BIN" --check "$OUT/words-$n.pgn"
done
for mb in 24 48; do
  t "--check -, one ${mb} MiB line through a pipe" sh -c "cat $OUT/line-${mb}mib.pgn | $BIN --check -"
done
for mb in 8 16; do
  t "--check, ${mb} MiB of games on one line of a manuscript" "$BIN" --check "$OUT/games-on-a-line-${mb}mib.txt"
done
