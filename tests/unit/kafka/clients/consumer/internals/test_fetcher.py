"""Tests of the Fetcher with a MockClient (after Java's FetcherTest): fetch requests and sessions, record
parsing for every codec and message format, control records, read_committed and aborted transactions,
max.poll.records, pause, errors and deserialization failures."""

from __future__ import annotations

import struct
from collections.abc import Iterator
from typing import Any

import crc32c
import pytest

from kafka.clients.api_versions import ApiVersions
from kafka.clients.consumer.internals.consumer_metadata import ConsumerMetadata
from kafka.clients.consumer.internals.consumer_network_client import ConsumerNetworkClient
from kafka.clients.consumer.internals.deserializers import Deserializers
from kafka.clients.consumer.internals.fetch_config import FetchConfig
from kafka.clients.consumer.internals.fetcher import Fetcher
from kafka.clients.consumer.internals.offset_fetcher import OffsetFetcher
from kafka.clients.consumer.internals.subscription_state import SubscriptionState
from kafka.clients.consumer.offset_out_of_range_exception import OffsetOutOfRangeException
from kafka.clients.consumer.offset_reset_strategy import OffsetResetStrategy
from kafka.common.errors import KafkaException, RecordDeserializationException, TopicAuthorizationException
from kafka.common.internals.cluster_resource_listeners import ClusterResourceListeners
from kafka.common.isolation_level import IsolationLevel
from kafka.common.message import FetchResponseData
from kafka.common.protocol.errors import Errors
from kafka.common.protocol.types import ZERO_UUID
from kafka.common.record.compression_type import CompressionType
from kafka.common.record.control_record_type import ControlRecordType
from kafka.common.record.end_transaction_marker import EndTransactionMarker
from kafka.common.record.memory_records import MemoryRecords
from kafka.common.record.record_header import RecordHeader
from kafka.common.record.simple_record import SimpleRecord
from kafka.common.record.timestamp_type import TimestampType
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.fetch_metadata import INVALID_SESSION_ID
from kafka.common.requests.fetch_request import FetchRequest
from kafka.common.requests.fetch_response import FetchResponse
from kafka.common.serialization.byte_array_deserializer import ByteArrayDeserializer
from kafka.common.serialization.deserializer import Buffer, Deserializer
from kafka.common.serialization.string_deserializer import StringDeserializer
from kafka.common.topic_id_partition import TopicIdPartition
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.log_context import LogContext
from kafka.common.utils.time import MockTime
from tests.unit.kafka.clients.mock_client import MockClient
from tests.unit.kafka.common.requests.request_test_utils import metadata_update_with

TOPIC = "test"
TP0 = TopicPartition(TOPIC, 0)
TP1 = TopicPartition(TOPIC, 1)


class _Env:
    def __init__(
        self,
        isolation_level: IsolationLevel = IsolationLevel.READ_UNCOMMITTED,
        max_poll_records: int = 500,
        reset: OffsetResetStrategy = OffsetResetStrategy.EARLIEST,
        deserializers: Deserializers[Any, Any] | None = None,
    ) -> None:
        self.time = MockTime(1)
        self.subscriptions = SubscriptionState(LogContext(), reset)
        self.metadata = ConsumerMetadata(
            100, 1000, 300000, False, False, self.subscriptions, LogContext(), ClusterResourceListeners()
        )
        self.client = MockClient(self.time, self.metadata)
        self.consumer_client = ConsumerNetworkClient(
            LogContext(), self.client, self.metadata, self.time, 100, 1000, 2**31 - 1
        )
        config = FetchConfig(1, 2**31 - 1, 100, 1024 * 1024, max_poll_records, True, "", isolation_level)
        self.api_versions = ApiVersions()
        self.offset_fetcher = OffsetFetcher(
            LogContext(),
            self.consumer_client,
            self.metadata,
            self.subscriptions,
            self.time,
            100,
            1000,
            isolation_level,
            self.api_versions,
        )
        self.fetcher: Fetcher[Any, Any] = Fetcher(
            LogContext(),
            self.consumer_client,
            self.metadata,
            self.subscriptions,
            config,
            deserializers or Deserializers(StringDeserializer(), StringDeserializer()),
            self.time,
            self.api_versions,
        )

    def update_metadata(self) -> None:
        # After assigning: the consumer's metadata keeps only the topics it needs.
        self.client.update_metadata(metadata_update_with(1, {TOPIC: 4}))

    def assign_and_seek(self, tp: TopicPartition, offset: int) -> None:
        self.subscriptions.assign_from_user({tp})
        self.update_metadata()
        self.subscriptions.seek(tp, offset)

    def send_fetches(self) -> int:
        """As KafkaConsumer does: positions take the current leader from metadata first."""
        self.offset_fetcher.validate_positions_on_metadata_change()
        return self.fetcher.send_fetches()

    def fetch(self, response: FetchResponse) -> dict[TopicPartition, list[Any]]:
        """Sends fetches, answers with `response`, and collects."""
        assert self.send_fetches() == 1
        self.client.prepare_response(response)
        self.consumer_client.poll(self.time.timer(0))
        return self.fetcher.collect_fetch().records()

    def close(self) -> None:
        self.fetcher.close(self.time.timer(0))
        self.consumer_client.close()


