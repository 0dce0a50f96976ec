"""Tests of KafkaProducer, after clients/src/test/java/org/apache/kafka/clients/producer/KafkaProducerTest.java
(Kafka 3.7): the producer with its real I/O thread over MockClient."""

from __future__ import annotations

import re
import threading
import time as _time
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from kafka.clients.consumer.consumer_group_metadata import ConsumerGroupMetadata
from kafka.clients.consumer.offset_and_metadata import OffsetAndMetadata
from kafka.clients.producer.internals.future_record_metadata import FutureRecordMetadata
from kafka.clients.producer.internals.producer_metadata import ProducerMetadata
from kafka.clients.producer.kafka_producer import KafkaProducer
from kafka.clients.producer.partitioner import Partitioner
from kafka.clients.producer.producer_config import ProducerConfig
from kafka.clients.producer.producer_interceptor import ProducerInterceptor
from kafka.clients.producer.producer_record import ProducerRecord
from kafka.clients.producer.record_metadata import RecordMetadata
from kafka.common.cluster import Cluster
from kafka.common.config.config_exception import ConfigException
from kafka.common.errors import (
    KafkaException,
    ProducerFencedException,
    RecordTooLargeException,
    SerializationException,
    TimeoutException,
)
from kafka.common.internals.cluster_resource_listeners import ClusterResourceListeners
from kafka.common.message import (
    AddOffsetsToTxnResponseData,
    AddPartitionsToTxnResponseData,
    EndTxnResponseData,
    InitProducerIdResponseData,
    TxnOffsetCommitResponseData,
)
from kafka.common.metric_name import MetricName
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.add_offsets_to_txn_response import AddOffsetsToTxnResponse
from kafka.common.requests.add_partitions_to_txn_response import AddPartitionsToTxnResponse
from kafka.common.requests.end_txn_response import EndTxnResponse
from kafka.common.requests.find_coordinator_response import FindCoordinatorResponse
from kafka.common.requests.init_producer_id_response import InitProducerIdResponse
from kafka.common.requests.txn_offset_commit_response import TxnOffsetCommitResponse
from kafka.common.serialization.byte_array_serializer import ByteArraySerializer
from kafka.common.serialization.integer_serializer import IntegerSerializer
from kafka.common.serialization.string_serializer import StringSerializer
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.log_context import LogContext
from kafka.common.utils.time import Time
from kafka.common.utils.utils import murmur2
from tests.unit.kafka.clients.mock_client import MockClient
from tests.unit.kafka.clients.producer.internals.producer_test_utils import produce_response
from tests.unit.kafka.common.requests.request_test_utils import metadata_update_with
from tests.utils import wait_until_true

TOPIC = "topic"


class PacedMockClient(MockClient):
    """MockClient whose poll waits a little when it has nothing to return, so the I/O thread does not spin."""

    def poll(self, timeout_ms: int, now: int) -> list[Any]:
        responses = super().poll(timeout_ms, now)
        if not responses and timeout_ms > 0:
            _time.sleep(min(timeout_ms, 5) / 1000)
        return responses

    def in_flight_request_count(self, node_id: str | None = None) -> int:
        # As NetworkClient: a request stays in flight until poll has handed out its response.
        with self._lock:
            pending = sum(1 for r in self.responses if node_id is None or r.destination == node_id)
        return super().in_flight_request_count(node_id) + pending


def _configs(**overrides: Any) -> dict[str, Any]:
    configs: dict[str, Any] = {"bootstrap.servers": "localhost:9999", "max.block.ms": 1000}
    configs.update({k.replace("_", "."): v for k, v in overrides.items()})
    return configs


class Fixture:
    def __init__(self, partitions: int = 3, **overrides: Any) -> None:
        self.metadata = ProducerMetadata(
            100, 1000, 60_000, 300_000, LogContext(), ClusterResourceListeners(), Time.SYSTEM
        )
        self.client = PacedMockClient(Time.SYSTEM, self.metadata)
        self.client.update_metadata(metadata_update_with(1, {TOPIC: partitions}))
        self.producer: KafkaProducer[Any, Any] = KafkaProducer(
            _configs(**overrides),
            overrides.pop("key_serializer", None) or StringSerializer(),
            StringSerializer(),
            metadata=self.metadata,
            kafka_client=self.client,
        )

    def respond_all(self, offset: int = 0) -> list[TopicPartition]:
        """Answers every outstanding produce request (one partition each) and returns the partitions answered."""
        answered: list[TopicPartition] = []
        while True:
            requests = [r for r in list(self.client.requests) if r.api_key is ApiKeys.PRODUCE]
            if not requests:
                return answered
            request = requests[0]
            body = request.request_builder.build()
            topic = body.data.topic_data[0]
            tp = TopicPartition(topic.name, topic.partition_data[0].index)
            self.client.respond_to_request(request, produce_response(tp, offset=offset))
            answered.append(tp)


@pytest.fixture
def fixture() -> Iterator[Fixture]:
    f = Fixture(enable_idempotence=False, linger_ms=0)
    yield f
    f.producer.close(0)


def test_send_and_get(fixture: Fixture) -> None:
    """A sent record's future gives the offset, partition and sizes once the broker answers."""
    future = fixture.producer.send(ProducerRecord(TOPIC, "value", key="key", partition=1))
    fixture.client.wait_for_requests(1, 5000)
    assert fixture.respond_all(offset=7) == [TopicPartition(TOPIC, 1)]
    metadata = future.get(5000)
    assert (metadata.topic, metadata.partition, metadata.offset) == (TOPIC, 1, 7)
    assert (metadata.serialized_key_size, metadata.serialized_value_size) == (3, 5)
    assert metadata.timestamp > 0


def test_keyed_records_use_murmur2(fixture: Fixture) -> None:
    """Without a partitioner, a keyed record goes to toPositive(murmur2(key)) % partitions."""
    for key in ("a", "b", "key-17", "ü"):
        future = fixture.producer.send(ProducerRecord(TOPIC, "v", key=key))
        fixture.client.wait_for_requests(1, 5000)
        fixture.respond_all()
        expected = (murmur2(key.encode()) & 0x7FFFFFFF) % 3
        assert future.get(5000).partition == expected


