"""Tests of RecordAccumulator, after clients/src/test/java/org/apache/kafka/clients/producer/internals/
RecordAccumulatorTest.java (Kafka 3.7)."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from typing import cast

import pytest

from kafka.clients.metadata_snapshot import MetadataSnapshot
from kafka.clients.producer.buffer_exhausted_exception import BufferExhaustedException
from kafka.clients.producer.internals.built_in_partitioner import BuiltInPartitioner
from kafka.clients.producer.internals.producer_batch import ProducerBatch
from kafka.clients.producer.internals.record_accumulator import (
    AppendCallbacks,
    PartitionerConfig,
    RecordAccumulator,
    RecordAppendResult,
)
from kafka.clients.producer.record_metadata import RecordMetadata
from kafka.common.errors import KafkaException, RecordBatchTooLargeException
from kafka.common.record.compression_type import CompressionType
from kafka.common.record.default_record import DefaultRecord
from kafka.common.record.record_batch import NO_SEQUENCE
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.time import MockTime
from tests.unit.kafka.clients.producer.internals.producer_test_utils import accumulator, metadata_snapshot

TOPIC = "test"
TP1 = TopicPartition(TOPIC, 0)
TP2 = TopicPartition(TOPIC, 1)
TP3 = TopicPartition(TOPIC, 2)
KEY = b"key"
VALUE = b"value"
MAX_BLOCK = 1000


@pytest.fixture
def time() -> MockTime:
    return MockTime(start_ms=1_000_000)


@pytest.fixture(autouse=True)
def reset_mock_random() -> Iterator[None]:
    yield
    BuiltInPartitioner.mock_random = None


def _records_in(batch: ProducerBatch) -> list[tuple[bytes | None, bytes | None]]:
    return [(r.key(), r.value()) for b in batch.records().batches() for r in b]


def _append(
    acc: RecordAccumulator,
    tp: TopicPartition,
    time: MockTime,
    key: bytes | None = KEY,
    value: bytes | None = VALUE,
    snapshot: MetadataSnapshot | None = None,
) -> RecordAppendResult:
    snapshot = snapshot or metadata_snapshot(3, {TOPIC: 3})
    return acc.append(
        tp.topic,
        tp.partition,
        time.milliseconds(),
        key,
        value,
        None,
        None,
        MAX_BLOCK,
        False,
        time.milliseconds(),
        snapshot.cluster(),
    )


def test_full() -> None:
    """A partition becomes ready only once its batch is full, and the drained batch holds the records in order."""
    time = MockTime(start_ms=1_000_000)
    snapshot = metadata_snapshot(3, {TOPIC: 3})
    acc = accumulator(time, batch_size=1024, linger_ms=10)
    appends = 0
    while True:
        result = _append(acc, TP1, time, value=b"value-%d" % appends, snapshot=snapshot)
        appends += 1
        if result.batch_is_full:
            break
        assert acc.ready(snapshot, time.milliseconds()).ready_nodes == set(), "no partitions should be ready"
    # The record that did not fit started a second batch: the first is full, so the node is ready.
    leader = snapshot.cluster().leader_for(TP1)
    assert leader is not None
    assert acc.ready(snapshot, time.milliseconds()).ready_nodes == {leader}
    batches = acc.drain(snapshot, {leader}, 2**31 - 1, time.milliseconds())[leader.id]
    assert len(batches) == 1
    records = _records_in(batches[0])
    assert records == [(KEY, b"value-%d" % i) for i in range(len(records))]
    assert len(records) == appends - 1


def test_append_large() -> None:
    """A record larger than batch.size gets a batch of its own, sized to fit it."""
    time = MockTime(start_ms=1_000_000)
    snapshot = metadata_snapshot(3, {TOPIC: 3})
    batch_size = 512
    acc = accumulator(time, batch_size=batch_size, linger_ms=0)
    value = bytes(2 * batch_size)
    result = _append(acc, TP1, time, value=value, snapshot=snapshot)
    assert result.new_batch_created
    leader = snapshot.cluster().leader_for(TP1)
    assert leader is not None
    assert acc.ready(snapshot, time.milliseconds()).ready_nodes == {leader}
    batches = acc.drain(snapshot, {leader}, 2**31 - 1, time.milliseconds())[leader.id]
    assert _records_in(batches[0]) == [(KEY, value)]


def test_linger() -> None:
    """A batch that is not full becomes ready after linger.ms, and the next check is due when it lingers out."""
    time = MockTime(start_ms=1_000_000)
    snapshot = metadata_snapshot(3, {TOPIC: 3})
    linger_ms = 10
    acc = accumulator(time, batch_size=1024, linger_ms=linger_ms)
    _append(acc, TP1, time, snapshot=snapshot)
    result = acc.ready(snapshot, time.milliseconds())
    assert result.ready_nodes == set()
    assert result.next_ready_check_delay_ms == linger_ms
    time.sleep(10)
    leader = snapshot.cluster().leader_for(TP1)
    assert leader is not None
    assert acc.ready(snapshot, time.milliseconds()).ready_nodes == {leader}
    batches = acc.drain(snapshot, {leader}, 2**31 - 1, time.milliseconds())[leader.id]
    assert _records_in(batches[0]) == [(KEY, VALUE)]


def test_partial_drain() -> None:
    """Draining stops at max.request.size but always takes at least one batch."""
    time = MockTime(start_ms=1_000_000)
    snapshot = metadata_snapshot(1, {TOPIC: 3})
    acc = accumulator(time, batch_size=1024, linger_ms=10)
    for tp in (TP1, TP2):
        while not _append(acc, tp, time, snapshot=snapshot).batch_is_full:
            pass
    leader = snapshot.cluster().leader_for(TP1)
    assert leader is not None
    assert acc.ready(snapshot, time.milliseconds()).ready_nodes == {leader}
    drained = acc.drain(snapshot, {leader}, 1024, time.milliseconds())[leader.id]
    assert len(drained) == 1, "only one batch fits the request"


def test_drain_rotates_over_partitions() -> None:
    """Each drain of a node starts after the partition the previous one stopped at."""
    time = MockTime(start_ms=1_000_000)
    snapshot = metadata_snapshot(1, {TOPIC: 3})
    acc = accumulator(time, batch_size=1024, linger_ms=0)
    leader = snapshot.cluster().leader_for(TP1)
    assert leader is not None
    first_partitions: list[int] = []
    for _ in range(3):
        for tp in (TP1, TP2, TP3):
            _append(acc, tp, time, snapshot=snapshot)
        # Room for one small batch only.
        drained = acc.drain(snapshot, {leader}, 1, time.milliseconds())[leader.id]
        first_partitions.append(drained[0].topic_partition.partition)
    assert sorted(first_partitions) == [0, 1, 2]


def test_stress_concurrent_appends() -> None:
    """Records appended from several threads are all drained, none lost or duplicated."""
    time = MockTime(start_ms=1_000_000)
    snapshot = metadata_snapshot(1, {TOPIC: 3})
    acc = accumulator(time, batch_size=1024, linger_ms=0)
    num_threads, per_thread = 5, 400

    def produce(n: int) -> None:
        for i in range(per_thread):
            tp = (TP1, TP2, TP3)[i % 3]
            acc.append(
                TOPIC, tp.partition, 0, None, b"%d-%d" % (n, i), None, None, MAX_BLOCK, False, 0, snapshot.cluster()
            )

    threads = [threading.Thread(target=produce, args=(n,)) for n in range(num_threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    leader = snapshot.cluster().leader_for(TP1)
    assert leader is not None
    values: list[bytes | None] = []
    while acc.has_undrained():
        for batch in acc.drain(snapshot, {leader}, 2**31 - 1, time.milliseconds())[leader.id]:
            values.extend(v for _, v in _records_in(batch))
            batch.complete(0, -1)
            acc.deallocate(batch)
    assert len(values) == num_threads * per_thread
    assert len(set(values)) == num_threads * per_thread


def test_flush_makes_lingering_batches_ready() -> None:
    """begin_flush makes every batch sendable at once; await_flush_completion returns once they complete."""
    time = MockTime(start_ms=1_000_000)
    snapshot = metadata_snapshot(1, {TOPIC: 3})
    acc = accumulator(time, batch_size=1024, linger_ms=2**31 - 1)
    futures = [_append(acc, tp, time, snapshot=snapshot).future for tp in (TP1, TP2)]
    leader = snapshot.cluster().leader_for(TP1)
    assert leader is not None
    assert acc.ready(snapshot, time.milliseconds()).ready_nodes == set()
    acc.begin_flush()
    assert acc.ready(snapshot, time.milliseconds()).ready_nodes == {leader}
    assert acc.await_flush_completion(0) is False
    acc.begin_flush()
    for batch in acc.drain(snapshot, {leader}, 2**31 - 1, time.milliseconds())[leader.id]:
        batch.complete(0, -1)
        acc.deallocate(batch)
    assert acc.await_flush_completion(1000) is True
    assert not acc.flush_in_progress()
    assert all(f is not None and f.is_done() for f in futures)


def test_abort_incomplete_batches() -> None:
    """A forced close fails every queued record's callback and future with 'Producer is closed forcefully.'."""
    time = MockTime(start_ms=1_000_000)
    snapshot = metadata_snapshot(1, {TOPIC: 3})
    acc = accumulator(time, batch_size=1024, linger_ms=2**31 - 1)
    errors: list[BaseException | None] = []

    class Recorder(AppendCallbacks):
        def set_partition(self, partition: int) -> None:
            pass

        def on_completion(self, metadata: RecordMetadata | None, exception: BaseException | None) -> None:
            errors.append(exception)

    futures = []
    for i in range(20):
        tp = (TP1, TP2, TP3)[i % 3]
        result = acc.append(
            TOPIC, tp.partition, 0, KEY, VALUE, None, Recorder(), MAX_BLOCK, False, 0, snapshot.cluster()
        )
        futures.append(result.future)
    acc.abort_incomplete_batches()
    assert len(errors) == 20
    assert all(isinstance(e, KafkaException) and str(e) == "Producer is closed forcefully." for e in errors)
    assert not acc.has_incomplete()
    assert not acc.has_undrained()
    assert futures[0] is not None
    with pytest.raises(KafkaException, match=re.escape("Producer is closed forcefully.")):
        futures[0].get()


