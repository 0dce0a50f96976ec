"""Tests of the transaction APIs of kafka.server.kafka_apis, after the transaction cases of Kafka's KafkaApisTest:
each request is serialized, parsed as the broker parses it, handled against a fake TransactionCoordinator (and
fake group coordinator and replica manager), and the response read back from the bytes the broker would send.
What is checked is what KafkaApis itself decides: the arguments handed to the coordinators, the per-partition
errors it answers without them (unknown topics, old message formats, internal topics), the error mapping for
old clients (PRODUCER_FENCED as INVALID_PRODUCER_EPOCH), and the control batches WriteTxnMarkers appends."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import pytest

from kafka.common.message import (
    AddOffsetsToTxnRequestData,
    AddPartitionsToTxnRequestData,
    AddPartitionsToTxnResponseData,
    ApiVersionsRequestData,
    DescribeProducersRequestData,
    DescribeProducersResponseData,
    DescribeTransactionsRequestData,
    DescribeTransactionsResponseData,
    EndTxnRequestData,
    FindCoordinatorRequestData,
    InitProducerIdRequestData,
    LeaderAndIsrRequestData,
    LeaderAndIsrResponseData,
    ListTransactionsRequestData,
    ListTransactionsResponseData,
    ProduceRequestData,
    TxnOffsetCommitRequestData,
    WriteTxnMarkersRequestData,
)
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.record.compression_type import CompressionType
from kafka.common.record.control_record_type import ControlRecordType
from kafka.common.record.end_transaction_marker import EndTransactionMarker
from kafka.common.record.memory_records import MemoryRecords
from kafka.common.record.simple_record import SimpleRecord
from kafka.common.requests.leader_and_isr_response import LeaderAndIsrResponse
from kafka.common.requests.produce_response import PartitionResponse
from kafka.common.requests.transaction_result import TransactionResult
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.producer_id_and_epoch import ProducerIdAndEpoch
from kafka.coordinator.transaction.transaction_coordinator import InitProducerIdResult
from kafka.log.log_validator import Coordinator
from kafka.server.kafka_apis import KafkaApis
from kafka.server.request_handler_helper import on_leadership_change
from tests.unit.kafka.server.test_kafka_apis import (
    OFFSETS,
    FakeGroupCoordinator,
    FakePartition,
    FakeReplicaManager,
    Harness,
    RecordingCoordinator,
    _harness,
    _request,
    stop_replica_deleting,
)

TXN_STATE = "__transaction_state"
T0 = TopicPartition("t", 0)
T1 = TopicPartition("t", 1)


# ---- fakes ------------------------------------------------------------------------------------------


@dataclass
class FakeTxnCoordinator(RecordingCoordinator):
    """Records every call; answers with what the test put in its fields (at once, on the calling thread)."""

    init_result: InitProducerIdResult = field(default_factory=lambda: InitProducerIdResult(4000, 3, Errors.NONE))
    add_error: Errors = Errors.NONE
    end_error: Errors = Errors.NONE
    verify_errors: dict[TopicPartition, Errors] = field(default_factory=dict)
    list_result: ListTransactionsResponseData = field(default_factory=ListTransactionsResponseData)

    def partition_for(self, transactional_id: str) -> int:
        return 2

    def handle_init_producer_id(
        self,
        transactional_id: str | None,
        timeout_ms: int,
        producer_id_and_epoch: ProducerIdAndEpoch | None,
        callback: Callable[[InitProducerIdResult], None],
    ) -> None:
        self.calls.append(("init", (transactional_id, timeout_ms, producer_id_and_epoch)))
        callback(self.init_result)

    def handle_add_partitions_to_transaction(
        self, transactional_id: str, producer_id: int, epoch: int, partitions: set[TopicPartition], callback: Any
    ) -> None:
        self.calls.append(("add", (transactional_id, producer_id, epoch, partitions)))
        callback(self.add_error)

    def handle_verify_partitions_in_transaction(
        self, transactional_id: str, producer_id: int, epoch: int, partitions: set[TopicPartition], callback: Any
    ) -> None:
        self.calls.append(("verify", (transactional_id, producer_id, epoch, partitions)))
        topics = AddPartitionsToTxnResponseData.AddPartitionsToTxnTopicResultCollection()
        for topic in sorted({tp.topic for tp in partitions}):
            results = AddPartitionsToTxnResponseData.AddPartitionsToTxnPartitionResultCollection()
            for tp in sorted(p for p in partitions if p.topic == topic):
                error = self.verify_errors.get(tp, Errors.NONE)
                results.append(
                    AddPartitionsToTxnResponseData.AddPartitionsToTxnPartitionResult(
                        partition_index=tp.partition, partition_error_code=error.code
                    )
                )
            topics.append(
                AddPartitionsToTxnResponseData.AddPartitionsToTxnTopicResult(name=topic, results_by_partition=results)
            )
        callback(
            AddPartitionsToTxnResponseData.AddPartitionsToTxnResult(
                transactional_id=transactional_id, topic_results=topics
            )
        )

    def handle_end_transaction(
        self, transactional_id: str, producer_id: int, epoch: int, result: TransactionResult, callback: Any
    ) -> None:
        self.calls.append(("end", (transactional_id, producer_id, epoch, result)))
        callback(self.end_error)

    def handle_describe_transactions(self, transactional_id: str) -> Any:
        self.calls.append(("describe", (transactional_id,)))
        if transactional_id == "missing":
            return DescribeTransactionsResponseData.TransactionState(
                transactional_id=transactional_id, error_code=Errors.TRANSACTIONAL_ID_NOT_FOUND.code
            )
        return DescribeTransactionsResponseData.TransactionState(
            transactional_id=transactional_id,
            transaction_state="Ongoing",
            transaction_timeout_ms=60_000,
            transaction_start_time_ms=1234,
            producer_id=4000,
            producer_epoch=3,
            topics=[DescribeTransactionsResponseData.TopicData(topic="t", partitions=[0, 1])],
        )

    def handle_list_transactions(self, producer_ids: set[int], states: set[str]) -> ListTransactionsResponseData:
        self.calls.append(("list", (producer_ids, states)))
        return self.list_result


class TxnGroupCoordinator(FakeGroupCoordinator):
    """The group coordinator's transactional side: TxnOffsetCommit and the completion the markers trigger."""

    def __init__(self) -> None:
        super().__init__()
        self.txn_commit_errors: dict[TopicPartition, Errors] = {}
        self.completion_error: Exception | None = None

    def handle_txn_commit_offsets(self, *args: Any) -> None:
        self.calls.append(("txn_commit", args[:-1]))
        offsets = args[-2]
        args[-1]({tp: self.txn_commit_errors.get(tp, Errors.NONE) for tp in offsets})

    def schedule_handle_txn_completion(
        self, producer_id: int, partitions: list[TopicPartition], result: TransactionResult
    ) -> None:
        self.calls.append(("txn_completion", (producer_id, sorted(partitions), result)))
        if self.completion_error is not None:
            raise self.completion_error


