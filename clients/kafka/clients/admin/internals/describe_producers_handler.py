"""Port of clients/src/main/java/org/apache/kafka/clients/admin/internals/DescribeProducersHandler.java (Kafka 3.7).

describeProducers: one DescribeProducers request per broker for all its partitions, sent to each partition's
leader (found with Metadata), or to the broker the options name.
"""

from __future__ import annotations

from collections.abc import Iterable, Set
from typing import Any

from kafka.clients.admin.describe_producers_options import DescribeProducersOptions
from kafka.clients.admin.describe_producers_result import PartitionProducerState
from kafka.clients.admin.internals.admin_api_future import AdminApiFuture, SimpleAdminApiFuture
from kafka.clients.admin.internals.admin_api_handler import ApiResult, Batched
from kafka.clients.admin.internals.admin_api_lookup_strategy import AdminApiLookupStrategy
from kafka.clients.admin.internals.partition_leader_strategy import PartitionLeaderStrategy
from kafka.clients.admin.internals.static_broker_strategy import StaticBrokerStrategy
from kafka.clients.admin.producer_state import ProducerState
from kafka.common.errors import InvalidTopicException, TopicAuthorizationException
from kafka.common.message import DescribeProducersRequestData
from kafka.common.node import Node
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_request import DataBuilder
from kafka.common.requests.abstract_response import AbstractResponse
from kafka.common.requests.api_error import ApiError
from kafka.common.requests.describe_producers_request import DescribeProducersRequest
from kafka.common.requests.describe_producers_response import DescribeProducersResponse
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.log_context import LogContext

__all__ = ["DescribeProducersHandler"]


class DescribeProducersHandler(Batched[TopicPartition, PartitionProducerState]):
    def __init__(self, options: DescribeProducersOptions, log_context: LogContext) -> None:
        self._options = options
        self._log = log_context.logger("org.apache.kafka.clients.admin.internals.DescribeProducersHandler")
        broker_id = options.broker_id()
        self._lookup_strategy: AdminApiLookupStrategy[TopicPartition] = (
            PartitionLeaderStrategy(log_context) if broker_id is None else StaticBrokerStrategy(broker_id)
        )

    @staticmethod
    def new_future(
        topic_partitions: Iterable[TopicPartition],
    ) -> SimpleAdminApiFuture[TopicPartition, PartitionProducerState]:
        return AdminApiFuture.for_keys(set(topic_partitions))

    def api_name(self) -> str:
        return "describeProducers"

    def lookup_strategy(self) -> AdminApiLookupStrategy[TopicPartition]:
        return self._lookup_strategy

    def build_batched_request(self, broker_id: int, keys: Set[TopicPartition]) -> DataBuilder[Any]:
        topics: dict[str, DescribeProducersRequestData.TopicRequest] = {}
        for tp in keys:
            topic = topics.get(tp.topic)
            if topic is None:
                topic = topics[tp.topic] = DescribeProducersRequestData.TopicRequest(name=tp.topic)
            topic.partition_indexes.append(tp.partition)
        return DataBuilder(DescribeProducersRequest, DescribeProducersRequestData(topics=list(topics.values())))

    def _handle_partition_error(
        self,
        topic_partition: TopicPartition,
        api_error: ApiError,
        failed: dict[TopicPartition, BaseException],
        unmapped: list[TopicPartition],
    ) -> None:
        error = api_error.error
        broker_id = self._options.broker_id()
        if error is Errors.NOT_LEADER_OR_FOLLOWER:
            if broker_id is not None:
                # Asked of a broker the user chose, the error is final.
                self._log.error(
                    f"Not leader error in `DescribeProducers` response for partition {topic_partition} for brokerId "
                    f"{broker_id} set in options",
                    api_error.exception(),
                )
                exc = error.exception(
                    f"Failed to describe active producers for partition {topic_partition} on brokerId {broker_id}"
                )
                assert exc is not None
                failed[topic_partition] = exc
            else:
                # The leader moved: look it up again.
                self._log.debug(
                    f"Not leader error in `DescribeProducers` response for partition {topic_partition}. "
                    "Will retry later."
                )
                unmapped.append(topic_partition)
        elif error is Errors.UNKNOWN_TOPIC_OR_PARTITION:
            self._log.debug(
                f"Unknown topic/partition error in `DescribeProducers` response for partition {topic_partition}. "
                "Will retry later."
            )
        elif error is Errors.INVALID_TOPIC_EXCEPTION:
            self._log.error(
                f"Invalid topic in `DescribeProducers` response for partition {topic_partition}", api_error.exception()
            )
            failed[topic_partition] = InvalidTopicException(
                f"Failed to fetch metadata for partition {topic_partition} due to invalid topic error: "
                f"{api_error.message_with_fallback()}",
                invalid_topics={topic_partition.topic},
            )
        elif error is Errors.TOPIC_AUTHORIZATION_FAILED:
            self._log.error(
                f"Authorization failed in `DescribeProducers` response for partition {topic_partition}",
                api_error.exception(),
            )
            failed[topic_partition] = TopicAuthorizationException(
                f"Failed to describe active producers for partition {topic_partition} due to authorization failure "
                f"on topic `{topic_partition.topic}`",
                unauthorized_topics={topic_partition.topic},
            )
        else:
            self._log.error(
                f"Unexpected error in `DescribeProducers` response for partition {topic_partition}",
                api_error.exception(),
            )
            exc = error.exception(
                f"Failed to describe active producers for partition {topic_partition} due to unexpected error"
            )
            assert exc is not None
            failed[topic_partition] = exc

    def handle_response(
        self, broker: Node, keys: Set[TopicPartition], response: AbstractResponse
    ) -> ApiResult[TopicPartition, PartitionProducerState]:
        assert isinstance(response, DescribeProducersResponse)
        completed: dict[TopicPartition, PartitionProducerState] = {}
        failed: dict[TopicPartition, BaseException] = {}
        unmapped: list[TopicPartition] = []
        for topic_response in response.data.topics:
            for partition_response in topic_response.partitions:
                topic_partition = TopicPartition(topic_response.name, partition_response.partition_index)
                error = Errors.for_code(partition_response.error_code)
                if error is not Errors.NONE:
                    api_error = ApiError(error, partition_response.error_message)
                    self._handle_partition_error(topic_partition, api_error, failed, unmapped)
                    continue
                active_producers = [
                    ProducerState(
                        p.producer_id,
                        p.producer_epoch,
                        p.last_sequence,
                        p.last_timestamp,
                        None if p.coordinator_epoch < 0 else p.coordinator_epoch,
                        None if p.current_txn_start_offset < 0 else p.current_txn_start_offset,
                    )
                    for p in partition_response.active_producers
                ]
                completed[topic_partition] = PartitionProducerState(active_producers)
        return ApiResult(completed, failed, tuple(unmapped))