def _offset(env: _Env, tp: TopicPartition) -> int:
    position = env.subscriptions.position(tp)
    assert position is not None
    return position.offset


@pytest.fixture
def env() -> Iterator[_Env]:
    e = _Env()
    yield e
    e.close()


def _partition_data(
    records: MemoryRecords | None,
    error: Errors = Errors.NONE,
    hw: int = 100,
    last_stable_offset: int = -1,
    log_start_offset: int = 0,
    aborted: list[tuple[int, int]] | None = None,
) -> Any:
    data = FetchResponseData.PartitionData(
        error_code=error.code,
        high_watermark=hw,
        last_stable_offset=last_stable_offset,
        log_start_offset=log_start_offset,
        records=records,
    )
    if aborted is not None:
        data.aborted_transactions = [
            FetchResponseData.AbortedTransaction(producer_id=pid, first_offset=first) for pid, first in aborted
        ]
    return data


def _response(tp: TopicPartition, data: Any, session_id: int = INVALID_SESSION_ID) -> FetchResponse:
    return FetchResponse.of(Errors.NONE, 0, session_id, {TopicIdPartition(ZERO_UUID, tp): data})


def _records(compression: CompressionType = CompressionType.NONE, base: int = 0, n: int = 3, magic: int = 2) -> Any:
    return MemoryRecords.with_records(
        compression,
        *[
            SimpleRecord(
                1000 + i, f"key-{i}".encode(), f"value-{i}".encode(), [RecordHeader("h", b"x")] if magic >= 2 else []
            )
            for i in range(n)
        ],
        initial_offset=base,
        magic=magic,
    )


@pytest.mark.parametrize("compression", list(CompressionType.values()), ids=lambda c: c.name)
def test_fetch_normal_every_codec(env: _Env, compression: CompressionType) -> None:
    """Records of every codec come back in order with keys, values, timestamps, headers and sizes; the position
    and high watermark move."""
    env.assign_and_seek(TP0, 0)
    records = env.fetch(_response(TP0, _partition_data(_records(compression), hw=3)))[TP0]
    assert [(r.offset, r.key, r.value) for r in records] == [
        (0, "key-0", "value-0"),
        (1, "key-1", "value-1"),
        (2, "key-2", "value-2"),
    ]
    assert [r.timestamp for r in records] == [1000, 1001, 1002]
    assert records[0].timestamp_type is TimestampType.CREATE_TIME
    assert records[0].serialized_key_size == 5 and records[0].serialized_value_size == 7
    assert [(h.key(), h.value()) for h in records[0].headers] == [("h", b"x")]
    assert _offset(env, TP0) == 3
    assert env.subscriptions.partition_lag(TP0, IsolationLevel.READ_UNCOMMITTED) == 0


@pytest.mark.parametrize("magic", [0, 1])
@pytest.mark.parametrize("compression", [CompressionType.NONE, CompressionType.GZIP], ids=lambda c: c.name)
def test_fetch_old_message_formats(env: _Env, magic: int, compression: CompressionType) -> None:
    """Message format v0 and v1 records (plain and compressed wrappers) are read too; v0 has no timestamps."""
    env.assign_and_seek(TP0, 0)
    records = env.fetch(_response(TP0, _partition_data(_records(compression, magic=magic))))[TP0]
    assert [r.value for r in records] == ["value-0", "value-1", "value-2"]
    assert [r.offset for r in records] == [0, 1, 2]
    if magic == 0:
        assert records[0].timestamp == -1
        assert records[0].timestamp_type is TimestampType.NO_TIMESTAMP_TYPE
    else:
        assert records[0].timestamp == 1000


