"""Port of clients/src/main/java/org/apache/kafka/clients/producer/internals/BuiltInPartitioner.java (Kafka 3.7).

The producer's own partitioning when `partitioner.class` is not set (KIP-794): keyed records go to
murmur2(key) modulo the partition count; records without a key (or all records with
`partitioner.ignore.keys`) stick to one partition until about `batch.size` bytes were produced to it,
and then switch, preferring partitions with shorter queues when adaptive partitioning is on.
"""

from __future__ import annotations

import bisect
import random
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar

from kafka.common.utils.log_context import LogContext
from kafka.common.utils.utils import murmur2, to_positive

if TYPE_CHECKING:
    from kafka.common.cluster import Cluster

__all__ = ["BuiltInPartitioner", "StickyPartitionInfo"]


class StickyPartitionInfo:
    """The current sticky partition of a topic and how many bytes were appended to it so far."""

    # `index` is partition()'s value, read directly by the accumulator for every record it appends.
    __slots__ = ("index", "produced_bytes")

    def __init__(self, index: int) -> None:
        self.index = index
        self.produced_bytes = 0

    def partition(self) -> int:
        return self.index

    def add_produced_bytes(self, n: int) -> int:
        """Adds `n` and returns the new total (Java's AtomicInteger.addAndGet).

        # PORT: no lock of its own: the only caller, update_partition_info, runs under the partition's deque
        lock, which already orders every update of this partition's counter.
        """
        self.produced_bytes += n
        return self.produced_bytes


class _PartitionLoadStats:
    __slots__ = ("cumulative_frequency_table", "length", "partition_ids")

    def __init__(self, cumulative_frequency_table: list[int], partition_ids: list[int], length: int) -> None:
        self.cumulative_frequency_table = cumulative_frequency_table
        self.partition_ids = partition_ids
        self.length = length


