"""Tests of Sender (with TransactionManager for the idempotent producer), after clients/src/test/java/org/apache/
kafka/clients/producer/internals/SenderTest.java (Kafka 3.7), driven through MockClient."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import pytest

from kafka.clients.api_versions import ApiVersions
from kafka.clients.producer.callback import Callback
from kafka.clients.producer.internals.future_record_metadata import FutureRecordMetadata
from kafka.clients.producer.internals.producer_metadata import ProducerMetadata
from kafka.clients.producer.internals.record_accumulator import RecordAccumulator
from kafka.clients.producer.internals.sender import Sender
from kafka.clients.producer.internals.transaction_manager import TransactionManager
from kafka.common.errors import (
    InvalidRecordException,
    KafkaException,
    NetworkException,
    NotEnoughReplicasException,
    OutOfOrderSequenceException,
    RecordTooLargeException,
    TimeoutException,
    TopicAuthorizationException,
)
from kafka.common.internals.cluster_resource_listeners import ClusterResourceListeners
from kafka.common.message import InitProducerIdResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.record.compression_type import CompressionType
from kafka.common.requests.init_producer_id_response import InitProducerIdResponse
from kafka.common.requests.produce_response import PartitionResponse, RecordError
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.time import MockTime
from tests.unit.kafka.clients.mock_client import MockClient
from tests.unit.kafka.clients.producer.internals.producer_test_utils import (
    LOG_CONTEXT,
    accumulator,
    produce_response,
    produce_response_for,
)
from tests.unit.kafka.common.requests.request_test_utils import metadata_update_with

TOPIC = "test"
TP0 = TopicPartition(TOPIC, 0)
TP1 = TopicPartition(TOPIC, 1)
MAX_REQUEST_SIZE = 1024 * 1024
MAX_BLOCK = 1000
PRODUCER_ID = 343434
PRODUCER_EPOCH = 0


@dataclass
class Harness:
    time: MockTime
    metadata: ProducerMetadata
    client: MockClient
    accumulator: RecordAccumulator
    sender: Sender
    tm: TransactionManager | None

    def append(
        self, tp: TopicPartition = TP0, value: bytes = b"value", key: bytes | None = b"key"
    ) -> FutureRecordMetadata:
        now = self.time.milliseconds()
        result = self.accumulator.append(
            tp.topic, tp.partition, now, key, value, None, None, MAX_BLOCK, False, now, self.metadata.fetch()
        )
        assert result.future is not None
        return result.future

    def run_once(self, times: int = 1) -> None:
        for _ in range(times):
            self.sender.run_once()

    def produce_requests(self) -> list[Any]:
        return [r for r in self.client.requests if r.api_key is ApiKeys.PRODUCE]

    def request_batch(self, index: int = 0, tp: TopicPartition = TP0) -> Any:
        """The record batch for `tp` in the index-th outstanding produce request."""
        body = self.produce_requests()[index].request_builder.build()
        for topic in body.data.topic_data:
            for partition in topic.partition_data:
                if topic.name == tp.topic and partition.index == tp.partition:
                    return next(iter(partition.records.batches()))
        raise AssertionError(f"no batch for {tp}")

    def init_producer_id(self, producer_id: int = PRODUCER_ID, epoch: int = PRODUCER_EPOCH) -> None:
        self.client.prepare_response(
            lambda body: body.api_key is ApiKeys.INIT_PRODUCER_ID,
            InitProducerIdResponse(InitProducerIdResponseData(producer_id=producer_id, producer_epoch=epoch)),
        )
        self.run_once()
        assert self.tm is not None and self.tm.has_producer_id()


def harness(
    idempotent: bool = False,
    retries: int = 2**31 - 1,
    acks: int = -1,
    max_in_flight: int = 5,
    delivery_timeout_ms: int = 120_000,
    batch_size: int = 16384,
    compression: CompressionType = CompressionType.NONE,
    partitions: int = 2,
) -> Harness:
    time = MockTime(start_ms=1_000_000)
    metadata = ProducerMetadata(100, 1000, 60_000, 60_000, LOG_CONTEXT, ClusterResourceListeners(), time)
    client = MockClient(time, metadata)
    api_versions = ApiVersions()
    tm = TransactionManager(LOG_CONTEXT, None, 60_000, 100, api_versions) if idempotent else None
    acc = accumulator(
        time,
        batch_size=batch_size,
        linger_ms=0,
        delivery_timeout_ms=delivery_timeout_ms,
        transaction_manager=tm,
        compression=compression,
        api_versions=api_versions,
        retry_backoff_ms=100,
        retry_backoff_max_ms=100,
    )
    sender = Sender(
        LOG_CONTEXT,
        client,
        metadata,
        acc,
        max_in_flight == 1,
        MAX_REQUEST_SIZE,
        acks,
        retries,
        time,
        30_000,
        100,
        tm,
        api_versions,
    )
    metadata.add(TOPIC, time.milliseconds())
    client.update_metadata(metadata_update_with(1, {TOPIC: partitions}))
    return Harness(time, metadata, client, acc, sender, tm)


def test_simple() -> None:
    """A queued record is sent in one produce request and its future gets the offset the broker assigned."""
    h = harness()
    future = h.append()
    h.run_once()  # connect and send
    assert len(h.produce_requests()) == 1
    assert h.client.in_flight_request_count() == 1
    assert not future.is_done()
    h.client.respond(produce_response(TP0, offset=315))
    h.run_once()
    assert future.is_done()
    metadata = future.get(0)
    assert (metadata.topic, metadata.partition, metadata.offset) == (TOPIC, 0, 315)
    assert metadata.serialized_key_size == 3 and metadata.serialized_value_size == 5
    assert h.client.in_flight_request_count() == 0


def test_acks_zero_completes_without_response() -> None:
    """With acks=0 the request expects no answer; once the client reports it sent, the record completes with -1."""
    from kafka.clients.client_response import ClientResponse

    h = harness(acks=0)
    future = h.append()
    h.run_once()
    request = h.produce_requests()[0]
    assert not request.expect_response
    # What NetworkClient reports for a request that expects no response: completed, without a body.
    h.client.requests.remove(request)
    h.client.responses.append(
        ClientResponse(
            request.make_header(9),
            request.callback,
            request.destination,
            request.created_time_ms,
            h.time.milliseconds(),
            False,
            None,
            None,
            None,
        )
    )
    h.run_once()
    assert future.is_done()
    assert future.get(0).offset == -1
    assert not future.get(0).has_offset()


def test_retry_after_disconnect_then_success() -> None:
    """A request lost to a disconnect is retried (after the backoff) and then succeeds."""
    h = harness(retries=1)
    future = h.append()
    h.run_once()
    h.client.respond(produce_response(TP0), disconnected=True)
    h.run_once()  # handles the disconnect: the batch goes back to the accumulator
    assert not future.is_done()
    assert h.produce_requests() == []
    h.time.sleep(100)
    h.run_once()
    assert len(h.produce_requests()) == 1
    h.client.respond(produce_response(TP0, offset=42))
    h.run_once()
    assert future.get(0).offset == 42


def test_retries_exhausted_fails_with_last_error() -> None:
    """Once retries are spent, the record fails with the broker's (retriable) error."""
    h = harness(retries=1)
    future = h.append()
    h.run_once()
    h.client.respond(produce_response(TP0, error=Errors.NOT_ENOUGH_REPLICAS))
    h.run_once()
    h.time.sleep(100)
    h.run_once()
    h.client.respond(produce_response(TP0, error=Errors.NOT_ENOUGH_REPLICAS))
    h.run_once()
    assert future.is_done()
    with pytest.raises(NotEnoughReplicasException):
        future.get(0)


