"""Port of clients/src/main/java/org/apache/kafka/common/network/PlaintextChannelBuilder.java (Kafka 3.7).

Channels over plain TCP.

PORT: Java pairs the transport with a PlaintextAuthenticator that only yields the ANONYMOUS principal; a client
needs none of it.
"""

from __future__ import annotations

from kafka.common.errors import KafkaException
from kafka.common.network.channel_builder import ChannelBuilder
from kafka.common.network.kafka_channel import KafkaChannel
from kafka.common.network.plaintext_transport_layer import PlaintextTransportLayer
from kafka.common.network.selection_key import SelectionKey

__all__ = ["PlaintextChannelBuilder"]


class PlaintextChannelBuilder(ChannelBuilder):
    def build_channel(self, id: str, key: SelectionKey, max_receive_size: int) -> KafkaChannel:
        try:
            return KafkaChannel(id, PlaintextTransportLayer(key), max_receive_size)
        except Exception as e:
            raise KafkaException(e) from e