def test_callback_runs_on_io_thread_with_metadata(fixture: Fixture) -> None:
    """The callback gets the metadata on the producer's I/O thread, named after the client id."""
    seen: list[tuple[str, RecordMetadata | None, BaseException | None]] = []
    done = threading.Event()

    def callback(metadata: RecordMetadata | None, exception: BaseException | None) -> None:
        seen.append((threading.current_thread().name, metadata, exception))
        done.set()

    fixture.producer.send(ProducerRecord(TOPIC, "v", partition=0), callback)
    fixture.client.wait_for_requests(1, 5000)
    fixture.respond_all(offset=3)
    assert done.wait(30)
    name, metadata, exception = seen[0]
    assert name == f"kafka-producer-network-thread | {fixture.producer.client_id}"
    assert exception is None and metadata is not None and metadata.offset == 3


def test_unknown_topic_times_out_in_future_and_callback(fixture: Fixture) -> None:
    """A topic absent from metadata fails the send after max.block.ms, through the future and the callback."""
    errors: list[BaseException | None] = []
    future = fixture.producer.send(ProducerRecord("missing", "v"), lambda m, e: errors.append(e))
    with pytest.raises(TimeoutException, match=re.escape("Topic missing not present in metadata after 1000 ms.")):
        future.get()
    assert isinstance(errors[0], TimeoutException)


def test_record_too_large_is_reported_in_the_future(fixture: Fixture) -> None:
    """A record above max.request.size fails with RecordTooLargeException before it is queued."""
    future = fixture.producer.send(ProducerRecord(TOPIC, "x" * (1024 * 1024 + 1), partition=0))
    with pytest.raises(
        RecordTooLargeException, match=re.escape("which is the value of the max.request.size configuration")
    ):
        future.get()
    assert fixture.client.requests == type(fixture.client.requests)()


def test_wrong_type_raises_serialization_exception(fixture: Fixture) -> None:
    """A key the serializer cannot take raises SerializationException at once, naming both classes."""
    with pytest.raises(SerializationException, match=re.escape("Can't convert key of class builtins.int to class")):
        fixture.producer.send(ProducerRecord(TOPIC, "v", key=5))


def test_partition_out_of_range_waits_then_times_out(fixture: Fixture) -> None:
    """A partition beyond the known count makes send wait for metadata, then fail after max.block.ms."""
    future = fixture.producer.send(ProducerRecord(TOPIC, "v", partition=5))
    with pytest.raises(TimeoutException, match=re.escape("not present in metadata after 1000 ms.")):
        future.get()


def test_headers_become_read_only_after_send(fixture: Fixture) -> None:
    """The record's headers cannot be changed once it was sent."""
    record: ProducerRecord[bytes, str] = ProducerRecord(TOPIC, "v", partition=0, headers=[("h", b"1")])
    fixture.producer.send(record)
    with pytest.raises(RuntimeError, match=re.escape("RecordHeaders has been closed.")):
        record.headers.add("h2", b"2")


def test_headers_asked_for_before_send_are_sent_and_then_read_only(fixture: Fixture) -> None:
    """Headers added to a record created without any go out with it, and are read-only afterwards."""
    record: ProducerRecord[bytes, str] = ProducerRecord(TOPIC, "v", partition=0)
    record.headers.add("trace", b"42")
    fixture.producer.send(record)
    fixture.client.wait_for_requests(1, 5000)
    request = next(r for r in fixture.client.requests if r.api_key is ApiKeys.PRODUCE)
    sent = next(iter(request.request_builder.build().data.topic_data[0].partition_data[0].records.records()))
    assert [(h.key(), h.value()) for h in sent.headers()] == [("trace", b"42")]
    with pytest.raises(RuntimeError, match=re.escape("RecordHeaders has been closed.")):
        record.headers.add("h2", b"2")


def test_a_record_sent_without_headers_has_read_only_empty_headers(fixture: Fixture) -> None:
    """A record whose headers were never touched is sent with none and its headers cannot be added to later."""
    record: ProducerRecord[bytes, str] = ProducerRecord(TOPIC, "v", partition=0)
    fixture.producer.send(record)
    fixture.client.wait_for_requests(1, 5000)
    request = next(r for r in fixture.client.requests if r.api_key is ApiKeys.PRODUCE)
    sent = next(iter(request.request_builder.build().data.topic_data[0].partition_data[0].records.records()))
    assert list(sent.headers()) == []
    assert len(record.headers) == 0 and record.headers.is_read_only
    with pytest.raises(RuntimeError, match=re.escape("RecordHeaders has been closed.")):
        record.headers.add("late", b"1")
    assert record == ProducerRecord(TOPIC, "v", partition=0, headers=[])


@pytest.mark.parametrize(("value_size", "fits"), [(914, True), (915, False)])
def test_record_size_limit_is_exact_at_the_boundary(value_size: int, fits: bool) -> None:
    """The size check uses the batch upper bound exactly: 61 + 21 bytes of overhead, a null key, the value with its
    two-byte length and no headers make 1000 bytes at most for max.request.size 1000."""
    f = Fixture(enable_idempotence=False, linger_ms=0, max_request_size=1000)
    try:
        future = f.producer.send(ProducerRecord(TOPIC, "x" * value_size, partition=0))
        if fits:
            f.client.wait_for_requests(1, 5000)
            f.respond_all(offset=1)
            assert future.get(5000).offset == 1
        else:
            with pytest.raises(RecordTooLargeException, match=re.escape("The message is 1001 bytes")):
                future.get()
    finally:
        f.producer.close(0)


