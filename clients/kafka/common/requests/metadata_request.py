"""Port of clients/src/main/java/org/apache/kafka/common/requests/MetadataRequest.java (Kafka 3.7).

Metadata: the brokers, the controller and the partitions of the topics asked for (all topics when the
list is null, or empty at v0), possibly creating missing topics.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from kafka.common.errors import UnsupportedVersionException
from kafka.common.message import MetadataRequestData, MetadataResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.protocol.types import ZERO_UUID
from kafka.common.requests.abstract_request import AbstractRequest, Builder
from kafka.common.requests.metadata_response import MetadataResponse


class MetadataRequest(AbstractRequest[MetadataResponse]):
    API_KEY = ApiKeys.METADATA

    def _get_error_response(self, throttle_time_ms: int, e: BaseException) -> MetadataResponse:
        error = Errors.for_exception(e)
        data = MetadataResponseData(throttle_time_ms=throttle_time_ms)
        if self._data.topics is not None:
            for topic in self._data.topics:
                # The response's topic name is not nullable below v12 (a request by id may have no name).
                data.topics.append(
                    MetadataResponseData.MetadataResponseTopic(
                        name=topic.name if topic.name is not None else "",
                        topic_id=topic.topic_id,
                        error_code=error.code,
                        is_internal=False,
                        partitions=[],
                    )
                )
        return MetadataResponse(data, has_reliable_leader_epochs=True)

    def is_all_topics(self) -> bool:
        """Whether every topic is asked for: a null list, or an empty one at v0."""
        topics = self._data.topics
        return topics is None or (len(topics) == 0 and self._version == 0)

    def topics(self) -> list[str | None] | None:
        """The topic names asked for; None when all topics are."""
        if self.is_all_topics():
            return None
        return [t.name for t in self._data.topics]

    def topic_ids(self) -> list[Any]:
        if self.is_all_topics() or self._version < 10:
            return []
        return [t.topic_id for t in self._data.topics]

    def allow_auto_topic_creation(self) -> bool:
        return bool(self._data.allow_auto_topic_creation)

    @staticmethod
    def convert_to_metadata_request_topic(topics: Iterable[str]) -> list[Any]:
        return [MetadataRequestData.MetadataRequestTopic(name=t) for t in topics]

    @staticmethod
    def convert_topic_ids_to_metadata_request_topic(topic_ids: Iterable[Any]) -> list[Any]:
        return [MetadataRequestData.MetadataRequestTopic(topic_id=t, name=None) for t in topic_ids]


class MetadataRequestBuilder(Builder[MetadataRequest]):
    """Port of MetadataRequest.Builder: topics by name (None = all topics), or ready request data."""

    def __init__(
        self,
        topics: Iterable[str] | None = None,
        allow_auto_topic_creation: bool = True,
        min_version: int | None = None,
        max_version: int | None = None,
        data: Any = None,
    ) -> None:
        super().__init__(ApiKeys.METADATA, min_version, max_version)
        if data is None:
            data = MetadataRequestData(allow_auto_topic_creation=allow_auto_topic_creation)
            if topics is None:
                data.topics = None
            else:
                data.topics = MetadataRequest.convert_to_metadata_request_topic(topics)
        self.data = data

    @classmethod
    def all_topics(cls) -> MetadataRequestBuilder:
        return cls(None, True)

    def empty_topic_list(self) -> bool:
        return self.data.topics is not None and len(self.data.topics) == 0

    def is_all_topics(self) -> bool:
        return self.data.topics is None

    def topics(self) -> list[str]:
        return [t.name for t in self.data.topics or []]

    def _build(self, version: int) -> MetadataRequest:
        if version < 1:
            raise UnsupportedVersionException("MetadataRequest versions older than 1 are not supported.")
        if not self.data.allow_auto_topic_creation and version < 4:
            raise UnsupportedVersionException(
                "MetadataRequest versions older than 4 don't support the allowAutoTopicCreation field"
            )
        for topic in self.data.topics or []:
            if topic.name is None and version < 12:
                raise UnsupportedVersionException(
                    f"MetadataRequest version {version} does not support null topic names."
                )
            if topic.topic_id != ZERO_UUID and version < 12:
                raise UnsupportedVersionException(
                    f"MetadataRequest version {version} does not support non-zero topic IDs."
                )
        return MetadataRequest(self.data, version)