def test_expired_batches() -> None:
    """A queued batch older than delivery.timeout.ms is expired; the next expiry time follows the oldest batch."""
    time = MockTime(start_ms=1_000_000)
    snapshot = metadata_snapshot(1, {TOPIC: 3})
    delivery_timeout_ms = 3200
    acc = accumulator(time, batch_size=1024, linger_ms=10, delivery_timeout_ms=delivery_timeout_ms)
    _append(acc, TP1, time, snapshot=snapshot)
    time.sleep(100)
    _append(acc, TP2, time, snapshot=snapshot)
    acc.reset_next_batch_expiry_time()
    assert acc.expired_batches(time.milliseconds()) == []
    assert acc.next_expiry_time_ms() == 1_000_000 + delivery_timeout_ms
    time.sleep(delivery_timeout_ms - 100)
    expired = acc.expired_batches(time.milliseconds())
    assert [b.topic_partition for b in expired] == [TP1]
    time.sleep(100)
    assert [b.topic_partition for b in acc.expired_batches(time.milliseconds())] == [TP2]


def test_retry_backoff() -> None:
    """A re-enqueued batch is not ready again until its retry backoff has passed."""
    time = MockTime(start_ms=1_000_000)
    snapshot = metadata_snapshot(1, {TOPIC: 3})
    retry_backoff_ms = 100
    acc = accumulator(
        time, batch_size=1024, linger_ms=0, retry_backoff_ms=retry_backoff_ms, retry_backoff_max_ms=retry_backoff_ms
    )
    _append(acc, TP1, time, snapshot=snapshot)
    leader = snapshot.cluster().leader_for(TP1)
    assert leader is not None
    batch = acc.drain(snapshot, {leader}, 2**31 - 1, time.milliseconds())[leader.id][0]
    acc.reenqueue(batch, time.milliseconds())
    result = acc.ready(snapshot, time.milliseconds())
    assert result.ready_nodes == set()
    assert result.next_ready_check_delay_ms == retry_backoff_ms
    assert acc.drain(snapshot, {leader}, 2**31 - 1, time.milliseconds())[leader.id] == []
    time.sleep(retry_backoff_ms)
    assert acc.ready(snapshot, time.milliseconds()).ready_nodes == {leader}
    assert acc.drain(snapshot, {leader}, 2**31 - 1, time.milliseconds())[leader.id] == [batch]
    assert batch.attempts() == 1


