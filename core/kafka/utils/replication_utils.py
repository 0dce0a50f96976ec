"""Port of core/src/main/scala/kafka/utils/ReplicationUtils.scala (Kafka 2.8).

A partition leader writing its own ISR change to `/brokers/topics/{topic}/partitions/{p}/state` (ZkIsrManager, for
inter-broker protocol versions without AlterIsr), conditionally on the znode version it last read.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from kafka.controller.leader_isr_and_controller_epoch import LeaderIsrAndControllerEpoch
from kafka.zk.zk_data import TopicPartitionStateZNode

if TYPE_CHECKING:
    from kafka.api.leader_and_isr import LeaderAndIsr
    from kafka.common.topic_partition import TopicPartition


class ConditionalUpdateZkClient(Protocol):
    """The two KafkaZkClient calls used here."""

    def conditional_update_path(
        self,
        path: str,
        data: bytes,
        expect_version: int,
        optional_checker: Callable[[Any, str, bytes], tuple[bool, int]] | None = None,
    ) -> tuple[bool, int]: ...

    def get_data_and_stat(self, path: str) -> tuple[bytes | None, Any]: ...


def update_leader_and_isr(
    zk_client: ConditionalUpdateZkClient,
    partition: TopicPartition,
    new_leader_and_isr: LeaderAndIsr,
    controller_epoch: int,
) -> tuple[bool, int]:
    """(True, new zk version) when the state was written at the version `new_leader_and_isr` carries, else
    (False, -1). The epoch written is that of the controller that made the leadership decision."""
    path = TopicPartitionStateZNode.path(partition)
    new_leader_data = TopicPartitionStateZNode.encode(LeaderIsrAndControllerEpoch(new_leader_and_isr, controller_epoch))
    return zk_client.conditional_update_path(
        path, new_leader_data, new_leader_and_isr.zk_version, _check_leader_and_isr_zk_data
    )


def _check_leader_and_isr_zk_data(
    zk_client: ConditionalUpdateZkClient, path: str, expected_leader_and_isr_info: bytes
) -> tuple[bool, int]:
    """After a version conflict: did our own earlier attempt (retried after a lost connection) write this state?"""
    try:
        written_data, written_stat = zk_client.get_data_and_stat(path)
        expected = TopicPartitionStateZNode.decode(expected_leader_and_isr_info, written_stat)
        written = TopicPartitionStateZNode.decode(written_data, written_stat) if written_data is not None else None
        if expected is not None and written is not None and expected == written:
            return True, written_stat.version
        return False, -1
    except Exception:
        return False, -1
