#!/usr/bin/env bash
# Times `chess-ls --check` on a generated 500-page manuscript (about 1 MB of
# prose with games in it) in three formats and languages, then runs the
# language-server half of the benchmark (open, keystroke latency).
#
#   bench/manuscript.sh              # 1MB books, 5 runs each
#   SIZE=300KB RUNS=3 EDITS=20 bench/manuscript.sh
#
# The books come from gen-manuscript (fixed seed, so every run times the
# same text) under target/bench/; each must check clean. Timing uses
# hyperfine if it is installed, else the best of RUNS by the wall clock.
set -euo pipefail

cd "$(dirname "$0")/.."
SIZE=${SIZE:-1MB}
RUNS=${RUNS:-5}
EDITS=${EDITS:-50}
OUT=${OUT:-target/bench}
mkdir -p "$OUT"

echo "== building (release)"
cargo build --release -q -p chess-ls --bin chess-ls
cargo build --release -q -p chess-ls-tests --bin gen-manuscript
CHESS_LS=target/release/chess-ls

books=("en:$OUT/book-en.txt" "ru:$OUT/book-ru.md" "de:$OUT/book-de.tex")
files=()
for book in "${books[@]}"; do
    lang=${book%%:*}
    file=${book#*:}
    target/release/gen-manuscript --lang "$lang" --size "$SIZE" "$file"
    # A clean book, or the timing would include error reports.
    if ! "$CHESS_LS" --check "$file" >/dev/null; then
        echo "error: $file does not check clean" >&2
        exit 1
    fi
    files+=("$file")
done

echo "== machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== $(date -u +%Y-%m-%d)"

if command -v hyperfine >/dev/null; then
    args=(--warmup 1 --runs "$RUNS" --export-json "$OUT/manuscript.json")
    for f in "${files[@]}"; do
        args+=(--command-name "chess-ls --check $(basename "$f")" "$CHESS_LS --check $f")
    done
    hyperfine "${args[@]}"
    echo
    echo "| file | size | wall time (mean ± σ) | CPU time (user + sys) |"
    echo "|---|---|---|---|"
    for i in "${!files[@]}"; do
        python3 - "$OUT/manuscript.json" "$i" "$(basename "${files[$i]}")" "$(stat -c %s "${files[$i]}")" <<'PY'
import json, sys
result = json.load(open(sys.argv[1]))["results"][int(sys.argv[2])]
mean, sd = result["mean"], result["stddev"] or 0.0
print(f"| `{sys.argv[3]}` | {int(sys.argv[4]) / 1e6:.2f} MB | {mean * 1e3:.0f} ms ± {sd * 1e3:.0f} | {(result['user'] + result['system']) * 1e3:.0f} ms |")
PY
    done
else
    echo "note: hyperfine is not installed; best of $RUNS runs (wall clock)"
    echo "| file | size | wall time (best of $RUNS) |"
    echo "|---|---|---|"
    for f in "${files[@]}"; do
        best=
        for _ in $(seq "$RUNS"); do
            start=$(date +%s%N)
            "$CHESS_LS" --check "$f" >/dev/null 2>&1
            t=$(( ($(date +%s%N) - start) / 1000000 ))
            if [[ -z $best ]] || (( t < best )); then best=$t; fi
        done
        echo "| \`$(basename "$f")\` | $(awk "BEGIN { printf \"%.2f\", $(stat -c %s "$f") / 1e6 }") MB | $best ms |"
    done
fi

echo
echo "== language server (open, keystroke -> diagnostics; $EDITS edits each)"
EDITS=$EDITS cargo bench -q -p chess-ls-tests --bench manuscript 2>/dev/null
