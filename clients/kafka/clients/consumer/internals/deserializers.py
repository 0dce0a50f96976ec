"""Port of clients/src/main/java/org/apache/kafka/clients/consumer/internals/Deserializers.java (Kafka 3.7).

The key and value deserializers of a consumer: the instances given to the constructor, or instances of
key.deserializer and value.deserializer configured with the consumer's settings.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from kafka.clients.consumer.consumer_config import ConsumerConfig
from kafka.common.config.abstract_config import AbstractConfig
from kafka.common.errors import InterruptException, KafkaException
from kafka.common.serialization.deserializer import Deserializer

K = TypeVar("K")
V = TypeVar("V")

__all__ = ["Deserializers"]


class Deserializers(Generic[K, V]):
    def __init__(self, key_deserializer: Deserializer[K], value_deserializer: Deserializer[V]) -> None:
        if key_deserializer is None:
            raise ValueError("Key deserializer provided to Deserializers should not be null")
        if value_deserializer is None:
            raise ValueError("Value deserializer provided to Deserializers should not be null")
        self.key_deserializer = key_deserializer
        self.value_deserializer = value_deserializer

    @classmethod
    def from_config(
        cls,
        config: ConsumerConfig,
        key_deserializer: Deserializer[K] | None = None,
        value_deserializer: Deserializer[V] | None = None,
    ) -> Deserializers[K, V]:
        """# PORT: Java's Deserializers(ConsumerConfig[, key, value]) constructors."""
        client_id = config.get_string(ConsumerConfig.CLIENT_ID_CONFIG)
        configs: dict[str, Any] = config.originals({ConsumerConfig.CLIENT_ID_CONFIG: client_id})
        if key_deserializer is None:
            key_deserializer = AbstractConfig.configured_instance(
                config.get_class(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG), Deserializer, None
            )
            assert key_deserializer is not None
            key_deserializer.configure(configs, True)
        else:
            config.ignore(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG)
        if value_deserializer is None:
            value_deserializer = AbstractConfig.configured_instance(
                config.get_class(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG), Deserializer, None
            )
            assert value_deserializer is not None
            value_deserializer.configure(configs, False)
        else:
            config.ignore(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG)
        return cls(key_deserializer, value_deserializer)

    def close(self) -> None:
        first_exception: BaseException | None = None
        for deserializer in (self.key_deserializer, self.value_deserializer):
            try:
                deserializer.close()
            except BaseException as e:
                if first_exception is None:
                    first_exception = e
        if first_exception is not None:
            if isinstance(first_exception, InterruptException):
                raise first_exception
            raise KafkaException("Failed to close deserializers") from first_exception

    def __repr__(self) -> str:
        return f"Deserializers{{keyDeserializer={self.key_deserializer}, valueDeserializer={self.value_deserializer}}}"
