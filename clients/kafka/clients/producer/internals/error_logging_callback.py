"""Port of clients/src/main/java/org/apache/kafka/clients/producer/internals/ErrorLoggingCallback.java (Kafka 3.7).

A callback that logs failed sends (the console producer uses it).
"""

from __future__ import annotations

from kafka.clients.producer.callback import Callback
from kafka.clients.producer.record_metadata import RecordMetadata
from kafka.common.utils.log_context import LogContext

__all__ = ["ErrorLoggingCallback"]

_log = LogContext().logger("org.apache.kafka.clients.producer.internals.ErrorLoggingCallback")


class ErrorLoggingCallback(Callback):
    """Logs the topic, key and value of a record whose send failed (as text, or as sizes)."""

    def __init__(self, topic: str, key: bytes | None, value: bytes | None, log_as_string: bool) -> None:
        self._topic = topic
        self._key = key
        self._value = value if log_as_string else None
        self._value_length = -1 if value is None else len(value)
        self._log_as_string = log_as_string

    def on_completion(self, metadata: RecordMetadata | None, exception: BaseException | None) -> None:
        if exception is None:
            return
        if self._key is None:
            key_string = "null"
        elif self._log_as_string:
            key_string = self._key.decode("utf-8", errors="replace")
        else:
            key_string = f"{len(self._key)} bytes"
        if self._value_length == -1:
            value_string = "null"
        elif self._log_as_string and self._value is not None:
            value_string = self._value.decode("utf-8", errors="replace")
        else:
            value_string = f"{self._value_length} bytes"
        _log.error(
            f"Error when sending message to topic {self._topic} with key: {key_string}, value: {value_string} "
            "with error:",
            exception,
        )
