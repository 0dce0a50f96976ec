"""Port of clients/src/main/java/org/apache/kafka/clients/admin/internals/PartitionLeaderStrategy.java (Kafka 3.7).

The lookup of partition leaders with one Metadata request for all partitions.

# PORT: the strategy remembers which partitions the last lookup left unresolved because their topic (or the
partition itself) does not exist, and `handle_lookup_timeout` fails those with UnknownTopicOrPartitionException
when the lookup runs out of time, where Java fails them with a bare TimeoutException. A tolerant lookup (the one
of deleteRecords) still waits for the topic until the deadline, as Java's does.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Set

from kafka.clients.admin.internals.admin_api_lookup_strategy import AdminApiLookupStrategy, LookupResult
from kafka.clients.admin.internals.api_request_scope import ApiRequestScope
from kafka.common.errors import InvalidTopicException, TopicAuthorizationException, UnknownTopicOrPartitionException
from kafka.common.message import MetadataRequestData
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_response import AbstractResponse
from kafka.common.requests.metadata_request import MetadataRequestBuilder
from kafka.common.requests.metadata_response import MetadataResponse
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.log_context import LogContext

__all__ = ["PartitionLeaderStrategy"]

_SINGLE_REQUEST_SCOPE = ApiRequestScope()

# Partition errors after which the leader is looked up again.
_RETRIABLE_PARTITION_ERRORS = frozenset(
    {
        Errors.NOT_LEADER_OR_FOLLOWER,
        Errors.REPLICA_NOT_AVAILABLE,
        Errors.LEADER_NOT_AVAILABLE,
        Errors.BROKER_NOT_AVAILABLE,
        Errors.KAFKA_STORAGE_ERROR,
        Errors.UNKNOWN_TOPIC_OR_PARTITION,
    }
)


class PartitionLeaderStrategy(AdminApiLookupStrategy[TopicPartition]):
    def __init__(self, log_context: LogContext, tolerate_unknown_topics: bool = True) -> None:
        """With `tolerate_unknown_topics` an unknown topic is looked up again (it may be being created); without,
        its partitions fail."""
        self._log = log_context.logger("org.apache.kafka.clients.admin.internals.PartitionLeaderStrategy")
        self._tolerate_unknown_topics = tolerate_unknown_topics
        # The partitions the last lookup left unresolved because they do not exist, with the error to report
        # if their lookup times out.
        self._unknown_partitions: dict[TopicPartition, BaseException] = {}

    def lookup_scope(self, key: TopicPartition) -> ApiRequestScope:
        # A Metadata request takes any set of topics: every partition shares one scope.
        return _SINGLE_REQUEST_SCOPE

    def build_request(self, partitions: Set[TopicPartition]) -> MetadataRequestBuilder:
        data = MetadataRequestData(allow_auto_topic_creation=False)
        for topic in dict.fromkeys(tp.topic for tp in partitions):
            data.topics.append(MetadataRequestData.MetadataRequestTopic(name=topic))
        return MetadataRequestBuilder(data=data)

    def _handle_topic_error(
        self,
        topic: str,
        topic_error: Errors,
        request_partitions: Set[TopicPartition],
        failed: dict[TopicPartition, BaseException],
    ) -> None:
        if topic_error is Errors.UNKNOWN_TOPIC_OR_PARTITION and not self._tolerate_unknown_topics:
            self._log.error(f"Received unknown topic error for topic {topic}", topic_error.exception())

            def unknown(tp: TopicPartition) -> BaseException:
                exc = topic_error.exception(
                    f"Failed to fetch metadata for partition {tp} because metadata for topic `{topic}` could not be "
                    "found"
                )
                assert exc is not None
                return exc

            self._fail_all_partitions_for_topic(topic, request_partitions, failed, unknown)
        elif topic_error in (
            Errors.UNKNOWN_TOPIC_OR_PARTITION,
            Errors.LEADER_NOT_AVAILABLE,
            Errors.BROKER_NOT_AVAILABLE,
        ):
            self._log.debug(
                f"Metadata request for topic {topic} returned topic-level error {topic_error.name}. Will retry"
            )
        elif topic_error is Errors.TOPIC_AUTHORIZATION_FAILED:
            self._log.error(
                f"Received authorization failure for topic {topic} in `Metadata` response", topic_error.exception()
            )
            self._fail_all_partitions_for_topic(
                topic,
                request_partitions,
                failed,
                lambda tp: TopicAuthorizationException(
                    f"Failed to fetch metadata for partition {tp} due to topic authorization failure"
                ),
            )
        elif topic_error is Errors.INVALID_TOPIC_EXCEPTION:
            self._log.error(
                f"Received invalid topic error for topic {topic} in `Metadata` response", topic_error.exception()
            )
            self._fail_all_partitions_for_topic(
                topic,
                request_partitions,
                failed,
                lambda tp: InvalidTopicException(
                    f"Failed to fetch metadata for partition {tp} due to invalid topic `{topic}`"
                ),
            )
        else:
            self._log.error(
                f"Received unexpected error for topic {topic} in `Metadata` response", topic_error.exception()
            )

            def unexpected(tp: TopicPartition) -> BaseException:
                exc = topic_error.exception(
                    f"Failed to fetch metadata for partition {tp} due to unexpected error for topic `{topic}`"
                )
                assert exc is not None
                return exc

            self._fail_all_partitions_for_topic(topic, request_partitions, failed, unexpected)

    @staticmethod
    def _fail_all_partitions_for_topic(
        topic: str,
        partitions: Set[TopicPartition],
        failed: dict[TopicPartition, BaseException],
        exception_generator: Callable[[TopicPartition], BaseException],
    ) -> None:
        for tp in partitions:
            if tp.topic == topic:
                failed[tp] = exception_generator(tp)

    def _handle_partition_error(
        self, topic_partition: TopicPartition, partition_error: Errors, failed: dict[TopicPartition, BaseException]
    ) -> None:
        if partition_error in _RETRIABLE_PARTITION_ERRORS:
            self._log.debug(
                f"Metadata request for partition {topic_partition} returned partition-level error "
                f"{partition_error.name}. Will retry"
            )
        else:
            self._log.error(
                f"Received unexpected error for partition {topic_partition} in `Metadata` response",
                partition_error.exception(),
            )
            exc = partition_error.exception(f"Unexpected error during metadata lookup for {topic_partition}")
            assert exc is not None
            failed[topic_partition] = exc

    def handle_response(
        self, request_partitions: Set[TopicPartition], response: AbstractResponse
    ) -> LookupResult[TopicPartition]:
        assert isinstance(response, MetadataResponse)
        failed: dict[TopicPartition, BaseException] = {}
        mapped: dict[TopicPartition, int] = {}
        unknown: dict[TopicPartition, BaseException] = {}
        listed: set[TopicPartition] = set()
        for topic_metadata in response.data.topics:
            topic = topic_metadata.name
            topic_error = Errors.for_code(topic_metadata.error_code)
            if topic_error is not Errors.NONE:
                self._handle_topic_error(topic, topic_error, request_partitions, failed)
                if topic_error is Errors.UNKNOWN_TOPIC_OR_PARTITION:
                    for tp in request_partitions:
                        if tp.topic == topic and tp not in failed:
                            unknown[tp] = UnknownTopicOrPartitionException(
                                f"Failed to fetch metadata for partition {tp} because metadata for topic `{topic}` "
                                "could not be found"
                            )
                continue
            for partition_metadata in topic_metadata.partitions:
                topic_partition = TopicPartition(topic, partition_metadata.partition_index)
                partition_error = Errors.for_code(partition_metadata.error_code)
                # The response has every partition of the topics asked for: skip the others.
                if topic_partition not in request_partitions:
                    continue
                listed.add(topic_partition)
                if partition_error is not Errors.NONE:
                    self._handle_partition_error(topic_partition, partition_error, failed)
                    if partition_error is Errors.UNKNOWN_TOPIC_OR_PARTITION:
                        unknown[topic_partition] = UnknownTopicOrPartitionException(
                            f"Failed to fetch metadata for partition {topic_partition}: the partition does not exist"
                        )
                    continue
                leader_id = partition_metadata.leader_id
                if leader_id >= 0:
                    mapped[topic_partition] = leader_id
                else:
                    self._log.debug(
                        f"Metadata request for {topic_partition} returned no error, but the leader is unknown. "
                        "Will retry"
                    )
            # A partition of an existing topic that the response does not list does not exist (yet).
            for tp in request_partitions:
                if tp.topic == topic and tp not in listed:
                    unknown[tp] = UnknownTopicOrPartitionException(
                        f"Failed to fetch metadata for partition {tp}: the partition does not exist"
                    )
        for tp in request_partitions:
            self._unknown_partitions.pop(tp, None)
        self._unknown_partitions.update(unknown)
        return LookupResult(failed, mapped)

    def handle_lookup_timeout(
        self, keys: Iterable[TopicPartition], exception: BaseException
    ) -> dict[TopicPartition, BaseException]:
        """A partition the last lookup found not to exist fails with UnknownTopicOrPartitionException; the
        others with the timeout."""
        return {tp: self._unknown_partitions.pop(tp, exception) for tp in keys}