def test_headers_count_towards_the_record_size_limit() -> None:
    """A small value with large headers is still refused when the headers take the record over the limit."""
    f = Fixture(enable_idempotence=False, linger_ms=0, max_request_size=1000)
    try:
        future = f.producer.send(ProducerRecord(TOPIC, "v", partition=0, headers=[("big", b"h" * 1000)]))
        with pytest.raises(RecordTooLargeException, match=re.escape("The message is 1092 bytes")):
            future.get()
    finally:
        f.producer.close(0)


def test_flush_waits_for_lingering_records() -> None:
    """flush() sends records held by linger.ms at once and returns when they are acknowledged."""
    f = Fixture(enable_idempotence=False, linger_ms=3_600_000)
    try:
        future = f.producer.send(ProducerRecord(TOPIC, "v", partition=0))
        result: list[BaseException | None] = []

        def flush() -> None:
            try:
                f.producer.flush()
                result.append(None)
            except BaseException as e:
                result.append(e)

        t = threading.Thread(target=flush)
        t.start()
        f.client.wait_for_requests(1, 5000)
        assert not result
        f.respond_all(offset=9)
        t.join(10)
        assert result == [None]
        assert future.is_done() and future.get(0).offset == 9
    finally:
        f.producer.close(0)


def test_flush_with_timeout_raises_when_incomplete(fixture: Fixture) -> None:
    """flush(timeout_ms) raises TimeoutException when records are still unacknowledged then."""
    fixture.producer.send(ProducerRecord(TOPIC, "v", partition=0))
    with pytest.raises(TimeoutException, match=re.escape("Flush did not complete within 50 ms.")):
        fixture.producer.flush(50)


def test_close_with_timeout_fails_unacknowledged_records() -> None:
    """close(timeout) waits for acknowledgements, then forces: records still pending fail."""
    f = Fixture(enable_idempotence=False)
    future = f.producer.send(ProducerRecord(TOPIC, "v", partition=0))
    f.client.wait_for_requests(1, 5000)
    f.producer.close(100)
    with pytest.raises(KafkaException, match=re.escape("Producer is closed forcefully.")):
        future.get(0)
    with pytest.raises(RuntimeError, match="Cannot perform operation after producer has been closed"):
        f.producer.send(ProducerRecord(TOPIC, "v"))


def test_close_waits_for_pending_records() -> None:
    """close() without a timeout lets the I/O thread finish the records already sent."""
    f = Fixture(enable_idempotence=False)
    future = f.producer.send(ProducerRecord(TOPIC, "v", partition=0))
    f.client.wait_for_requests(1, 5000)
    closer = threading.Thread(target=f.producer.close)
    closer.start()
    f.respond_all(offset=4)
    closer.join(10)
    assert not closer.is_alive()
    assert future.get(0).offset == 4


def test_close_from_callback_does_not_deadlock() -> None:
    """close() called in a callback (on the I/O thread) is taken as close(0) and returns."""
    f = Fixture(enable_idempotence=False)
    closed = threading.Event()

    def callback(metadata: RecordMetadata | None, exception: BaseException | None) -> None:
        f.producer.close(10_000)
        closed.set()

    f.producer.send(ProducerRecord(TOPIC, "v", partition=0), callback)
    f.client.wait_for_requests(1, 5000)
    f.respond_all()
    assert closed.wait(10)
    wait_until_true(lambda: not any(t.name.startswith("kafka-producer") for t in threading.enumerate()), "I/O thread")


class RecordingInterceptor(ProducerInterceptor[Any, Any]):
    instances: list[RecordingInterceptor] = []

    def __init__(self) -> None:
        self.sent: list[Any] = []
        self.acks: list[tuple[RecordMetadata | None, BaseException | None]] = []
        self.configs: Mapping[str, Any] = {}
        self.closed = False
        RecordingInterceptor.instances.append(self)

    def configure(self, configs: Mapping[str, Any]) -> None:
        self.configs = configs

    def on_send(self, record: ProducerRecord[Any, Any]) -> ProducerRecord[Any, Any]:
        self.sent.append(record.value)
        return ProducerRecord(record.topic, f"{record.value}-intercepted", key=record.key, partition=record.partition)

    def on_acknowledgement(self, metadata: RecordMetadata | None, exception: BaseException | None) -> None:
        self.acks.append((metadata, exception))

    def close(self) -> None:
        self.closed = True


def test_interceptors_see_sends_and_acknowledgements() -> None:
    """interceptor.classes are configured, may replace the record, hear every acknowledgement and are closed."""
    RecordingInterceptor.instances.clear()
    f = Fixture(enable_idempotence=False, interceptor_classes=[RecordingInterceptor])
    interceptor = RecordingInterceptor.instances[0]
    assert interceptor.configs["client.id"] == f.producer.client_id
    future = f.producer.send(ProducerRecord(TOPIC, "v", partition=0))
    f.client.wait_for_requests(1, 5000)
    body = f.client.requests[0].request_builder.build()
    record = next(iter(next(iter(body.data.topic_data[0].partition_data[0].records.batches()))))
    assert record.value() == b"v-intercepted"
    f.respond_all(offset=2)
    future.get(5000)
    wait_until_true(lambda: len(interceptor.acks) == 1, "the acknowledgement")
    assert interceptor.acks[0][0] is not None and interceptor.acks[0][0].offset == 2
    f.producer.send(ProducerRecord("missing", "v"))  # fails in send: the interceptor hears of it too
    assert isinstance(interceptor.acks[-1][1], TimeoutException)
    f.producer.close(0)
    assert interceptor.closed and interceptor.sent == ["v", "v"]


class FixedPartitioner(Partitioner):
    def partition(
        self, topic: str, key: Any, key_bytes: bytes | None, value: Any, value_bytes: bytes | None, cluster: Cluster
    ) -> int:
        return 2


def test_custom_partitioner_by_class_name() -> None:
    """partitioner.class names a Partitioner (module path); its choice is used for every record."""
    f = Fixture(enable_idempotence=False, partitioner_class=f"{__name__}.FixedPartitioner")
    try:
        future = f.producer.send(ProducerRecord(TOPIC, "v", key="k"))
        f.client.wait_for_requests(1, 5000)
        f.respond_all()
        assert future.get(5000).partition == 2
    finally:
        f.producer.close(0)


