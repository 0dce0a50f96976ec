"""Port of clients/src/main/java/org/apache/kafka/common/network/PlaintextChannelBuilder.java (Kafka 3.7).

Channels over plain TCP: a PlaintextTransportLayer and an authenticator with nothing to do, which knows the peer
as the ANONYMOUS principal.

# PORT: Java builds the principal with the listener's configured KafkaPrincipalBuilder; principal builders are not
# ported, and the default one yields ANONYMOUS for a plaintext connection.
"""

from __future__ import annotations

from kafka.common.errors import KafkaException
from kafka.common.memory.memory_pool import MemoryPool
from kafka.common.network.authenticator import Authenticator
from kafka.common.network.channel_builder import ChannelBuilder
from kafka.common.network.kafka_channel import KafkaChannel
from kafka.common.network.plaintext_transport_layer import PlaintextTransportLayer
from kafka.common.network.selection_key import SelectionKey
from kafka.common.security.auth.kafka_principal import KafkaPrincipal

__all__ = ["PlaintextChannelBuilder"]


class PlaintextChannelBuilder(ChannelBuilder):
    class PlaintextAuthenticator(Authenticator):
        __slots__ = ()

        def authenticate(self) -> None:
            pass

        def principal(self) -> KafkaPrincipal:
            return KafkaPrincipal.ANONYMOUS

        def complete(self) -> bool:
            return True

    def build_channel(
        self, id: str, key: SelectionKey, max_receive_size: int, memory_pool: MemoryPool = MemoryPool.NONE
    ) -> KafkaChannel:
        try:
            transport_layer = PlaintextTransportLayer(key)
            authenticator = PlaintextChannelBuilder.PlaintextAuthenticator()
            return KafkaChannel(id, transport_layer, authenticator, max_receive_size, memory_pool)
        except Exception as e:
            raise KafkaException(e) from e
