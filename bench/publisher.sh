#!/usr/bin/env bash
# Times chess-ls on a publisher's set of many files against pgn-extract.
#
#   bench/publisher.sh                   # 100 MB of games in 1,000 files
#   SIZE=10MB FILES=100 RUNS=3 bench/publisher.sh
#
# It builds the release binaries, writes the games with gen-games (fixed
# seed) under target/bench/publisher/: the English set (SIZE of games cut
# into FILES files of whole games), the same games in Russian, and the
# Russian set converted to Windows-1251 (iconv), so that the encoding
# detection is timed too. Then it times, with hyperfine if it is installed
# (else a loop over /usr/bin/time):
#   chess-ls --check --threads 1 DIR    (one core)
#   chess-ls --check DIR                (every core)
#   chess-ls --check --fix DIR          (every core; the files are clean, so
#                                        this is the cost of a fix pass that
#                                        finds nothing)
#   pgn-extract -s -r FILES...          (English only: it reads English SAN)
# pgn-extract is skipped with a note when missing (Debian: apt-get install
# pgn-extract, which puts it in /usr/games).
set -euo pipefail

cd "$(dirname "$0")/.."
SIZE=${SIZE:-100MB}
FILES=${FILES:-1000}
RUNS=${RUNS:-3}
OUT=${OUT:-target/bench/publisher}
mkdir -p "$OUT"

echo "== building (release)"
cargo build --release -q -p chess-ls --bin chess-ls
cargo build --release -q -p chess-ls-tests --bin gen-games
CHESS_LS=$PWD/target/release/chess-ls

EN="$OUT/en"
RU="$OUT/ru"
RU1251="$OUT/ru-1251"
echo "== generating $SIZE of games in $FILES files"
rm -rf "$EN" "$RU" "$RU1251"
report=$(target/release/gen-games --lang en --size "$SIZE" --files "$FILES" "$EN" 2>&1)
echo "$report"
games=$(echo "$report" | sed -n 's/.*wrote \([0-9]*\) games.*/\1/p')
target/release/gen-games --lang ru --games "$games" --files "$FILES" "$RU" 2>&1
mkdir -p "$RU1251"
for f in "$RU"/*.pgn; do
    iconv -f UTF-8 -t WINDOWS-1251 "$f" >"$RU1251/$(basename "$f")"
done

PGN_EXTRACT=$(command -v pgn-extract || true)
if [[ -z $PGN_EXTRACT && -x /usr/games/pgn-extract ]]; then
    PGN_EXTRACT=/usr/games/pgn-extract
fi

# The sets must check clean, or the timings would include error reports.
for d in "$EN" "$RU" "$RU1251"; do
    if ! "$CHESS_LS" --check "$d" >/dev/null; then
        echo "error: $d does not check clean" >&2
        exit 1
    fi
done

size_of() { du -sb "$1" | cut -f1; }
commands=()
names=()
sizes=()
add() { names+=("$1"); commands+=("$2"); sizes+=("$(size_of "$3")"); }
add "chess-ls --check --threads 1 (en)" "$CHESS_LS --check --threads 1 $EN" "$EN"
add "chess-ls --check, all threads (en)" "$CHESS_LS --check $EN" "$EN"
add "chess-ls --check --fix, all threads (en)" "$CHESS_LS --check --fix $EN" "$EN"
add "chess-ls --check --threads 1 (ru)" "$CHESS_LS --check --threads 1 $RU" "$RU"
add "chess-ls --check, all threads (ru)" "$CHESS_LS --check $RU" "$RU"
add "chess-ls --check, all threads (ru, windows-1251)" "$CHESS_LS --check $RU1251" "$RU1251"
if [[ -n $PGN_EXTRACT ]]; then
    # pgn-extract writes the games it reads to stdout unless told -s; the
    # files are named one by one, as chess-ls finds them in the directory.
    add "pgn-extract -s -r (en)" "$PGN_EXTRACT -s -r $(ls "$EN"/*.pgn | tr '\n' ' ')" "$EN"
else
    echo "note: pgn-extract is not installed; it is left out (apt-get install pgn-extract)"
fi

echo "== machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
echo "== $(date -u +%Y-%m-%d), $games games; en $(size_of "$EN") bytes, ru $(size_of "$RU") bytes, ru-1251 $(size_of "$RU1251") bytes, $FILES files each"
echo "== load average before timing: $(cut -d' ' -f1-3 /proc/loadavg)"

if command -v hyperfine >/dev/null; then
    args=(--warmup 1 --runs "$RUNS" --export-json "$OUT/publisher.json" -N)
    for i in "${!commands[@]}"; do
        args+=(--command-name "${names[$i]}" "${commands[$i]}")
    done
    hyperfine "${args[@]}"
    echo
    echo "| command | set | wall time (mean ± σ) | CPU time (user + sys) | throughput (wall) |"
    echo "|---|---|---|---|---|"
    for i in "${!names[@]}"; do
        python3 - "$OUT/publisher.json" "$i" "${names[$i]}" "${sizes[$i]}" "$FILES" <<'EOF'
import json, sys
result = json.load(open(sys.argv[1]))["results"][int(sys.argv[2])]
size = int(sys.argv[4])
mean, sd = result["mean"], result["stddev"] or 0.0
cpu = result["user"] + result["system"]
print(f"| `{sys.argv[3]}` | {sys.argv[5]} files, {size / 1e6:.1f} MB | {mean:.2f} s ± {sd:.2f} | {cpu:.2f} s | {size / 1e6 / mean:.1f} MB/s |")
EOF
    done
else
    echo "note: hyperfine is not installed; timing $RUNS runs with /usr/bin/time"
    echo "| command | set | wall time (best of $RUNS) | throughput (wall) |"
    echo "|---|---|---|---|"
    for i in "${!commands[@]}"; do
        best=
        for _ in $(seq "$RUNS"); do
            t=$( { /usr/bin/time -f %e ${commands[$i]} >/dev/null 2>/dev/null; } 2>&1 | tail -1)
            if [[ -z $best ]] || awk "BEGIN { exit !($t < $best) }"; then best=$t; fi
        done
        awk -v n="${names[$i]}" -v t="$best" -v s="${sizes[$i]}" -v f="$FILES" \
            'BEGIN { printf "| `%s` | %s files, %.1f MB | %.2f s | %.1f MB/s |\n", n, f, s / 1e6, t, s / 1e6 / t }'
    done
fi
