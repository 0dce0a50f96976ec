"""Tests of append_to_batch, the accumulator's append to a partition's open batch, and of the loop that fires a
successful batch's callbacks: the compiled ones (in the optional extension `_default_record_writer`) must leave the
batch, its builder, its bytes, its futures and what the callbacks get exactly as the Python ones
(ProducerBatch.try_append, _complete_future_and_fire_callbacks) do. Every test runs with both."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from kafka.clients.producer.callback import as_callback
from kafka.clients.producer.internals import producer_batch
from kafka.clients.producer.internals.future_record_metadata import FutureRecordMetadata
from kafka.clients.producer.internals.producer_batch import ProducerBatch
from kafka.clients.producer.record_metadata import RecordMetadata
from kafka.common.errors import KafkaException
from kafka.common.record.compression_type import CompressionType
from kafka.common.record.memory_records import MemoryRecords
from kafka.common.record.record_batch import MAGIC_VALUE_V1, NO_TIMESTAMP
from kafka.common.record.record_header import Header, RecordHeader
from kafka.common.topic_partition import TopicPartition

TP = TopicPartition("topic", 2)
NOW = 1_700_000_000_000
Append = Callable[..., tuple[FutureRecordMetadata, bool] | None]
Record = tuple[int, bytes | None, bytes | None, tuple[Header, ...]]

_PYTHON: Append = producer_batch._append_to_batch_python
_COMPILED: Append | None = None if producer_batch.append_to_batch is _PYTHON else producer_batch.append_to_batch


@pytest.fixture(params=["compiled", "python"])
def append(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Append:
    """The append under test: the compiled one (skipped where the extension is not built), with the compiled loop
    over a successful batch's callbacks, or Python's for both."""
    if request.param == "compiled":
        if _COMPILED is None:
            pytest.skip("the optional _default_record_writer extension is not built")
        return _COMPILED
    monkeypatch.setattr(producer_batch, "_fire_callbacks", None)
    return _PYTHON


def _batch(
    write_limit: int = 1 << 20, compression: CompressionType = CompressionType.NONE, magic: int = 2
) -> ProducerBatch:
    return ProducerBatch(TP, MemoryRecords.builder(compression, write_limit=write_limit, magic=magic), NOW)


def _records(seed: int, count: int, headers: bool = True) -> list[Record]:
    """Null, empty and long keys and values, some headers, timestamps before the first one and far after it."""
    rng = random.Random(seed)
    records: list[Record] = []
    for i in range(count):
        key = rng.choice([None, b"", b"k%d" % i, rng.randbytes(rng.randrange(100, 300))])
        value = rng.choice([None, b"", rng.randbytes(rng.randrange(1, 200)), rng.randbytes(rng.randrange(2000, 9000))])
        record_headers: tuple[Header, ...] = ()
        if headers and rng.random() < 0.2:
            record_headers = (RecordHeader("h", rng.choice([None, b"x"])),)
        timestamp = NOW + rng.choice([0, i, -5, 10_000 + i, 2**40])
        records.append((timestamp, key, value, record_headers))
    return records


def _state(batch: ProducerBatch) -> dict[str, Any]:
    """Everything append_to_batch may change, read through the objects' own attributes."""
    builder: Any = batch._records_builder
    return {
        "record_count": batch.record_count,
        "last_appended_bytes": batch.last_appended_bytes,
        "last_append_time": batch._last_append_time,
        "num_records": builder.num_records(),
        "estimated_size": builder.estimated_size_in_bytes(),
        "is_full": batch.is_full(),
        "last_offset": builder._last_offset,
        "max_timestamp": builder._max_timestamp,
        "offset_of_max_timestamp": builder._offset_of_max_timestamp,
        "bytes": bytes(builder._out),
    }


def _fill(append: Append, batch: ProducerBatch, records: list[Record], seen: list[Any]) -> list[Any]:
    """Appends every record that fits (closing nothing); each outcome, with the batch's state after it."""
    outcomes: list[Any] = []
    for i, (timestamp, key, value, headers) in enumerate(records):
        callback = as_callback(lambda md, e, i=i: seen.append((i, md, e)))
        appended = append(batch, timestamp, key, value, headers, callback, NOW + i)
        if appended is None:
            outcomes.append(None)
        else:
            future, full = appended
            assert type(future) is FutureRecordMetadata
            assert full == batch.is_full()
            outcomes.append((future, full))
        outcomes.append(_state(batch))
    return outcomes


