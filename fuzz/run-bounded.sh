#!/usr/bin/env bash
# Runs every fuzz target of chess-ls for a bounded time, from the committed
# seeds plus the corpus grown by earlier runs on this machine (fuzz/corpus/,
# not committed). A crash, a panic, a failed assertion, a timeout or a leak
# fails the script; libFuzzer writes the input to fuzz/artifacts/TARGET/ and
# `cargo fuzz run TARGET fuzz/artifacts/TARGET/<file>` replays it.
#
# Usage: fuzz/run-bounded.sh [SECONDS_PER_TARGET]   (default 25, or $FUZZ_SECONDS)
#
# FUZZ_SANITIZER (default address) is cargo fuzz's --sanitizer: the test
# command's short run uses none (the code is safe Rust and tree-sitter's C,
# which the sanitizer does not instrument; its build takes a third less
# time), the long runs keep AddressSanitizer.
#
# cargo-fuzz needs a nightly compiler for its sanitizer flags; RUSTC_BOOTSTRAP=1
# lets the stable one accept them. It is installed with cargo if missing.
set -euo pipefail
cd "$(dirname "$0")"
export PATH="$HOME/.cargo/bin:$PATH"
seconds="${1:-${FUZZ_SECONDS:-25}}"
sanitizer="${FUZZ_SANITIZER:-address}"

if ! cargo fuzz --version >/dev/null 2>&1; then
  # Built with little optimisation (it only drives cargo): half the time.
  CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_OPT_LEVEL=1 CARGO_PROFILE_RELEASE_CODEGEN_UNITS=64 \
    cargo install cargo-fuzz --locked
fi
export RUSTC_BOOTSTRAP=1

cargo fuzz build --sanitizer "$sanitizer"
for target in $(cargo fuzz list); do
  mkdir -p "corpus/$target"
  echo "==> fuzz $target for ${seconds} s"
  # -timeout: an input that takes 10 s is a hang; -rss_limit_mb: memory
  # that grows past 2 GB is a leak or an unbounded input.
  log="corpus/$target.log"
  if ! cargo fuzz run --sanitizer "$sanitizer" "$target" "corpus/$target" "seeds/$target" -- \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 >"$log" 2>&1; then
    tail -60 "$log" >&2
    echo "fuzz target $target failed; the input is in fuzz/artifacts/$target/" >&2
    exit 1
  fi
  grep -E '^(#[0-9]+ +DONE|stat::(number_of_executed_units|average_exec_per_sec|new_units_added|peak_rss_mb))' "$log" || true
done