def test_java_serializer_class_names_are_accepted() -> None:
    """Java's serializer class names in the config resolve to this port's serializers."""
    producer: KafkaProducer[Any, Any] = KafkaProducer(
        _configs(
            key_serializer="org.apache.kafka.common.serialization.IntegerSerializer",
            value_serializer="org.apache.kafka.common.serialization.ByteArraySerializer",
        ),
        kafka_client=PacedMockClient(Time.SYSTEM),
    )
    try:
        assert isinstance(producer._key_serializer, IntegerSerializer)
        assert isinstance(producer._value_serializer, ByteArraySerializer)
    finally:
        producer.close(0)


def test_client_id_and_thread_name() -> None:
    """client.id defaults to producer-N and names the I/O thread."""
    producer: KafkaProducer[Any, Any] = KafkaProducer(
        _configs(), StringSerializer(), StringSerializer(), kafka_client=PacedMockClient(Time.SYSTEM)
    )
    try:
        assert producer.client_id.startswith("producer-")
        names = [t.name for t in threading.enumerate()]
        assert f"kafka-producer-network-thread | {producer.client_id}" in names
    finally:
        producer.close()
    assert f"kafka-producer-network-thread | {producer.client_id}" not in [t.name for t in threading.enumerate()]


def test_missing_serializer_is_a_config_exception() -> None:
    """Without a key serializer instance or class, construction fails with Java's ConfigException."""
    with pytest.raises(
        ConfigException, match=re.escape("Invalid value null for configuration key.serializer: must be non-null.")
    ):
        KafkaProducer(_configs(), None, StringSerializer())


def test_transactional_id_needs_idempotence() -> None:
    """A transactional.id with idempotence off (explicitly, or dropped by acks=1) is Java's ConfigException; with
    idempotence it makes a transactional producer whose client.id defaults to producer-{transactional.id}."""
    base = {"key.serializer": StringSerializer, "value.serializer": StringSerializer, "transactional.id": "txn"}
    message = "Cannot set a transactional.id without also enabling idempotence."
    with pytest.raises(ConfigException, match=message):
        ProducerConfig({**base, "enable.idempotence": "false"}, False)
    with pytest.raises(ConfigException, match=message):
        ProducerConfig({**base, "acks": "1"}, False)
    producer: KafkaProducer[Any, Any] = KafkaProducer(
        _configs(transactional_id="txn"),
        StringSerializer(),
        StringSerializer(),
        kafka_client=PacedMockClient(Time.SYSTEM),
    )
    try:
        assert producer.client_id == "producer-txn"
        assert producer._transaction_manager is not None and producer._transaction_manager.is_transactional()
    finally:
        producer.close(0)


def test_transactional_methods_need_a_transactional_id(fixture: Fixture) -> None:
    """Without transactional.id every transactional method raises IllegalStateException (RuntimeError)."""
    for call in (
        fixture.producer.init_transactions,
        fixture.producer.begin_transaction,
        fixture.producer.commit_transaction,
        fixture.producer.abort_transaction,
    ):
        with pytest.raises(RuntimeError, match="Cannot use transactional methods without enabling transactions"):
            call()


class TxnFixture(Fixture):
    """A transactional producer whose MockClient answers the transaction's requests in order."""

    def __init__(self, **overrides: Any) -> None:
        super().__init__(partitions=2, transactional_id="txn", **overrides)
        self.sent: list[Any] = []
        self.node = self.metadata.fetch().nodes[0]

    def expect(self, api_key: ApiKeys, response: Any, check: Any = lambda data: True) -> None:
        def match(body: Any) -> bool:
            if body.api_key is not api_key or not check(body.data):
                return False
            self.sent.append(body)
            return True

        self.client.prepare_response(match, response)

    def expect_find_coordinator(self, key: str = "txn") -> None:
        self.expect(ApiKeys.FIND_COORDINATOR, FindCoordinatorResponse.prepare_response(Errors.NONE, key, self.node))

    def expect_init_producer_id(self) -> None:
        self.expect(
            ApiKeys.INIT_PRODUCER_ID,
            InitProducerIdResponse(InitProducerIdResponseData(producer_id=42, producer_epoch=0)),
            lambda d: d.transactional_id == "txn" and d.transaction_timeout_ms == 60_000,
        )

    def expect_add_partitions(self, tp: TopicPartition) -> None:
        result = AddPartitionsToTxnResponse.result_for_transaction("", {(tp.topic, tp.partition): Errors.NONE})
        self.expect(
            ApiKeys.ADD_PARTITIONS_TO_TXN,
            AddPartitionsToTxnResponse(
                AddPartitionsToTxnResponseData(results_by_topic_v3_and_below=result.topic_results)
            ),
        )

    def expect_end_txn(self, committed: bool, error: Errors = Errors.NONE) -> None:
        self.expect(
            ApiKeys.END_TXN,
            EndTxnResponse(EndTxnResponseData(error_code=error.code)),
            lambda d: d.committed == committed and (d.producer_id, d.producer_epoch) == (42, 0),
        )

    def expect_txn_offset_commit(self, topic: str, check: Any = lambda data: True) -> None:
        """TxnOffsetCommit answered with no error for partition 0 of `topic`."""
        self.expect(
            ApiKeys.TXN_OFFSET_COMMIT,
            TxnOffsetCommitResponse(
                TxnOffsetCommitResponseData(
                    topics=[
                        TxnOffsetCommitResponseData.TxnOffsetCommitResponseTopic(
                            name=topic, partitions=[TxnOffsetCommitResponseData.TxnOffsetCommitResponsePartition()]
                        )
                    ]
                )
            ),
            check,
        )

    def api_keys_sent(self) -> list[ApiKeys]:
        return [b.api_key for b in self.sent]


