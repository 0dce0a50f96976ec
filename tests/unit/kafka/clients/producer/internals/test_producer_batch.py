"""Tests of ProducerBatch and FutureRecordMetadata, after clients/src/test/java/org/apache/kafka/clients/producer/
internals/ProducerBatchTest.java and FutureRecordMetadataTest.java (Kafka 3.7)."""

from __future__ import annotations

import re

import pytest

from kafka.clients.producer.callback import Callback, as_callback
from kafka.clients.producer.internals.producer_batch import FinalState, ProducerBatch
from kafka.clients.producer.record_metadata import RecordMetadata
from kafka.common.errors import KafkaException, RecordBatchTooLargeException, TimeoutException
from kafka.common.record.compression_type import CompressionType
from kafka.common.record.memory_records import MemoryRecords
from kafka.common.record.record_batch import MAGIC_VALUE_V1
from kafka.common.record.record_header import RecordHeader
from kafka.common.topic_partition import TopicPartition

TP = TopicPartition("topic", 1)
NOW = 1_000_000


def _batch(write_limit: int = 1 << 20, compression: CompressionType = CompressionType.NONE) -> ProducerBatch:
    return ProducerBatch(TP, MemoryRecords.builder(compression, write_limit=write_limit), NOW)


def test_complete_fires_callbacks_with_offsets() -> None:
    """Completing a batch gives every record base offset + its index, and its callback runs with the metadata."""
    batch = _batch()
    seen: list[RecordMetadata | None] = []
    futures = [
        batch.try_append(NOW + i, b"k", b"v%d" % i, (), as_callback(lambda md, e: seen.append(md)), NOW)
        for i in range(3)
    ]
    assert batch.complete(500, -1)
    assert [md.offset for md in seen if md is not None] == [500, 501, 502]
    assert [f.get(0).timestamp for f in futures if f is not None] == [NOW, NOW + 1, NOW + 2]
    assert batch.final_state() is FinalState.SUCCEEDED


def test_log_append_time_replaces_create_time() -> None:
    """A LogAppendTime answer gives every record the broker's time."""
    batch = _batch()
    future = batch.try_append(NOW, None, b"v", (), None, NOW)
    batch.complete(0, 42)
    assert future is not None and future.get(0).timestamp == 42


def test_abort_and_double_completion() -> None:
    """An aborted batch fails its records; completing it afterwards is ignored, aborting again is an error."""
    batch = _batch()
    future = batch.try_append(NOW, None, b"v", (), None, NOW)
    batch.abort(KafkaException("gone"))
    assert future is not None
    with pytest.raises(KafkaException, match="gone"):
        future.get(0)
    assert not batch.complete(0, -1)
    with pytest.raises(RuntimeError, match="Batch has already been completed in final state ABORTED"):
        batch.abort(KafkaException("again"))


def test_succeeded_batch_cannot_change_state() -> None:
    """A batch that succeeded refuses another final state."""
    batch = _batch()
    batch.try_append(NOW, None, b"v", (), None, NOW)
    batch.complete(0, -1)
    with pytest.raises(RuntimeError, match="A SUCCEEDED batch must not attempt another state change to FAILED"):
        batch.complete_exceptionally(KafkaException("x"), lambda i: KafkaException("x"))


def test_record_errors_by_index() -> None:
    """complete_exceptionally gives each record the error of its index."""
    batch = _batch()
    futures = [batch.try_append(NOW, None, b"v", (), None, NOW) for _ in range(2)]
    errors = {0: KafkaException("first"), 1: KafkaException("second")}
    assert batch.complete_exceptionally(KafkaException("top"), lambda i: errors[i])
    for i, future in enumerate(futures):
        assert future is not None
        with pytest.raises(KafkaException, match=["first", "second"][i]):
            future.get(0)


def test_failing_callback_does_not_stop_the_others() -> None:
    """An exception in one callback is logged and the following callbacks still run."""
    batch = _batch()
    ran: list[int] = []

    def bad(md: RecordMetadata | None, e: BaseException | None) -> None:
        raise ValueError("boom")

    batch.try_append(NOW, None, b"a", (), as_callback(bad), NOW)
    batch.try_append(NOW, None, b"b", (), as_callback(lambda md, e: ran.append(1)), NOW)
    batch.complete(0, -1)
    assert ran == [1]


