"""Port of clients/src/main/java/org/apache/kafka/clients/admin/LogDirDescription.java (Kafka 3.7).

One log directory of a broker as describeLogDirs reports it: its error (None if it is fine), its replicas, and
the total and usable bytes of its volume (None when the broker does not report them, before v4).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from kafka.clients.admin.replica_info import ReplicaInfo
from kafka.common.errors import ApiException
from kafka.common.topic_partition import TopicPartition

__all__ = ["UNKNOWN_VOLUME_BYTES", "LogDirDescription"]

# DescribeLogDirsResponse.UNKNOWN_VOLUME_BYTES: what the broker sends when it does not know.
UNKNOWN_VOLUME_BYTES = -1


@dataclass(frozen=True, slots=True)
class LogDirDescription:
    error: ApiException | None
    replica_infos: Mapping[TopicPartition, ReplicaInfo]
    total_bytes: int | None
    usable_bytes: int | None

    def __init__(
        self,
        error: ApiException | None,
        replica_infos: Mapping[TopicPartition, ReplicaInfo],
        total_bytes: int = UNKNOWN_VOLUME_BYTES,
        usable_bytes: int = UNKNOWN_VOLUME_BYTES,
    ) -> None:
        object.__setattr__(self, "error", error)
        object.__setattr__(self, "replica_infos", dict(replica_infos))
        object.__setattr__(self, "total_bytes", None if total_bytes == UNKNOWN_VOLUME_BYTES else total_bytes)
        object.__setattr__(self, "usable_bytes", None if usable_bytes == UNKNOWN_VOLUME_BYTES else usable_bytes)

    def __str__(self) -> str:
        return (
            f"LogDirDescription(replicaInfos={{{', '.join(f'{k}={v}' for k, v in self.replica_infos.items())}}}, "
            f"error={self.error}, totalBytes={self.total_bytes}, usableBytes={self.usable_bytes})"
        )
