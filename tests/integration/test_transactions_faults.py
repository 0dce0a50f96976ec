"""Transactions on three brokers while brokers die (issue 13): confluent-kafka transactional producers commit
and abort known records on an RF=3, min.insync.replicas=2 topic (the transaction log RF=3 too) while the
transaction coordinator of their ids, then a partition leader, is SIGKILLed and restarted. A read_committed
consumer then sees exactly the committed records, each once. The soak is `python -m
tests.integration.txn_fault_workload`."""

from __future__ import annotations

import pytest

from tests.integration.cluster import ClusterFactory
from tests.integration.txn_fault_workload import CLUSTER_OVERRIDES, TxnFaultWorkload

pytestmark = pytest.mark.integration


def test_coordinator_and_leader_killed_during_transactions(cluster_factory: ClusterFactory) -> None:
    """Three transactional producers keep committing and aborting while the coordinator of one's id and then a
    partition leader are SIGKILLed and restarted: every committed record is read once, in order per producer and
    partition, no aborted one, and each transaction whose outcome the client could not learn all or nothing."""
    cluster = cluster_factory(CLUSTER_OVERRIDES)
    workload = TxnFaultWorkload(cluster, "txn-faults", partitions=3, producers=3, seed=13)
    try:
        workload.create_topic()
        workload.start()
        workload.wait_for_commits(5)
        workload.wait_for_full_isr(60)
        workload.kill_coordinator()
        workload.wait_for_full_isr(120)
        committed = workload.outcome.count("committed")
        workload.wait_for_commits(committed + 10)
        workload.kill_partition_leader()
        workload.wait_for_full_isr(120)
        committed = workload.outcome.count("committed")
        workload.wait_for_commits(committed + 10)
    finally:
        workload.stop()
    outcome = workload.check()
    workload.close()
    print(workload.summary())
    assert not outcome.problems, f"{outcome.problems[:20]}\n{workload.summary()}"
    assert outcome.count("committed") >= 25 and outcome.count("aborted") > 0, workload.summary()