def test_leader_change_skips_the_retry_backoff() -> None:
    """A retried batch whose partition got a new leader epoch is sent without waiting for the backoff (KIP-951)."""
    time = MockTime(start_ms=1_000_000)
    old = metadata_snapshot(1, {TOPIC: 3}, epoch_supplier=lambda tp: 1)
    acc = accumulator(time, batch_size=1024, linger_ms=0, retry_backoff_ms=1000, retry_backoff_max_ms=1000)
    _append(acc, TP1, time, snapshot=old)
    leader = old.cluster().leader_for(TP1)
    assert leader is not None
    batch = acc.drain(old, {leader}, 2**31 - 1, time.milliseconds())[leader.id][0]
    acc.reenqueue(batch, time.milliseconds())
    assert acc.ready(old, time.milliseconds()).ready_nodes == set()
    new = metadata_snapshot(1, {TOPIC: 3}, epoch_supplier=lambda tp: 2)
    assert acc.ready(new, time.milliseconds()).ready_nodes == {leader}


def test_muted_partitions_are_not_drained() -> None:
    """A muted partition (a request in flight, ordering guaranteed) is skipped until unmuted."""
    time = MockTime(start_ms=1_000_000)
    snapshot = metadata_snapshot(1, {TOPIC: 3})
    acc = accumulator(time, batch_size=1024, linger_ms=0)
    _append(acc, TP1, time, snapshot=snapshot)
    leader = snapshot.cluster().leader_for(TP1)
    assert leader is not None
    acc.mute_partition(TP1)
    assert acc.ready(snapshot, time.milliseconds()).ready_nodes == set()
    assert acc.drain(snapshot, {leader}, 2**31 - 1, time.milliseconds())[leader.id] == []
    acc.unmute_partition(TP1)
    assert len(acc.drain(snapshot, {leader}, 2**31 - 1, time.milliseconds())[leader.id]) == 1


