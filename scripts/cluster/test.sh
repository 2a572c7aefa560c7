#!/usr/bin/env bash
# The distributed check equals the single one: runs check_archive.py (chess-ls
# --check --format json as the map step over shards, on a Dask LocalCluster
# of 2 worker processes) over a generated, damaged corpus of a few MB, and
# compares its diagnostics, exit status and per-code summary with one
# `chess-ls --check --format json` over the same files.
#
#   scripts/cluster/test.sh            (from anywhere in the checkout)
#   SIZE=200MB scripts/cluster/test.sh (a larger corpus, for BENCHMARKS.md)
#
# Installs Dask from PyPI into a cached venv
# (~/.cache/chess-ls/cluster-venv); when PyPI cannot be reached it prints
# "skipped: ..." and exits 0.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/chess-ls"
venv="$cache/cluster-venv"
DASK_VERSION=2026.8.0
SIZE=${SIZE:-4MB}
export PATH="$HOME/.cargo/bin:$PATH"

step() { printf '\n==> %s\n' "$*"; }

step "Dask $DASK_VERSION (venv: $venv)"
if ! "$venv/bin/python" -c "import dask, distributed; assert dask.__version__ == '$DASK_VERSION'" 2>/dev/null; then
  rm -rf "$venv"
  python3 -m venv "$venv"
  if ! "$venv/bin/pip" install --quiet --disable-pip-version-check "dask[distributed]==$DASK_VERSION"; then
    rm -rf "$venv"
    echo "skipped: dask[distributed]==$DASK_VERSION could not be installed from PyPI"
    exit 0
  fi
fi
python="$venv/bin/python"
"$python" -c "import dask, distributed; print('dask', dask.__version__, 'distributed', distributed.__version__)"

# chess-ls built alone, as the editors' stages build it (so that they find
# it built), then the generator.
step "chess-ls and gen-games (cargo build --release)"
(cd "$repo" && cargo build --release --locked -q -p chess-ls && cargo build --release --locked -q -p chess-ls-tests --bin gen-games)
chess_ls="$repo/target/release/chess-ls"
"$chess_ls" --version