def _fields(md: RecordMetadata | None) -> tuple[Any, ...]:
    assert md is not None
    return (
        TopicPartition(md.topic, md.partition),
        md.offset,
        md.timestamp,
        md.serialized_key_size,
        md.serialized_value_size,
    )


def _same(a: list[Any], b: list[Any]) -> None:
    assert len(a) == len(b)
    for x, y in zip(a, b, strict=True):
        if isinstance(x, tuple):
            assert isinstance(y, tuple) and x[1] == y[1]
        else:
            assert x == y


@pytest.mark.parametrize("write_limit", [1 << 20, 30_000, 3_000])
@pytest.mark.parametrize("with_headers", [False, True])
def test_same_batch_as_try_append(append: Append, write_limit: int, with_headers: bool) -> None:
    """Record by record, the outcome (room or not, full or not), the builder's counters and bytes and the batch's
    bookkeeping are those of ProducerBatch.try_append; the built batches are byte-identical."""
    records = _records(seed=write_limit, count=120, headers=with_headers)
    expected_batch, batch = _batch(write_limit), _batch(write_limit)
    expected = _fill(_PYTHON, expected_batch, records, [])
    got = _fill(append, batch, records, [])
    _same(got, expected)
    assert any(outcome is None for outcome in got) == (write_limit < 1 << 20)
    batch.close()
    expected_batch.close()
    assert bytes(batch.records().buffer()) == bytes(expected_batch.records().buffer())


def test_appends_switching_between_batches(append: Append) -> None:
    """Appends that go back and forth between open batches, to batches closed meanwhile and to new batches made after
    others were dropped (the compiled append remembers the batch it appended to last) leave every batch as
    try_append does, record by record and byte for byte."""
    import gc

    records = _records(seed=17, count=240, headers=False)
    rng = random.Random(3)
    plan = [rng.randrange(3) for _ in records]
    results: list[list[Any]] = []
    for fn in (_PYTHON, append):
        batches = [_batch(30_000), _batch(30_000), _batch(30_000)]
        outcomes: list[Any] = []
        built: list[bytes] = []
        for i, ((timestamp, key, value, headers), which) in enumerate(zip(records, plan, strict=True)):
            if i % 50 == 49:
                # One batch closed (no more appends), then dropped for a new one.
                batches[which].close()
                outcomes.append(fn(batches[which], timestamp, key, value, headers, None, NOW + i))
                built.append(bytes(batches[which].records().buffer()))
                batches[which] = _batch(30_000)
                gc.collect()
            appended = fn(batches[which], timestamp, key, value, headers, None, NOW + i)
            outcomes.append(None if appended is None else (appended[0]._batch_index, appended[1]))
            outcomes.append(_state(batches[which]))
        for batch in batches:
            batch.close()
            built.append(bytes(batch.records().buffer()))
        results.append([outcomes, built])
    assert results[0] == results[1]


def test_futures_and_callbacks_after_completion(append: Append) -> None:
    """The futures made by the append give the same RecordMetadata as try_append's, and the callbacks run in order."""
    records: list[Record] = [(NOW + i, None if i % 3 else b"key", b"v" * (i % 7), ()) for i in range(50)]
    results = []
    for fn in (_PYTHON, append):
        seen: list[Any] = []
        batch = _batch()
        outcomes = _fill(fn, batch, records, seen)
        futures = [o[0] for o in outcomes if isinstance(o, tuple)]
        assert not any(f.is_done() for f in futures)
        assert batch.complete(1000, NO_TIMESTAMP)
        metadata = [_fields(f.get(0)) for f in futures]
        assert [(i, _fields(md)) for i, md, _ in seen] == list(enumerate(metadata))
        results.append(metadata)
    assert results[0] == results[1]
    assert results[1][1] == (TP, 1001, NOW + 1, -1, 1)
    assert results[1][0] == (TP, 1000, NOW, 3, 0)


def test_failed_batch_fails_every_future(append: Append) -> None:
    batch = _batch()
    seen: list[Any] = []
    outcomes = _fill(append, batch, [(NOW, None, b"v", ())] * 5, seen)
    batch.abort(KafkaException("gone"))
    for outcome in outcomes:
        if isinstance(outcome, tuple):
            with pytest.raises(KafkaException, match="gone"):
                outcome[0].get(0)
    assert [type(e) for _, md, e in seen] == [KafkaException] * 5


