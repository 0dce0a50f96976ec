"""Port of clients/src/main/java/org/apache/kafka/common/network/ChannelBuilder.java (Kafka 3.7).

Makes the KafkaChannel (transport and, for secured protocols, authenticator) of each new connection.
"""

from __future__ import annotations

import abc

from kafka.common.network.kafka_channel import KafkaChannel
from kafka.common.network.selection_key import SelectionKey

__all__ = ["ChannelBuilder"]


class ChannelBuilder(abc.ABC):
    @abc.abstractmethod
    def build_channel(self, id: str, key: SelectionKey, max_receive_size: int) -> KafkaChannel:
        """The channel for connection `id` registered under `key`."""

    def close(self) -> None:  # noqa: B027 - optional hook, as Java's default close
        """Releases anything the builder holds."""
