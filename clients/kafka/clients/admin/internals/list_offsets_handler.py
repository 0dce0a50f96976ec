"""Port of clients/src/main/java/org/apache/kafka/clients/admin/internals/ListOffsetsHandler.java (Kafka 3.7).

listOffsets: a ListOffsets request to each partition leader for all its partitions.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Set
from typing import Any

from kafka.clients.admin.internals.admin_api_future import AdminApiFuture, SimpleAdminApiFuture
from kafka.clients.admin.internals.admin_api_handler import ApiResult, Batched
from kafka.clients.admin.internals.admin_api_lookup_strategy import AdminApiLookupStrategy
from kafka.clients.admin.internals.partition_leader_strategy import PartitionLeaderStrategy
from kafka.clients.admin.internals.request_builders import ListOffsetsRequestBuilder
from kafka.clients.admin.list_offsets_options import ListOffsetsOptions
from kafka.clients.admin.list_offsets_result import ListOffsetsResultInfo
from kafka.common.errors import ApiException, RetriableException, UnsupportedVersionException
from kafka.common.message import ListOffsetsRequestData
from kafka.common.node import Node
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_response import AbstractResponse
from kafka.common.requests.list_offsets_request import MAX_TIMESTAMP
from kafka.common.requests.list_offsets_response import UNKNOWN_EPOCH, ListOffsetsResponse
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.log_context import LogContext

__all__ = ["ListOffsetsHandler"]


class ListOffsetsHandler(Batched[TopicPartition, ListOffsetsResultInfo]):
    def __init__(
        self,
        offset_timestamps_by_partition: Mapping[TopicPartition, int],
        options: ListOffsetsOptions,
        log_context: LogContext,
    ) -> None:
        self._offset_timestamps_by_partition = dict(offset_timestamps_by_partition)
        self._options = options
        self._log = log_context.logger("org.apache.kafka.clients.admin.internals.ListOffsetsHandler")
        self._lookup_strategy = PartitionLeaderStrategy(log_context, False)

    def api_name(self) -> str:
        return "listOffsets"

    def lookup_strategy(self) -> AdminApiLookupStrategy[TopicPartition]:
        return self._lookup_strategy

    def build_batched_request(self, broker_id: int, keys: Set[TopicPartition]) -> ListOffsetsRequestBuilder:
        topics_by_name: dict[str, Any] = {}
        for tp in keys:
            topic = topics_by_name.get(tp.topic)
            if topic is None:
                topic = topics_by_name[tp.topic] = ListOffsetsRequestData.ListOffsetsTopic(name=tp.topic)
            topic.partitions.append(
                ListOffsetsRequestData.ListOffsetsPartition(
                    partition_index=tp.partition, timestamp=self._offset_timestamps_by_partition[tp]
                )
            )
        supports_max_timestamp = any(self._offset_timestamps_by_partition[k] == MAX_TIMESTAMP for k in keys)
        return ListOffsetsRequestBuilder.for_consumer(
            True, self._options.isolation_level(), supports_max_timestamp
        ).set_target_times(list(topics_by_name.values()))

    def handle_response(
        self, broker: Node, keys: Set[TopicPartition], response: AbstractResponse
    ) -> ApiResult[TopicPartition, ListOffsetsResultInfo]:
        assert isinstance(response, ListOffsetsResponse)
        completed: dict[TopicPartition, ListOffsetsResultInfo] = {}
        failed: dict[TopicPartition, BaseException] = {}
        unmapped: list[TopicPartition] = []
        retriable: set[TopicPartition] = set()
        for topic in response.topics():
            for partition in topic.partitions:
                topic_partition = TopicPartition(topic.name, partition.partition_index)
                error = Errors.for_code(partition.error_code)
                if topic_partition not in self._offset_timestamps_by_partition:
                    self._log.warn(f"ListOffsets response includes unknown topic partition {topic_partition}")
                elif error is Errors.NONE:
                    leader_epoch = None if partition.leader_epoch == UNKNOWN_EPOCH else partition.leader_epoch
                    completed[topic_partition] = ListOffsetsResultInfo(
                        partition.offset, partition.timestamp, leader_epoch
                    )
                else:
                    self._handle_partition_error(topic_partition, error, failed, unmapped, retriable)
        # The leader must answer for every partition it was asked about.
        for topic_partition in keys:
            if (
                not unmapped
                and topic_partition not in completed
                and topic_partition not in failed
                and topic_partition not in retriable
            ):
                sanity_check_exception = ApiException(
                    f"The response from broker {broker.id} did not contain a result for topic partition "
                    f"{topic_partition}"
                )
                self._log.error(
                    f"ListOffsets request for topic partition {topic_partition} failed sanity check",
                    sanity_check_exception,
                )
                failed[topic_partition] = sanity_check_exception
        return ApiResult(completed, failed, tuple(unmapped))

    def _handle_partition_error(
        self,
        topic_partition: TopicPartition,
        error: Errors,
        failed: dict[TopicPartition, BaseException],
        unmapped: list[TopicPartition],
        retriable: set[TopicPartition],
    ) -> None:
        if error in (Errors.NOT_LEADER_OR_FOLLOWER, Errors.LEADER_NOT_AVAILABLE):
            self._log.debug(
                f"ListOffsets lookup request for topic partition {topic_partition} will be retried due to invalid "
                f"leader metadata {error.name}"
            )
            unmapped.append(topic_partition)
        elif isinstance(error.exception(), RetriableException):
            self._log.debug(
                f"ListOffsets fulfillment request for topic partition {topic_partition} will be retried due to "
                f"{error.name}"
            )
            retriable.add(topic_partition)
        else:
            self._log.error(
                f"ListOffsets request for topic partition {topic_partition} failed due to an unexpected error "
                f"{error.name}"
            )
            exc = error.exception()
            assert exc is not None
            failed[topic_partition] = exc

    def handle_unsupported_version_exception(
        self, broker_id: int, exception: UnsupportedVersionException, keys: Iterable[TopicPartition]
    ) -> dict[TopicPartition, BaseException]:
        self._log.warn(f"Broker {broker_id} does not support MAX_TIMESTAMP offset specs")
        keys = list(keys)
        max_timestamp_partitions: dict[TopicPartition, BaseException] = {
            tp: exception for tp in keys if self._offset_timestamps_by_partition.get(tp) == MAX_TIMESTAMP
        }
        # Without MAX_TIMESTAMP specs the exception has nothing to do with them: every key fails. With them, only
        # they fail, and the others are tried again.
        if not max_timestamp_partitions:
            return {k: exception for k in keys}
        return max_timestamp_partitions

    @staticmethod
    def new_future(
        topic_partitions: Iterable[TopicPartition],
    ) -> SimpleAdminApiFuture[TopicPartition, ListOffsetsResultInfo]:
        return AdminApiFuture.for_keys(set(topic_partitions))
