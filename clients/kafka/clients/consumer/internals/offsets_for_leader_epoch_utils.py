"""Port of clients/src/main/java/org/apache/kafka/clients/consumer/internals/OffsetsForLeaderEpochUtils.java
(Kafka 3.7).

Building the consumer's OffsetsForLeaderEpoch request from the positions to validate, and reading the end
offsets (or the partitions to retry) from its response.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from kafka.clients.consumer.internals.request_builders import OffsetsForLeaderEpochRequestBuilder
from kafka.clients.consumer.internals.subscription_state import FetchPosition
from kafka.common.errors import TopicAuthorizationException
from kafka.common.message import OffsetForLeaderEpochRequestData
from kafka.common.protocol.errors import Errors
from kafka.common.record.record_batch import NO_PARTITION_LEADER_EPOCH
from kafka.common.requests.offsets_for_leader_epoch_response import OffsetsForLeaderEpochResponse
from kafka.common.topic_partition import TopicPartition

__all__ = ["OffsetForEpochResult", "handle_response", "prepare_request"]

_log = logging.getLogger("org.apache.kafka.clients.consumer.internals.OffsetsForLeaderEpochUtils")


@dataclass(frozen=True, slots=True)
class OffsetForEpochResult:
    """The end offset (an EpochEndOffset) per partition answered, and the partitions to ask again."""

    end_offsets: dict[TopicPartition, Any] = field(default_factory=dict)
    partitions_to_retry: set[TopicPartition] = field(default_factory=set)


def prepare_request(request_data: Mapping[TopicPartition, FetchPosition]) -> OffsetsForLeaderEpochRequestBuilder:
    topics = OffsetForLeaderEpochRequestData.OffsetForLeaderTopicCollection()
    for tp, fetch_position in request_data.items():
        if fetch_position.offset_epoch is None:
            continue
        topic = topics.find(tp.topic)
        if topic is None:
            topic = OffsetForLeaderEpochRequestData.OffsetForLeaderTopic(topic=tp.topic)
            topics.append(topic)
        current_epoch = fetch_position.current_leader.epoch
        topic.partitions.append(
            OffsetForLeaderEpochRequestData.OffsetForLeaderPartition(
                partition=tp.partition,
                leader_epoch=fetch_position.offset_epoch,
                current_leader_epoch=NO_PARTITION_LEADER_EPOCH if current_epoch is None else current_epoch,
            )
        )
    return OffsetsForLeaderEpochRequestBuilder.for_consumer(topics)


def handle_response(
    request_data: Mapping[TopicPartition, FetchPosition], response: OffsetsForLeaderEpochResponse
) -> OffsetForEpochResult:
    partitions_to_retry = set(request_data)
    unauthorized_topics: set[str] = set()
    end_offsets: dict[TopicPartition, Any] = {}
    for topic in response.data.topics:
        for partition in topic.partitions:
            tp = TopicPartition(topic.topic, partition.partition)
            if tp not in request_data:
                _log.warning("Received unrequested topic or partition %s from response, ignoring.", tp)
                continue
            error = Errors.for_code(partition.error_code)
            if error is Errors.NONE:
                _log.debug(
                    "Handling OffsetsForLeaderEpoch response for %s. Got offset %s for epoch %s.",
                    tp,
                    partition.end_offset,
                    partition.leader_epoch,
                )
                end_offsets[tp] = partition
                partitions_to_retry.discard(tp)
            elif error in (
                Errors.NOT_LEADER_OR_FOLLOWER,
                Errors.REPLICA_NOT_AVAILABLE,
                Errors.KAFKA_STORAGE_ERROR,
                Errors.OFFSET_NOT_AVAILABLE,
                Errors.LEADER_NOT_AVAILABLE,
                Errors.FENCED_LEADER_EPOCH,
                Errors.UNKNOWN_LEADER_EPOCH,
            ):
                _log.debug("Attempt to fetch offsets for partition %s failed due to %s, retrying.", tp, error.name)
            elif error is Errors.UNKNOWN_TOPIC_OR_PARTITION:
                _log.warning(
                    "Received unknown topic or partition error in OffsetsForLeaderEpoch request for partition %s.", tp
                )
            elif error is Errors.TOPIC_AUTHORIZATION_FAILED:
                unauthorized_topics.add(tp.topic)
                partitions_to_retry.discard(tp)
            else:
                _log.warning(
                    "Attempt to fetch offsets for partition %s failed due to: %s, retrying.", tp, error.message
                )
    if unauthorized_topics:
        raise TopicAuthorizationException.for_topics(unauthorized_topics)
    return OffsetForEpochResult(end_offsets, partitions_to_retry)
