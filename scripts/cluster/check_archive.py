#!/usr/bin/env python3
"""Check a whole archive of chess notation on a Dask cluster.

`chess-ls --check --format json` is a pure map from files to diagnostics
(JSON Lines). This script runs it as the map step of a Dask job: the files
are cut into shards of about equal size (runs of consecutive files), each
shard is one task that runs `chess-ls --check --format json --threads 1
FILES...` on a worker (one thread per worker, so that a worker is a core),
and the client writes each shard's diagnostics once it and every shard
before it are done (so in the order of the files given: what a single
`chess-ls --check` over the same files prints) and adds up a summary per
code and severity. A shard's diagnostics pass through its worker's memory
and the client's: for an archive with many findings, more shards
(`--shards`) keep each small.

    check_archive.py [options] PATH... [-- CHESS-LS-OPTIONS...]

    --chess-ls BINARY   the chess-ls to run (default: `chess-ls` on $PATH);
                        every worker must reach it at this path
    --workers N         workers of the local cluster (default: every core)
    --scheduler ADDR    use a running Dask scheduler (tcp://host:8786)
                        instead of starting a local cluster
    --shards N          how many tasks (default: 4 per worker)
    --out FILE          the diagnostics, JSON Lines (default: stdout)
    --summary FILE      the summary as JSON (default: only the table on
                        stderr)

A directory is searched here, not by chess-ls, for notation files (.pgn,
also compressed: .gz, .bz2, .xz, .zst, and .zip archives), hidden files and
folders left out; unlike chess-ls's own search it does not read
`.gitignore` nor take manuscripts when a `chess-ls.toml` asks for them
(name such files to have them checked). The settings of each file's
`chess-ls.toml` still apply: every chess-ls reads them.
Options after `--` go to every chess-ls (`-- --lang ru --ignore check-mark`).

The local cluster is `dask.distributed.LocalCluster` with workers as
separate processes. On a real cluster start `dask scheduler` on one machine
and `dask worker tcp://SCHEDULER:8786 --nworkers CORES --nthreads 1` on each
of the others, with the archive and chess-ls on storage every worker sees
under the same path, and pass `--scheduler tcp://SCHEDULER:8786`.

Exit status as chess-ls: 0 when no error was found, 1 when some error was
found, 2 when a file could not be checked (or a shard failed).
"""

import argparse
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import time

CLOSING = re.compile(r"checked (\d+) files?, (\d+) games?\b")
NOTATION_SUFFIXES = (".pgn", ".pgn.gz", ".pgn.bz2", ".pgn.xz", ".pgn.zst", ".zip")


def notation_files(paths):
    """The files named, with each directory replaced by the notation files
    below it (sorted, hidden ones left out)."""
    files = []
    for path in paths:
        if not os.path.isdir(path):
            files.append(path)
            continue
        found = []
        for root, dirs, names in os.walk(path):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            for name in names:
                if not name.startswith(".") and name.lower().endswith(NOTATION_SUFFIXES):
                    found.append(os.path.join(root, name))
        files.extend(sorted(found))
    return files


def size_of(path):
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def make_shards(files, count):
    """Cuts the files (index, path, size), in their order, into at most
    `count` runs of about equal bytes. A file is never split: a file
    larger than a shard's share is a shard of its own. Runs in order keep
    the output in order: it is the shards' outputs one after the other."""
    count = max(1, min(count, len(files)))
    total = sum(size for _, _, size in files)
    whole = total if total else len(files)
    shards, current, done = [], [], 0
    for entry in files:
        size = entry[2] if total else 1
        # The next cut is where the bytes so far reach the next share, or
        # before a file that would go past it by more than the shard
        # falls short of it without that file.
        share = whole * (len(shards) + 1) / count
        if current and len(shards) < count - 1 and done + size - share > share - done:
            shards.append(current)
            current = []
        current.append(entry)
        done += size
        if len(shards) < count - 1 and done >= whole * (len(shards) + 1) / count:
            shards.append(current)
            current = []
    if current:
        shards.append(current)
    return shards


