#!/usr/bin/env python3
"""Check a whole archive of chess notation on a Dask cluster.

`chess-ls --check --format json` is a pure map from files to diagnostics
(JSON Lines). This script runs it as the map step of a Dask job: the files
are cut into shards of about equal size, each shard is one task that runs
`chess-ls --check --format json --threads 1 FILES...` on a worker (one
thread per worker, so that a worker is a core), and the client gathers the
diagnostics, puts them back in the order of the files as given (the order a
single `chess-ls --check` over the same files prints them in) and adds up a
summary per code.

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

A directory is searched for notation files (.pgn, also compressed: .gz,
.bz2, .xz, .zst, and .zip archives), hidden files and folders left out.
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
    """Cuts the files (index, path, size) into at most `count` shards of
    about equal bytes: the largest file first, each to the lightest shard.
    A file is never split: a file larger than the rest together is a shard
    of its own."""
    count = max(1, min(count, len(files)))
    shards = [[] for _ in range(count)]
    loads = [0] * count
    for entry in sorted(files, key=lambda f: (-f[2], f[0])):
        lightest = min(range(count), key=lambda i: (loads[i], i))
        shards[lightest].append(entry)
        loads[lightest] += entry[2]
    for shard in shards:
        shard.sort()
    return [shard for shard in shards if shard]


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


def input_index(file_field, index_of):
    """The position among the inputs of the file a diagnostic names: the
    path as given, or `archive.zip:member.pgn` for a member of a zip."""
    if file_field in index_of:
        return index_of[file_field]
    colon = file_field.find(":")
    while colon != -1:
        if file_field[:colon] in index_of:
            return index_of[file_field[:colon]]
        colon = file_field.find(":", colon + 1)
    return len(index_of)


def files_and_games(stderr):
    """The files and games counts of chess-ls's closing line (`checked 3
    files, 8 games: ...`; a zip archive counts a file per member), or
    zeros."""
    for line in stderr.splitlines():
        found = CLOSING.match(line)
        if found:
            return int(found.group(1)), int(found.group(2))
    return 0, 0


def run(args, extra):
    # Imported here so that `--help` works without Dask installed.
    from dask.distributed import Client, LocalCluster, as_completed

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
    try:
        futures = [
            client.submit(check_shard, args.chess_ls, shard, extra, cwd, pure=False, retries=1)
            for shard in shards
        ]
        results = []
        for future in as_completed(futures):
            results.append(future.result())
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    wall = time.monotonic() - started

    index_of = {path: i for i, path in enumerate(files)}
    lines = []  # (input index, shard's own order, line)
    status = 0
    failures = []
    for result in results:
        code = result["status"]
        status = max(status, code if code in (0, 1, 2) else 2)
        if code not in (0, 1):
            failures.extend(
                line for line in result["stderr"].splitlines() if not line.startswith("checked ")
            )
            if code != 2:
                failures.append(f"error: chess-ls ended with status {code} on {' '.join(result['paths'])}")
        for order, line in enumerate(result["stdout"].splitlines()):
            if not line.strip():
                continue
            try:
                diagnostic = json.loads(line)
            except ValueError:
                failures.append(f"error: not JSON from chess-ls: {line[:200]}")
                status = 2
                continue
            lines.append((input_index(diagnostic.get("file", ""), index_of), order, line, diagnostic))
    lines.sort(key=lambda entry: (entry[0], entry[1]))

    out = open(args.out, "w", encoding="utf-8") if args.out else sys.stdout
    by_code = {}
    try:
        for _, _, line, diagnostic in lines:
            out.write(line + "\n")
            counts = by_code.setdefault(diagnostic.get("code", "?"), {})
            severity = diagnostic.get("severity", "?")
            counts[severity] = counts.get(severity, 0) + 1
    finally:
        if args.out:
            out.close()
        else:
            out.flush()

    total_bytes = sum(size for _, _, size in entries)
    cpu = sum(result["cpu"] for result in results)
    summary = {
        "inputs": len(files),
        "files": sum(files_and_games(result["stderr"])[0] for result in results),
        "games": sum(files_and_games(result["stderr"])[1] for result in results),
        "bytes": total_bytes,
        "diagnostics": len(lines),
        "by_code": {code: by_code[code] for code in sorted(by_code)},
        "status": status,
        "workers": workers,
        "shards": len(shards),
        "cluster_start_seconds": round(started - start, 3),
        "wall_seconds": round(wall, 3),
        "chess_ls_cpu_seconds": round(cpu, 3),
        # The tasks' own wall times added up: against the CPU time, the
        # time the chess-ls processes waited for a core.
        "chess_ls_wall_seconds": round(sum(result["wall"] for result in results), 3),
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