def test_non_retriable_error_fails_at_once() -> None:
    """A non-retriable error fails the record without a retry."""
    h = harness()
    future = h.append()
    h.run_once()
    h.client.respond(produce_response(TP0, error=Errors.TOPIC_AUTHORIZATION_FAILED))
    h.run_once()
    with pytest.raises(TopicAuthorizationException, match=r"Not authorized to access topics: \[test\]"):
        future.get(0)
    assert h.produce_requests() == []


def test_network_error_is_retried_until_delivery_timeout() -> None:
    """An in-flight batch past delivery.timeout.ms expires with a TimeoutException naming the elapsed time."""
    h = harness(delivery_timeout_ms=1500)
    future = h.append()
    h.run_once()
    h.time.sleep(1500)
    h.run_once()
    with pytest.raises(TimeoutException, match=r"Expiring 1 record\(s\) for test-0:1500 ms has passed since batch"):
        future.get(0)


def test_record_errors_fail_only_their_records() -> None:
    """INVALID_RECORD with per-record errors fails the bad record with its message and the others generically."""
    h = harness()
    futures = [h.append(value=b"v%d" % i) for i in range(3)]
    h.run_once()
    h.client.respond(
        produce_response(
            TP0,
            error=Errors.INVALID_RECORD,
            record_errors=[RecordError(1, "bad one"), RecordError(2, None)],
            error_message="batch message",
        )
    )
    h.run_once()
    with pytest.raises(InvalidRecordException, match="bad one"):
        futures[1].get(0)
    with pytest.raises(InvalidRecordException, match="batch message"):
        futures[2].get(0)
    with pytest.raises(KafkaException, match="part of a batch which had one more more invalid records"):
        futures[0].get(0)


