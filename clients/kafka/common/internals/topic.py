"""Port of clients/src/main/java/org/apache/kafka/common/internals/Topic.java (Kafka 2.8).

Topic names: what makes one legal, which topics are Kafka's own, and which names collide in metric names
(a period and an underscore at the same place).
"""

from __future__ import annotations

from typing import ClassVar

from kafka.common.errors import InvalidTopicException

__all__ = ["Topic"]


class Topic:
    GROUP_METADATA_TOPIC_NAME: ClassVar[str] = "__consumer_offsets"
    TRANSACTION_STATE_TOPIC_NAME: ClassVar[str] = "__transaction_state"
    LEGAL_CHARS: ClassVar[str] = "[a-zA-Z0-9._-]"
    INTERNAL_TOPICS: ClassVar[frozenset[str]] = frozenset({GROUP_METADATA_TOPIC_NAME, TRANSACTION_STATE_TOPIC_NAME})
    MAX_NAME_LENGTH: ClassVar[int] = 249

    @staticmethod
    def validate(topic: str) -> None:
        """Raises InvalidTopicException unless `topic` is a legal topic name."""
        if not topic:
            raise InvalidTopicException("Topic name is illegal, it can't be empty")
        if topic in (".", ".."):
            raise InvalidTopicException('Topic name cannot be "." or ".."')
        # Java counts UTF-16 code units.
        if len(topic.encode("utf-16-le", "surrogatepass")) // 2 > Topic.MAX_NAME_LENGTH:
            raise InvalidTopicException(
                f"Topic name is illegal, it can't be longer than {Topic.MAX_NAME_LENGTH} characters, "
                f"topic name: {topic}"
            )
        if not Topic.contains_valid_pattern(topic):
            raise InvalidTopicException(
                f'Topic name "{topic}" is illegal, it contains a character other than '
                "ASCII alphanumerics, '.', '_' and '-'"
            )

    @staticmethod
    def is_internal(topic: str) -> bool:
        return topic in Topic.INTERNAL_TOPICS

    @staticmethod
    def has_collision_chars(topic: str) -> bool:
        """True if the name has a '.' or '_', which metric names do not tell apart."""
        return "_" in topic or "." in topic

    @staticmethod
    def has_collision(topic_a: str, topic_b: str) -> bool:
        """True if the names differ only by '.' versus '_' at the same places."""
        return topic_a.replace(".", "_") == topic_b.replace(".", "_")

    @staticmethod
    def contains_valid_pattern(topic: str) -> bool:
        """True if every character is an ASCII letter or digit, '.', '_' or '-'."""
        return all(("a" <= c <= "z") or ("0" <= c <= "9") or ("A" <= c <= "Z") or c in "._-" for c in topic)