def check_shard(binary, shard, extra, cwd):
    """The map step, run on a worker: one chess-ls over the files of the
    shard, on one thread. Returns its diagnostics (the JSON Lines as
    text, in its order), exit status, stderr, and the wall and CPU time
    of the chess-ls process."""
    paths = [path for _, path, _ in shard]
    command = [binary, "--check", "--format", "json", "--threads", "1", *extra, "--", *paths]
    # A Dask nanny starts its workers with MALLOC_TRIM_THRESHOLD_=65536 (its
    # `distributed.nanny.pre-spawn-environ`), for the memory of Python
    # workers. chess-ls inherits it, and glibc then gives memory back to the
    # system after almost every free: 40 times the system time, 40 % more
    # CPU time in all (BENCHMARKS.md). chess-ls gets the worker's
    # environment without it.
    env = {name: value for name, value in os.environ.items() if name != "MALLOC_TRIM_THRESHOLD_"}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    try:
        done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, check=False)
        status, stdout, stderr = done.returncode, done.stdout, done.stderr
    except OSError as error:
        status, stdout, stderr = 2, b"", f"error: cannot run {binary}: {error}\n".encode()
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {
        "paths": paths,
        "status": status,
        "stdout": stdout.decode("utf-8", errors="replace"),
        "stderr": stderr.decode("utf-8", errors="replace"),
        "wall": wall,
        "cpu": cpu,
        "bytes": sum(size for _, _, size in shard),
    }


def files_and_games(stderr):
    """The files and games counts of chess-ls's closing line (`checked 3
    files, 8 games: ...`; a zip archive counts a file per member), or
    zeros."""
    for line in stderr.splitlines():
        found = CLOSING.match(line)
        if found:
            return int(found.group(1)), int(found.group(2))
    return 0, 0


class Tally:
    """What the shards' results add up to, taken in shard order."""

    def __init__(self):
        self.status = 0
        self.failures = []
        self.by_code = {}
        self.diagnostics = self.files = self.games = 0
        self.cpu = self.wall = 0.0

    def add(self, result, out):
        """Writes the diagnostics of one shard to `out` and counts them."""
        code = result["status"]
        self.status = max(self.status, code if code in (0, 1, 2) else 2)
        if code not in (0, 1):
            self.failures.extend(line for line in result["stderr"].splitlines() if not line.startswith("checked "))
            if code != 2:
                self.failures.append(f"error: chess-ls ended with status {code} on {' '.join(result['paths'])}")
        files, games = files_and_games(result["stderr"])
        self.files += files
        self.games += games
        self.cpu += result["cpu"]
        self.wall += result["wall"]
        for line in result["stdout"].splitlines():
            if not line.strip():
                continue
            try:
                diagnostic = json.loads(line)
            except ValueError:
                self.failures.append(f"error: not JSON from chess-ls: {line[:200]}")
                self.status = 2
                continue
            out.write(line + "\n")
            self.diagnostics += 1
            counts = self.by_code.setdefault(diagnostic.get("code", "?"), {})
            severity = diagnostic.get("severity", "?")
            counts[severity] = counts.get(severity, 0) + 1