class TxnReplicaManager(FakeReplicaManager):
    """Message formats per partition, appends recorded and answered with the test's errors, producer states."""

    def __init__(self, base: FakeReplicaManager) -> None:
        super().__init__(base.metadata_cache)
        self.magic: dict[TopicPartition, int] = {}
        self.append_errors: dict[TopicPartition, Errors] = {}
        self.appends: list[dict[str, Any]] = []
        # When set, the callbacks of the appends wait here until the test completes them.
        self.hold_callbacks = False
        self.held: list[Callable[[], None]] = []

    def get_magic(self, tp: TopicPartition) -> int | None:
        return self.magic.get(tp)

    def append_records(
        self,
        timeout: int,
        required_acks: int,
        internal_topics_allowed: bool,
        origin: Any,
        entries_per_partition: Mapping[TopicPartition, MemoryRecords],
        response_callback: Callable[[dict[TopicPartition, PartitionResponse]], None],
        **_: Any,
    ) -> None:
        self.appends.append(
            {
                "timeout": timeout,
                "acks": required_acks,
                "internal": internal_topics_allowed,
                "origin": origin,
                "entries": dict(entries_per_partition),
            }
        )
        status = {tp: PartitionResponse(self.append_errors.get(tp, Errors.NONE)) for tp in entries_per_partition}
        if self.hold_callbacks:
            self.held.append(lambda: response_callback(status))
        else:
            response_callback(status)

    def active_producer_state(self, tp: TopicPartition) -> Any:
        return DescribeProducersResponseData.PartitionResponse(
            partition_index=tp.partition,
            active_producers=[
                DescribeProducersResponseData.ProducerState(
                    producer_id=4000,
                    producer_epoch=3,
                    last_sequence=9,
                    last_timestamp=1234,
                    coordinator_epoch=5,
                    current_txn_start_offset=17,
                )
            ],
        )


@dataclass
class TxnHarness:
    h: Harness
    txn: FakeTxnCoordinator
    group: TxnGroupCoordinator
    replicas: TxnReplicaManager

    def handle(self, api_key: ApiKeys, version: int, data: Any) -> Any:
        return self.h.handle(api_key, version, data)


def _txn_harness(topics: dict[str, int] | None = None, **config: str) -> TxnHarness:
    h = _harness(topics, **config)
    txn = FakeTxnCoordinator()
    group = TxnGroupCoordinator()
    replicas = TxnReplicaManager(h.replica_manager)
    h.apis.txn_coordinator = txn  # type: ignore[assignment]
    h.apis.group_coordinator = group
    h.apis.replica_manager = replicas  # type: ignore[assignment]
    return TxnHarness(h, txn, group, replicas)


def _v3_partition_errors(response: Any) -> dict[tuple[str, int], int]:
    return {
        (topic.name, p.partition_index): p.partition_error_code
        for topic in response.data.results_by_topic_v3_and_below
        for p in topic.results_by_partition
    }


def _add_partitions_v3(version: int, partitions: dict[str, list[int]], txn_id: str = "tx") -> Any:
    topics = AddPartitionsToTxnRequestData.AddPartitionsToTxnTopicCollection(
        AddPartitionsToTxnRequestData.AddPartitionsToTxnTopic(name=t, partitions=ps) for t, ps in partitions.items()
    )
    return AddPartitionsToTxnRequestData(
        v3_and_below_transactional_id=txn_id,
        v3_and_below_producer_id=4000,
        v3_and_below_producer_epoch=3,
        v3_and_below_topics=topics,
    )


# ---- InitProducerId ---------------------------------------------------------------------------------


@pytest.mark.parametrize("version", [0, 1, 2, 3, 4])
def test_init_producer_id_goes_to_the_transaction_coordinator(version: int) -> None:
    """The transactional id and timeout go to the coordinator, whose producer id and epoch are the answer."""
    t = _txn_harness()
    response = t.handle(
        ApiKeys.INIT_PRODUCER_ID, version, InitProducerIdRequestData(transactional_id="tx", transaction_timeout_ms=9000)
    )
    assert t.txn.calls == [("init", ("tx", 9000, None))]
    assert (response.data.error_code, response.data.producer_id, response.data.producer_epoch) == (0, 4000, 3)