def test_unknown_leader_topics_are_reported() -> None:
    """Data for a partition without a known leader is reported so that the Sender refreshes metadata."""
    time = MockTime(start_ms=1_000_000)
    snapshot = metadata_snapshot(1, {TOPIC: 3})
    acc = accumulator(time)
    acc.append("other", 0, 0, KEY, VALUE, None, None, MAX_BLOCK, False, 0, snapshot.cluster())
    result = acc.ready(snapshot, time.milliseconds())
    assert result.unknown_leader_topics == {"other"}
    assert result.ready_nodes == set()


def test_buffer_exhaustion_blocks_then_fails() -> None:
    """When buffer.memory is used up, append waits max_time_to_block and fails with BufferExhaustedException."""
    time = MockTime(start_ms=1_000_000)
    snapshot = metadata_snapshot(1, {TOPIC: 3})
    acc = accumulator(time, batch_size=1024, total_size=2048, linger_ms=2**31 - 1)
    acc.append(TOPIC, 0, 0, KEY, VALUE, None, None, 0, False, 0, snapshot.cluster())
    acc.append(TOPIC, 1, 0, KEY, VALUE, None, None, 0, False, 0, snapshot.cluster())
    with pytest.raises(BufferExhaustedException):
        acc.append(TOPIC, 2, 0, KEY, VALUE, None, None, 50, False, 0, snapshot.cluster())
    # Appends to a partition that already has a batch need no memory.
    assert acc.append(TOPIC, 0, 0, KEY, VALUE, None, None, 0, False, 0, snapshot.cluster()).future is not None