def test_fetch_skips_records_before_position(env: _Env) -> None:
    """A batch starting before the fetch offset gives only the records from the offset on."""
    env.assign_and_seek(TP0, 1)
    records = env.fetch(_response(TP0, _partition_data(_records())))[TP0]
    assert [r.offset for r in records] == [1, 2]


def test_null_key_and_value(env: _Env) -> None:
    """Null keys and values stay None, with size -1."""
    env.assign_and_seek(TP0, 0)
    mr = MemoryRecords.with_records(CompressionType.NONE, SimpleRecord(5, None, None))
    (record,) = env.fetch(_response(TP0, _partition_data(mr)))[TP0]
    assert record.key is None and record.value is None
    assert record.serialized_key_size == -1 and record.serialized_value_size == -1


def test_fetch_max_poll_records() -> None:
    """At most max.poll.records are returned per collect; the rest stay buffered."""
    e = _Env(max_poll_records=2)
    try:
        e.assign_and_seek(TP0, 0)
        first = e.fetch(_response(TP0, _partition_data(_records(n=5))))[TP0]
        assert [r.offset for r in first] == [0, 1]
        assert [r.offset for r in e.fetcher.collect_fetch().records()[TP0]] == [2, 3]
        assert [r.offset for r in e.fetcher.collect_fetch().records()[TP0]] == [4]
        assert _offset(e, TP0) == 5
    finally:
        e.close()


def test_no_fetch_while_data_buffered(env: _Env) -> None:
    """A partition with buffered data is not fetched again; nor a node with a fetch in flight."""
    env.assign_and_seek(TP0, 0)
    assert env.send_fetches() == 1
    assert env.send_fetches() == 0
    env.client.prepare_response(_response(TP0, _partition_data(_records())))
    env.consumer_client.poll(env.time.timer(0))
    assert env.send_fetches() == 0
    assert len(env.fetcher.collect_fetch().records()[TP0]) == 3
    assert env.send_fetches() == 1


def test_paused_partition_keeps_fetched_data(env: _Env) -> None:
    """Data of a paused partition is held back and returned after resume."""
    env.assign_and_seek(TP0, 0)
    assert env.send_fetches() == 1
    env.subscriptions.pause(TP0)
    env.client.prepare_response(_response(TP0, _partition_data(_records())))
    env.consumer_client.poll(env.time.timer(0))
    assert env.fetcher.collect_fetch().records() == {}
    env.subscriptions.resume(TP0)
    assert len(env.fetcher.collect_fetch().records()[TP0]) == 3


def _transactional(pid: int, base: int, values: list[str], compression: CompressionType = CompressionType.NONE) -> Any:
    return MemoryRecords.with_transactional_records(
        compression, pid, 0, 0, *[SimpleRecord(1, None, v.encode()) for v in values], initial_offset=base
    )


def _marker(pid: int, offset: int, commit: bool) -> Any:
    control = ControlRecordType.COMMIT if commit else ControlRecordType.ABORT
    return MemoryRecords.with_end_transaction_marker(pid, 0, EndTransactionMarker(control, 0), offset, 1)


def _concat(*parts: Any) -> MemoryRecords:
    return MemoryRecords.readable_records(b"".join(bytes(p.buffer()) for p in parts))


@pytest.mark.parametrize("compression", list(CompressionType.values()), ids=lambda c: c.name)
def test_read_committed_skips_aborted_transactions(compression: CompressionType) -> None:
    """With read_committed, an aborted transaction's batch (from the aborted list) and every control record are
    skipped; a committed transaction's records come back; the position passes the markers."""
    e = _Env(IsolationLevel.READ_COMMITTED)
    try:
        e.assign_and_seek(TP0, 0)
        data = _concat(
            _transactional(1, 0, ["aborted-1", "aborted-2"], compression),
            _transactional(2, 2, ["committed-1"], compression),
            _marker(1, 3, commit=False),
            _marker(2, 4, commit=True),
        )
        records = e.fetch(_response(TP0, _partition_data(data, hw=5, last_stable_offset=5, aborted=[(1, 0)])))[TP0]
        assert [(r.offset, r.value) for r in records] == [(2, "committed-1")]
        assert _offset(e, TP0) == 5
        assert e.subscriptions.partition_lag(TP0, IsolationLevel.READ_COMMITTED) == 0
    finally:
        e.close()