def test_init_producer_id_of_an_idempotent_producer_goes_to_the_coordinator() -> None:
    """Without a transactional id the coordinator still answers (it hands out idempotent producer ids too)."""
    t = _txn_harness()
    response = t.handle(ApiKeys.INIT_PRODUCER_ID, 4, InitProducerIdRequestData(transactional_id=None))
    assert t.txn.calls == [("init", (None, InitProducerIdRequestData().transaction_timeout_ms, None))]
    assert response.data.producer_id == 4000


def test_init_producer_id_with_an_epoch_to_bump() -> None:
    """From v3 the producer's current id and epoch go to the coordinator (KIP-360)."""
    t = _txn_harness()
    data = InitProducerIdRequestData(transactional_id="tx", transaction_timeout_ms=1, producer_id=77, producer_epoch=5)
    t.handle(ApiKeys.INIT_PRODUCER_ID, 3, data)
    assert t.txn.calls == [("init", ("tx", 1, ProducerIdAndEpoch(77, 5)))]


@pytest.mark.parametrize(("producer_id", "epoch"), [(77, -1), (-1, 5)])
def test_init_producer_id_with_half_an_id_is_invalid(producer_id: int, epoch: int) -> None:
    """A producer id without its epoch (or the reverse) is INVALID_REQUEST, and the coordinator is not asked."""
    t = _txn_harness()
    data = InitProducerIdRequestData(transactional_id="tx", producer_id=producer_id, producer_epoch=epoch)
    response = t.handle(ApiKeys.INIT_PRODUCER_ID, 4, data)
    assert response.data.error_code == Errors.INVALID_REQUEST.code
    assert t.txn.calls == []


@pytest.mark.parametrize(("version", "expected"), [(3, Errors.INVALID_PRODUCER_EPOCH), (4, Errors.PRODUCER_FENCED)])
def test_init_producer_id_fenced_for_old_clients(version: int, expected: Errors) -> None:
    """PRODUCER_FENCED reaches clients before v4 as INVALID_PRODUCER_EPOCH."""
    t = _txn_harness()
    t.txn.init_result = InitProducerIdResult(-1, -1, Errors.PRODUCER_FENCED)
    response = t.handle(ApiKeys.INIT_PRODUCER_ID, version, InitProducerIdRequestData(transactional_id="tx"))
    assert response.data.error_code == expected.code


# ---- EndTxn -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("committed", "result"), [(True, TransactionResult.COMMIT), (False, TransactionResult.ABORT)])
def test_end_txn_goes_to_the_coordinator(committed: bool, result: TransactionResult) -> None:
    """EndTxn hands the id, producer and outcome to the coordinator and answers its error."""
    t = _txn_harness()
    t.txn.end_error = Errors.INVALID_TXN_STATE
    data = EndTxnRequestData(transactional_id="tx", producer_id=4000, producer_epoch=3, committed=committed)
    response = t.handle(ApiKeys.END_TXN, 3, data)
    assert t.txn.calls == [("end", ("tx", 4000, 3, result))]
    assert response.data.error_code == Errors.INVALID_TXN_STATE.code


@pytest.mark.parametrize(("version", "expected"), [(1, Errors.INVALID_PRODUCER_EPOCH), (2, Errors.PRODUCER_FENCED)])
def test_end_txn_fenced_for_old_clients(version: int, expected: Errors) -> None:
    """PRODUCER_FENCED reaches EndTxn clients before v2 as INVALID_PRODUCER_EPOCH."""
    t = _txn_harness()
    t.txn.end_error = Errors.PRODUCER_FENCED
    response = t.handle(ApiKeys.END_TXN, version, EndTxnRequestData(transactional_id="tx", committed=True))
    assert response.data.error_code == expected.code


def test_transaction_apis_need_ibp_0_11() -> None:
    """Below inter.broker.protocol.version 0.11.0 the transaction APIs answer UNSUPPORTED_VERSION."""
    t = _txn_harness(topics=None, **{"inter.broker.protocol.version": "0.10.2", "log.message.format.version": "0.10.2"})
    response = t.handle(ApiKeys.END_TXN, 0, EndTxnRequestData(transactional_id="tx", committed=True))
    assert response.data.error_code == Errors.UNSUPPORTED_VERSION.code
    assert t.txn.calls == []


# ---- AddPartitionsToTxn -----------------------------------------------------------------------------


@pytest.mark.parametrize("version", [0, 1, 2, 3])
def test_add_partitions_to_txn_goes_to_the_coordinator(version: int) -> None:
    """Known partitions go to the coordinator; its error is every partition's."""
    t = _txn_harness()
    t.txn.add_error = Errors.CONCURRENT_TRANSACTIONS
    response = t.handle(ApiKeys.ADD_PARTITIONS_TO_TXN, version, _add_partitions_v3(version, {"t": [0, 1]}))
    assert t.txn.calls == [("add", ("tx", 4000, 3, {T0, T1}))]
    assert _v3_partition_errors(response) == {
        ("t", 0): Errors.CONCURRENT_TRANSACTIONS.code,
        ("t", 1): Errors.CONCURRENT_TRANSACTIONS.code,
    }