def test_split_and_reenqueue() -> None:
    """A batch split after MESSAGE_TOO_LARGE goes back as smaller batches whose futures complete the originals."""
    time = MockTime(start_ms=1_000_000)
    snapshot = metadata_snapshot(1, {TOPIC: 3})
    acc = accumulator(time, batch_size=1024, linger_ms=0)
    # A batch of 4 records too big for one 1 KB batch each pair: appended into a large batch by hand.
    from kafka.common.record.memory_records import MemoryRecords

    builder = MemoryRecords.builder(write_limit=4096)
    big = ProducerBatch(TP1, builder, time.milliseconds())
    values = [bytes([i]) * 400 for i in range(4)]
    futures = [big.try_append(time.milliseconds(), None, v, (), None, time.milliseconds()) for v in values]
    assert all(f is not None for f in futures)
    acc._incomplete.add(big)
    num = acc.split_and_reenqueue(big)
    assert num == 2
    leader = snapshot.cluster().leader_for(TP1)
    assert leader is not None
    drained: list[ProducerBatch] = []
    while acc.has_undrained():
        drained.extend(acc.drain(snapshot, {leader}, 2**31 - 1, time.milliseconds())[leader.id])
    assert [len(_records_in(b)) for b in drained] == [2, 2]
    assert [v for b in drained for _, v in _records_in(b)] == values
    for i, batch in enumerate(drained):
        batch.complete(100 + 10 * i, -1)
    offsets = [f.get(0).offset for f in futures if f is not None]
    assert offsets == [100, 101, 110, 111]
    # The original batch's own result reports the split.
    assert isinstance(big.produce_future.error(0), RecordBatchTooLargeException)


def test_split_batch_off_accumulator_keeps_compression() -> None:
    """Splitting a compressed batch yields compressed batches that can be read back."""
    from kafka.common.record.memory_records import MemoryRecords

    time = MockTime(start_ms=1_000_000)
    builder = MemoryRecords.builder(CompressionType.GZIP, write_limit=1 << 20)
    big = ProducerBatch(TP1, builder, time.milliseconds())
    for i in range(50):
        big.try_append(time.milliseconds(), b"k%d" % i, bytes(300), (), None, time.milliseconds())
    pieces = big.split(2048)
    assert len(pieces) > 1
    assert all(p.is_compressed() for p in pieces)
    total = 0
    for piece in pieces:
        piece.close()
        total += piece.record_count
        assert all(b.compression_type() is CompressionType.GZIP for b in piece.records().batches())
    assert total == 50


def test_unknown_partition_sticks_until_batch_full() -> None:
    """Records without a partition fill one partition's batch, then the built-in partitioner moves on."""
    time = MockTime(start_ms=1_000_000)
    snapshot = metadata_snapshot(1, {TOPIC: 3})
    acc = accumulator(time, batch_size=1024, linger_ms=2**31 - 1)
    partitions: list[int] = []

    class Record(AppendCallbacks):
        def set_partition(self, partition: int) -> None:
            partitions.append(partition)

        def on_completion(self, metadata: RecordMetadata | None, exception: BaseException | None) -> None:
            pass

    random_values = iter([0, 1, 2, 0, 1, 2])
    BuiltInPartitioner.mock_random = lambda: next(random_values)
    value = bytes(100)
    for _ in range(60):
        acc.append(
            TOPIC,
            RecordMetadata.UNKNOWN_PARTITION,
            0,
            None,
            value,
            None,
            Record(),
            MAX_BLOCK,
            False,
            0,
            snapshot.cluster(),
        )
    # Consecutive runs of the same partition, switching in order 0 -> 1 -> 2.
    runs = [p for i, p in enumerate(partitions) if i == 0 or partitions[i - 1] != p]
    assert runs[:3] == [0, 1, 2]
    per_partition = DefaultRecord.size_in_bytes_of(0, 0, None, value, ())
    # A switch waits for batch.size bytes, and while a batch still fills up, for twice that.
    first_run = partitions.index(1)
    assert 1024 // per_partition <= first_run <= 2 * 1024 // per_partition + 1