def test_read_uncommitted_returns_aborted_records_but_no_control_records(env: _Env) -> None:
    """With read_uncommitted, aborted records come back too; control records never do."""
    env.assign_and_seek(TP0, 0)
    data = _concat(_transactional(1, 0, ["a", "b"]), _marker(1, 2, commit=False), _transactional(2, 3, ["c"]))
    records = env.fetch(_response(TP0, _partition_data(data, aborted=[(1, 0)])))[TP0]
    assert [(r.offset, r.value) for r in records] == [(0, "a"), (1, "b"), (3, "c")]


def test_read_committed_only_markers_advance_position() -> None:
    """A fetch holding only an aborted transaction and its marker returns no records but moves the position (the
    poll still returns)."""
    e = _Env(IsolationLevel.READ_COMMITTED)
    try:
        e.assign_and_seek(TP0, 0)
        data = _concat(_transactional(1, 0, ["x"]), _marker(1, 1, commit=False))
        assert e.send_fetches() == 1
        e.client.prepare_response(_response(TP0, _partition_data(data, aborted=[(1, 0)])))
        e.consumer_client.poll(e.time.timer(0))
        fetch = e.fetcher.collect_fetch()
        assert fetch.records() == {}
        assert fetch.position_advanced()
        assert _offset(e, TP0) == 2
    finally:
        e.close()


def test_read_committed_aborted_transaction_across_batches() -> None:
    """Several batches of one aborted transaction are all skipped, and a later transaction of the same producer
    (after its ABORT marker) is returned."""
    e = _Env(IsolationLevel.READ_COMMITTED)
    try:
        e.assign_and_seek(TP0, 0)
        data = _concat(
            _transactional(1, 0, ["a1"]),
            _transactional(1, 1, ["a2"]),
            _marker(1, 2, commit=False),
            _transactional(1, 3, ["c1"]),
            _marker(1, 4, commit=True),
        )
        records = e.fetch(_response(TP0, _partition_data(data, aborted=[(1, 0)])))[TP0]
        assert [r.value for r in records] == ["c1"]
    finally:
        e.close()


def test_offset_out_of_range_resets(env: _Env) -> None:
    """OFFSET_OUT_OF_RANGE with a reset policy asks for a reset."""
    env.assign_and_seek(TP0, 0)
    assert env.fetch(_response(TP0, _partition_data(None, Errors.OFFSET_OUT_OF_RANGE))) == {}
    assert env.subscriptions.is_offset_reset_needed(TP0)


def test_offset_out_of_range_without_reset_policy_raises() -> None:
    """OFFSET_OUT_OF_RANGE without a reset policy raises OffsetOutOfRangeException with the position."""
    e = _Env(reset=OffsetResetStrategy.NONE)
    try:
        e.assign_and_seek(TP0, 7)
        assert e.send_fetches() == 1
        e.client.prepare_response(_response(TP0, _partition_data(None, Errors.OFFSET_OUT_OF_RANGE)))
        e.consumer_client.poll(e.time.timer(0))
        with pytest.raises(OffsetOutOfRangeException) as err:
            e.fetcher.collect_fetch()
        assert err.value.offset_out_of_range_partitions() == {TP0: 7}
    finally:
        e.close()


def test_unauthorized_topic_raises(env: _Env) -> None:
    """TOPIC_AUTHORIZATION_FAILED raises TopicAuthorizationException naming the topic."""
    env.assign_and_seek(TP0, 0)
    assert env.send_fetches() == 1
    env.client.prepare_response(_response(TP0, _partition_data(None, Errors.TOPIC_AUTHORIZATION_FAILED)))
    env.consumer_client.poll(env.time.timer(0))
    with pytest.raises(TopicAuthorizationException) as err:
        env.fetcher.collect_fetch()
    assert TOPIC in str(err.value)


def test_not_leader_requests_metadata_update(env: _Env) -> None:
    """NOT_LEADER_OR_FOLLOWER asks for a metadata update and returns nothing."""
    env.assign_and_seek(TP0, 0)
    assert not env.metadata.update_requested()
    assert env.fetch(_response(TP0, _partition_data(None, Errors.NOT_LEADER_OR_FOLLOWER))) == {}
    assert env.metadata.update_requested()


