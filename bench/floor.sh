#!/usr/bin/env bash
# One-core `chess-ls --check` against the replay floor, side by side.
#
#   bench/floor.sh                       # 10 MB of English games, 9 rounds
#   SIZE=1MB RUNS=3 bench/floor.sh
#   BASELINE=/path/to/old/chess-ls bench/floor.sh   # an older build as well
#
# The floor is `replay-floor` (tests/src/bin/replay-floor.rs): shakmaty
# alone, which splits the text into tokens, skips tags, comments, NAGs, move
# numbers and results, parses each move with shakmaty's SAN parser and plays
# it. It is the least work that replays the games; `--check` does that and
# everything else it checks.
#
# It builds the release binaries, writes the games with gen-games (fixed
# seed) under target/bench/, checks that the file checks clean and that the
# floor replays the same games and moves as chess-ls, then runs the commands
# in turn, RUNS rounds (each round runs each command once, so that a change
# of the machine's load falls on all of them alike), and prints the median
# CPU time (user + sys, from /usr/bin/time) of each, its throughput and its
# ratio to the floor's. The CPU time (perf stat's task-clock, else
# /usr/bin/time's user + sys) is the figure to read on a shared machine:
# wall time mostly measures waiting for a core.
set -euo pipefail

cd "$(dirname "$0")/.."
SIZE=${SIZE:-10MB}
RUNS=${RUNS:-9}
OUT=${OUT:-target/bench}
mkdir -p "$OUT"

echo "== building (release)"
cargo build --release -q --locked -p chess-ls --bin chess-ls
cargo build --release -q --locked -p chess-ls-tests --bin gen-games --bin replay-floor
CHESS_LS=target/release/chess-ls
FLOOR=target/release/replay-floor

EN="$OUT/games-en.pgn"
echo "== generating $SIZE of English games"
target/release/gen-games --lang en --size "$SIZE" "$EN" 2>&1

if ! "$CHESS_LS" --check --threads 1 "$EN" >/dev/null; then
    echo "error: $EN does not check clean" >&2
    exit 1
fi
floor_count=$("$FLOOR" "$EN")
chess_ls_count=$("$FLOOR" --chess-ls "$EN")
echo "== the floor replays:   $floor_count"
echo "== chess-ls replays:    $chess_ls_count"
if [[ $floor_count != "$chess_ls_count" ]]; then
    echo "error: the floor and chess-ls do not replay the same moves" >&2
    exit 1
fi

names=("floor (shakmaty alone)" "chess-ls --check --threads 1")
commands=("$FLOOR $EN" "$CHESS_LS --check --threads 1 $EN")
if [[ -n ${BASELINE:-} ]]; then
    names+=("baseline --check --threads 1")
    commands+=("$BASELINE --check --threads 1 $EN")
fi

size=$(stat -c %s "$EN")
echo "== machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
echo "== $(date -u '+%Y-%m-%d %H:%M UTC'), $size bytes; load before: $(uptime | sed 's/.*load average: //')"

# The CPU time of a command: perf stat's task-clock (to the microsecond)
# where perf is installed, else /usr/bin/time's user + sys (to 10 ms).
PERF=$(command -v perf || true)
times=()
for round in $(seq "$RUNS"); do
    line="   round $round:"
    for i in "${!commands[@]}"; do
        # shellcheck disable=SC2086 # the command is split into its words
        if [[ -n $PERF ]]; then
            "$PERF" stat -x, -e task-clock -o "$OUT/floor.time" ${commands[$i]} >/dev/null 2>&1
            t=$(awk -F, '/task-clock/ { printf "%.3f", $1 / 1000 }' "$OUT/floor.time")
        else
            /usr/bin/time -o "$OUT/floor.time" -f '%U %S' ${commands[$i]} >/dev/null 2>&1
            t=$(awk '{ printf "%.3f", $1 + $2 }' "$OUT/floor.time")
        fi
        times[i]+="$t "
        line+=" $t s"
    done
    echo "$line"
done
echo "== load after: $(uptime | sed 's/.*load average: //')"

median() { tr ' ' '\n' <<<"$1" | grep . | sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
floor_median=$(median "${times[0]}")
echo
echo "| command | CPU time (median of $RUNS) | throughput | × the floor |"
echo "|---|---|---|---|"
for i in "${!commands[@]}"; do
    m=$(median "${times[$i]}")
    awk -v n="${names[$i]}" -v m="$m" -v f="$floor_median" -v s="$size" \
        'BEGIN { printf "| `%s` | %.3f s | %.1f MB/s | %.2f |\n", n, m, s / 1e6 / m, m / f }'
done
