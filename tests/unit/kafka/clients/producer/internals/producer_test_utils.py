"""Helpers shared by the producer's unit tests (after Java's ProducerTestUtils and the setUp of
RecordAccumulatorTest/SenderTest): metadata snapshots, accumulators and produce responses."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from kafka.clients.api_versions import ApiVersions
from kafka.clients.metadata import Metadata
from kafka.clients.metadata_snapshot import MetadataSnapshot
from kafka.clients.producer.internals.buffer_pool import BufferPool
from kafka.clients.producer.internals.record_accumulator import PartitionerConfig, RecordAccumulator
from kafka.clients.producer.internals.transaction_manager import TransactionManager
from kafka.common.internals.cluster_resource_listeners import ClusterResourceListeners
from kafka.common.protocol.errors import Errors
from kafka.common.record.compression_type import CompressionType
from kafka.common.requests.produce_response import PartitionResponse, ProduceResponse, RecordError
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.log_context import LogContext
from kafka.common.utils.time import Time
from tests.unit.kafka.common.requests.request_test_utils import metadata_update_with

LOG_CONTEXT = LogContext("[test] ")


def metadata_snapshot(
    num_nodes: int,
    topic_partition_counts: Mapping[str, int],
    epoch_supplier: Callable[[TopicPartition], int | None] = lambda tp: None,
) -> MetadataSnapshot:
    """The snapshot of a cluster with nodes 0..num_nodes-1 leading the partitions round-robin."""
    metadata = Metadata(100, 1000, 60_000, LOG_CONTEXT, ClusterResourceListeners())
    metadata.update_with_current_request_version(
        metadata_update_with(num_nodes, topic_partition_counts, epoch_supplier=epoch_supplier), False, 0
    )
    return metadata.fetch_metadata_snapshot()


def accumulator(
    time: Time,
    batch_size: int = 1024,
    linger_ms: int = 0,
    total_size: int = 10 * 1024 * 1024,
    compression: CompressionType = CompressionType.NONE,
    retry_backoff_ms: int = 100,
    retry_backoff_max_ms: int = 1000,
    delivery_timeout_ms: int = 3200,
    transaction_manager: TransactionManager | None = None,
    partitioner_config: PartitionerConfig | None = None,
    api_versions: ApiVersions | None = None,
) -> RecordAccumulator:
    return RecordAccumulator(
        LOG_CONTEXT,
        batch_size,
        compression,
        linger_ms,
        retry_backoff_ms,
        retry_backoff_max_ms,
        delivery_timeout_ms,
        partitioner_config,
        time,
        api_versions or ApiVersions(),
        transaction_manager,
        BufferPool(total_size, batch_size, time),
    )


def produce_response(
    tp: TopicPartition,
    offset: int = 0,
    error: Errors = Errors.NONE,
    log_start_offset: int = -1,
    log_append_time: int = -1,
    record_errors: list[RecordError] | None = None,
    error_message: str | None = None,
) -> ProduceResponse:
    """A ProduceResponse answering one partition."""
    return produce_response_for(
        {
            tp: PartitionResponse(
                error, offset, -1, log_append_time, log_start_offset, record_errors or [], error_message
            )
        }
    )


def produce_response_for(responses: Mapping[TopicPartition, PartitionResponse]) -> ProduceResponse:
    return ProduceResponse.from_partition_responses({(tp.topic, tp.partition): r for tp, r in responses.items()})