@pytest.mark.parametrize("compression", [CompressionType.GZIP, CompressionType.NONE])
def test_other_batches_go_the_python_way(append: Append, compression: CompressionType) -> None:
    """Compressed and v1 batches, and a batch's first record, take try_append's path with the same outcome."""
    records = _records(seed=5, count=40, headers=False)
    for magic in (MAGIC_VALUE_V1, 2):
        expected_batch, batch = _batch(20_000, compression, magic), _batch(20_000, compression, magic)
        _same(_fill(append, batch, records, []), _fill(_PYTHON, expected_batch, records, []))


def test_split_keeps_the_futures_made_by_the_append(append: Append) -> None:
    """A batch filled by the append splits (after MESSAGE_TOO_LARGE) with its futures chained to the new batches."""
    batch = ProducerBatch(TP, MemoryRecords.builder(CompressionType.GZIP, write_limit=1 << 20), NOW)
    seen: list[RecordMetadata | None] = []
    futures = []
    for i in range(30):
        appended = append(batch, NOW + i, None, b"%05d" % i * 100, (), as_callback(lambda md, e: seen.append(md)), NOW)
        assert appended is not None
        futures.append(appended[0])
    batch.close()
    parts = list(batch.split(2_000))
    assert len(parts) > 1
    offset = 0
    for part in parts:
        part.close()
        part.complete(offset, NO_TIMESTAMP)
        offset += part.record_count
    assert [f.get(0).offset for f in futures] == list(range(30))


def test_record_at_an_out_of_range_offset_delta_is_refused_as_by_the_builder(append: Append) -> None:
    """Offsets past an int's range from the base offset are the builder's error, whichever append runs."""
    batch = _batch()
    assert append(batch, NOW, None, b"v", (), None, NOW) is not None
    builder: Any = batch._records_builder
    builder._last_offset = 2**31 - 1
    with pytest.raises(Exception, match="offset"):
        append(batch, NOW, None, b"v", (), None, NOW)


@pytest.mark.parametrize("log_append_time", [NO_TIMESTAMP, 1_234])
def test_callbacks_get_the_metadata_in_order_and_errors_are_logged(
    append: Append, log_append_time: int, caplog: pytest.LogCaptureFixture
) -> None:
    """Each callback runs once, in order, with the record's offset and timestamp (the broker's with LogAppendTime);
    one that raises is logged and the others still run; records without a callback are skipped."""
    batch = _batch()
    seen: list[tuple[int, tuple[Any, ...]]] = []

    def callback(i: int) -> Any:
        def on_completion(md: RecordMetadata | None, e: BaseException | None) -> None:
            assert e is None
            seen.append((i, _fields(md)))
            if i == 2:
                raise ValueError("callback failed")

        return as_callback(on_completion)

    for i in range(6):
        assert append(batch, NOW + i, b"k", b"v" * i, (), None if i == 4 else callback(i), NOW) is not None
    with caplog.at_level("ERROR"):
        assert batch.complete(70, log_append_time)
    expected_time = [NOW + i if log_append_time == NO_TIMESTAMP else log_append_time for i in range(6)]
    assert seen == [(i, (TP, 70 + i, expected_time[i], 1, i)) for i in (0, 1, 2, 3, 5)]
    assert "Error executing user-provided callback on message for topic-partition 'topic-2'" in caplog.text
    assert batch.produce_future.completed()


def test_a_base_exception_from_a_callback_stops_the_loop(append: Append) -> None:
    """Only an Exception is logged: anything else (KeyboardInterrupt) leaves the loop, as in the Python one."""
    batch = _batch()
    seen: list[int] = []

    def on_completion(md: RecordMetadata | None, e: BaseException | None) -> None:
        seen.append(1)
        raise KeyboardInterrupt

    for i in range(3):
        append(batch, NOW + i, None, b"v", (), as_callback(on_completion), NOW)
    with pytest.raises(KeyboardInterrupt):
        batch.complete(0, NO_TIMESTAMP)
    assert seen == [1]


