"""Port of clients/src/main/java/org/apache/kafka/clients/admin/internals/DeleteRecordsHandler.java (Kafka 3.7).

deleteRecords: a DeleteRecords request to each partition leader for all its partitions.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Set
from typing import Any

from kafka.clients.admin.deleted_records import DeletedRecords
from kafka.clients.admin.internals.admin_api_future import AdminApiFuture, SimpleAdminApiFuture
from kafka.clients.admin.internals.admin_api_handler import ApiResult, Batched
from kafka.clients.admin.internals.admin_api_lookup_strategy import AdminApiLookupStrategy
from kafka.clients.admin.internals.partition_leader_strategy import PartitionLeaderStrategy
from kafka.clients.admin.records_to_delete import RecordsToDelete
from kafka.common.errors import ApiException, InvalidMetadataException, RetriableException, TopicAuthorizationException
from kafka.common.message import DeleteRecordsRequestData
from kafka.common.node import Node
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_request import DataBuilder
from kafka.common.requests.abstract_response import AbstractResponse
from kafka.common.requests.delete_records_request import DeleteRecordsRequest
from kafka.common.requests.delete_records_response import DeleteRecordsResponse
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.log_context import LogContext

__all__ = ["DeleteRecordsHandler"]


class DeleteRecordsHandler(Batched[TopicPartition, DeletedRecords]):
    def __init__(
        self, records_to_delete: Mapping[TopicPartition, RecordsToDelete], log_context: LogContext, timeout: int
    ) -> None:
        self._records_to_delete = dict(records_to_delete)
        self._log = log_context.logger("org.apache.kafka.clients.admin.internals.DeleteRecordsHandler")
        self._lookup_strategy = PartitionLeaderStrategy(log_context)
        self._timeout = timeout

    def api_name(self) -> str:
        return "deleteRecords"

    def lookup_strategy(self) -> AdminApiLookupStrategy[TopicPartition]:
        return self._lookup_strategy

    @staticmethod
    def new_future(topic_partitions: Iterable[TopicPartition]) -> SimpleAdminApiFuture[TopicPartition, DeletedRecords]:
        return AdminApiFuture.for_keys(set(topic_partitions))

    def build_batched_request(self, broker_id: int, keys: Set[TopicPartition]) -> DataBuilder[Any]:
        deletions_for_topic: dict[str, Any] = {}
        for tp in keys:
            to_delete = self._records_to_delete[tp]
            topic = deletions_for_topic.get(tp.topic)
            if topic is None:
                topic = deletions_for_topic[tp.topic] = DeleteRecordsRequestData.DeleteRecordsTopic(name=tp.topic)
            topic.partitions.append(
                DeleteRecordsRequestData.DeleteRecordsPartition(partition_index=tp.partition, offset=to_delete.offset)
            )
        data = DeleteRecordsRequestData(topics=list(deletions_for_topic.values()), timeout_ms=self._timeout)
        return DataBuilder(DeleteRecordsRequest, data)

    def handle_response(
        self, broker: Node, keys: Set[TopicPartition], response: AbstractResponse
    ) -> ApiResult[TopicPartition, DeletedRecords]:
        assert isinstance(response, DeleteRecordsResponse)
        completed: dict[TopicPartition, DeletedRecords] = {}
        failed: dict[TopicPartition, BaseException] = {}
        unmapped: list[TopicPartition] = []
        retriable: set[TopicPartition] = set()
        for topic_result in response.data.topics:
            for partition_result in topic_result.partitions:
                error = Errors.for_code(partition_result.error_code)
                topic_partition = TopicPartition(topic_result.name, partition_result.partition_index)
                if error is Errors.NONE:
                    completed[topic_partition] = DeletedRecords(partition_result.low_watermark)
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
                    f"DeleteRecords request for topic partition {topic_partition} failed sanity check",
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
        exception = error.exception()
        assert exception is not None
        if isinstance(exception, InvalidMetadataException):
            self._log.debug(
                f"DeleteRecords lookup request for topic partition {topic_partition} will be retried due to invalid "
                f"leader metadata {error.name}"
            )
            unmapped.append(topic_partition)
        elif isinstance(exception, RetriableException):
            self._log.debug(
                f"DeleteRecords fulfillment request for topic partition {topic_partition} will be retried due to "
                f"{error.name}"
            )
            retriable.add(topic_partition)
        elif isinstance(exception, TopicAuthorizationException):
            self._log.error(
                f"DeleteRecords request for topic partition {topic_partition} failed due to an error {error.name}"
            )
            failed[topic_partition] = exception
        else:
            self._log.error(
                f"DeleteRecords request for topic partition {topic_partition} failed due to an unexpected error "
                f"{error.name}"
            )
            failed[topic_partition] = exception
