"""Port of clients/src/main/java/org/apache/kafka/clients/consumer/internals/FetchConfig.java (Kafka 3.7).

The fetch settings: fetch.min.bytes, fetch.max.bytes, fetch.max.wait.ms, max.partition.fetch.bytes,
max.poll.records, check.crcs, client.rack and isolation.level.
"""

from __future__ import annotations

from dataclasses import dataclass

from kafka.clients.consumer.consumer_config import ConsumerConfig
from kafka.clients.consumer.internals.consumer_utils import configured_isolation_level
from kafka.common.isolation_level import IsolationLevel

__all__ = ["FetchConfig"]


@dataclass(frozen=True, slots=True)
class FetchConfig:
    min_bytes: int
    max_bytes: int
    max_wait_ms: int
    fetch_size: int
    max_poll_records: int
    check_crcs: bool
    client_rack_id: str
    isolation_level: IsolationLevel

    @classmethod
    def from_config(cls, config: ConsumerConfig) -> FetchConfig:
        return cls(
            config.get_int(ConsumerConfig.FETCH_MIN_BYTES_CONFIG),
            config.get_int(ConsumerConfig.FETCH_MAX_BYTES_CONFIG),
            config.get_int(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG),
            config.get_int(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG),
            config.get_int(ConsumerConfig.MAX_POLL_RECORDS_CONFIG),
            config.get_boolean(ConsumerConfig.CHECK_CRCS_CONFIG),
            config.get_string(ConsumerConfig.CLIENT_RACK_CONFIG),
            configured_isolation_level(config),
        )