def test_producer_append_callbacks_are_told_the_partition() -> None:
    """KafkaProducer's own AppendCallbacks (whose partition slot append sets directly) learn the partition chosen,
    as a subclass's set_partition does."""
    from kafka.clients.producer import kafka_producer
    from kafka.clients.producer.internals import record_accumulator

    time = MockTime(start_ms=1_000_000)
    snapshot = metadata_snapshot(1, {TOPIC: 3})
    acc = accumulator(time, batch_size=1024, linger_ms=2**31 - 1)
    random_values = iter([0, 1, 2, 0, 1, 2])
    BuiltInPartitioner.mock_random = lambda: next(random_values)
    told: list[int] = []
    for _ in range(30):
        callbacks = kafka_producer._new_append_callbacks(None, None, TOPIC, None)
        assert type(callbacks) in record_accumulator._PARTITION_SETTERS
        assert callbacks.get_partition() == RecordMetadata.UNKNOWN_PARTITION
        acc.append(
            TOPIC,
            RecordMetadata.UNKNOWN_PARTITION,
            0,
            None,
            bytes(100),
            None,
            callbacks,
            MAX_BLOCK,
            False,
            0,
            snapshot.cluster(),
        )
        told.append(callbacks.get_partition())
        assert callbacks.topic_partition() == TopicPartition(TOPIC, told[-1])
    batches = {p: acc.get_deque(TopicPartition(TOPIC, p)) for p in range(3)}
    assert sorted(told) == sorted(p for p, dq in batches.items() if dq for b in dq for _ in range(b.record_count))
    assert told[0] == 0 and told[-1] != 0


def test_adaptive_partitioning_avoids_a_node_that_cannot_drain() -> None:
    """With partitioner.availability.timeout.ms, partitions of a node that stayed undrainable get no new records."""
    time = MockTime(start_ms=1_000_000)
    snapshot = metadata_snapshot(2, {TOPIC: 2})
    acc = accumulator(time, batch_size=1024, linger_ms=0, partitioner_config=PartitionerConfig(True, 100))
    for p in (0, 1):
        acc.append(TOPIC, p, 0, None, VALUE, None, None, MAX_BLOCK, False, 0, snapshot.cluster())
    node0 = snapshot.cluster().leader_for(TP1)
    assert node0 is not None
    node1 = snapshot.cluster().leader_for(TP2)
    assert node1 is not None
    acc.update_node_latency_stats(node0.id, time.milliseconds(), True)
    acc.update_node_latency_stats(node1.id, time.milliseconds(), True)
    time.sleep(200)
    # Node 1 was ready but could not be drained for 200 ms > 100 ms.
    acc.update_node_latency_stats(node0.id, time.milliseconds(), True)
    acc.update_node_latency_stats(node1.id, time.milliseconds(), False)
    acc.ready(snapshot, time.milliseconds())
    BuiltInPartitioner.mock_random = lambda: 1
    partitioner = acc.get_built_in_partitioner(TOPIC)
    assert partitioner.load_stats_range_end() > 0
    info = partitioner.peek_current_partition_info(snapshot.cluster())
    assert info.partition() == 0


