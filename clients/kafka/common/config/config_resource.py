"""Port of clients/src/main/java/org/apache/kafka/common/config/ConfigResource.java (Kafka 2.8).

What a configuration belongs to: a topic, a broker or a broker's loggers, named by a string
(the topic name, the broker id, or "" for the cluster-wide broker default).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

__all__ = ["ConfigResource"]


@dataclass(frozen=True, slots=True)
class ConfigResource:
    """A (type, name) pair identifying a configurable resource."""

    class Type(enum.Enum):
        """Resource kinds with their wire ids."""

        BROKER_LOGGER = 8
        BROKER = 4
        TOPIC = 2
        UNKNOWN = 0

        @property
        def id(self) -> int:
            return self.value

        @staticmethod
        def for_id(id_: int) -> ConfigResource.Type:
            """The type with wire id `id_`; UNKNOWN for any other id."""
            try:
                return ConfigResource.Type(id_)
            except ValueError:
                return ConfigResource.Type.UNKNOWN

    type: ConfigResource.Type
    name: str

    def is_default(self) -> bool:
        """True for the cluster-wide default resource (an empty name)."""
        return self.name == ""

    def __str__(self) -> str:
        return f"ConfigResource(type={self.type.name}, name='{self.name}')"