@pytest.mark.parametrize(("version", "expected"), [(1, Errors.INVALID_PRODUCER_EPOCH), (2, Errors.PRODUCER_FENCED)])
def test_add_partitions_to_txn_fenced_for_old_clients(version: int, expected: Errors) -> None:
    """PRODUCER_FENCED reaches AddPartitionsToTxn clients before v2 as INVALID_PRODUCER_EPOCH."""
    t = _txn_harness()
    t.txn.add_error = Errors.PRODUCER_FENCED
    response = t.handle(ApiKeys.ADD_PARTITIONS_TO_TXN, version, _add_partitions_v3(version, {"t": [0]}))
    assert _v3_partition_errors(response) == {("t", 0): expected.code}


def test_add_partitions_to_txn_with_an_unknown_partition_adds_nothing() -> None:
    """An unknown topic or partition fails the request: UNKNOWN_TOPIC_OR_PARTITION for it, OPERATION_NOT_ATTEMPTED
    for the others, and the coordinator is not asked."""
    t = _txn_harness()
    response = t.handle(ApiKeys.ADD_PARTITIONS_TO_TXN, 3, _add_partitions_v3(3, {"t": [0, 5], "nope": [0]}))
    assert t.txn.calls == []
    assert _v3_partition_errors(response) == {
        ("t", 0): Errors.OPERATION_NOT_ATTEMPTED.code,
        ("t", 5): Errors.UNKNOWN_TOPIC_OR_PARTITION.code,
        ("nope", 0): Errors.UNKNOWN_TOPIC_OR_PARTITION.code,
    }


def test_add_partitions_to_txn_refuses_internal_topics_from_clients() -> None:
    """A producer cannot add an internal topic's partition itself (TOPIC_AUTHORIZATION_FAILED, as Kafka)."""
    t = _txn_harness({"t": 2, OFFSETS: 3})
    response = t.handle(ApiKeys.ADD_PARTITIONS_TO_TXN, 3, _add_partitions_v3(3, {"t": [0], OFFSETS: [1]}))
    assert t.txn.calls == []
    assert _v3_partition_errors(response) == {
        ("t", 0): Errors.OPERATION_NOT_ATTEMPTED.code,
        (OFFSETS, 1): Errors.TOPIC_AUTHORIZATION_FAILED.code,
    }


def _v4_transaction(txn_id: str, partitions: dict[str, list[int]], verify_only: bool) -> Any:
    return AddPartitionsToTxnRequestData.AddPartitionsToTxnTransaction(
        transactional_id=txn_id,
        producer_id=4000,
        producer_epoch=3,
        verify_only=verify_only,
        topics=AddPartitionsToTxnRequestData.AddPartitionsToTxnTopicCollection(
            AddPartitionsToTxnRequestData.AddPartitionsToTxnTopic(name=t, partitions=ps) for t, ps in partitions.items()
        ),
    )


def test_add_partitions_to_txn_v4_answers_every_transaction() -> None:
    """v4 (from brokers) batches transactions: verify-only ones are verified, the others added, one with an unknown
    topic fails alone; each gets its own result."""
    t = _txn_harness({"t": 2, OFFSETS: 3})
    t.txn.verify_errors = {T1: Errors.INVALID_TXN_STATE}
    transactions = AddPartitionsToTxnRequestData.AddPartitionsToTxnTransactionCollection(
        [
            _v4_transaction("verify", {"t": [0, 1]}, True),
            _v4_transaction("add", {"t": [0], OFFSETS: [1]}, False),
            _v4_transaction("bad", {"t": [0], "nope": [0]}, True),
        ]
    )
    response = t.handle(ApiKeys.ADD_PARTITIONS_TO_TXN, 4, AddPartitionsToTxnRequestData(transactions=transactions))
    assert t.txn.calls == [
        ("verify", ("verify", 4000, 3, {T0, T1})),
        # Brokers may name internal topics.
        ("add", ("add", 4000, 3, {T0, TopicPartition(OFFSETS, 1)})),
    ]
    assert response.data.error_code == Errors.NONE.code
    assert response.errors() == {
        "verify": {("t", 0): Errors.NONE, ("t", 1): Errors.INVALID_TXN_STATE},
        "add": {("t", 0): Errors.NONE, (OFFSETS, 1): Errors.NONE},
        "bad": {("t", 0): Errors.OPERATION_NOT_ATTEMPTED, ("nope", 0): Errors.UNKNOWN_TOPIC_OR_PARTITION},
    }


def test_add_partitions_to_txn_v4_without_transactions_is_answered() -> None:
    """An empty v4 request gets an empty answer."""
    t = _txn_harness()
    response = t.handle(ApiKeys.ADD_PARTITIONS_TO_TXN, 4, AddPartitionsToTxnRequestData())
    assert response.errors() == {}


# ---- AddOffsetsToTxn --------------------------------------------------------------------------------


@pytest.mark.parametrize(("version", "expected"), [(0, Errors.INVALID_PRODUCER_EPOCH), (3, Errors.PRODUCER_FENCED)])
def test_add_offsets_to_txn_adds_the_groups_offsets_partition(version: int, expected: Errors) -> None:
    """The group's __consumer_offsets partition joins the transaction; PRODUCER_FENCED is INVALID_PRODUCER_EPOCH
    before v2."""
    t = _txn_harness()
    t.txn.add_error = Errors.PRODUCER_FENCED
    data = AddOffsetsToTxnRequestData(transactional_id="tx", producer_id=4000, producer_epoch=3, group_id="g")
    response = t.handle(ApiKeys.ADD_OFFSETS_TO_TXN, version, data)
    # The fake group coordinator puts every group on partition 1.
    assert t.txn.calls == [("add", ("tx", 4000, 3, {TopicPartition(OFFSETS, 1)}))]
    assert response.data.error_code == expected.code


