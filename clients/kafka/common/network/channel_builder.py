"""Port of clients/src/main/java/org/apache/kafka/common/network/ChannelBuilder.java (Kafka 3.7).

Makes the KafkaChannel (transport and authenticator) of each new connection, for one security protocol. Both
sides use it: a client's Selector for the connections it opens, a broker's Processor for those it accepts.
"""

from __future__ import annotations

import abc

from kafka.common.memory.memory_pool import MemoryPool
from kafka.common.network.kafka_channel import KafkaChannel
from kafka.common.network.selection_key import SelectionKey

__all__ = ["ChannelBuilder"]


class ChannelBuilder(abc.ABC):
    @abc.abstractmethod
    def build_channel(
        self, id: str, key: SelectionKey, max_receive_size: int, memory_pool: MemoryPool = MemoryPool.NONE
    ) -> KafkaChannel:
        """The channel for connection `id` registered under `key`, its receive buffers granted by `memory_pool`."""

    def close(self) -> None:  # noqa: B027 - optional hook, as Java's default close
        """Releases anything the builder holds."""