def test_has_room_for_respects_the_write_limit() -> None:
    """A batch refuses a record once its write limit is reached (the first record always fits)."""
    batch = _batch(write_limit=200)
    assert batch.try_append(NOW, None, bytes(500), (), None, NOW) is not None
    assert batch.try_append(NOW, None, b"x", (), None, NOW) is None


def test_split_preserves_headers_keys_and_futures() -> None:
    """Split batches keep each record's key, value and headers, and the original futures follow them."""
    batch = _batch()
    headers = (RecordHeader("h", b"1"),)
    futures = [batch.try_append(NOW, b"k%d" % i, bytes(300), headers, None, NOW) for i in range(10)]
    pieces = batch.split(1024)
    assert len(pieces) > 1
    offset = 0
    keys: list[bytes | None] = []
    for piece in pieces:
        piece.close()
        for record in next(iter(piece.records().batches())):
            assert [(h.key(), h.value()) for h in record.headers()] == [("h", b"1")]
            assert record.value() == bytes(300)
            keys.append(record.key())
        piece.complete(offset, -1)
        offset += piece.record_count
    assert keys == [b"k%d" % i for i in range(10)]
    assert [f.get(0).offset for f in futures if f is not None] == list(range(10))
    assert isinstance(batch.produce_future.error(0), RecordBatchTooLargeException)


def test_split_batches_run_each_callback_once_with_the_new_offsets() -> None:
    """After a split every record's callback moves with it: completing the pieces runs each once, in record order,
    with the record's offset in its new batch, and failing a piece fails exactly its records."""
    batch = _batch()
    seen: list[tuple[int, int | None, str | None]] = []

    def callback(i: int) -> Callback | None:
        return as_callback(lambda md, e: seen.append((i, None if md is None else md.offset, e and str(e))))

    futures = [batch.try_append(NOW, None, bytes(300), (), callback(i), NOW) for i in range(8)]
    pieces = list(batch.split(1024))
    assert len(pieces) > 2
    for n, piece in enumerate(pieces[:-1]):
        piece.complete(100 * (n + 1), -1)
    last = pieces[-1]
    last.complete_exceptionally(KafkaException("lost"), lambda _i: KafkaException("lost"))
    completed = sum(p.record_count for p in pieces[:-1])
    assert [i for i, _, _ in seen] == list(range(8))
    assert all(error is None for _, _, error in seen[:completed])
    assert [(offset, error) for _, offset, error in seen[completed:]] == [(None, "lost")] * last.record_count
    expected = [100 * (n + 1) + j for n, piece in enumerate(pieces[:-1]) for j in range(piece.record_count)]
    assert [offset for _, offset, _ in seen[:completed]] == expected
    assert [f.get(0).offset for f in futures[:completed] if f is not None] == expected


def test_split_refuses_uncompressed_legacy_batches() -> None:
    """Magic v0/v1 batches can only be split when compressed."""
    batch = ProducerBatch(TP, MemoryRecords.builder(magic=MAGIC_VALUE_V1), NOW)
    batch.try_append(NOW, None, b"v", (), None, NOW)
    with pytest.raises(ValueError, match="Batch splitting cannot be used with non-compressed messages"):
        batch.split(1024)


def test_delivery_timeout_and_retry_timing() -> None:
    """Delivery timeout counts from creation; a re-enqueue counts an attempt and restarts the waited time."""
    batch = _batch()
    assert not batch.has_reached_delivery_timeout(100, NOW + 99)
    assert batch.has_reached_delivery_timeout(100, NOW + 100)
    batch.reenqueued(NOW + 50)
    assert batch.attempts() == 1 and batch.in_retry()
    assert batch.waited_time_ms(NOW + 70) == 20


def test_future_get_timeout() -> None:
    """get(timeout_ms) on an incomplete future raises TimeoutException with Java's message."""
    batch = _batch()
    future = batch.try_append(NOW, None, b"v", (), None, NOW)
    assert future is not None and not future.is_done()
    with pytest.raises(TimeoutException, match=re.escape("Timeout after waiting for 10 ms.")):
        future.get(10)
    batch.complete(3, -1)
    assert future.done() and future.result(0).offset == 3 and future.exception(0) is None