# ---- TxnOffsetCommit --------------------------------------------------------------------------------


def _txn_offset_commit(partitions: dict[str, list[int]], **fields: Any) -> Any:
    return TxnOffsetCommitRequestData(
        transactional_id="tx",
        group_id="g",
        producer_id=4000,
        producer_epoch=3,
        topics=[
            TxnOffsetCommitRequestData.TxnOffsetCommitRequestTopic(
                name=topic,
                partitions=[
                    TxnOffsetCommitRequestData.TxnOffsetCommitRequestPartition(
                        partition_index=p,
                        committed_offset=100 + p,
                        committed_leader_epoch=7 if p == 0 else -1,
                        committed_metadata="m" if p == 0 else None,
                    )
                    for p in ps
                ],
            )
            for topic, ps in partitions.items()
        ],
        **fields,
    )


def _txn_commit_errors(response: Any) -> dict[tuple[str, int], int]:
    return {(t.name, p.partition_index): p.error_code for t in response.data.topics for p in t.partitions}


def test_txn_offset_commit_goes_to_the_group_coordinator() -> None:
    """Known partitions' offsets go to the group coordinator with the producer, the v3 member fields and the
    time of the request; unknown partitions are answered UNKNOWN_TOPIC_OR_PARTITION."""
    t = _txn_harness()
    t.h.time.sleep(5000)
    data = _txn_offset_commit({"t": [0, 1, 9], "nope": [0]}, member_id="m-1", generation_id=4, group_instance_id="i")
    response = t.handle(ApiKeys.TXN_OFFSET_COMMIT, 3, data)
    ((name, args),) = t.group.calls
    assert name == "txn_commit"
    group_id, producer_id, epoch, member_id, instance_id, generation_id, offsets = args
    assert (group_id, producer_id, epoch, member_id, instance_id, generation_id) == ("g", 4000, 3, "m-1", "i", 4)
    now = t.h.time.milliseconds()
    assert {
        tp: (o.offset, o.leader_epoch, o.metadata, o.commit_timestamp, o.expire_timestamp) for tp, o in offsets.items()
    } == {
        T0: (100, 7, "m", now, None),
        T1: (101, None, "", now, None),
    }
    assert _txn_commit_errors(response) == {
        ("t", 0): 0,
        ("t", 1): 0,
        ("t", 9): Errors.UNKNOWN_TOPIC_OR_PARTITION.code,
        ("nope", 0): Errors.UNKNOWN_TOPIC_OR_PARTITION.code,
    }


def test_txn_offset_commit_before_v3_has_no_member() -> None:
    """Before v3 the request has no member fields: the coordinator gets an unknown member and generation -1."""
    t = _txn_harness()
    t.handle(ApiKeys.TXN_OFFSET_COMMIT, 2, _txn_offset_commit({"t": [1]}))
    ((_, args),) = t.group.calls
    assert args[3:6] == ("", None, -1)


@pytest.mark.parametrize(
    ("version", "expected"), [(1, Errors.COORDINATOR_NOT_AVAILABLE), (2, Errors.COORDINATOR_LOAD_IN_PROGRESS)]
)
def test_txn_offset_commit_load_in_progress_for_old_clients(version: int, expected: Errors) -> None:
    """Producers of v0-1 get COORDINATOR_NOT_AVAILABLE for COORDINATOR_LOAD_IN_PROGRESS (KAFKA-7296)."""
    t = _txn_harness()
    t.group.txn_commit_errors = {T0: Errors.COORDINATOR_LOAD_IN_PROGRESS}
    response = t.handle(ApiKeys.TXN_OFFSET_COMMIT, version, _txn_offset_commit({"t": [0]}))
    assert _txn_commit_errors(response) == {("t", 0): expected.code}


def test_txn_offset_commit_of_unknown_partitions_only() -> None:
    """With no known partition the group coordinator is not asked."""
    t = _txn_harness()
    response = t.handle(ApiKeys.TXN_OFFSET_COMMIT, 3, _txn_offset_commit({"nope": [0]}))
    assert t.group.calls == []
    assert _txn_commit_errors(response) == {("nope", 0): Errors.UNKNOWN_TOPIC_OR_PARTITION.code}


# ---- WriteTxnMarkers --------------------------------------------------------------------------------


def _marker(producer_id: int, committed: bool, partitions: dict[str, list[int]], epoch: int = 3) -> Any:
    return WriteTxnMarkersRequestData.WritableTxnMarker(
        producer_id=producer_id,
        producer_epoch=epoch,
        transaction_result=committed,
        coordinator_epoch=11,
        topics=[
            WriteTxnMarkersRequestData.WritableTxnMarkerTopic(name=t, partition_indexes=ps)
            for t, ps in partitions.items()
        ],
    )


def _marker_errors(response: Any) -> dict[int, dict[tuple[str, int], Errors]]:
    return dict(response.errors_by_producer_id())


def _control_marker(records: MemoryRecords) -> tuple[int, int, ControlRecordType, int]:
    (batch,) = list(records.batches())
    assert batch.is_control_batch() and batch.is_transactional()
    (record,) = list(batch)
    marker = EndTransactionMarker.deserialize(record)
    return batch.producer_id(), batch.producer_epoch(), marker.control_type(), marker.coordinator_epoch()