def run(args, extra):
    # Imported here so that `--help` works without Dask installed.
    try:
        from dask.distributed import Client, LocalCluster, as_completed
    except ImportError as error:
        print(f"check_archive: {error}: pip install 'dask[distributed]'", file=sys.stderr)
        return 2, None

    files = notation_files(args.paths)
    if not files:
        print("check_archive: no notation files in the paths given", file=sys.stderr)
        return 2, None
    entries = [(i, path, size_of(path)) for i, path in enumerate(files)]
    workers = args.workers or os.cpu_count() or 1
    cluster = None
    start = time.monotonic()
    if args.scheduler:
        client = Client(args.scheduler)
        client.wait_for_workers(1, timeout=120)
        workers = max(1, sum(client.nthreads().values()))
    else:
        cluster = LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
            silence_logs=40,
        )
        client = Client(cluster)
    started = time.monotonic()
    shards = make_shards(entries, args.shards or 4 * workers)
    cwd = os.getcwd()
    out = open(args.out, "w", encoding="utf-8") if args.out else sys.stdout
    # The shards' outputs are written in shard order as soon as each is
    # done and every shard before it: only the ones that finished early
    # wait in memory.
    waiting = {}
    written = 0
    tally = Tally()
    try:
        futures = {
            client.submit(check_shard, args.chess_ls, shard, extra, cwd, pure=False, retries=1): number
            for number, shard in enumerate(shards)
        }
        for future in as_completed(futures):
            waiting[futures[future]] = future.result()
            future.release()
            while written in waiting:
                tally.add(waiting.pop(written), out)
                written += 1
    finally:
        if args.out:
            out.close()
        else:
            out.flush()
        client.close()
        if cluster is not None:
            cluster.close()
    wall = time.monotonic() - started
    status, failures, by_code = tally.status, tally.failures, tally.by_code

    total_bytes = sum(size for _, _, size in entries)
    cpu = tally.cpu
    summary = {
        "inputs": len(files),
        "files": tally.files,
        "games": tally.games,
        "bytes": total_bytes,
        "diagnostics": tally.diagnostics,
        "by_code": {code: by_code[code] for code in sorted(by_code)},
        "status": status,
        "workers": workers,
        "shards": len(shards),
        "cluster_start_seconds": round(started - start, 3),
        "wall_seconds": round(wall, 3),
        "chess_ls_cpu_seconds": round(cpu, 3),
        # The tasks' own wall times added up: against the CPU time, the
        # time the chess-ls processes waited for a core.
        "chess_ls_wall_seconds": round(tally.wall, 3),
        # Bytes of input (as stored: compressed files count compressed)
        # per second of one core, two ways: over the wall time of the job
        # times the workers (what a cluster of that many cores delivers,
        # scheduling and idle tails included), and over the CPU time of
        # the chess-ls processes (what a core does when it is busy).
        "mb_per_core_second_wall": round(total_bytes / 1e6 / (wall * workers), 3) if wall else None,
        "mb_per_cpu_second": round(total_bytes / 1e6 / cpu, 3) if cpu else None,
    }
    for line in failures:
        print(line, file=sys.stderr)
    print_summary(summary)
    if args.summary:
        with open(args.summary, "w", encoding="utf-8") as file:
            json.dump(summary, file, indent=2)
            file.write("\n")
    return status, summary


def print_summary(summary):
    err = sys.stderr
    print(
        f"checked {summary['files']} files ({summary['inputs']} inputs, {summary['bytes'] / 1e6:.1f} MB), "
        f"{summary['games']} games "
        f"in {summary['shards']} shards on {summary['workers']} workers: {summary['diagnostics']} diagnostics",
        file=err,
    )
    for code, counts in summary["by_code"].items():
        parts = ", ".join(f"{n} {severity}" for severity, n in sorted(counts.items()))
        print(f"  {code:<24} {parts}", file=err)
    print(
        f"wall {summary['wall_seconds']:.2f} s (cluster start {summary['cluster_start_seconds']:.2f} s), "
        f"chess-ls CPU {summary['chess_ls_cpu_seconds']:.2f} s; per core: "
        f"{summary['mb_per_core_second_wall']} MB/s over the wall time, "
        f"{summary['mb_per_cpu_second']} MB/s over the CPU time",
        file=err,
    )


def main(argv):
    if "--" in argv:
        cut = argv.index("--")
        argv, extra = argv[:cut], argv[cut + 1 :]
    else:
        extra = []
    parser = argparse.ArgumentParser(
        prog="check_archive.py",
        description="Run chess-ls --check --format json over an archive on a Dask cluster.",
        epilog="Options after `--` are passed to every chess-ls.",
    )
    parser.add_argument("paths", nargs="+", metavar="PATH", help="files or directories")
    parser.add_argument("--chess-ls", default=shutil.which("chess-ls") or "chess-ls", help="the chess-ls binary")
    parser.add_argument("--workers", type=int, default=0, help="workers of the local cluster (default: every core)")
    parser.add_argument("--scheduler", help="address of a running Dask scheduler, instead of a local cluster")
    parser.add_argument("--shards", type=int, default=0, help="tasks (default: 4 per worker)")
    parser.add_argument("--out", help="write the diagnostics (JSON Lines) here instead of stdout")
    parser.add_argument("--summary", help="write the summary (JSON) here")
    args = parser.parse_args(argv)
    if "-" in args.paths:
        parser.error("stdin (`-`) cannot be sharded: name files or directories")
    args.chess_ls = os.path.abspath(args.chess_ls) if os.sep in args.chess_ls else args.chess_ls
    status, _ = run(args, extra)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