def test_message_too_large_splits_the_batch() -> None:
    """MESSAGE_TOO_LARGE splits the batch into batch.size pieces, sends them again and completes every record."""
    h = harness(batch_size=16384)
    futures = [h.append(value=bytes([i]) * 1000) for i in range(10)]
    h.run_once()
    assert h.request_batch().count() == 10
    h.accumulator._batch_size = 4096  # the split size (Java reads it from the accumulator too)
    h.client.respond(produce_response(TP0, error=Errors.MESSAGE_TOO_LARGE))
    h.run_once()  # split, and the first piece is sent at once
    counts = []
    offset = 0
    while h.produce_requests() or h.accumulator.has_undrained():
        if not h.produce_requests():
            h.run_once()
            continue
        count = h.request_batch().count()
        counts.append(count)
        h.client.respond(produce_response(TP0, offset=offset))
        offset += 100
        h.run_once()
    assert sum(counts) == 10 and len(counts) > 1
    assert all(f.is_done() for f in futures)
    offsets = [f.get(0).offset for f in futures]
    assert offsets == sorted(offsets)
    assert offsets[0] == 0


def test_message_too_large_single_record_fails() -> None:
    """A batch of one record cannot be split: MESSAGE_TOO_LARGE fails it with RecordTooLargeException."""
    h = harness()
    future = h.append(value=bytes(1000))
    h.run_once()
    h.client.respond(produce_response(TP0, error=Errors.MESSAGE_TOO_LARGE))
    h.run_once()
    with pytest.raises(RecordTooLargeException):
        future.get(0)


def test_callbacks_run_in_send_order_per_partition() -> None:
    """Callbacks of one partition run in the order the records were sent."""
    h = harness()
    order: list[int] = []
    futures = []
    for i in range(5):
        now = h.time.milliseconds()
        # Duck-typed, not a Callback subclass: a subclass would change what the accumulator's isinstance checks see.
        recorder: Callback = _Recorder(order, i)  # type: ignore[assignment]
        result = h.accumulator.append(
            TOPIC, 0, now, None, b"%d" % i, None, recorder, MAX_BLOCK, False, now, h.metadata.fetch()
        )
        futures.append(result.future)
    h.run_once()
    h.client.respond(produce_response(TP0, offset=10))
    h.run_once()
    assert order == [0, 1, 2, 3, 4]


class _Recorder:
    def __init__(self, order: list[int], index: int) -> None:
        self._order = order
        self._index = index

    def set_partition(self, partition: int) -> None:
        pass

    def on_completion(self, metadata: Any, exception: BaseException | None) -> None:
        assert exception is None
        self._order.append(self._index)


# ---- idempotence -------------------------------------------------------------------------------------------


