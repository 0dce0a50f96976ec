"""Port of clients/src/main/java/org/apache/kafka/clients/admin/internals/AbortTransactionHandler.java (Kafka 3.7).

abortTransaction: a WriteTxnMarkers request with one ABORT marker (the spec's producer id, epoch and coordinator
epoch) to the leader of the spec's partition, as a transaction coordinator would send it.
"""

from __future__ import annotations

from collections.abc import Iterable, Set
from typing import Any

from kafka.clients.admin.abort_transaction_spec import AbortTransactionSpec
from kafka.clients.admin.internals.admin_api_future import AdminApiFuture, SimpleAdminApiFuture
from kafka.clients.admin.internals.admin_api_handler import ApiResult, Batched
from kafka.clients.admin.internals.admin_api_lookup_strategy import AdminApiLookupStrategy
from kafka.clients.admin.internals.partition_leader_strategy import PartitionLeaderStrategy
from kafka.common.errors import (
    ClusterAuthorizationException,
    InvalidProducerEpochException,
    KafkaException,
    TransactionCoordinatorFencedException,
)
from kafka.common.message import WriteTxnMarkersRequestData
from kafka.common.node import Node
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_request import DataBuilder
from kafka.common.requests.abstract_response import AbstractResponse
from kafka.common.requests.transaction_result import TransactionResult
from kafka.common.requests.write_txn_markers_request import WriteTxnMarkersRequest
from kafka.common.requests.write_txn_markers_response import WriteTxnMarkersResponse
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.log_context import LogContext

__all__ = ["AbortTransactionHandler"]

_LOOK_UP_LEADER_AGAIN = frozenset(
    {
        Errors.NOT_LEADER_OR_FOLLOWER,
        Errors.REPLICA_NOT_AVAILABLE,
        Errors.BROKER_NOT_AVAILABLE,
        Errors.UNKNOWN_TOPIC_OR_PARTITION,
    }
)


class AbortTransactionHandler(Batched[TopicPartition, None]):
    def __init__(self, abort_spec: AbortTransactionSpec, log_context: LogContext) -> None:
        self._abort_spec = abort_spec
        self._log = log_context.logger("org.apache.kafka.clients.admin.internals.AbortTransactionHandler")
        self._lookup_strategy = PartitionLeaderStrategy(log_context)

    @staticmethod
    def new_future(topic_partitions: Iterable[TopicPartition]) -> SimpleAdminApiFuture[TopicPartition, None]:
        return AdminApiFuture.for_keys(set(topic_partitions))

    def api_name(self) -> str:
        return "abortTransaction"

    def lookup_strategy(self) -> AdminApiLookupStrategy[TopicPartition]:
        return self._lookup_strategy

    def build_batched_request(self, broker_id: int, keys: Set[TopicPartition]) -> DataBuilder[Any]:
        self._validate_topic_partitions(keys)
        spec = self._abort_spec
        marker = WriteTxnMarkersRequestData.WritableTxnMarker(
            coordinator_epoch=spec.coordinator_epoch,
            producer_epoch=spec.producer_epoch,
            producer_id=spec.producer_id,
            transaction_result=TransactionResult.ABORT.id,
            topics=[
                WriteTxnMarkersRequestData.WritableTxnMarkerTopic(
                    name=spec.topic_partition.topic, partition_indexes=[spec.topic_partition.partition]
                )
            ],
        )
        return DataBuilder(WriteTxnMarkersRequest, WriteTxnMarkersRequestData(markers=[marker]))

    def handle_response(
        self, broker: Node, keys: Set[TopicPartition], response: AbstractResponse
    ) -> ApiResult[TopicPartition, None]:
        self._validate_topic_partitions(keys)
        assert isinstance(response, WriteTxnMarkersResponse)
        spec = self._abort_spec
        tp = spec.topic_partition
        marker_responses = response.data.markers
        if len(marker_responses) != 1 or marker_responses[0].producer_id != spec.producer_id:
            return ApiResult.failed(
                tp,
                KafkaException(
                    f"WriteTxnMarkers response included unexpected marker entries: {marker_responses}(expected to "
                    f"find exactly one entry with producerId {spec.producer_id})"
                ),
            )
        topic_responses = marker_responses[0].topics
        if len(topic_responses) != 1 or topic_responses[0].name != tp.topic:
            return ApiResult.failed(
                tp,
                KafkaException(
                    f"WriteTxnMarkers response included unexpected topic entries: {marker_responses}(expected to "
                    f"find exactly one entry with topic partition {tp})"
                ),
            )
        partition_responses = topic_responses[0].partitions
        if len(partition_responses) != 1 or partition_responses[0].partition_index != tp.partition:
            return ApiResult.failed(
                tp,
                KafkaException(
                    f"WriteTxnMarkers response included unexpected partition entries for topic {tp.topic}: "
                    f"{marker_responses}(expected to find exactly one entry with partition {tp.partition})"
                ),
            )
        error = Errors.for_code(partition_responses[0].error_code)
        if error is not Errors.NONE:
            return self._handle_error(error)
        return ApiResult.completed(tp, None)

    def _handle_error(self, error: Errors) -> ApiResult[TopicPartition, None]:
        spec = self._abort_spec
        tp = spec.topic_partition
        if error is Errors.CLUSTER_AUTHORIZATION_FAILED:
            self._log.error(f"WriteTxnMarkers request for abort spec {spec} failed cluster authorization")
            return ApiResult.failed(
                tp,
                ClusterAuthorizationException(
                    f"WriteTxnMarkers request with {spec} failed due to cluster authorization error"
                ),
            )
        if error is Errors.INVALID_PRODUCER_EPOCH:
            self._log.error(f"WriteTxnMarkers request for abort spec {spec} failed due to an invalid producer epoch")
            return ApiResult.failed(
                tp,
                InvalidProducerEpochException(
                    f"WriteTxnMarkers request with {spec} failed due an invalid producer epoch"
                ),
            )
        if error is Errors.TRANSACTION_COORDINATOR_FENCED:
            self._log.error(
                f"WriteTxnMarkers request for abort spec {spec} failed because the coordinator epoch is fenced"
            )
            return ApiResult.failed(
                tp,
                TransactionCoordinatorFencedException(
                    f"WriteTxnMarkers request with {spec} failed since the provided coordinator epoch "
                    f"{spec.coordinator_epoch} has been fenced by the active coordinator"
                ),
            )
        if error in _LOOK_UP_LEADER_AGAIN:
            self._log.debug(
                f"WriteTxnMarkers request for abort spec {spec} failed due to {error.name}. Will retry after "
                "attempting to find the leader again"
            )
            return ApiResult.unmapped([tp])
        self._log.error(f"WriteTxnMarkers request for abort spec {spec} failed due to an unexpected error {error.name}")
        exc = error.exception(f"WriteTxnMarkers request with {spec} failed due to unexpected error: {error.message}")
        assert exc is not None
        return ApiResult.failed(tp, exc)

    def _validate_topic_partitions(self, topic_partitions: Set[TopicPartition]) -> None:
        expected = {self._abort_spec.topic_partition}
        if set(topic_partitions) != expected:
            raise ValueError(f"Received unexpected topic partitions {set(topic_partitions)} (expected only {expected})")