def test_append_callbacks_reach_the_user_callback_and_the_interceptors(append: Append) -> None:
    """KafkaProducer's AppendCallbacks: the user's callback gets each record's metadata, with or without
    interceptors (which hear of the acknowledgement first); one without a user callback is skipped."""
    from kafka.clients.producer.kafka_producer import _AppendCallbacks
    from kafka.clients.producer.producer_record import ProducerRecord

    heard: list[tuple[str, int]] = []

    class Interceptors:
        def on_acknowledgement(self, md: RecordMetadata | None, e: BaseException | None) -> None:
            assert md is not None and e is None
            heard.append(("interceptor", md.offset))

    def user(md: RecordMetadata | None, e: BaseException | None) -> None:
        assert md is not None and e is None
        heard.append(("user", md.offset))

    batch = _batch()
    record: ProducerRecord[bytes, bytes] = ProducerRecord("topic", b"v")
    shapes: list[tuple[Any, Any]] = [(user, None), (None, None), (user, Interceptors()), (None, Interceptors())]
    for i, (user_callback, interceptors) in enumerate(shapes):
        callbacks = _AppendCallbacks(as_callback(user_callback), interceptors, record.topic, record.partition)
        callbacks.set_partition(TP.partition)
        assert append(batch, NOW + i, None, b"v", (), callbacks, NOW) is not None
    assert batch.complete(10, NO_TIMESTAMP)
    assert heard == [("user", 10), ("interceptor", 12), ("user", 12), ("interceptor", 13)]


def test_new_append_callbacks_makes_what_the_constructor_makes() -> None:
    """KafkaProducer's per-record AppendCallbacks: the compiled module's new_append_callbacks (used when it is built)
    sets the same six slots as the class's constructor, and the instance then behaves the same (the partition set by
    the accumulator, the TopicPartition for error metadata, the completion reaching the user's callback)."""
    from kafka.clients.producer import kafka_producer
    from kafka.clients.producer.kafka_producer import _AppendCallbacks

    if _COMPILED is None:
        assert kafka_producer._new_append_callbacks is _AppendCallbacks
        pytest.skip("the optional _default_record_writer extension is not built")
    make = kafka_producer._new_append_callbacks
    assert make is not _AppendCallbacks
    slots = ("_interceptors", "_user_callback", "_topic", "_record_partition", "_partition", "_topic_partition")
    heard: list[tuple[RecordMetadata | None, BaseException | None]] = []
    user = as_callback(lambda md, e: heard.append((md, e)))
    interceptors = object()
    for args in [(user, None, "topic", None), (None, interceptors, "topic", 1), (user, None, None, None)]:
        made, constructed = make(*args), _AppendCallbacks(*args)  # type: ignore[arg-type]
        assert type(made) is _AppendCallbacks
        assert [getattr(made, s) for s in slots] == [getattr(constructed, s) for s in slots]
        assert made.topic_partition() == constructed.topic_partition()
    made = make(user, None, "topic", None)
    made.set_partition(2)
    assert made.get_partition() == 2 and made.topic_partition() == TP
    error = KafkaException("boom")
    made.on_completion(None, error)
    [(md, e)] = heard
    assert e is error and md is not None
    assert (md.topic, md.partition, md.has_offset(), md.has_timestamp()) == ("topic", 2, False, False)


def test_append_to_last_batch_answers_as_the_python_function() -> None:
    """The accumulator's append to a partition's last batch: the compiled append_to_last_batch (used when the module
    is built) leaves the batches as the Python function does and answers the same RecordAppendResult (whether the
    deque has more than one batch or the last is full, the bytes appended), or None when the record does not fit."""
    from collections import deque

    from kafka.clients.producer.internals import record_accumulator
    from kafka.clients.producer.internals.record_accumulator import RecordAppendResult

    python = record_accumulator._append_to_last_batch_python
    if _COMPILED is None:
        assert record_accumulator._append_to_last_batch is python
        pytest.skip("the optional _default_record_writer extension is not built")
    compiled = record_accumulator._append_to_last_batch
    assert compiled is not python
    answers: list[list[Any]] = []
    for append_to_last in (compiled, python):
        seen: list[Any] = []
        dqs = [deque([_batch(write_limit=600)]), deque([_batch(), _batch(write_limit=600)])]
        answer: list[Any] = []
        for dq in dqs:
            for i, (timestamp, key, value, headers) in enumerate(_records(7, 30, headers=False)):
                callback = as_callback(lambda md, e, i=i, seen=seen: seen.append((i, md, e)))
                result = append_to_last(dq, timestamp, key, value, headers, callback, NOW + i)
                if result is None:
                    answer.append(None)
                    continue
                assert type(result) is RecordAppendResult and type(result.future) is FutureRecordMetadata
                answer.append(
                    (result.batch_is_full, result.new_batch_created, result.abort_for_new_batch, result.appended_bytes)
                )
                answer.append(_state(dq[-1]))
            assert dq[-1].complete(5, NO_TIMESTAMP)
        answer.append([(i, _fields(md), e) for i, md, e in seen])
        answers.append(answer)
    assert answers[0] == answers[1]
    assert None in answers[0] and (False, False, False, 0) not in answers[0]