def test_transactional_produce_and_commit() -> None:
    """init_transactions, begin_transaction, send and commit_transaction send FindCoordinator, InitProducerId,
    AddPartitionsToTxn, a transactional Produce and EndTxn(commit), each call returning once its request is done."""
    f = TxnFixture()
    try:
        f.expect_find_coordinator()
        f.expect_init_producer_id()
        f.producer.init_transactions()
        f.producer.begin_transaction()
        f.expect_add_partitions(TopicPartition(TOPIC, 1))
        f.expect(
            ApiKeys.PRODUCE, produce_response(TopicPartition(TOPIC, 1), offset=5), lambda d: d.transactional_id == "txn"
        )
        future = f.producer.send(ProducerRecord(TOPIC, "value", partition=1))
        f.expect_end_txn(committed=True)
        f.producer.commit_transaction()
        assert future.is_done() and future.get(0).offset == 5
        assert f.api_keys_sent() == [
            ApiKeys.FIND_COORDINATOR,
            ApiKeys.INIT_PRODUCER_ID,
            ApiKeys.ADD_PARTITIONS_TO_TXN,
            ApiKeys.PRODUCE,
            ApiKeys.END_TXN,
        ]
        batch = next(iter(f.sent[3].data.topic_data[0].partition_data[0].records.batches()))
        assert batch.is_transactional() and (batch.producer_id(), batch.producer_epoch()) == (42, 0)
    finally:
        f.producer.close(0)


def test_send_offsets_to_transaction_with_group_metadata_or_group_id() -> None:
    """send_offsets_to_transaction takes the consumer's group metadata (sent in TxnOffsetCommit) or, deprecated,
    a group id; invalid metadata (a generation without a member id) is refused before any request."""
    f = TxnFixture()
    tp = TopicPartition("input", 0)
    try:
        f.expect_find_coordinator()
        f.expect_init_producer_id()
        f.producer.init_transactions()
        f.producer.begin_transaction()
        with pytest.raises(ValueError, match=r"has generationId > 0 but member\.id"):
            f.producer.send_offsets_to_transaction({tp: OffsetAndMetadata(3)}, ConsumerGroupMetadata("g", 2))
        for group_metadata, member in ((ConsumerGroupMetadata("g", 2, "m-1"), "m-1"), ("g", "")):
            f.expect(ApiKeys.ADD_OFFSETS_TO_TXN, AddOffsetsToTxnResponse(AddOffsetsToTxnResponseData()))
            if member == "m-1":
                f.expect_find_coordinator("g")
            f.expect_txn_offset_commit("input", lambda d, member=member: d.group_id == "g" and d.member_id == member)
            f.producer.send_offsets_to_transaction({tp: OffsetAndMetadata(3)}, group_metadata)
        f.expect_end_txn(committed=True)
        f.producer.commit_transaction()
        assert f.api_keys_sent()[2:] == [
            ApiKeys.ADD_OFFSETS_TO_TXN,
            ApiKeys.FIND_COORDINATOR,
            ApiKeys.TXN_OFFSET_COMMIT,
            ApiKeys.ADD_OFFSETS_TO_TXN,
            ApiKeys.TXN_OFFSET_COMMIT,
            ApiKeys.END_TXN,
        ]
    finally:
        f.producer.close(0)


def test_fenced_producer_fails_its_calls() -> None:
    """A producer fenced by a newer one (PRODUCER_FENCED on EndTxn) fails commit with ProducerFencedException, as
    every later transactional call; abort does too, so only close is left."""
    f = TxnFixture()
    try:
        f.expect_find_coordinator()
        f.expect_init_producer_id()
        f.producer.init_transactions()
        f.producer.begin_transaction()
        f.expect_add_partitions(TopicPartition(TOPIC, 0))
        f.expect(ApiKeys.PRODUCE, produce_response(TopicPartition(TOPIC, 0)))
        f.producer.send(ProducerRecord(TOPIC, "value", partition=0))
        f.expect_end_txn(committed=True, error=Errors.PRODUCER_FENCED)
        with pytest.raises(ProducerFencedException):
            f.producer.commit_transaction()
        with pytest.raises(ProducerFencedException):
            f.producer.begin_transaction()
        with pytest.raises(ProducerFencedException):
            f.producer.abort_transaction()
        # A send fails in its future.
        with pytest.raises(ProducerFencedException):
            f.producer.send(ProducerRecord(TOPIC, "value", partition=0)).get(1000)
    finally:
        f.producer.close(0)


def test_close_aborts_an_open_transaction() -> None:
    """close() with a transaction open (records written) aborts it with EndTxn(abort) before the I/O thread ends."""
    f = TxnFixture()
    f.expect_find_coordinator()
    f.expect_init_producer_id()
    f.producer.init_transactions()
    f.producer.begin_transaction()
    f.expect_add_partitions(TopicPartition(TOPIC, 0))
    f.expect(ApiKeys.PRODUCE, produce_response(TopicPartition(TOPIC, 0)))
    f.producer.send(ProducerRecord(TOPIC, "value", partition=0)).get(5000)
    f.expect_end_txn(committed=False)
    f.producer.close(5000)
    assert f.api_keys_sent()[-1] is ApiKeys.END_TXN
    assert f.client.future_responses == type(f.client.future_responses)()


def test_bad_security_protocol_is_a_config_exception() -> None:
    """An unknown security.protocol is a ConfigException."""
    with pytest.raises(ConfigException, match=re.escape("security.protocol")):
        KafkaProducer(_configs(security_protocol="TLS"), StringSerializer(), StringSerializer())


def test_delivery_timeout_must_cover_linger_and_request_timeout() -> None:
    """An explicit delivery.timeout.ms below linger.ms + request.timeout.ms is refused."""
    with pytest.raises(KafkaException) as e:
        KafkaProducer(
            _configs(delivery_timeout_ms=1000, linger_ms=100, request_timeout_ms=1000),
            StringSerializer(),
            StringSerializer(),
            kafka_client=PacedMockClient(Time.SYSTEM),
        )
    assert "delivery.timeout.ms should be equal to or larger than linger.ms + request.timeout.ms" in str(
        e.value.__cause__
    )