class BuiltInPartitioner:
    """The sticky partition state of one topic (the RecordAccumulator keeps one per topic)."""

    #: Tests set this to make the partition choice predictable (Java's static mockRandom).
    mock_random: ClassVar[Callable[[], int] | None] = None

    def __init__(self, log_context: LogContext, topic: str, sticky_batch_size: int) -> None:
        self._log = log_context.logger("org.apache.kafka.clients.producer.internals.BuiltInPartitioner")
        self._topic = topic
        if sticky_batch_size < 1:
            raise ValueError(f"stickyBatchSize must be >= 1 but got {sticky_batch_size}")
        # Read by the accumulator too: below it, update_partition_info only adds the appended bytes.
        self.sticky_batch_size = sticky_batch_size
        self._partition_load_stats: _PartitionLoadStats | None = None
        # The current sticky partition (Java's stickyPartitionInfo): the accumulator reads it directly for every record,
        # as peek_current_partition_info and is_partition_changed do; it is replaced under the partition's deque lock
        # (update_partition_info) or this lock (the first one).
        self.sticky_partition_info: StickyPartitionInfo | None = None
        self._lock = threading.Lock()

    def _next_partition(self, cluster: Cluster) -> int:
        mock = BuiltInPartitioner.mock_random
        rnd = mock() if mock is not None else random.getrandbits(31)
        partition_load_stats = self._partition_load_stats
        if partition_load_stats is None:
            # No load statistics (or adaptive partitioning is off): any available partition, uniformly.
            available_partitions = cluster.available_partitions_for_topic(self._topic)
            if available_partitions:
                partition = available_partitions[rnd % len(available_partitions)].partition
            else:
                partition = rnd % len(cluster.partitions_for_topic(self._topic))
        else:
            # Weighted by queue length: the table holds running sums of inverted queue sizes, so the first
            # entry strictly greater than a uniform draw below the total picks partitions with short queues more.
            length = partition_load_stats.length
            table = partition_load_stats.cumulative_frequency_table
            weighted_random = rnd % table[length - 1]
            partition_index = bisect.bisect_right(table, weighted_random, 0, length)
            partition = partition_load_stats.partition_ids[partition_index]
        if self._log.is_trace_enabled():
            self._log.trace(f"Switching to partition {partition} in topic {self._topic}")
        return partition

    def load_stats_range_end(self) -> int:
        """The total of the cumulative frequency table (for tests)."""
        stats = self._partition_load_stats
        assert stats is not None and stats.length > 0
        return stats.cumulative_frequency_table[stats.length - 1]

    def peek_current_partition_info(self, cluster: Cluster) -> StickyPartitionInfo:
        """The current sticky partition, choosing the first one if there is none yet."""
        partition_info = self.sticky_partition_info
        if partition_info is not None:
            return partition_info
        partition_info = StickyPartitionInfo(self._next_partition(cluster))
        with self._lock:
            if self.sticky_partition_info is None:
                self.sticky_partition_info = partition_info
            return self.sticky_partition_info

    def is_partition_changed(self, partition_info: StickyPartitionInfo | None) -> bool:
        """Whether another thread switched the sticky partition after the caller peeked it."""
        return partition_info is not None and self.sticky_partition_info is not partition_info

    def update_partition_info(
        self,
        partition_info: StickyPartitionInfo | None,
        appended_bytes: int,
        cluster: Cluster,
        enable_switch: bool = True,
    ) -> None:
        """Counts `appended_bytes` against the sticky partition and switches once enough was produced.

        Called under the lock of the partition's deque, as is_partition_changed.

        The switch happens at `batch.size` bytes when `enable_switch` (the partition's last batch is full),
        else only at twice that, so that a lingering batch is not left half-filled.
        """
        if partition_info is None:
            return
        assert partition_info is self.sticky_partition_info
        partition_info.produced_bytes += appended_bytes  # add_produced_bytes, without the call
        produced_bytes = partition_info.produced_bytes
        if produced_bytes >= self.sticky_batch_size * 2 and self._log.is_trace_enabled():
            self._log.trace(
                f"Produced {produced_bytes} bytes, exceeding twice the batch size of {self.sticky_batch_size} "
                f"bytes, with switching set to {str(enable_switch).lower()}"
            )
        if (produced_bytes >= self.sticky_batch_size and enable_switch) or produced_bytes >= self.sticky_batch_size * 2:
            self.sticky_partition_info = StickyPartitionInfo(self._next_partition(cluster))

    def update_partition_load_stats(
        self, queue_sizes: list[int] | None, partition_ids: list[int] | None, length: int
    ) -> None:
        """Rebuilds the weighting table from the queue sizes of the partitions with a leader (in place)."""
        if queue_sizes is None or partition_ids is None:
            if self._log.is_trace_enabled():
                self._log.trace(f"No load stats for topic {self._topic}, not using adaptive")
            self._partition_load_stats = None
            return
        assert len(queue_sizes) == len(partition_ids)
        assert length <= len(queue_sizes)
        # Fewer than two partitions leaves nothing to choose, unless slow partitions were left out.
        if length < 1 or len(queue_sizes) < 2:
            if self._log.is_trace_enabled():
                self._log.trace(
                    f"The number of partitions is too small: available={length}, all={len(queue_sizes)}, "
                    f"not using adaptive for topic {self._topic}"
                )
            self._partition_load_stats = None
            return
        max_size_plus1 = queue_sizes[0]
        all_equal = True
        for i in range(1, length):
            if queue_sizes[i] != max_size_plus1:
                all_equal = False
            if queue_sizes[i] > max_size_plus1:
                max_size_plus1 = queue_sizes[i]
        max_size_plus1 += 1
        if all_equal and length == len(queue_sizes):
            if self._log.is_trace_enabled():
                self._log.trace(f"All queue lengths are the same, not using adaptive for topic {self._topic}")
            self._partition_load_stats = None
            return
        # Invert each size (longer queue -> lower weight) and accumulate into a running sum.
        queue_sizes[0] = max_size_plus1 - queue_sizes[0]
        for i in range(1, length):
            queue_sizes[i] = max_size_plus1 - queue_sizes[i] + queue_sizes[i - 1]
        if self._log.is_trace_enabled():
            self._log.trace(
                f"Partition load stats for topic {self._topic}: CFT={queue_sizes}, IDs={partition_ids}, length={length}"
            )
        self._partition_load_stats = _PartitionLoadStats(queue_sizes, partition_ids, length)

    @staticmethod
    def partition_for_key(serialized_key: bytes, num_partitions: int) -> int:
        """murmur2 of the key, made positive, modulo the partition count: Java's and librdkafka's murmur2_random."""
        return to_positive(murmur2(serialized_key)) % num_partitions