def test_idempotent_producer_gets_a_producer_id_before_sending() -> None:
    """The idempotent producer sends InitProducerId first and stamps batches with the id, epoch and sequence 0."""
    h = harness(idempotent=True)
    future = h.append()
    h.init_producer_id()
    h.run_once()
    batch = h.request_batch()
    assert (batch.producer_id(), batch.producer_epoch(), batch.base_sequence()) == (PRODUCER_ID, PRODUCER_EPOCH, 0)
    h.client.respond(produce_response(TP0, offset=0))
    h.run_once()
    assert future.get(0).offset == 0
    assert h.tm is not None and h.tm.sequence_number(TP0) == 1
    assert h.tm.last_acked_sequence(TP0) == 0


def test_idempotent_sequences_increase_with_records_and_keep_five_in_flight() -> None:
    """Consecutive batches get consecutive sequences, with up to five requests in flight to a partition."""
    h = harness(idempotent=True)
    h.init_producer_id()
    futures = []
    for i in range(5):
        futures.append(h.append(value=b"a%d" % i))
        futures.append(h.append(value=b"b%d" % i))
        h.run_once()
    assert len(h.produce_requests()) == 5
    assert [h.request_batch(i).base_sequence() for i in range(5)] == [0, 2, 4, 6, 8]
    for i in range(5):
        h.client.respond(produce_response(TP0, offset=2 * i))
    h.run_once()
    assert [f.get(0).offset for f in futures] == list(range(10))
    assert h.tm is not None and h.tm.last_acked_sequence(TP0) == 9


def test_retried_batches_keep_their_sequence_order() -> None:
    """When the first of two in-flight batches fails with a retriable error and the second with OUT_OF_ORDER,
    both are retried in sequence order, one request at a time, and succeed."""
    h = harness(idempotent=True)
    h.init_producer_id()
    f1 = h.append(value=b"1")
    h.run_once()
    f2 = h.append(value=b"2")
    h.run_once()
    assert [h.request_batch(i).base_sequence() for i in range(2)] == [0, 1]
    h.client.respond(produce_response(TP0, error=Errors.NOT_LEADER_OR_FOLLOWER))
    h.run_once()
    h.client.respond(produce_response(TP0, error=Errors.OUT_OF_ORDER_SEQUENCE_NUMBER))
    h.run_once()
    assert not f1.is_done() and not f2.is_done()
    dq = h.accumulator.get_deque(TP0)
    assert dq is not None and [b.base_sequence() for b in dq] == [0, 1]
    h.time.sleep(100)
    h.client.update_metadata(metadata_update_with(1, {TOPIC: 2}))
    h.run_once()
    # Only the earliest sequence goes while retrying.
    assert len(h.produce_requests()) == 1 and h.request_batch().base_sequence() == 0
    h.client.respond(produce_response(TP0, offset=0))
    h.run_once()
    h.run_once()
    assert len(h.produce_requests()) == 1 and h.request_batch().base_sequence() == 1
    h.client.respond(produce_response(TP0, offset=1))
    h.run_once()
    assert (f1.get(0).offset, f2.get(0).offset) == (0, 1)
    assert h.tm is not None and h.tm.producer_id_and_epoch().epoch == PRODUCER_EPOCH


def test_out_of_order_sequence_bumps_the_epoch() -> None:
    """OUT_OF_ORDER_SEQUENCE_NUMBER for the next expected batch (a real gap) bumps the epoch locally and the batch is
    retried from sequence 0 under the new epoch, as Java 3.7's idempotent producer does."""
    h = harness(idempotent=True)
    h.init_producer_id()
    f0 = h.append(value=b"0")
    h.run_once()
    h.client.respond(produce_response(TP0, offset=0))
    h.run_once()
    assert f0.get(0).offset == 0
    f1 = h.append(value=b"1")
    h.run_once()
    assert h.request_batch().base_sequence() == 1
    h.client.respond(produce_response(TP0, error=Errors.OUT_OF_ORDER_SEQUENCE_NUMBER))
    h.run_once()
    h.time.sleep(100)
    h.run_once()  # bumps the epoch, then resends
    assert h.tm is not None
    assert h.tm.producer_id_and_epoch().epoch == PRODUCER_EPOCH + 1
    batch = h.request_batch()
    assert (batch.producer_id(), batch.producer_epoch(), batch.base_sequence()) == (PRODUCER_ID, 1, 0)
    h.client.respond(produce_response(TP0, offset=1))
    h.run_once()
    assert f1.get(0).offset == 1


