"""Port of clients/src/main/java/org/apache/kafka/clients/consumer/OffsetCommitCallback.java (Kafka 3.7).

What `commit_async` calls when the commit completes, with the offsets and the error (None on success).
Called on the thread that polls the consumer.
"""

from __future__ import annotations

import abc
from collections.abc import Callable, Mapping

from kafka.clients.consumer.offset_and_metadata import OffsetAndMetadata
from kafka.common.topic_partition import TopicPartition

__all__ = ["OffsetCommitCallback", "OffsetCommitCallbackLike", "as_offset_commit_callback"]


class OffsetCommitCallback(abc.ABC):
    @abc.abstractmethod
    def on_complete(
        self, offsets: Mapping[TopicPartition, OffsetAndMetadata], exception: BaseException | None
    ) -> None: ...


OffsetCommitCallbackLike = (
    OffsetCommitCallback | Callable[[Mapping[TopicPartition, OffsetAndMetadata], BaseException | None], None]
)


class _FunctionCallback(OffsetCommitCallback):
    def __init__(self, fn: Callable[[Mapping[TopicPartition, OffsetAndMetadata], BaseException | None], None]) -> None:
        self._fn = fn

    def on_complete(self, offsets: Mapping[TopicPartition, OffsetAndMetadata], exception: BaseException | None) -> None:
        self._fn(offsets, exception)

    def __repr__(self) -> str:
        return repr(self._fn)


def as_offset_commit_callback(callback: OffsetCommitCallbackLike | None) -> OffsetCommitCallback | None:
    """# PORT: a plain function `(offsets, exception) -> None` is accepted wherever Java takes the interface
    (Java's lambdas)."""
    if callback is None or isinstance(callback, OffsetCommitCallback):
        return callback
    return _FunctionCallback(callback)