def test_idempotent_drain_assigns_sequences() -> None:
    """Draining for an idempotent producer stamps each batch with the producer id, epoch and the next sequence."""
    from kafka.clients.api_versions import ApiVersions
    from kafka.clients.producer.internals.transaction_manager import TransactionManager
    from kafka.common.message import InitProducerIdResponseData
    from kafka.common.requests.init_producer_id_response import InitProducerIdResponse
    from tests.unit.kafka.clients.producer.internals.producer_test_utils import LOG_CONTEXT

    time = MockTime(start_ms=1_000_000)
    snapshot = metadata_snapshot(1, {TOPIC: 3})
    tm = TransactionManager(LOG_CONTEXT, None, 60_000, 100, ApiVersions())
    acc = accumulator(time, batch_size=1024, linger_ms=0, transaction_manager=tm)
    leader = snapshot.cluster().leader_for(TP1)
    assert leader is not None
    _append(acc, TP1, time, snapshot=snapshot)
    # No producer id yet: nothing is drained.
    assert acc.drain(snapshot, {leader}, 2**31 - 1, time.milliseconds())[leader.id] == []
    tm.bump_idempotent_epoch_and_reset_id_if_needed()
    # The queued InitProducerId, answered.
    handler = tm.next_request(False)
    assert handler is not None
    handler.handle_response(InitProducerIdResponse(InitProducerIdResponseData(producer_id=7, producer_epoch=3)))
    first = acc.drain(snapshot, {leader}, 2**31 - 1, time.milliseconds())[leader.id][0]
    assert (first.producer_id(), first.producer_epoch(), first.base_sequence()) == (7, 3, 0)
    for _ in range(3):
        _append(acc, TP1, time, snapshot=snapshot)
    second = acc.drain(snapshot, {leader}, 2**31 - 1, time.milliseconds())[leader.id][0]
    assert second.base_sequence() == 1
    assert tm.sequence_number(TP1) == 4
    # A retry of the first waits in front of later batches and is the only one drained for the partition.
    _append(acc, TP1, time, snapshot=snapshot)
    acc.reenqueue(first, time.milliseconds())
    dq = acc.get_deque(TP1)
    assert dq is not None and [b.base_sequence() for b in dq] == [0, NO_SEQUENCE]


def _appends_as_send_does(fast: bool) -> tuple[list[object], int]:
    """300 appends made as KafkaProducer.send makes them (the compiled append_to_partition first when `fast`, append
    when it answers None), with sticky and given partitions, headers or none, the producer's AppendCallbacks, another
    AppendCallbacks and None, records of all sizes and partition switches; what each answered and told the callbacks,
    then every batch's records, counts, sizes and bytes, the sticky partition's state and the appends in progress;
    and how many appends append_to_partition made."""
    import random

    from kafka.clients.producer import kafka_producer
    from kafka.clients.producer.internals import record_accumulator
    from kafka.common.record.record_header import RecordHeader

    time = MockTime(start_ms=1_000_000)
    snapshot = metadata_snapshot(1, {TOPIC: 3})
    cluster = snapshot.cluster()
    acc = accumulator(time, batch_size=1024, linger_ms=2**31 - 1)
    random_values = iter(list(range(3)) * 200)
    BuiltInPartitioner.mock_random = lambda: next(random_values)
    told: list[int] = []

    class Other(AppendCallbacks):
        def set_partition(self, partition: int) -> None:
            told.append(partition)

        def on_completion(self, metadata: RecordMetadata | None, exception: BaseException | None) -> None:
            pass

    rng = random.Random(5)
    answers: list[object] = []
    fast_appends = 0
    for i in range(300):
        partition = rng.choice([RecordMetadata.UNKNOWN_PARTITION] * 6 + [0, 2])
        headers = rng.choice([(), (), (), (RecordHeader("h", b"x"),)])
        key = rng.choice([None, b"k%d" % i])
        value = rng.choice([None, b"", rng.randbytes(rng.randrange(1, 120)), rng.randbytes(rng.randrange(300, 700))])
        kind = rng.choice(["producer"] * 4 + ["other", "none"])
        callbacks: AppendCallbacks | None = (
            kafka_producer._new_append_callbacks(None, None, TOPIC, None)
            if kind == "producer"
            else Other()
            if kind == "other"
            else None
        )
        now = time.milliseconds() + i
        result = None
        if fast:
            assert record_accumulator.append_to_partition is not None
            result = record_accumulator.append_to_partition(
                acc, TOPIC, partition, now, key, value, headers, callbacks, now, cluster
            )
            fast_appends += result is not None
        if result is None:
            result = acc.append(TOPIC, partition, now, key, value, headers, callbacks, MAX_BLOCK, False, now, cluster)
        partition_told = (
            cast(kafka_producer._AppendCallbacks, callbacks).get_partition()
            if kind == "producer"
            else told[-1]
            if kind == "other"
            else None
        )
        answers.append(
            (
                type(result).__name__,
                result.batch_is_full,
                result.new_batch_created,
                result.abort_for_new_batch,
                result.appended_bytes,
                partition_told,
                result.future is not None and result.future._batch_index,
            )
        )
    partitioner = acc.get_built_in_partitioner(TOPIC)
    info = partitioner.sticky_partition_info
    assert info is not None
    answers.append((info.index, info.produced_bytes, list(acc._appends_in_progress)))
    for p in range(3):
        dq = acc.get_deque(TopicPartition(TOPIC, p))
        for batch in dq or ():
            batch.close()
            answers.append((p, batch.record_count, batch.estimated_size_in_bytes(), _records_in(batch)))
            answers.append(bytes(batch.records().buffer()))
    return answers, fast_appends