@pytest.mark.parametrize("version", [0, 1])
def test_write_txn_markers_appends_control_batches(version: int) -> None:
    """Each marker is one append of control batches (origin Coordinator, acks -1, internal topics allowed) with
    the producer, epoch, outcome and coordinator epoch; every partition's append error is answered."""
    t = _txn_harness()
    t.replicas.magic = {T0: 2, T1: 2}
    t.replicas.append_errors = {T1: Errors.NOT_LEADER_OR_FOLLOWER}
    data = WriteTxnMarkersRequestData(markers=[_marker(4000, True, {"t": [0, 1]}), _marker(5000, False, {"t": [0]})])
    response = t.handle(ApiKeys.WRITE_TXN_MARKERS, version, data)
    assert len(t.replicas.appends) == 2
    first, second = t.replicas.appends
    for append in (first, second):
        assert (append["acks"], append["internal"], append["origin"]) == (-1, True, Coordinator())
        assert append["timeout"] == t.h.apis.config.request_timeout_ms
    assert {tp: _control_marker(r) for tp, r in first["entries"].items()} == {
        T0: (4000, 3, ControlRecordType.COMMIT, 11),
        T1: (4000, 3, ControlRecordType.COMMIT, 11),
    }
    assert {tp: _control_marker(r) for tp, r in second["entries"].items()} == {
        T0: (5000, 3, ControlRecordType.ABORT, 11)
    }
    assert _marker_errors(response) == {
        4000: {("t", 0): Errors.NONE, ("t", 1): Errors.NOT_LEADER_OR_FOLLOWER},
        5000: {("t", 0): Errors.NONE},
    }


def test_write_txn_markers_unknown_partitions_and_old_formats() -> None:
    """A partition without a local log is UNKNOWN_TOPIC_OR_PARTITION, one in a format before v2
    UNSUPPORTED_FOR_MESSAGE_FORMAT; neither is appended to, and a marker with nothing left is not appended."""
    t = _txn_harness()
    t.replicas.magic = {T0: 2, T1: 1}
    data = WriteTxnMarkersRequestData(
        markers=[_marker(4000, True, {"t": [0, 1], "nope": [0]}), _marker(5000, True, {"nope": [3]})]
    )
    response = t.handle(ApiKeys.WRITE_TXN_MARKERS, 1, data)
    assert [set(a["entries"]) for a in t.replicas.appends] == [{T0}]
    assert _marker_errors(response) == {
        4000: {
            ("t", 0): Errors.NONE,
            ("t", 1): Errors.UNSUPPORTED_FOR_MESSAGE_FORMAT,
            ("nope", 0): Errors.UNKNOWN_TOPIC_OR_PARTITION,
        },
        5000: {("nope", 3): Errors.UNKNOWN_TOPIC_OR_PARTITION},
    }


def test_write_txn_markers_answer_once_every_append_is_done() -> None:
    """The response waits for the last marker's append, also when a skipped marker comes after the appends."""
    t = _txn_harness()
    t.replicas.magic = {T0: 2, T1: 2}
    t.replicas.hold_callbacks = True
    data = WriteTxnMarkersRequestData(
        markers=[_marker(4000, True, {"t": [0]}), _marker(5000, True, {"t": [1]}), _marker(6000, True, {"no": [0]})]
    )
    request_count = len(t.h.channel.responses)
    t.h.apis.handle(_request(ApiKeys.WRITE_TXN_MARKERS, 1, data))
    assert len(t.h.channel.responses) == request_count
    first, second = t.replicas.held
    second()
    assert len(t.h.channel.responses) == request_count
    first()
    assert len(t.h.channel.responses) == request_count + 1


def test_write_txn_markers_in_the_offsets_topic_complete_the_groups_transaction() -> None:
    """Markers written to __consumer_offsets partitions hand the transaction's outcome to the group coordinator
    (only for the partitions that were written)."""
    t = _txn_harness({"t": 2, OFFSETS: 3})
    o0, o1 = TopicPartition(OFFSETS, 0), TopicPartition(OFFSETS, 1)
    t.replicas.magic = {T0: 2, o0: 2, o1: 2}
    t.replicas.append_errors = {o1: Errors.NOT_LEADER_OR_FOLLOWER}
    data = WriteTxnMarkersRequestData(markers=[_marker(4000, False, {"t": [0], OFFSETS: [0, 1]})])
    response = t.handle(ApiKeys.WRITE_TXN_MARKERS, 1, data)
    assert t.group.calls == [("txn_completion", (4000, [o0], TransactionResult.ABORT))]
    assert _marker_errors(response)[4000][(OFFSETS, 0)] is Errors.NONE


def test_write_txn_markers_group_completion_failure_is_unknown_server_error() -> None:
    """When the group coordinator fails to take the completion, its partitions answer UNKNOWN_SERVER_ERROR."""
    t = _txn_harness({"t": 2, OFFSETS: 3})
    o0 = TopicPartition(OFFSETS, 0)
    t.replicas.magic = {T0: 2, o0: 2}
    t.group.completion_error = RuntimeError("boom")
    data = WriteTxnMarkersRequestData(markers=[_marker(4000, True, {"t": [0], OFFSETS: [0]})])
    response = t.handle(ApiKeys.WRITE_TXN_MARKERS, 1, data)
    assert _marker_errors(response) == {4000: {("t", 0): Errors.NONE, (OFFSETS, 0): Errors.UNKNOWN_SERVER_ERROR}}