def test_stale_response_is_discarded(env: _Env) -> None:
    """A response for an offset that is no longer the position is dropped."""
    env.assign_and_seek(TP0, 0)
    assert env.send_fetches() == 1
    env.subscriptions.seek(TP0, 10)
    env.client.prepare_response(_response(TP0, _partition_data(_records())))
    env.consumer_client.poll(env.time.timer(0))
    assert env.fetcher.collect_fetch().records() == {}
    assert _offset(env, TP0) == 10


class _FailingDeserializer(Deserializer[str]):
    def deserialize(self, topic: str, data: Buffer | None) -> str | None:
        if data is not None and bytes(data) == b"bad":
            raise ValueError("cannot deserialize")
        return None if data is None else bytes(data).decode()


def test_deserialization_error_repeats_until_seek() -> None:
    """A record that fails to deserialize raises RecordDeserializationException with its offset, again on the
    next collect; records before it are returned first; seeking past it moves on."""
    e = _Env(deserializers=Deserializers(ByteArrayDeserializer(), _FailingDeserializer()))
    try:
        e.assign_and_seek(TP0, 0)
        data = MemoryRecords.with_records(
            CompressionType.NONE,
            SimpleRecord(1, None, b"ok"),
            SimpleRecord(2, None, b"bad"),
            SimpleRecord(3, None, b"ok2"),
        )
        first = e.fetch(_response(TP0, _partition_data(data)))
        assert [r.value for r in first[TP0]] == ["ok"]
        for _ in range(2):
            with pytest.raises(RecordDeserializationException) as err:
                e.fetcher.collect_fetch()
            assert err.value.offset == 1
            assert err.value.topic_partition == TP0
        e.subscriptions.seek(TP0, 2)
        # the buffered fetch no longer matches the position and is dropped; then a new fetch goes out
        assert e.fetcher.collect_fetch().is_empty()
        e.update_metadata()  # the position learns its leader again (KafkaConsumer.seek copies it from metadata)
        assert e.send_fetches() == 1
        e.client.prepare_response(
            _response(
                TP0,
                _partition_data(
                    MemoryRecords.with_records(CompressionType.NONE, SimpleRecord(3, None, b"ok2"), initial_offset=2)
                ),
            )
        )
        e.consumer_client.poll(e.time.timer(0))
        assert [r.value for r in e.fetcher.collect_fetch().records()[TP0]] == ["ok2"]
    finally:
        e.close()


def test_corrupt_batch_raises(env: _Env) -> None:
    """A batch whose CRC does not match raises KafkaException (check.crcs)."""
    env.assign_and_seek(TP0, 0)
    raw = bytearray(bytes(_records().buffer()))
    raw[-1] ^= 0xFF
    assert env.send_fetches() == 1
    env.client.prepare_response(_response(TP0, _partition_data(MemoryRecords.readable_records(bytes(raw)))))
    env.consumer_client.poll(env.time.timer(0))
    with pytest.raises(KafkaException, match="fetching the next record from test-0"):
        env.fetcher.collect_fetch()


def _is_fetch(session_id: int, epoch: int, partitions: set[TopicPartition]) -> Any:
    def matcher(body: AbstractRequest[Any]) -> bool:
        assert isinstance(body, FetchRequest)
        data = body.data
        sent = {TopicPartition(t.topic, p.partition) for t in data.topics for p in t.partitions}
        return bool(data.session_id == session_id and data.session_epoch == epoch and sent == partitions)

    return matcher


def test_incremental_fetch_session(env: _Env) -> None:
    """The first fetch is full; after the broker opens session 123, the next sends only changed partitions with
    epoch 1."""
    env.subscriptions.assign_from_user({TP0, TP1})
    env.update_metadata()
    env.subscriptions.seek(TP0, 0)
    env.subscriptions.seek(TP1, 0)
    assert env.send_fetches() == 1
    response = FetchResponse.of(
        Errors.NONE,
        0,
        123,
        {
            TopicIdPartition.of(ZERO_UUID, 0, TOPIC): _partition_data(_records(n=2)),
            TopicIdPartition.of(ZERO_UUID, 1, TOPIC): _partition_data(MemoryRecords.EMPTY),
        },
    )
    env.client.prepare_response(_is_fetch(0, 0, {TP0, TP1}), response)
    env.consumer_client.poll(env.time.timer(0))
    assert len(env.fetcher.collect_fetch().records()[TP0]) == 2
    assert env.send_fetches() == 1
    # Only TP0's offset changed: the incremental request carries it alone.
    env.client.prepare_response(
        _is_fetch(123, 1, {TP0}),
        FetchResponse.of(Errors.NONE, 0, 123, {TopicIdPartition(ZERO_UUID, TP0): _partition_data(None)}),
    )
    env.consumer_client.poll(env.time.timer(0))
    session = env.fetcher.session_handler(0)
    assert session is not None and session.session_id() == 123