def test_append_to_partition_appends_as_append_does() -> None:
    """The compiled append_to_partition (send's first try where the optional module is built) leaves the accumulator,
    its batches (byte for byte), the sticky partition and the callbacks as append does, and answers the same
    RecordAppendResults; what it does not take (no deque yet, a full last batch, a partition switch, headers, other
    callbacks) it leaves to append, having changed nothing."""
    from kafka.clients.producer.internals import record_accumulator

    if record_accumulator.append_to_partition is None:
        pytest.skip("the optional _default_record_writer extension is not built")
    python, none = _appends_as_send_does(False)
    assert none == 0
    compiled, fast_appends = _appends_as_send_does(True)
    assert compiled == python
    assert 100 < fast_appends < 300


def test_append_to_partition_leaves_a_closed_accumulator_to_append() -> None:
    """On a closed accumulator append_to_partition appends nothing and answers None; append then raises."""
    from kafka.clients.producer import kafka_producer
    from kafka.clients.producer.internals import record_accumulator

    fast = record_accumulator.append_to_partition
    if fast is None:
        pytest.skip("the optional _default_record_writer extension is not built")
    time = MockTime(start_ms=1_000_000)
    cluster = metadata_snapshot(1, {TOPIC: 3}).cluster()
    acc = accumulator(time, batch_size=1024, linger_ms=2**31 - 1)
    callbacks = kafka_producer._new_append_callbacks(None, None, TOPIC, None)
    # No topic yet, then no deque for the partition: append's to make.
    assert fast(acc, TOPIC, 1, 0, None, VALUE, (), callbacks, 0, cluster) is None
    acc.append(TOPIC, 0, 0, None, VALUE, (), callbacks, MAX_BLOCK, False, 0, cluster)
    assert fast(acc, TOPIC, 1, 0, None, VALUE, (), callbacks, 0, cluster) is None
    result = fast(acc, TOPIC, 0, 0, None, VALUE, (), callbacks, 0, cluster)
    assert result is not None and result.future is not None and not result.new_batch_created
    dq = acc.get_deque(TP1)
    assert dq is not None and dq[-1].record_count == 2
    acc.close()
    assert fast(acc, TOPIC, 0, 0, None, VALUE, (), callbacks, 0, cluster) is None
    assert dq[-1].record_count == 2 and acc._appends_in_progress == []
    with pytest.raises(KafkaException, match="Producer closed while send in progress"):
        acc.append(TOPIC, 0, 0, None, VALUE, (), callbacks, MAX_BLOCK, False, 0, cluster)