def test_write_txn_markers_without_markers() -> None:
    """An empty request gets an empty answer."""
    t = _txn_harness()
    response = t.handle(ApiKeys.WRITE_TXN_MARKERS, 1, WriteTxnMarkersRequestData())
    assert _marker_errors(response) == {}


# ---- FindCoordinator for transactional ids ----------------------------------------------------------


@pytest.mark.parametrize("version", [1, 2, 3])
def test_find_transaction_coordinator_creates_the_transaction_log(version: int) -> None:
    """Without __transaction_state the answer is COORDINATOR_NOT_AVAILABLE and the topic is auto-created."""
    t = _txn_harness()
    response = t.handle(ApiKeys.FIND_COORDINATOR, version, FindCoordinatorRequestData(key="tx", key_type=1))
    assert response.data.error_code == Errors.COORDINATOR_NOT_AVAILABLE.code
    assert t.h.auto_topic_creation.created == [{TXN_STATE}]


def test_find_transaction_coordinator_answers_the_leader_of_the_ids_partition() -> None:
    """The leader of the id's __transaction_state partition is its coordinator, in v3 and batched v4."""
    t = _txn_harness({"t": 1, TXN_STATE: 3})
    response = t.handle(ApiKeys.FIND_COORDINATOR, 3, FindCoordinatorRequestData(key="tx", key_type=1))
    assert (response.data.error_code, response.data.node_id, response.data.port) == (0, 0, 9092)
    batched = t.handle(ApiKeys.FIND_COORDINATOR, 4, FindCoordinatorRequestData(key_type=1, coordinator_keys=["a", "b"]))
    assert [(c.key, c.error_code, c.node_id, c.host) for c in batched.data.coordinators] == [
        ("a", 0, 0, "broker0"),
        ("b", 0, 0, "broker0"),
    ]
    assert t.h.auto_topic_creation.created == []


# ---- Produce ----------------------------------------------------------------------------------------


def _produce(transactional_id: str | None, records: MemoryRecords) -> Any:
    return ProduceRequestData(
        transactional_id=transactional_id,
        acks=-1,
        timeout_ms=1000,
        topic_data=ProduceRequestData.TopicProduceDataCollection(
            [
                ProduceRequestData.TopicProduceData(
                    name="t", partition_data=[ProduceRequestData.PartitionProduceData(index=0, records=records)]
                )
            ]
        ),
    )


def _transactional_records() -> MemoryRecords:
    built = MemoryRecords.with_transactional_records(CompressionType.NONE, 4000, 3, 0, SimpleRecord(0, b"k", b"v"))
    return MemoryRecords.readable_records(bytearray(built.buffer()))


def test_transactional_produce_is_appended() -> None:
    """A transactional batch with its transactional id is appended as any other produce."""
    t = _txn_harness()
    response = t.handle(ApiKeys.PRODUCE, 9, _produce("tx", _transactional_records()))
    assert [set(a["entries"]) for a in t.replicas.appends] == [{T0}]
    assert t.replicas.appends[0]["acks"] == -1
    assert [p.error_code for topic in response.data.responses for p in topic.partition_responses] == [0]


def test_transactional_records_without_a_transactional_id_are_refused() -> None:
    """Transactional batches in a request without a transactional id: TRANSACTIONAL_ID_AUTHORIZATION_FAILED."""
    t = _txn_harness()
    response = t.handle(ApiKeys.PRODUCE, 9, _produce(None, _transactional_records()))
    assert t.replicas.appends == []
    assert [p.error_code for topic in response.data.responses for p in topic.partition_responses] == [
        Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED.code
    ]


# ---- DescribeProducers, DescribeTransactions, ListTransactions --------------------------------------


def test_describe_producers() -> None:
    """Known partitions answer the replica's active producers; an unknown topic UNKNOWN_TOPIC_OR_PARTITION and an
    illegal name INVALID_TOPIC_EXCEPTION with its message, for each partition asked."""
    t = _txn_harness()
    data = DescribeProducersRequestData(
        topics=[
            DescribeProducersRequestData.TopicRequest(name="t", partition_indexes=[1]),
            DescribeProducersRequestData.TopicRequest(name="nope", partition_indexes=[0, 1]),
            DescribeProducersRequestData.TopicRequest(name="bad name!", partition_indexes=[0]),
        ]
    )
    response = t.handle(ApiKeys.DESCRIBE_PRODUCERS, 0, data)
    topics = {topic.name: topic.partitions for topic in response.data.topics}
    (known,) = topics["t"]
    assert (known.partition_index, known.error_code) == (1, 0)
    assert [(p.producer_id, p.producer_epoch, p.current_txn_start_offset) for p in known.active_producers] == [
        (4000, 3, 17)
    ]
    assert [(p.partition_index, p.error_code) for p in topics["nope"]] == [
        (0, Errors.UNKNOWN_TOPIC_OR_PARTITION.code),
        (1, Errors.UNKNOWN_TOPIC_OR_PARTITION.code),
    ]
    (bad,) = topics["bad name!"]
    assert bad.error_code == Errors.INVALID_TOPIC_EXCEPTION.code
    assert bad.error_message and "bad name!" in bad.error_message


