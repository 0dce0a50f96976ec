"""Tests of KafkaAdminClient's transaction and producer calls (listTransactions, describeTransactions,
describeProducers, abortTransaction) over a MockClient, as KafkaAdminClientTest (Kafka 3.7) tests them."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from kafka.clients.admin.abort_transaction_spec import AbortTransactionSpec
from kafka.clients.admin.describe_producers_options import DescribeProducersOptions
from kafka.clients.admin.list_transactions_options import ListTransactionsOptions
from kafka.clients.admin.producer_state import ProducerState
from kafka.clients.admin.transaction_listing import TransactionListing
from kafka.clients.admin.transaction_state import TransactionState
from kafka.common.errors import (
    CoordinatorNotAvailableException,
    InvalidProducerEpochException,
    NotLeaderOrFollowerException,
    TransactionalIdNotFoundException,
)
from kafka.common.kafka_future import ExecutionException, KafkaFuture
from kafka.common.message import (
    DescribeTransactionsResponseData,
)
from kafka.common.node import Node
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.describe_transactions_response import DescribeTransactionsResponse
from kafka.common.requests.find_coordinator_request import CoordinatorType
from kafka.common.requests.find_coordinator_response import FindCoordinatorResponse
from kafka.common.topic_partition import TopicPartition
from tests.unit.kafka.clients.admin.admin_client_unit_test_env import AdminClientUnitTestEnv
from tests.unit.kafka.clients.admin.txn_responses import (
    leader_metadata,
    list_transactions_response,
    markers_response,
    node,
    producers_response,
    recording,
)
from tests.unit.kafka.common.requests.request_test_utils import metadata_response
from tests.utils import wait_until_true

WAIT_MS = 10_000
TP = TopicPartition("t", 0)


@pytest.fixture
def env() -> Iterator[AdminClientUnitTestEnv]:
    with AdminClientUnitTestEnv() as e:
        yield e


def _cause(future: KafkaFuture[Any]) -> BaseException:
    with pytest.raises(ExecutionException) as info:
        future.get(WAIT_MS)
    return info.value.cause


def _backing_off(env: AdminClientUnitTestEnv) -> bool:
    now = env.time.milliseconds()
    return any(call.next_allowed_try_ms > now for call in list(env.admin_client._runnable.pending_calls))


# -- listTransactions -------------------------------------------------------------------------------------------


def test_list_transactions_asks_every_broker_with_the_filters(env: AdminClientUnitTestEnv) -> None:
    """listTransactions finds the brokers with Metadata, sends each a ListTransactions with the state and producer
    id filters, and gives every broker's listings, by broker and merged."""
    client = env.kafka_client()
    client.prepare_response(metadata_response(env.cluster.nodes, "c", 0, []))
    seen: list[Any] = []
    client.prepare_response_from(
        recording(ApiKeys.LIST_TRANSACTIONS, seen), list_transactions_response(("a", 12, "Ongoing")), node(env, 0)
    )
    client.prepare_response_from(
        recording(ApiKeys.LIST_TRANSACTIONS, seen),
        list_transactions_response(("b", 13, "Ongoing"), ("c", 14, "Ongoing")),
        node(env, 1),
    )
    client.prepare_response_from(recording(ApiKeys.LIST_TRANSACTIONS, seen), list_transactions_response(), node(env, 2))
    options = ListTransactionsOptions().filter_states([TransactionState.ONGOING]).filter_producer_ids([12, 13, 14])
    result = env.admin_client.list_transactions(options)
    by_broker = result.all_by_broker_id().get(WAIT_MS)
    assert by_broker == {
        0: [TransactionListing("a", 12, TransactionState.ONGOING)],
        1: [
            TransactionListing("b", 13, TransactionState.ONGOING),
            TransactionListing("c", 14, TransactionState.ONGOING),
        ],
        2: [],
    }
    assert sorted(listing.transactional_id for listing in result.all().get(WAIT_MS)) == ["a", "b", "c"]
    assert set(result.by_broker_id().get(WAIT_MS)) == {0, 1, 2}
    assert len(seen) == 3
    for data in seen:
        assert data.state_filters == ["Ongoing"] and sorted(data.producer_id_filters) == [12, 13, 14]


