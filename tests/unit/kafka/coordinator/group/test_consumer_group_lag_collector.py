"""Tests of kafka.coordinator.group.consumer_group_lag_collector: kafka_exporter's group metrics from the groups a
coordinator holds and the high watermarks of this broker's replicas."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

from prometheus_client.exposition import generate_latest
from prometheus_client.registry import CollectorRegistry

from kafka.common.topic_partition import TopicPartition
from kafka.coordinator.group.consumer_group_lag_collector import ConsumerGroupLagCollector
from kafka.coordinator.group.offset_and_metadata import OffsetAndMetadata


@dataclass
class FakeGroup:
    group_id: str
    offsets: dict[TopicPartition, int]
    size: int = 0
    lock: Any = field(default_factory=threading.RLock)

    @property
    def all_offsets(self) -> dict[TopicPartition, OffsetAndMetadata]:
        return {tp: OffsetAndMetadata(offset, None, "", 0, None) for tp, offset in self.offsets.items()}


def _collector(groups: list[FakeGroup], high_watermarks: dict[TopicPartition, int]) -> ConsumerGroupLagCollector:
    coordinator = SimpleNamespace(group_manager=SimpleNamespace(current_groups=groups))

    def online_partition(tp: TopicPartition) -> Any:
        hw = high_watermarks.get(tp)
        return None if hw is None else SimpleNamespace(leader_log_if_local=SimpleNamespace(high_watermark=hw))

    return ConsumerGroupLagCollector(coordinator, SimpleNamespace(online_partition=online_partition))  # type: ignore[arg-type]


def _samples(collector: ConsumerGroupLagCollector) -> set[str]:
    registry = CollectorRegistry(auto_describe=False)
    registry.register(collector)
    return {line for line in generate_latest(registry).decode().splitlines() if not line.startswith("#")}


def test_lag_per_partition_and_sums_with_kafka_exporter_names() -> None:
    """Committed offsets, end offset minus committed offset, their per-topic sums and the member count."""
    t0, t1, u0 = TopicPartition("t", 0), TopicPartition("t", 1), TopicPartition("u", 0)
    group = FakeGroup("g", {t0: 3, t1: 5, u0: 1}, size=2)
    samples = _samples(_collector([group], {t0: 10, t1: 10, u0: 1}))
    assert {
        'kafka_consumergroup_current_offset{consumergroup="g",partition="0",topic="t"} 3.0',
        'kafka_consumergroup_current_offset{consumergroup="g",partition="1",topic="t"} 5.0',
        'kafka_consumergroup_lag{consumergroup="g",partition="0",topic="t"} 7.0',
        'kafka_consumergroup_lag{consumergroup="g",partition="1",topic="t"} 5.0',
        'kafka_consumergroup_lag{consumergroup="g",partition="0",topic="u"} 0.0',
        'kafka_consumergroup_current_offset_sum{consumergroup="g",topic="t"} 8.0',
        'kafka_consumergroup_lag_sum{consumergroup="g",topic="t"} 12.0',
        'kafka_consumergroup_members{consumergroup="g"} 2.0',
    } <= samples


def test_partition_without_a_local_replica_has_no_lag_and_empty_groups_are_left_out() -> None:
    """Without a local leader (and, here, no config to ask the leader with) there is no end offset, so only the
    committed offset is exported; a group with no members and no offsets exports nothing."""
    t0 = TopicPartition("t", 0)
    samples = _samples(_collector([FakeGroup("g", {t0: 4}), FakeGroup("empty", {})], {}))
    assert 'kafka_consumergroup_current_offset{consumergroup="g",partition="0",topic="t"} 4.0' in samples
    assert not any(s.startswith("kafka_consumergroup_lag{") for s in samples)
    assert not any('consumergroup="empty"' in s for s in samples)