def test_producer_config_defaults_match_java() -> None:
    """Defaults are Java 3.7's: idempotence on, acks all, 5 in flight, 16 KB batches, 32 MB buffer."""
    config = ProducerConfig({"key.serializer": StringSerializer, "value.serializer": StringSerializer}, do_log=False)
    assert config.get_boolean("enable.idempotence") is True
    assert config.get_string("acks") == "-1"
    assert config.get_int("max.in.flight.requests.per.connection") == 5
    assert config.get_int("batch.size") == 16384
    assert config.get_long("buffer.memory") == 32 * 1024 * 1024
    assert config.get_int("delivery.timeout.ms") == 120_000
    assert config.get_long("linger.ms") == 0
    assert config.get_long("max.block.ms") == 60_000
    assert config.get_int("retries") == 2**31 - 1
    assert config.get_string("compression.type") == "none"


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"enable.idempotence": "true", "acks": "1"}, "Must set acks to all in order to use the idempotent producer."),
        ({"enable.idempotence": "true", "retries": "0"}, "Must set retries to non-zero when using the idempotent"),
        (
            {"enable.idempotence": "true", "max.in.flight.requests.per.connection": "6"},
            "Must set max.in.flight.requests.per.connection to at most 5 to use the idempotent producer.",
        ),
        ({"acks": "2"}, "Invalid value 2 for configuration acks"),
        ({"compression.type": "brotli"}, "Invalid value brotli for configuration compression.type"),
    ],
)
def test_producer_config_validation(settings: dict[str, str], message: str) -> None:
    """Idempotence requirements and value checks fail with Java's messages."""
    with pytest.raises(ConfigException, match=message):
        ProducerConfig({"key.serializer": StringSerializer, "value.serializer": StringSerializer, **settings}, False)


def test_default_idempotence_is_dropped_quietly_when_settings_disagree() -> None:
    """With the default enable.idempotence, acks=1 or retries=0 turn idempotence off instead of failing."""
    base = {"key.serializer": StringSerializer, "value.serializer": StringSerializer}
    assert ProducerConfig({**base, "acks": "1"}, False).get_boolean("enable.idempotence") is False
    assert ProducerConfig({**base, "retries": 0}, False).get_boolean("enable.idempotence") is False
    assert ProducerConfig({**base, "acks": "all"}, False).get_boolean("enable.idempotence") is True


def _producer_metric(producer: KafkaProducer[Any, Any], name: str) -> Any:
    client_id = producer.client_id
    metric = producer.metrics()[MetricName(name, "producer-metrics", "", {"client-id": client_id})]
    return metric.metric_value()


def test_transaction_and_flush_times_are_recorded() -> None:
    """init_transactions, begin_transaction, send_offsets_to_transaction, commit_transaction, abort_transaction
    and flush each add the time they took to their `*-time-ns-total` (KafkaProducerMetrics), and the first send to
    a topic the time it waited for the topic's metadata."""
    f = TxnFixture()
    names = (
        "txn-init-time-ns-total",
        "txn-begin-time-ns-total",
        "txn-send-offsets-time-ns-total",
        "txn-commit-time-ns-total",
        "txn-abort-time-ns-total",
        "flush-time-ns-total",
    )
    try:
        assert all(_producer_metric(f.producer, n) == 0.0 for n in names)
        f.expect_find_coordinator()
        f.expect_init_producer_id()
        f.producer.init_transactions()
        assert _producer_metric(f.producer, "txn-init-time-ns-total") > 0
        f.producer.begin_transaction()
        assert _producer_metric(f.producer, "txn-begin-time-ns-total") > 0
        f.expect_add_partitions(TopicPartition(TOPIC, 1))
        f.expect(ApiKeys.PRODUCE, produce_response(TopicPartition(TOPIC, 1), offset=5))
        f.producer.send(ProducerRecord(TOPIC, "value", partition=1))
        f.producer.flush()
        assert _producer_metric(f.producer, "flush-time-ns-total") > 0
        f.expect(ApiKeys.ADD_OFFSETS_TO_TXN, AddOffsetsToTxnResponse(AddOffsetsToTxnResponseData()))
        f.expect_find_coordinator("g")
        f.expect_txn_offset_commit("input")
        f.producer.send_offsets_to_transaction({TopicPartition("input", 0): OffsetAndMetadata(3)}, "g")
        assert _producer_metric(f.producer, "txn-send-offsets-time-ns-total") > 0
        f.expect_end_txn(committed=True)
        f.producer.commit_transaction()
        assert _producer_metric(f.producer, "txn-commit-time-ns-total") > 0
        f.producer.begin_transaction()
        f.producer.abort_transaction()
        assert _producer_metric(f.producer, "txn-abort-time-ns-total") > 0
        # The producer's metadata keeps only the topics it uses: the first send waited for the topic's.
        assert _producer_metric(f.producer, "metadata-wait-time-ns-total") > 0
    finally:
        f.producer.close(0)