def test_list_transactions_retries_a_loading_coordinator_and_fails_a_shut_down_one(env: AdminClientUnitTestEnv) -> None:
    """A broker still loading transaction state is asked again after the backoff; one whose coordinator is shutting
    down fails the call with CoordinatorNotAvailableException; an unknown state name parses as UNKNOWN."""
    client = env.kafka_client()
    two_brokers = [node(env, 0), node(env, 1)]
    client.prepare_response(metadata_response(two_brokers, "c", 0, []))
    client.prepare_response_from(list_transactions_response(error=Errors.COORDINATOR_LOAD_IN_PROGRESS), node(env, 0))
    client.prepare_response_from(list_transactions_response(error=Errors.COORDINATOR_NOT_AVAILABLE), node(env, 1))
    client.prepare_response_from(list_transactions_response(("a", 1, "SomethingNew")), node(env, 0))
    result = env.admin_client.list_transactions()
    broker_futures = result.by_broker_id().get(WAIT_MS)
    assert isinstance(_cause(broker_futures[1]), CoordinatorNotAvailableException)
    wait_until_true(lambda: _backing_off(env), "the retry of broker 0 to wait out its backoff")
    env.time.sleep(150)
    assert broker_futures[0].get(WAIT_MS) == [TransactionListing("a", 1, TransactionState.UNKNOWN)]
    assert isinstance(_cause(result.all()), CoordinatorNotAvailableException)


# -- describeTransactions ---------------------------------------------------------------------------------------


def _find_coordinator(key: str, node: Node, error: Errors = Errors.NONE) -> FindCoordinatorResponse:
    return FindCoordinatorResponse.prepare_response(error, key, node)


def _described(
    tid: str, error: Errors = Errors.NONE, start_ms: int = 1_000, partitions: dict[str, list[int]] | None = None
) -> DescribeTransactionsResponse:
    return DescribeTransactionsResponse(
        DescribeTransactionsResponseData(
            transaction_states=[
                DescribeTransactionsResponseData.TransactionState(
                    error_code=error.code,
                    transactional_id=tid,
                    transaction_state="Ongoing",
                    transaction_timeout_ms=60_000,
                    transaction_start_time_ms=start_ms,
                    producer_id=7,
                    producer_epoch=3,
                    topics=[
                        DescribeTransactionsResponseData.TopicData(topic=topic, partitions=ps)
                        for topic, ps in (partitions or {}).items()
                    ],
                )
            ]
        )
    )


def test_describe_transactions_finds_the_transaction_coordinator(env: AdminClientUnitTestEnv) -> None:
    """describeTransactions looks the coordinator up with a TRANSACTION FindCoordinator, follows NOT_COORDINATOR to
    a new lookup, and describes the transaction from the coordinator's answer."""
    client = env.kafka_client()
    lookups: list[Any] = []
    client.prepare_response(recording(ApiKeys.FIND_COORDINATOR, lookups), _find_coordinator("tx", node(env, 1)))
    client.prepare_response_from(_described("tx", Errors.NOT_COORDINATOR), node(env, 1))
    client.prepare_response(recording(ApiKeys.FIND_COORDINATOR, lookups), _find_coordinator("tx", node(env, 2)))
    client.prepare_response_from(_described("tx", partitions={"t": [0, 1], "u": [2]}), node(env, 2))
    description = env.admin_client.describe_transactions(["tx"]).description("tx").get(WAIT_MS)
    assert lookups[0].key_type == CoordinatorType.TRANSACTION and lookups[0].coordinator_keys == ["tx"]
    assert len(lookups) == 2
    assert description.coordinator_id == 2 and description.state is TransactionState.ONGOING
    assert (description.producer_id, description.producer_epoch) == (7, 3)
    assert description.transaction_timeout_ms == 60_000 and description.transaction_start_time_ms == 1_000
    assert description.topic_partitions == {TopicPartition("t", 0), TopicPartition("t", 1), TopicPartition("u", 2)}


def test_describe_transactions_unknown_id_and_no_open_transaction(env: AdminClientUnitTestEnv) -> None:
    """TRANSACTIONAL_ID_NOT_FOUND fails that id with TransactionalIdNotFoundException; a start time of -1 (no
    transaction open) is None; an id that was not asked for is refused by description()."""
    client = env.kafka_client()
    client.prepare_response(_find_coordinator("gone", node(env, 0)))
    client.prepare_response_from(_described("gone", Errors.TRANSACTIONAL_ID_NOT_FOUND), node(env, 0))
    result = env.admin_client.describe_transactions(["gone"])
    assert isinstance(_cause(result.description("gone")), TransactionalIdNotFoundException)
    with pytest.raises(ValueError, match="was not included in the request"):
        result.description("other")

    client.prepare_response(_find_coordinator("idle", node(env, 0)))
    client.prepare_response_from(_described("idle", start_ms=-1), node(env, 0))
    assert env.admin_client.describe_transactions(["idle"]).all().get(WAIT_MS)["idle"].transaction_start_time_ms is None


# -- describeProducers ------------------------------------------------------------------------------------------