def test_unknown_producer_id_after_log_truncation_bumps_the_epoch() -> None:
    """UNKNOWN_PRODUCER_ID with a log start offset beyond everything acknowledged restarts sequences under a new
    epoch and retries the batch."""
    h = harness(idempotent=True)
    h.init_producer_id()
    f0 = h.append(value=b"0")
    h.run_once()
    h.client.respond(produce_response(TP0, offset=0))
    h.run_once()
    f0.get(0)
    f1 = h.append(value=b"1")
    h.run_once()
    h.client.respond(produce_response(TP0, error=Errors.UNKNOWN_PRODUCER_ID, log_start_offset=10))
    h.run_once()
    h.time.sleep(100)
    h.run_once()
    batch = h.request_batch()
    assert (batch.producer_epoch(), batch.base_sequence()) == (PRODUCER_EPOCH + 1, 0)
    h.client.respond(produce_response(TP0, offset=11))
    h.run_once()
    assert f1.get(0).offset == 11


def test_duplicate_sequence_completes_without_offset() -> None:
    """DUPLICATE_SEQUENCE_NUMBER means the batch was already written: success, with offset -1."""
    h = harness(idempotent=True)
    h.init_producer_id()
    future = h.append()
    h.run_once()
    h.client.respond(produce_response(TP0, offset=-1, error=Errors.DUPLICATE_SEQUENCE_NUMBER))
    h.run_once()
    assert future.get(0).offset == -1


def test_expired_in_flight_batch_leaves_sequence_unresolved_until_resolved() -> None:
    """A retried batch that expires makes the partition unresolved; without later success the epoch is bumped so
    the next batch starts at sequence 0."""
    h = harness(idempotent=True, delivery_timeout_ms=1500)
    h.init_producer_id()
    f0 = h.append()
    h.run_once()
    h.client.respond(produce_response(TP0, error=Errors.NOT_ENOUGH_REPLICAS))
    h.run_once()
    h.time.sleep(1500)
    # The retry is drained and expires in the same pass; its request still goes out, as in Java.
    h.run_once()
    with pytest.raises(TimeoutException):
        f0.get(0)
    assert h.tm is not None and h.tm.has_unresolved_sequence(TP0)
    stale = h.produce_requests()[0]
    f1 = h.append(value=b"next")
    h.run_once()  # no batch in flight any more: resolve by bumping the epoch, then send
    assert not h.tm.has_unresolved_sequence(TP0)
    assert h.tm.producer_id_and_epoch().epoch == PRODUCER_EPOCH + 1
    batch = h.request_batch(1)
    assert (batch.producer_epoch(), batch.base_sequence(), [r.value() for r in batch]) == (1, 0, [b"next"])
    h.client.respond_to_request(stale, produce_response(TP0, error=Errors.NOT_ENOUGH_REPLICAS))
    h.client.respond(produce_response(TP0, offset=5))
    h.run_once()
    assert f1.get(0).offset == 5


def test_init_producer_id_retriable_error_is_retried() -> None:
    """A retriable InitProducerId error (COORDINATOR_LOAD_IN_PROGRESS) is retried until an id is returned."""
    h = harness(idempotent=True)
    h.append()
    h.client.prepare_response(
        lambda body: body.api_key is ApiKeys.INIT_PRODUCER_ID,
        InitProducerIdResponse(InitProducerIdResponseData(error_code=Errors.COORDINATOR_LOAD_IN_PROGRESS.code)),
    )
    h.run_once()
    assert h.tm is not None and not h.tm.has_producer_id()
    h.init_producer_id(producer_id=7)
    assert h.tm.producer_id_and_epoch().producer_id == 7