def _sends_as_send_does(monkeypatch: pytest.MonkeyPatch, compiled: bool) -> tuple[list[Any], int]:
    """200 sends of records with and without key, partition, headers, value and timestamp, with no callback, a
    function and a Callback, to a producer whose batches fill up (the sender woken) but are not sent; what each send
    answered and did to its record, every batch's records and bytes, and how many sends the compiled send_common
    made (with `compiled`; else it is turned off)."""
    import random

    from kafka.clients.producer import kafka_producer
    from kafka.clients.producer.callback import Callback, as_callback
    from kafka.clients.producer.internals.built_in_partitioner import BuiltInPartitioner
    from kafka.clients.producer.producer_record import _SENT_EMPTY_HEADERS

    common = kafka_producer._send_common
    made = [0]
    if compiled:
        assert common is not None

        def counting(producer: Any, record: Any, callback: Any) -> Any:
            future = common(producer, record, callback)
            made[0] += future is not None
            return future

        monkeypatch.setattr(kafka_producer, "_send_common", counting)
    else:
        monkeypatch.setattr(kafka_producer, "_send_common", None)
    choices = iter(list(range(3)) * 100)
    monkeypatch.setattr(BuiltInPartitioner, "mock_random", lambda: next(choices))
    metadata = ProducerMetadata(100, 1000, 60_000, 300_000, LogContext(), ClusterResourceListeners(), Time.SYSTEM)

    class NeverReady(PacedMockClient):
        # The batches stay in the accumulator: the sender, woken, finds no node to send them to.
        def ready(self, node: Any, now: int) -> bool:
            return False

        def is_ready(self, node: Any, now: int) -> bool:
            return False

    client = NeverReady(Time.SYSTEM, metadata)
    client.update_metadata(metadata_update_with(1, {TOPIC: 3}))
    producer: KafkaProducer[bytes, bytes] = KafkaProducer(
        _configs(
            enable_idempotence=False, linger_ms=2**31 - 1, batch_size=2048, max_in_flight_requests_per_connection=1
        ),
        ByteArraySerializer(),
        ByteArraySerializer(),
        metadata=metadata,
        kafka_client=client,
    )
    woken = [0]
    assert producer._sender is not None
    wakeup = producer._sender.wakeup

    def counting_wakeup() -> None:
        woken[0] += 1
        wakeup()

    monkeypatch.setattr(producer._sender, "wakeup", counting_wakeup)

    class Counted(Callback):
        def on_completion(self, metadata: RecordMetadata | None, exception: BaseException | None) -> None:
            pass

    rng = random.Random(9)
    answers: list[Any] = []
    try:
        for i in range(200):
            record = ProducerRecord(
                TOPIC,
                rng.choice([None, b"", rng.randbytes(rng.randrange(1, 300))]),
                key=rng.choice([None, None, None, b"k%d" % i]),
                partition=rng.choice([None, None, None, None, 1]),
                timestamp=1_700_000_000_000 + i,
                headers=rng.choice([None, None, None, [("h", b"x")]]),
            )
            callback = rng.choice([None, Counted(), as_callback(lambda md, e: None)])
            future = producer.send(record, callback)
            assert isinstance(future, FutureRecordMetadata)
            answers.append(
                (
                    future._batch_index,
                    future._create_timestamp,
                    future._serialized_key_size,
                    future._serialized_value_size,
                    record._headers is _SENT_EMPTY_HEADERS,
                    record.headers.is_read_only,
                )
            )
        accumulator = producer._accumulator
        for p in range(3):
            for batch in accumulator.get_deque(TopicPartition(TOPIC, p)) or ():
                batch.close()
                answers.append((p, batch.record_count, bytes(batch.records().buffer())))
        answers.append(woken[0] > 0)
    finally:
        producer.close(0)
    return answers, made[0]


def test_send_common_sends_as_send_does(monkeypatch: pytest.MonkeyPatch) -> None:
    """The compiled send_common (send's first try where the optional module is built) leaves the records, futures and
    batches (byte for byte) as send's Python does, wakes the sender as it does, and leaves what it does not take
    (keys, partitions, headers, new batches, unknown callback classes) to it."""
    from kafka.clients.producer import kafka_producer

    if kafka_producer._send_common is None:
        pytest.skip("the optional _default_record_writer extension is not built")
    python, _ = _sends_as_send_does(monkeypatch, False)
    monkeypatch.undo()
    compiled, made = _sends_as_send_does(monkeypatch, True)
    assert compiled == python
    assert 30 < made < 200


def test_send_common_gives_records_the_send_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """A record without a timestamp sent through send_common gets the system clock's milliseconds at send."""
    from kafka.clients.producer import kafka_producer

    common = kafka_producer._send_common
    if common is None:
        pytest.skip("the optional _default_record_writer extension is not built")
    f = Fixture(enable_idempotence=False, linger_ms=2**31 - 1)
    f.producer._key_serializer_is_bytes = f.producer._value_serializer_is_bytes = True
    try:
        f.producer.send(ProducerRecord(TOPIC, b"first"))  # the topic's first batch: send's Python
        before = _time.time_ns() // 1_000_000
        future = common(f.producer, ProducerRecord(TOPIC, b"second"), None)
        after = _time.time_ns() // 1_000_000
        assert future is not None and before <= future._create_timestamp <= after
    finally:
        f.producer.close(0)


def test_send_common_wakes_the_sender_as_wakeup_sender_does(monkeypatch: pytest.MonkeyPatch) -> None:
    """With a partition's deque holding two batches (so the append answers batch_is_full), send_common calls the
    sender's wakeup itself while _wakeup_sender's trace line is off and no wakeup is pending, nothing while one is,
    and _wakeup_sender (which writes the trace line) while the trace line is on."""
    from kafka.clients.producer import kafka_producer

    common = kafka_producer._send_common
    if common is None:
        pytest.skip("the optional _default_record_writer extension is not built")
    f = Fixture(partitions=1, enable_idempotence=False, linger_ms=2**31 - 1, batch_size=300)
    producer = f.producer
    producer._key_serializer_is_bytes = producer._value_serializer_is_bytes = True
    sender = producer._sender
    assert sender is not None
    calls: list[str] = []
    try:
        assert producer._trace_enabled() is False
        deque = None
        while deque is None or len(deque) < 2:
            producer.send(ProducerRecord(TOPIC, b"v" * 100))
            deque = producer._accumulator.get_deque(TopicPartition(TOPIC, 0))
        monkeypatch.setattr(sender, "wakeup", lambda: calls.append("wakeup"))
        monkeypatch.setattr(producer, "_wakeup_sender", lambda topic, callbacks: calls.append("_wakeup_sender"))
        sender._wakeup_pending = False
        assert common(producer, ProducerRecord(TOPIC, b"a"), None) is not None
        assert calls == ["wakeup"]
        sender._wakeup_pending = True
        assert common(producer, ProducerRecord(TOPIC, b"b"), None) is not None
        assert calls == ["wakeup"]
        monkeypatch.setattr(producer, "_trace_enabled", lambda: True)
        assert common(producer, ProducerRecord(TOPIC, b"c"), None) is not None
        assert calls == ["wakeup", "_wakeup_sender"]
        assert len(deque) == 2 and deque[-1].record_count == 4
    finally:
        monkeypatch.undo()
        producer.close(0)