def test_describe_producers_asks_the_leader(env: AdminClientUnitTestEnv) -> None:
    """describeProducers goes to the partition's leader, follows NOT_LEADER_OR_FOLLOWER to the new one, and maps
    -1 coordinator epochs and transaction start offsets to None."""
    client = env.kafka_client()
    seen: list[Any] = []
    client.prepare_response(leader_metadata(env, 1))
    client.prepare_response_from(producers_response(error=Errors.NOT_LEADER_OR_FOLLOWER), node(env, 1))
    client.prepare_response(leader_metadata(env, 2))
    client.prepare_response_from(
        recording(ApiKeys.DESCRIBE_PRODUCERS, seen),
        producers_response((5, 0, 9, 1_000, 2, 40), (6, 1, 0, 2_000, -1, -1)),
        node(env, 2),
    )
    state = env.admin_client.describe_producers([TP]).partition_result(TP).get(WAIT_MS)
    assert list(state.active_producers) == [
        ProducerState(5, 0, 9, 1_000, 2, 40),
        ProducerState(6, 1, 0, 2_000, None, None),
    ]
    (data,) = seen
    assert [(t.name, t.partition_indexes) for t in data.topics] == [("t", [0])]


def test_describe_producers_on_a_given_broker(env: AdminClientUnitTestEnv) -> None:
    """With a broker id the request goes straight to that broker (no leader lookup), and NOT_LEADER_OR_FOLLOWER
    from it is final."""
    client = env.kafka_client()
    client.prepare_response_from(_is_api(ApiKeys.DESCRIBE_PRODUCERS), producers_response(), node(env, 2))
    options = DescribeProducersOptions().broker_id(2)
    assert env.admin_client.describe_producers([TP], options).all().get(WAIT_MS)[TP].active_producers == []
    client.prepare_response_from(
        _is_api(ApiKeys.DESCRIBE_PRODUCERS), producers_response(error=Errors.NOT_LEADER_OR_FOLLOWER), node(env, 2)
    )
    cause = _cause(env.admin_client.describe_producers([TP], options).partition_result(TP))
    assert isinstance(cause, NotLeaderOrFollowerException) and "on brokerId 2" in str(cause)


def _is_api(api_key: ApiKeys) -> Any:
    return lambda body: body.api_key is api_key


# -- abortTransaction -------------------------------------------------------------------------------------------


def test_abort_transaction_writes_an_abort_marker_on_the_leader(env: AdminClientUnitTestEnv) -> None:
    """abortTransaction sends the leader a WriteTxnMarkers ABORT with the spec's producer id, epoch and
    coordinator epoch, and looks the leader up again after NOT_LEADER_OR_FOLLOWER."""
    client = env.kafka_client()
    seen: list[Any] = []
    client.prepare_response(leader_metadata(env, 0))
    client.prepare_response_from(markers_response(12, Errors.NOT_LEADER_OR_FOLLOWER), node(env, 0))
    client.prepare_response(leader_metadata(env, 1))
    client.prepare_response_from(
        recording(ApiKeys.WRITE_TXN_MARKERS, seen), markers_response(12, Errors.NONE), node(env, 1)
    )
    env.admin_client.abort_transaction(AbortTransactionSpec(TP, 12, 3, 5)).all().get(WAIT_MS)
    (data,) = seen
    (marker,) = data.markers
    assert (marker.producer_id, marker.producer_epoch, marker.coordinator_epoch) == (12, 3, 5)
    assert marker.transaction_result is False
    assert [(t.name, t.partition_indexes) for t in marker.topics] == [("t", [0])]


def test_abort_transaction_errors(env: AdminClientUnitTestEnv) -> None:
    """INVALID_PRODUCER_EPOCH fails the abort with InvalidProducerEpochException naming the spec; an answer for
    another producer fails it as unexpected."""
    client = env.kafka_client()
    spec = AbortTransactionSpec(TP, 12, 3, 5)
    client.prepare_response(leader_metadata(env, 0))
    client.prepare_response_from(markers_response(12, Errors.INVALID_PRODUCER_EPOCH), node(env, 0))
    cause = _cause(env.admin_client.abort_transaction(spec).all())
    assert isinstance(cause, InvalidProducerEpochException)
    assert "AbortTransactionSpec(topicPartition=t-0, producerId=12, producerEpoch=3, coordinatorEpoch=5)" in str(cause)
    client.prepare_response(leader_metadata(env, 0))
    client.prepare_response_from(markers_response(99, Errors.NONE), node(env, 0))
    assert "unexpected marker entries" in str(_cause(env.admin_client.abort_transaction(spec).all()))
