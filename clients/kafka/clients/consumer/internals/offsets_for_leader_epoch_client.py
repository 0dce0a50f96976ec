"""Port of clients/src/main/java/org/apache/kafka/clients/consumer/internals/OffsetsForLeaderEpochClient.java
(Kafka 3.7).

Asks a leader where the epochs of the consumer's positions end (KIP-320 position validation).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kafka.clients.consumer.internals import offsets_for_leader_epoch_utils
from kafka.clients.consumer.internals.async_client import AsyncClient
from kafka.clients.consumer.internals.consumer_network_client import ConsumerNetworkClient
from kafka.clients.consumer.internals.offsets_for_leader_epoch_utils import OffsetForEpochResult
from kafka.clients.consumer.internals.subscription_state import FetchPosition
from kafka.common.node import Node
from kafka.common.requests.abstract_request import Builder
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.log_context import LogContext

__all__ = ["OffsetsForLeaderEpochClient"]


class OffsetsForLeaderEpochClient(AsyncClient[Mapping[TopicPartition, FetchPosition], OffsetForEpochResult]):
    def __init__(self, client: ConsumerNetworkClient, log_context: LogContext) -> None:
        super().__init__(client, log_context, "org.apache.kafka.clients.consumer.internals.OffsetsForLeaderEpochClient")

    def prepare_request(self, node: Node, request_data: Mapping[TopicPartition, FetchPosition]) -> Builder[Any]:
        return offsets_for_leader_epoch_utils.prepare_request(request_data)

    def handle_response(
        self, node: Node, request_data: Mapping[TopicPartition, FetchPosition], response: Any
    ) -> OffsetForEpochResult:
        return offsets_for_leader_epoch_utils.handle_response(request_data, response)