def test_describe_transactions() -> None:
    """Each transactional id asked is described by the coordinator, errors included."""
    t = _txn_harness()
    data = DescribeTransactionsRequestData(transactional_ids=["tx", "missing"])
    response = t.handle(ApiKeys.DESCRIBE_TRANSACTIONS, 0, data)
    assert t.txn.calls == [("describe", ("tx",)), ("describe", ("missing",))]
    found, missing = response.data.transaction_states
    assert (found.transactional_id, found.transaction_state, found.producer_id) == ("tx", "Ongoing", 4000)
    assert [(topic.topic, list(topic.partitions)) for topic in found.topics] == [("t", [0, 1])]
    assert missing.error_code == Errors.TRANSACTIONAL_ID_NOT_FOUND.code


def test_list_transactions() -> None:
    """The filters go to the coordinator as sets; its listing is the answer."""
    t = _txn_harness()
    t.txn.list_result = ListTransactionsResponseData(
        unknown_state_filters=["Bogus"],
        transaction_states=[
            ListTransactionsResponseData.TransactionState(
                transactional_id="tx", producer_id=4000, transaction_state="Ongoing"
            )
        ],
    )
    data = ListTransactionsRequestData(state_filters=["Ongoing", "Bogus"], producer_id_filters=[4000, 4000])
    response = t.handle(ApiKeys.LIST_TRANSACTIONS, 0, data)
    assert t.txn.calls == [("list", ({4000}, {"Ongoing", "Bogus"}))]
    assert list(response.data.unknown_state_filters) == ["Bogus"]
    assert [(s.transactional_id, s.producer_id, s.transaction_state) for s in response.data.transaction_states] == [
        ("tx", 4000, "Ongoing")
    ]


# ---- leadership of __transaction_state --------------------------------------------------------------


def test_on_leadership_change_loads_and_unloads_transaction_log_partitions() -> None:
    """__transaction_state partitions this broker now leads are elected in the transaction coordinator with the
    leader epoch as coordinator epoch, followed ones resigned; offsets partitions still go to the group
    coordinator."""
    group = FakeGroupCoordinator()
    txn = FakeTxnCoordinator()
    leaders = [FakePartition(TXN_STATE, 3, 7), FakePartition(OFFSETS, 1, 2)]
    followers = [FakePartition(TXN_STATE, 4, 5), FakePartition("t", 0, 1)]
    on_leadership_change(group, txn, leaders, followers)
    assert txn.calls == [("election", (3, 7)), ("resignation", (4, 5))]
    assert group.calls == [("election", (1, 2))]


def test_leader_and_isr_passes_both_coordinators_to_the_leadership_change() -> None:
    """LeaderAndIsr's leadership callback reaches the transaction coordinator."""
    t = _txn_harness()
    t.h.apis.replica_manager = _LeadershipReplicaManager(t.replicas)  # type: ignore[assignment]
    response = t.handle(ApiKeys.LEADER_AND_ISR, 4, LeaderAndIsrRequestData(controller_id=0, broker_epoch=-1))
    assert response.data.error_code == 0
    assert t.txn.calls == [("election", (3, 7)), ("resignation", (4, 5))]


class _LeadershipReplicaManager:
    """A ReplicaManager whose LeaderAndIsr makes this broker leader of __transaction_state-3, follower of -4."""

    def __init__(self, base: TxnReplicaManager) -> None:
        self._base = base

    def __getattr__(self, name: str) -> Any:
        return getattr(self._base, name)

    def become_leader_or_follower(self, correlation_id: int, request: Any, callback: Any) -> Any:
        callback([FakePartition(TXN_STATE, 3, 7)], [FakePartition(TXN_STATE, 4, 5)])
        return LeaderAndIsrResponse(LeaderAndIsrResponseData(error_code=0), request.version)


def test_stop_replica_with_deletion_resigns_transaction_log_partitions() -> None:
    """A StopReplica that deletes a __transaction_state partition unloads it from the transaction coordinator
    (epoch None when the controller sent a negative one); one that keeps the replica, or failed, does not."""
    t = _txn_harness()
    t.handle(ApiKeys.STOP_REPLICA, 3, stop_replica_deleting(t.replicas, TXN_STATE, 4))
    assert t.txn.calls == [("resignation", (0, 4)), ("resignation", (1, None))]
    assert t.group.calls == []


# ---- ApiVersions ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("api_key", "max_version"),
    [
        (ApiKeys.INIT_PRODUCER_ID, 4),
        (ApiKeys.ADD_PARTITIONS_TO_TXN, 4),
        (ApiKeys.ADD_OFFSETS_TO_TXN, 3),
        (ApiKeys.END_TXN, 3),
        (ApiKeys.WRITE_TXN_MARKERS, 1),
        (ApiKeys.TXN_OFFSET_COMMIT, 3),
        (ApiKeys.DESCRIBE_PRODUCERS, 0),
        (ApiKeys.DESCRIBE_TRANSACTIONS, 0),
        (ApiKeys.LIST_TRANSACTIONS, 0),
    ],
)
def test_transaction_apis_are_advertised(api_key: ApiKeys, max_version: int) -> None:
    """ApiVersions advertises every transaction API from v0 to the version a 3.7 ZooKeeper broker serves."""
    t = _txn_harness()
    assert api_key in KafkaApis.HANDLED_APIS
    response = t.handle(
        ApiKeys.API_VERSIONS, 3, ApiVersionsRequestData(client_software_name="t", client_software_version="1.0")
    )
    advertised = {k.api_key: (k.min_version, k.max_version) for k in response.data.api_keys}
    assert advertised[api_key.id] == (0, max_version)
