"""Port of clients/src/main/java/org/apache/kafka/common/serialization/VoidSerializer.java (Kafka 3.7).

For keys or values that are always null.
"""

from __future__ import annotations

from typing import Any

from kafka.common.serialization.serializer import Serializer

__all__ = ["VoidSerializer"]


class VoidSerializer(Serializer[None]):
    """Anything -> None (Java's Void can only hold null)."""

    def serialize(self, topic: str, data: Any) -> None:
        return None