step "a damaged corpus of $SIZE (target/cluster/corpus)"
work="$repo/target/cluster"
corpus="$work/corpus"
rm -rf "$corpus"
mkdir -p "$corpus/en" "$corpus/ru" "$corpus/archives"
"$repo/target/release/gen-games" --lang en --size "$SIZE" --seed 19 --files 10 "$corpus/en"
"$repo/target/release/gen-games" --lang ru --games 300 --seed 20 --files 3 "$corpus/ru"
"$python" "$here/damage.py" "$corpus"/en/*.pgn "$corpus"/ru/*.pgn
cp "$repo"/examples/*-damaged.pgn "$corpus/"
# Compressed copies (their files are named apart from the plain ones):
# a gzip file, a zip of two members, and a zstd file when zstd is installed.
gzip -c "$corpus/en/games-0001.pgn" >"$corpus/archives/en-0001.pgn.gz"
"$python" - "$corpus" <<'EOF'
import sys, zipfile
corpus = sys.argv[1]
with zipfile.ZipFile(f"{corpus}/archives/ru.zip", "w", zipfile.ZIP_DEFLATED) as archive:
    archive.write(f"{corpus}/ru/games-0001.pgn", "ru-0001.pgn")
    archive.write(f"{corpus}/ru/games-0002.pgn", "ru-0002.pgn")
EOF
if command -v zstd >/dev/null; then
  zstd -q -c "$corpus/en/games-0002.pgn" >"$corpus/archives/en-0002.pgn.zst"
fi
# The files in one fixed order, named relative to the checkout's root as
# both runs name them.
cd "$repo"
mapfile -t files < <(cd "$repo" && find "${corpus#"$repo/"}" -type f | LC_ALL=C sort)
echo "${#files[@]} files, $(du -sh "$corpus" | cut -f1)"

passed=0
failed=0
check() { # NAME COMMAND...: one assertion
  local name=$1
  shift
  if "$@"; then
    echo "ok: $name"
    passed=$((passed + 1))
  else
    echo "FAILED: $name" >&2
    failed=$((failed + 1))
  fi
}

step "the distributed run: 2 workers, 8 shards"
dist_status=0
"$python" "$here/check_archive.py" --chess-ls "$chess_ls" --workers 2 --shards 8 \
  --out "$work/dask.jsonl" --summary "$work/dask-summary.json" "${files[@]}" || dist_status=$?

step "the single run: chess-ls --check --format json over the same files"
single_status=0
"$chess_ls" --check --format json "${files[@]}" >"$work/single.jsonl" 2>"$work/single.err" || single_status=$?
cat "$work/single.err"

step "compare"
check "the same exit status ($dist_status, $single_status)" test "$dist_status" = "$single_status"
check "exit status 1: errors were found" test "$single_status" = 1
check "the same diagnostics, line for line ($(wc -l <"$work/single.jsonl") lines)" \
  cmp "$work/dask.jsonl" "$work/single.jsonl"
summary_matches() {
  "$python" - "$work/single.jsonl" "$work/dask-summary.json" "${#files[@]}" "$(tail -n 1 "$work/single.err")" <<'EOF'
import json, re, sys
single, summary_path, inputs, closing = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
counts = {}
with open(single, encoding="utf-8") as lines:
    for line in lines:
        d = json.loads(line)
        by_severity = counts.setdefault(d["code"], {})
        by_severity[d["severity"]] = by_severity.get(d["severity"], 0) + 1
with open(summary_path, encoding="utf-8") as file:
    summary = json.load(file)
ok = True
if summary["by_code"] != counts:
    print("per-code summary differs:", summary["by_code"], "single run:", counts, file=sys.stderr)
    ok = False
if summary["inputs"] != inputs or summary["shards"] != 8 or summary["workers"] != 2:
    print("inputs/shards/workers:", summary["inputs"], summary["shards"], summary["workers"], file=sys.stderr)
    ok = False
# The files (a zip counts a file per member) and games of the single run's
# closing line, `checked 20 files, 5351 games: ...`.
found = re.match(r"checked (\d+) files?, (\d+) games?", closing)
if not found or (summary["files"], summary["games"]) != (int(found.group(1)), int(found.group(2))):
    print("files and games differ:", summary["files"], summary["games"], "single run:", closing, file=sys.stderr)
    ok = False
# The corpus must give the comparison something to compare.
if len(counts) < 4 or sum(sum(c.values()) for c in counts.values()) < 50:
    print("too few diagnostics to compare:", counts, file=sys.stderr)
    ok = False
zip_members = {json.loads(l)["file"] for l in open(single, encoding="utf-8")}
if not any(".zip:" in f for f in zip_members):
    print("no diagnostic names a zip member", file=sys.stderr)
    ok = False
sys.exit(0 if ok else 1)
EOF
}
check "the per-code summary, files and games equal those of the single run" summary_matches

step "a file that cannot be read: status 2 in both, the other files still checked"
missing="${files[0]%/*}/no-such-file.pgn"
dist_status=0
"$python" "$here/check_archive.py" --chess-ls "$chess_ls" --workers 2 \
  --out "$work/dask-missing.jsonl" "${files[@]:0:4}" "$missing" 2>"$work/dask-missing.err" || dist_status=$?
single_status=0
"$chess_ls" --check --format json "${files[@]:0:4}" "$missing" >"$work/single-missing.jsonl" 2>/dev/null ||
  single_status=$?
check "status 2 in both ($dist_status, $single_status)" test "$dist_status" = 2 -a "$single_status" = 2
check "the same diagnostics of the files that were read" cmp "$work/dask-missing.jsonl" "$work/single-missing.jsonl"
check "the failure is named on stderr" grep -q "cannot read .*no-such-file.pgn" "$work/dask-missing.err"

echo
echo "cluster: $passed passed, $failed failed"
test "$failed" = 0
