"""The long soak of a three-broker cluster (the short one is tests/integration/test_replication_faults.py): an
idempotent acks=all producer writes while brokers are SIGKILLed and restarted or paused past their ZooKeeper
session and resumed, dozens of times; then every acknowledged record must be read back exactly once and in order
per key, and every ISR must be whole again.

    .venv/bin/python -m tests.bench.replication_soak [--faults 40] [--seed N]
"""

from __future__ import annotations

import argparse
import sys
import time

from tests.integration.fault_workload import FaultWorkload, soak_cluster

SESSION_TIMEOUT_MS = 6000


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--faults", type=int, default=40)
    ap.add_argument("--seed", type=int, default=int(time.time()))
    ap.add_argument("--rate", type=float, default=300.0, help="records per second")
    args = ap.parse_args(argv)
    overrides = {"zookeeper.session.timeout.ms": str(SESSION_TIMEOUT_MS), "replica.lag.time.max.ms": "5000"}
    with soak_cluster("soak", overrides, args.seed) as cluster:
        workload = FaultWorkload(cluster, "soak", partitions=3, seed=args.seed)
        workload.create_topic()
        workload.start_producing(rate=args.rate)
        t0 = time.monotonic()
        for i in range(args.faults):
            what = workload.inject_fault(session_timeout_ms=SESSION_TIMEOUT_MS)
            workload.wait_for_full_isr(180)
            print(f"[{time.monotonic() - t0:7.1f} s] fault {i + 1}/{args.faults}: {what}; ISR whole again", flush=True)
        workload.stop_producing()
        outcome = workload.check()
        workload.wait_for_full_isr(60)
        workload.close()
    print(f"acknowledged {outcome.acknowledged}, not acknowledged {outcome.failed}, faults {len(outcome.faults)}")
    print(f"delivery errors: {dict(outcome.errors)}")
    for rewritten in outcome.rewritten_by_client[:20]:
        print("WRITTEN TWICE BY THE CLIENT (librdkafka#4953):", rewritten)
    for problem in outcome.problems[:50]:
        print("PROBLEM:", problem)
    print("OK: every acknowledged record read back once, in order per key" if not outcome.problems else "FAILED")
    return 0 if not outcome.problems else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