def test_force_close_fails_pending_records() -> None:
    """A forced close fails records still queued or in flight."""
    h = harness()
    future = h.append()
    h.run_once()
    h.sender.force_close()
    h.sender.run()
    with pytest.raises(KafkaException, match=re.escape("Producer is closed forcefully.")):
        future.get(0)


def test_disconnect_error_is_network_exception_when_out_of_retries() -> None:
    """A disconnect with no retries left fails the record with NetworkException."""
    h = harness(retries=0)
    future = h.append()
    h.run_once()
    h.client.respond(produce_response(TP0), disconnected=True)
    h.run_once()
    with pytest.raises(NetworkException, match="Disconnected from node 0"):
        future.get(0)


def test_out_of_order_for_non_idempotent_producer_is_fatal_for_the_record() -> None:
    """Without idempotence OUT_OF_ORDER_SEQUENCE_NUMBER is not retriable and fails the record."""
    h = harness()
    future = h.append()
    h.run_once()
    h.client.respond(produce_response_for({TP0: PartitionResponse(Errors.OUT_OF_ORDER_SEQUENCE_NUMBER)}))
    h.run_once()
    with pytest.raises(OutOfOrderSequenceException):
        future.get(0)


def test_idempotent_split_keeps_sequences_contiguous() -> None:
    """A split idempotent batch's pieces carry the original producer id and consecutive sequences, and succeed."""
    h = harness(idempotent=True, batch_size=16384)
    h.init_producer_id()
    futures = [h.append(value=bytes([i]) * 1000) for i in range(8)]
    h.run_once()
    assert h.request_batch().base_sequence() == 0
    h.accumulator._batch_size = 4096
    h.client.respond(produce_response(TP0, error=Errors.MESSAGE_TOO_LARGE))
    h.run_once()
    sequences = []
    offset = 0
    for _ in range(20):
        if not h.produce_requests():
            if not h.accumulator.has_undrained():
                break
            h.run_once()
            continue
        batch = h.request_batch()
        sequences.append((batch.producer_id(), batch.base_sequence(), batch.count()))
        h.client.respond(produce_response(TP0, offset=offset))
        offset += batch.count()
        h.run_once()
    assert len(sequences) > 1
    expected = 0
    for producer_id, base_sequence, count in sequences:
        assert producer_id == PRODUCER_ID and base_sequence == expected
        expected += count
    assert expected == 8
    assert [f.get(0).offset for f in futures] == list(range(8))
    assert h.tm is not None and h.tm.last_acked_sequence(TP0) == 7


def test_wakeup_is_written_once_until_the_loop_starts_a_new_pass() -> None:
    """While a wakeup is pending, more wakeups write nothing; a new pass of the loop makes the next one count."""
    h = harness()
    written: list[int] = []
    h.client.set_wakeup_hook(lambda: written.append(1))
    h.sender.wakeup()
    h.sender.wakeup()
    h.sender.wakeup()
    assert len(written) == 1
    h.run_once()
    h.sender.wakeup()
    h.sender.wakeup()
    assert len(written) == 2


def test_records_appended_while_a_wakeup_is_pending_are_sent_by_the_next_pass() -> None:
    """A wakeup skipped because one was pending loses nothing: the next pass finds the new batch and sends it."""
    h = harness()
    h.sender.wakeup()  # pending
    future = h.append(TP1)
    h.sender.wakeup()  # skipped
    h.run_once()
    assert [p.index for p in h.produce_requests()[0].request_builder.build().data.topic_data[0].partition_data] == [1]
    h.client.respond(produce_response(TP1, offset=7))
    h.run_once()
    assert future.get(0).offset == 7


def test_close_wakes_the_loop_even_with_a_wakeup_pending() -> None:
    """initiate_close always writes its wakeup, so a loop blocked in poll sees the close at once."""
    h = harness()
    written: list[int] = []
    h.client.set_wakeup_hook(lambda: written.append(1))
    h.sender.wakeup()
    h.sender.initiate_close()
    assert len(written) == 2
    assert not h.sender.is_running()