def test_fetch_session_id_not_found_starts_over(env: _Env) -> None:
    """FETCH_SESSION_ID_NOT_FOUND makes the next fetch a full one without a session."""
    env.assign_and_seek(TP0, 0)
    assert env.send_fetches() == 1
    env.client.prepare_response(_response(TP0, _partition_data(_records(n=1)), session_id=55))
    env.consumer_client.poll(env.time.timer(0))
    env.fetcher.collect_fetch()
    assert env.send_fetches() == 1
    env.client.prepare_response(FetchResponse.of(Errors.FETCH_SESSION_ID_NOT_FOUND, 0, 0, {}))
    env.consumer_client.poll(env.time.timer(0))
    assert env.send_fetches() == 1
    env.client.prepare_response(_is_fetch(0, 0, {TP0}), _response(TP0, _partition_data(None)))
    env.consumer_client.poll(env.time.timer(0))
    assert env.client.num_awaiting_responses() == 0


def _bytes_env(max_poll_records: int = 500) -> _Env:
    return _Env(
        max_poll_records=max_poll_records, deserializers=Deserializers(ByteArrayDeserializer(), ByteArrayDeserializer())
    )


@pytest.mark.parametrize("compression", list(CompressionType.values()), ids=lambda c: c.name)
def test_byte_array_deserializers_get_the_records_as_decoded(compression: CompressionType) -> None:
    """With ByteArrayDeserializer for key and value, records of every codec come back with their bytes, sizes,
    timestamps, headers and leader epoch, split across collects by max.poll.records and across batches."""
    e = _bytes_env(max_poll_records=4)
    try:
        e.assign_and_seek(TP0, 1)
        data = _concat(_records(compression, base=0), _records(compression, base=3), _records(compression, base=6))
        first = e.fetch(_response(TP0, _partition_data(data, hw=9)))[TP0]
        assert [(r.offset, r.key, r.value) for r in first] == [
            (1, b"key-1", b"value-1"),
            (2, b"key-2", b"value-2"),
            (3, b"key-0", b"value-0"),
            (4, b"key-1", b"value-1"),
        ]
        assert _offset(e, TP0) == 5
        second = e.fetcher.collect_fetch().records()[TP0]
        assert [r.offset for r in second] == [5, 6, 7, 8]
        assert e.fetcher.collect_fetch().records() == {}
        assert _offset(e, TP0) == 9
        record = second[0]
        assert (record.timestamp, record.timestamp_type) == (1002, TimestampType.CREATE_TIME)
        assert (record.serialized_key_size, record.serialized_value_size) == (5, 7)
        assert [(h.key(), h.value()) for h in record.headers] == [("h", b"x")]
        assert record.leader_epoch is None
    finally:
        e.close()


def test_consumed_records_have_their_own_mutable_headers() -> None:
    """Each record's headers are its own RecordHeaders, created once, which the application may change."""
    e = _bytes_env()
    try:
        e.assign_and_seek(TP0, 0)
        mr = MemoryRecords.with_records(CompressionType.NONE, SimpleRecord(1, None, b"a"), SimpleRecord(2, None, b"b"))
        first, second = e.fetch(_response(TP0, _partition_data(mr)))[TP0]
        first.headers.add("added", b"1")
        assert [(h.key(), h.value()) for h in first.headers] == [("added", b"1")]
        assert list(second.headers) == []
        assert first.headers is first.headers
    finally:
        e.close()


def _batch_with_bad_third_record() -> MemoryRecords:
    records = [SimpleRecord(1000 + i, None, b"value-%d" % i) for i in range(4)]
    raw = bytearray(bytes(MemoryRecords.with_records(CompressionType.NONE, *records).buffer()))
    # Each record is 14 bytes; the third one's length now claims more than the batch holds. The CRC is made to
    # match, as a broker that wrote such a batch would have.
    raw[61 + 2 * 14] = 0x7E
    struct.pack_into(">I", raw, 17, crc32c.crc32c(bytes(raw[21:])))
    return MemoryRecords.readable_records(bytes(raw))


