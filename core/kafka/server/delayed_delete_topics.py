"""Port of core/src/main/scala/kafka/server/DelayedDeleteTopics.scala (Kafka 2.8).

DeleteTopics only marks topics for deletion in ZooKeeper (`/admin/delete_topics/<topic>`); the controller deletes
them and tells the brokers. The request is answered once this broker's metadata cache no longer has any of the
topics that were marked without error, or after its timeout, when the topics still present get
REQUEST_TIMED_OUT. Watched in the `topic` purgatory under each topic (TopicKey).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from kafka.common.protocol.errors import Errors
from kafka.server.delayed_operation import DelayedOperation

if TYPE_CHECKING:
    from kafka.server.metadata_cache import MetadataCache

__all__ = ["DelayedDeleteTopics", "DeleteTopicMetadata"]


@dataclass(frozen=True, slots=True)
class DeleteTopicMetadata:
    """A topic of a delete request and the error of marking it (NONE if it was marked)."""

    topic: str
    error: Errors

    @classmethod
    def of_exception(cls, topic: str, throwable: BaseException) -> DeleteTopicMetadata:
        """The companion's `apply(topic, throwable)`."""
        return cls(topic, Errors.for_exception(throwable))


class _AdminManager(Protocol):
    """What the delayed operation reads of ZkAdminManager: its metadata cache."""

    @property
    def metadata_cache(self) -> MetadataCache: ...


class DelayedDeleteTopics(DelayedOperation):
    """A DeleteTopics request waiting for its topics to disappear from the metadata cache."""

    logger_name = "kafka.server.DelayedDeleteTopics"

    def __init__(
        self,
        delay_ms: int,
        delete_metadata: Sequence[DeleteTopicMetadata],
        admin_manager: _AdminManager,
        response_callback: Callable[[dict[str, Errors]], None],
    ) -> None:
        super().__init__(delay_ms)
        self.delete_metadata = list(delete_metadata)
        self._admin_manager = admin_manager
        self._response_callback = response_callback

    def try_complete(self) -> bool:
        """Completes once every topic marked without error is gone."""
        self.trace(f"Trying to complete operation for {self.delete_metadata}")
        existing_topics = sum(
            1
            for metadata in self.delete_metadata
            if metadata.error is Errors.NONE and self._topic_exists(metadata.topic)
        )
        if existing_topics == 0:
            self.trace("All topics have been deleted or have errors, completing the delayed operation")
            return self.force_complete()
        self.trace(f"{existing_topics} topics still exist, not completing the delayed operation")
        return False

    def on_complete(self) -> None:
        """Answers: REQUEST_TIMED_OUT for topics still there, each topic's own error otherwise."""
        self.trace(f"Completing operation for {self.delete_metadata}")
        results: dict[str, Errors] = {}
        for metadata in self.delete_metadata:
            if metadata.error is Errors.NONE and self._topic_exists(metadata.topic):
                results[metadata.topic] = Errors.REQUEST_TIMED_OUT
            else:
                results[metadata.topic] = metadata.error
        self._response_callback(results)

    def on_expiration(self) -> None:
        pass

    def _topic_exists(self, topic: str) -> bool:
        return self._admin_manager.metadata_cache.contains(topic)
