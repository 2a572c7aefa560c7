#!/usr/bin/env bash
# Times `chess-ls --check` on generated games against `pgn-extract -s -r`.
#
#   bench/check.sh            # 10 MB of English games and the same games in Russian
#   SIZE=1MB RUNS=3 bench/check.sh
#
# It builds the release binaries, writes the games with gen-games (fixed
# seed, so every run times the same text) under target/bench/, and times:
#   chess-ls --check --threads 1 FILE   (one core)
#   chess-ls --check FILE               (every core)
#   pgn-extract -s -r FILE              (English only: it reads English SAN)
# with hyperfine if it is installed, else with a loop over /usr/bin/time.
# pgn-extract is skipped with a note when missing (Debian: apt-get install
# pgn-extract, which puts it in /usr/games).
set -euo pipefail

cd "$(dirname "$0")/.."
SIZE=${SIZE:-10MB}
RUNS=${RUNS:-5}
OUT=${OUT:-target/bench}
mkdir -p "$OUT"

echo "== building (release)"
cargo build --release -q -p chess-ls --bin chess-ls
cargo build --release -q -p chess-ls-tests --bin gen-games
CHESS_LS=target/release/chess-ls

echo "== generating $SIZE of games"
EN="$OUT/games-en.pgn"
RU="$OUT/games-ru.pgn"
report=$(target/release/gen-games --lang en --size "$SIZE" "$EN" 2>&1)
echo "$report"
games=$(echo "$report" | sed -n 's/.*wrote \([0-9]*\) games.*/\1/p')
target/release/gen-games --lang ru --games "$games" "$RU" 2>&1

PGN_EXTRACT=$(command -v pgn-extract || true)
if [[ -z $PGN_EXTRACT && -x /usr/games/pgn-extract ]]; then
    PGN_EXTRACT=/usr/games/pgn-extract
fi

# The files must check clean, or the timings would include error reports.
for f in "$EN" "$RU"; do
    if ! "$CHESS_LS" --check "$f" >/dev/null; then
        echo "error: $f does not check clean" >&2
        exit 1
    fi
done

commands=()
names=()
add() { names+=("$1"); commands+=("$2"); }
for f in "$EN" "$RU"; do
    lang=$(basename "$f" .pgn | sed 's/games-//')
    add "chess-ls --check --threads 1 ($lang)" "$CHESS_LS --check --threads 1 $f"
    add "chess-ls --check, all threads ($lang)" "$CHESS_LS --check $f"
done
if [[ -n $PGN_EXTRACT ]]; then
    add "pgn-extract -s -r (en)" "$PGN_EXTRACT -s -r $EN"
else
    echo "note: pgn-extract is not installed; it is left out (apt-get install pgn-extract)"
fi

size_of() { stat -c %s "$1"; }
file_of() { if [[ $1 == *"(ru)"* ]]; then echo "$RU"; else echo "$EN"; fi; }

echo "== machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
echo "== $(date -u +%Y-%m-%d), en $(size_of "$EN") bytes, ru $(size_of "$RU") bytes, $games games each"

if command -v hyperfine >/dev/null; then
    args=(--warmup 1 --runs "$RUNS" --export-json "$OUT/check.json")
    for i in "${!commands[@]}"; do
        args+=(--command-name "${names[$i]}" "${commands[$i]}")
    done
    hyperfine "${args[@]}"
    echo
    echo "| command | file | wall time (mean ± σ) | CPU time (user + sys) | throughput (wall) |"
    echo "|---|---|---|---|---|"
    for i in "${!names[@]}"; do
        f=$(file_of "${names[$i]}")
        python3 - "$OUT/check.json" "$i" "${names[$i]}" "$(size_of "$f")" <<'EOF'
import json, sys
result = json.load(open(sys.argv[1]))["results"][int(sys.argv[2])]
size = int(sys.argv[4])
mean, sd = result["mean"], result["stddev"] or 0.0
cpu = result["user"] + result["system"]
print(f"| `{sys.argv[3]}` | {size / 1e6:.1f} MB | {mean:.2f} s ± {sd:.2f} | {cpu:.2f} s | {size / 1e6 / mean:.1f} MB/s |")
EOF
    done
else
    echo "note: hyperfine is not installed; timing $RUNS runs with /usr/bin/time"
    echo "| command | file | wall time (best of $RUNS) | throughput (wall) |"
    echo "|---|---|---|---|"
    for i in "${!commands[@]}"; do
        f=$(file_of "${names[$i]}")
        best=
        for _ in $(seq "$RUNS"); do
            t=$( { /usr/bin/time -f %e ${commands[$i]} >/dev/null 2>/dev/null; } 2>&1 | tail -1)
            if [[ -z $best ]] || awk "BEGIN { exit !($t < $best) }"; then best=$t; fi
        done
        awk -v n="${names[$i]}" -v t="$best" -v s="$(size_of "$f")" \
            'BEGIN { printf "| `%s` | %.1f MB | %.2f s | %.1f MB/s |\n", n, s / 1e6, t, s / 1e6 / t }'
    done
fi