@pytest.mark.parametrize("byte_array", [True, False], ids=["byte-array", "string"])
def test_malformed_record_after_good_ones(byte_array: bool) -> None:
    """A malformed record in a batch with a valid CRC lets the records before it through; the next collect
    raises, and again on the one after, until the application seeks past it."""
    e = _bytes_env() if byte_array else _Env()
    try:
        e.assign_and_seek(TP0, 0)
        records = e.fetch(_response(TP0, _partition_data(_batch_with_bad_third_record())))[TP0]
        assert [r.offset for r in records] == [0, 1]
        assert _offset(e, TP0) == 2
        for _ in range(2):
            with pytest.raises(KafkaException, match="fetching the next record from test-0") as err:
                e.fetcher.collect_fetch()
            assert "Invalid record size" in str(err.value.__cause__)
        assert _offset(e, TP0) == 2
    finally:
        e.close()


def _two_partitions(e: _Env, tp0_records: int, tp1_high_watermark: int) -> None:
    """TP0 gets `tp0_records` records; TP1 an empty answer at the given high watermark (its end when 0)."""
    e.subscriptions.assign_from_user({TP0, TP1})
    e.update_metadata()
    e.subscriptions.seek(TP0, 0)
    e.subscriptions.seek(TP1, 0)
    assert e.send_fetches() == 1
    e.client.prepare_response(
        FetchResponse.of(
            Errors.NONE,
            0,
            INVALID_SESSION_ID,
            {
                # TP1 first: its empty answer is read before TP0's records.
                TopicIdPartition.of(ZERO_UUID, 1, TOPIC): _partition_data(MemoryRecords.EMPTY, hw=tp1_high_watermark),
                TopicIdPartition.of(ZERO_UUID, 0, TOPIC): _partition_data(_records(n=tp0_records), hw=tp0_records),
            },
        )
    )
    e.consumer_client.poll(e.time.timer(0))


def test_caught_up_partition_waits_for_buffered_partitions_of_its_node() -> None:
    """PORT (not Java): a partition at its end offset is not fetched alone from a node while another partition of
    that node still has buffered records; once those are drained both go in one request."""
    e = _Env(max_poll_records=2)
    try:
        _two_partitions(e, tp0_records=3, tp1_high_watermark=0)
        assert [r.offset for r in e.fetcher.collect_fetch().records()[TP0]] == [0, 1]
        assert e.send_fetches() == 0
        assert [r.offset for r in e.fetcher.collect_fetch().records()[TP0]] == [2]
        assert e.send_fetches() == 1
        e.client.prepare_response(_is_fetch(0, 0, {TP0, TP1}), _response(TP0, _partition_data(None)))
        e.consumer_client.poll(e.time.timer(0))
        assert e.client.num_awaiting_responses() == 0
    finally:
        e.close()


def test_partition_with_data_left_is_fetched_alone_as_in_java() -> None:
    """A partition below its high watermark is fetched at once, while another partition's records are buffered."""
    e = _Env(max_poll_records=2)
    try:
        _two_partitions(e, tp0_records=3, tp1_high_watermark=10)
        assert [r.offset for r in e.fetcher.collect_fetch().records()[TP0]] == [0, 1]
        assert e.send_fetches() == 1
        e.client.prepare_response(_is_fetch(0, 0, {TP1}), _response(TP1, _partition_data(None)))
        e.consumer_client.poll(e.time.timer(0))
        assert e.client.num_awaiting_responses() == 0
    finally:
        e.close()


def test_paused_buffered_partition_does_not_hold_back_fetches() -> None:
    """Buffered records of a paused partition do not keep a caught-up partition of the same node from being
    fetched."""
    e = _Env(max_poll_records=2)
    try:
        _two_partitions(e, tp0_records=3, tp1_high_watermark=0)
        assert [r.offset for r in e.fetcher.collect_fetch().records()[TP0]] == [0, 1]
        e.subscriptions.pause(TP0)
        assert e.send_fetches() == 1
        e.client.prepare_response(_is_fetch(0, 0, {TP1}), _response(TP1, _partition_data(None)))
        e.consumer_client.poll(e.time.timer(0))
        assert e.client.num_awaiting_responses() == 0
    finally:
        e.close()
