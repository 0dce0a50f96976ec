"""What this machine charges for a log append that lands in the page cache: the CPU milliseconds per MB of a
1 MB pwrite (as a segment append does; no fsync) into pages the kernel has to find anew, against pages a file
deleted just before gave back (issue 17).

    .venv/bin/python -m tests.bench.page_cache_probe [--mb 1000] [--dir /tmp] [--out page_cache_probe.json]

Three writes of --mb each, in a fresh directory under --dir: a first file; the same file name again after the
first was deleted (its freed pages are at hand); a second file while the first is kept (as a broker keeps its
segments). Each prints the CPU ms/MB of this process (user + system, what a broker's handler pays inside its
append) and the MB/s. The figures depend on what ran just before: after a run that deleted files (a benchmark's
brokers and their segments), freed pages are still at hand for a while and all three cases read alike, so `make
bench` runs this first. On a guest whose memory host and kernel take back (this VM runs DAMON with the pageout action
and virtio-balloon) the kept-file case costs ten to fifteen times the reused one: RF=3 writes every MB three times,
so this, not the broker's Python, sets much of the replicated throughput here.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import tempfile
import time
from pathlib import Path


def write_mb(path: Path, mb: int) -> dict[str, float]:
    """Appends `mb` MiB to `path` in 1 MiB pwrites; its CPU ms per MB and MB/s (decimal MB, as the benches' MB/s)."""
    chunk = os.urandom(1 << 20)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        cpu, wall = time.process_time(), time.perf_counter()
        for i in range(mb):
            os.pwrite(fd, chunk, i << 20)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    finally:
        os.close(fd)
    megabytes = mb * 1.048576
    return {"cpu_ms_per_MB": round(cpu * 1000 / megabytes, 3), "MB_s": round(megabytes / wall, 1)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mb", type=int, default=1000)
    ap.add_argument("--dir", default=tempfile.gettempdir())
    ap.add_argument("--out", default="page_cache_probe.json")
    args = ap.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="page-cache-probe-", dir=args.dir))
    try:
        results = {"first file": write_mb(work / "a", args.mb)}
        (work / "a").unlink()
        results["again, after deleting it"] = write_mb(work / "a", args.mb)
        results["a second file, the first kept"] = write_mb(work / "b", args.mb)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for case, figures in results.items():
        print(f"{case:32} {figures['cpu_ms_per_MB']:7.3f} CPU ms/MB {figures['MB_s']:8.1f} MB/s")
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