def test_send_common_reads_each_producer_s_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    """send_common remembers the settings of the producer it last found fit (set once, in KafkaProducer's _init) and
    reads another producer's: sends alternating between a fit producer and one with a String key serializer or with
    interceptors are taken for the first only, and the sender's state is read for every send."""
    from kafka.clients.producer import kafka_producer

    common = kafka_producer._send_common
    if common is None:
        pytest.skip("the optional _default_record_writer extension is not built")
    fit = Fixture(enable_idempotence=False, linger_ms=2**31 - 1)
    strings = Fixture(enable_idempotence=False, linger_ms=2**31 - 1)
    intercepted = Fixture(enable_idempotence=False, linger_ms=2**31 - 1)
    fit.producer._key_serializer_is_bytes = fit.producer._value_serializer_is_bytes = True
    intercepted.producer._key_serializer_is_bytes = intercepted.producer._value_serializer_is_bytes = True
    intercepted.producer._has_interceptors = True
    producers = [fit.producer, strings.producer, intercepted.producer]
    try:
        for producer in producers:
            # The topic's first batch: send's Python (the String serializer's record a str).
            producer.send(ProducerRecord(TOPIC, "first" if producer is strings.producer else b"first"))
        for _ in range(3):
            assert common(fit.producer, ProducerRecord(TOPIC, b"v"), None) is not None
            assert common(fit.producer, ProducerRecord(TOPIC, b"v"), None) is not None
            assert common(strings.producer, ProducerRecord(TOPIC, b"v"), None) is None
            assert common(intercepted.producer, ProducerRecord(TOPIC, b"v"), None) is None
        assert fit.producer._sender is not None
        monkeypatch.setattr(fit.producer._sender, "running", False)
        assert common(fit.producer, ProducerRecord(TOPIC, b"v"), None) is None
    finally:
        monkeypatch.undo()
        for producer in producers:
            producer.close(0)


def test_send_common_alternating_producers_append_to_their_own_batches() -> None:
    """Sends alternating between two fit producers (the compiled path remembers the last producer and accumulator it
    read) each land in their own producer's batch, with their own futures."""
    from kafka.clients.producer import kafka_producer

    common = kafka_producer._send_common
    if common is None:
        pytest.skip("the optional _default_record_writer extension is not built")
    fixtures = [Fixture(partitions=1, enable_idempotence=False, linger_ms=2**31 - 1) for _ in range(2)]
    try:
        for f in fixtures:
            f.producer._key_serializer_is_bytes = f.producer._value_serializer_is_bytes = True
            f.producer.send(ProducerRecord(TOPIC, b"first"))  # the topic's first batch: send's Python
        futures: list[list[Any]] = [[], []]
        for i in range(20):
            for which, f in enumerate(fixtures):
                future = common(f.producer, ProducerRecord(TOPIC, b"%d-%d" % (which, i)), None)
                assert future is not None
                futures[which].append(future)
        for which, f in enumerate(fixtures):
            dq = f.producer._accumulator.get_deque(TopicPartition(TOPIC, 0))
            assert dq is not None
            (batch,) = dq
            assert batch.record_count == 21
            assert [fut._batch_index for fut in futures[which]] == list(range(1, 21))
            assert all(fut._result is batch.produce_future for fut in futures[which])
            batch.close()
            values = [r.value() for r in next(iter(batch.records().batches()))]
            assert values == [b"first"] + [b"%d-%d" % (which, i) for i in range(20)]
    finally:
        for f in fixtures:
            f.producer.close(0)


def test_send_common_asks_fetch_for_send_when_it_has_work(monkeypatch: pytest.MonkeyPatch) -> None:
    """send_common reads fetch_for_send's answer itself only while it would do nothing (the lookup made with the
    current metadata snapshot, the topic's expiry set this millisecond); an expired topic or a new snapshot makes it
    call fetch_for_send, which refreshes them."""
    from kafka.clients.producer import kafka_producer

    common = kafka_producer._send_common
    if common is None:
        pytest.skip("the optional _default_record_writer extension is not built")
    calls = [0]
    fetch_for_send = ProducerMetadata.fetch_for_send

    def counting(self: ProducerMetadata, topic: str, now_ms: int) -> Any:
        calls[0] += 1
        return fetch_for_send(self, topic, now_ms)

    monkeypatch.setattr(ProducerMetadata, "fetch_for_send", counting)
    f = Fixture(enable_idempotence=False, linger_ms=2**31 - 1)
    f.producer._key_serializer_is_bytes = f.producer._value_serializer_is_bytes = True
    try:
        f.producer.send(ProducerRecord(TOPIC, b"first"))  # the topic's first batch: send's Python
        f.metadata._topics[TOPIC] = 0
        calls[0] = 0
        assert common(f.producer, ProducerRecord(TOPIC, b"v"), None) is not None
        assert calls[0] == 1 and f.metadata._topics[TOPIC] > 0
        f.client.update_metadata(metadata_update_with(1, {TOPIC: 3}))
        assert common(f.producer, ProducerRecord(TOPIC, b"v"), None) is not None
        assert calls[0] == 2
        for _ in range(100):
            before = calls[0]
            assert common(f.producer, ProducerRecord(TOPIC, b"v"), None) is not None
            if calls[0] == before:
                break
        else:
            raise AssertionError("fetch_for_send was called for every send")
    finally:
        f.producer.close(0)
