"""Tests of kafka-transactions.sh (TransactionsCommand): its command line, the tables it prints and its error
messages, with a KafkaAdminClient over a MockClient standing in for the cluster (as TransactionsCommandTest of
Kafka 3.7 does with a mocked Admin)."""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any

import pytest

from kafka.common.message import (
    DescribeTransactionsResponseData,
)
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.describe_transactions_response import DescribeTransactionsResponse
from kafka.common.requests.find_coordinator_response import FindCoordinatorResponse
from kafka.common.utils.time import MockTime
from kafka.tools import transactions_command
from kafka.tools.tools_utils import pretty_print_table
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

NOW_MS = 10_000_000


@pytest.fixture
def env() -> Iterator[AdminClientUnitTestEnv]:
    with AdminClientUnitTestEnv(time=MockTime(0, NOW_MS)) as e:
        yield e


def _run(env: AdminClientUnitTestEnv, *args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = transactions_command.execute(
        ["--bootstrap-server", "localhost:9092", *args], lambda _ns: env.admin_client, out, env.time, err
    )
    return status, out.getvalue(), err.getvalue()


def _rows(output: str) -> list[list[str]]:
    return [[cell.strip() for cell in line.split("\t")[:-1]] for line in output.splitlines()]


# -- the table and the command line ----------------------------------------------------------------------------


def test_pretty_print_table_pads_columns_and_ends_cells_with_tabs() -> None:
    """Each column is as wide as its widest cell and every cell, the last included, is followed by a tab."""
    out = io.StringIO()
    pretty_print_table(["A", "Longer"], [["xyz", "1"], ["", "22"]], out)
    assert out.getvalue() == "A  \tLonger\t\nxyz\t1     \t\n   \t22    \t\n"


def test_bootstrap_server_is_required() -> None:
    """Without --bootstrap-server the tool prints argparse4j's usage and message on stderr and exits 1."""
    out, err = io.StringIO(), io.StringIO()
    status = transactions_command.execute(["list"], lambda _ns: pytest.fail("no admin expected"), out, None, err)  # type: ignore[arg-type]
    assert status == 1
    assert "kafka-transactions.sh: error: argument --bootstrap-server is required" in err.getvalue()


def test_unknown_command_and_bad_numbers_are_refused(env: AdminClientUnitTestEnv) -> None:
    """An unknown command or a partition that is no Integer is refused by the parser (status 1)."""
    status, _out, err = _run(env, "bogus")
    assert status == 1 and "invalid choice: 'bogus'" in err
    status, _out, err = _run(env, "describe-producers", "--topic", "t", "--partition", "x")
    assert status == 1 and "could not convert 'x' to Integer" in err


# -- list, describe, describe-producers -------------------------------------------------------------------------


def test_list_prints_every_coordinator_s_transactions(env: AdminClientUnitTestEnv) -> None:
    """`list` prints TransactionalId, Coordinator, ProducerId and TransactionState for every broker's listing."""
    client = env.kafka_client()
    client.prepare_response(metadata_response([node(env, 0), node(env, 1)], "c", 0, []))
    client.prepare_response_from(
        list_transactions_response(("foo", 12345, "Ongoing"), ("bar", 98765, "PrepareAbort")), node(env, 0)
    )
    client.prepare_response_from(list_transactions_response(("baz", 13579, "CompleteCommit")), node(env, 1))
    status, out, err = _run(env, "list")
    assert (status, err) == (0, "")
    assert _rows(out) == [
        ["TransactionalId", "Coordinator", "ProducerId", "TransactionState"],
        ["foo", "0", "12345", "Ongoing"],
        ["bar", "0", "98765", "PrepareAbort"],
        ["baz", "1", "13579", "CompleteCommit"],
    ]


def _described(error: Errors = Errors.NONE, start_ms: int = NOW_MS - 5_000) -> DescribeTransactionsResponse:
    return DescribeTransactionsResponse(
        DescribeTransactionsResponseData(
            transaction_states=[
                DescribeTransactionsResponseData.TransactionState(
                    error_code=error.code,
                    transactional_id="foo",
                    transaction_state="Ongoing",
                    transaction_timeout_ms=60_000,
                    transaction_start_time_ms=start_ms,
                    producer_id=12345,
                    producer_epoch=15,
                    topics=[DescribeTransactionsResponseData.TopicData(topic="bar", partitions=[0, 1])],
                )
            ]
        )
    )


def test_describe_prints_the_transaction(env: AdminClientUnitTestEnv) -> None:
    """`describe` prints the coordinator's view of the transactional id, with the time since the transaction
    started."""
    client = env.kafka_client()
    client.prepare_response(FindCoordinatorResponse.prepare_response(Errors.NONE, "foo", node(env, 2)))
    client.prepare_response_from(_described(), node(env, 2))
    status, out, err = _run(env, "describe", "--transactional-id", "foo")
    assert (status, err) == (0, "")
    assert _rows(out) == [
        [
            "CoordinatorId",
            "TransactionalId",
            "ProducerId",
            "ProducerEpoch",
            "TransactionState",
            "TransactionTimeoutMs",
            "CurrentTransactionStartTimeMs",
            "TransactionDurationMs",
            "TopicPartitions",
        ],
        ["2", "foo", "12345", "15", "Ongoing", "60000", str(NOW_MS - 5_000), "5000", "bar-0,bar-1"],
    ]


def test_describe_of_an_unknown_transactional_id_fails(env: AdminClientUnitTestEnv) -> None:
    """An id the coordinator does not know ends the tool with status 1 and Kafka's message on stderr."""
    client = env.kafka_client()
    client.prepare_response(FindCoordinatorResponse.prepare_response(Errors.NONE, "foo", node(env, 2)))
    client.prepare_response_from(_described(Errors.TRANSACTIONAL_ID_NOT_FOUND), node(env, 2))
    status, out, err = _run(env, "describe", "--transactional-id", "foo")
    assert (status, out) == (1, "")
    assert err == (
        "Failed to describe transaction state of transactional-id `foo`: DescribeTransactions request for "
        "transactionalId `foo` failed because the ID could not be found. Enable debug logging for additional "
        "detail.\n"
    )


def test_describe_producers_prints_each_active_producer(env: AdminClientUnitTestEnv) -> None:
    """`describe-producers --broker-id` asks that broker and prints -1 / None for what the producer lacks."""
    client = env.kafka_client()
    seen: list[Any] = []
    client.prepare_response_from(
        recording(ApiKeys.DESCRIBE_PRODUCERS, seen),
        producers_response((12345, 15, 25, 1_000, 3, 1234), (98765, 30, 50, 2_000, -1, -1)),
        node(env, 1),
    )
    status, out, err = _run(env, "describe-producers", "--topic", "t", "--partition", "0", "--broker-id", "1")
    assert (status, err) == (0, "")
    assert _rows(out) == [
        [
            "ProducerId",
            "ProducerEpoch",
            "LatestCoordinatorEpoch",
            "LastSequence",
            "LastTimestamp",
            "CurrentTransactionStartOffset",
        ],
        ["12345", "15", "3", "25", "1000", "1234"],
        ["98765", "30", "-1", "50", "2000", "None"],
    ]
    assert len(seen) == 1


# -- abort ------------------------------------------------------------------------------------------------------


def test_abort_by_start_offset_finds_the_producer(env: AdminClientUnitTestEnv) -> None:
    """`abort --start-offset` finds the producer whose open transaction starts there and writes an ABORT marker
    with its id, epoch and coordinator epoch to the leader."""
    client = env.kafka_client()
    seen: list[Any] = []
    client.prepare_response(leader_metadata(env, 0))
    client.prepare_response_from(
        producers_response((12345, 15, 25, 1_000, 3, 1234), (999, 1, 0, 1_000, 2, 50)), node(env, 0)
    )
    client.prepare_response(leader_metadata(env, 0))
    client.prepare_response_from(recording(ApiKeys.WRITE_TXN_MARKERS, seen), markers_response(12345), node(env, 0))
    status, out, err = _run(env, "abort", "--topic", "t", "--partition", "0", "--start-offset", "1234")
    assert (status, out, err) == (0, "", "")
    (marker,) = seen[0].markers
    assert (marker.producer_id, marker.producer_epoch, marker.coordinator_epoch) == (12345, 15, 3)
    assert marker.transaction_result is False


def test_abort_by_start_offset_without_such_transaction(env: AdminClientUnitTestEnv) -> None:
    """No open transaction at the offset: the tool says so and exits 1 without writing a marker."""
    client = env.kafka_client()
    client.prepare_response(leader_metadata(env, 0))
    client.prepare_response_from(producers_response((12345, 15, 25, 1_000, 3, 1234)), node(env, 0))
    status, _out, err = _run(env, "abort", "--topic", "t", "--partition", "0", "--start-offset", "7")
    assert status == 1
    assert err == "Could not find any open transactions starting at offset 7 on partition t-0\n"


def test_abort_by_producer_uses_coordinator_epoch_zero_for_minus_one(env: AdminClientUnitTestEnv) -> None:
    """`abort --producer-id --producer-epoch --coordinator-epoch -1` writes the marker with coordinator epoch 0;
    the leader's INVALID_PRODUCER_EPOCH is reported with the spec."""
    client = env.kafka_client()
    seen: list[Any] = []
    client.prepare_response(leader_metadata(env, 0))
    client.prepare_response_from(
        recording(ApiKeys.WRITE_TXN_MARKERS, seen), markers_response(5, Errors.INVALID_PRODUCER_EPOCH), node(env, 0)
    )
    args = ["abort", "--topic", "t", "--partition", "0", "--producer-id", "5", "--producer-epoch", "2"]
    status, _out, err = _run(env, *args, "--coordinator-epoch", "-1")
    assert seen[0].markers[0].coordinator_epoch == 0
    assert status == 1
    assert err.startswith(
        "Failed to abort transaction AbortTransactionSpec(topicPartition=t-0, producerId=5, producerEpoch=2, "
        "coordinatorEpoch=0): WriteTxnMarkers request with AbortTransactionSpec("
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            [],
            "The transaction to abort must be identified either with --start-offset (for brokers on 3.0 or above) or "
            "with --producer-id, --producer-epoch, and --coordinator-epoch (for older brokers)",
        ),
        (["--producer-id", "5"], "Missing required argument --producer-epoch"),
        (["--producer-id", "5", "--producer-epoch", "1"], "Missing required argument --coordinator-epoch"),
    ],
)
def test_abort_needs_an_offset_or_the_whole_producer(
    env: AdminClientUnitTestEnv, args: list[str], message: str
) -> None:
    """Without --start-offset, --producer-id with its epoch and coordinator epoch are all needed."""
    status, out, err = _run(env, "abort", "--topic", "t", "--partition", "0", *args)
    assert (status, out, err) == (1, "", message + "\n")


def test_producer_epoch_must_be_a_short(env: AdminClientUnitTestEnv) -> None:
    """--producer-epoch is a Short, as in Kafka."""
    args = ["abort", "--topic", "t", "--partition", "0", "--producer-id", "5", "--producer-epoch", "40000"]
    status, _out, err = _run(env, *args)
    assert status == 1 and "could not convert '40000' to Short" in err


# -- find-hanging -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "The `find-hanging` command requires either --topic or --broker-id to limit the scope of the search"),
        (["--broker-id", "0", "--partition", "1"], "The --partition argument requires --topic to be provided"),
    ],
)
def test_find_hanging_needs_a_scope(env: AdminClientUnitTestEnv, args: list[str], message: str) -> None:
    status, out, err = _run(env, "find-hanging", *args)
    assert (status, out, err) == (1, "", message + "\n")


def test_find_hanging_reports_an_old_transaction_no_coordinator_knows(env: AdminClientUnitTestEnv) -> None:
    """An open transaction older than --max-transaction-timeout whose producer id no coordinator lists is
    hanging; a recent one is not looked at."""
    client = env.kafka_client()
    last_timestamp = NOW_MS - 20 * 60_000
    client.prepare_response(leader_metadata(env, 0))
    client.prepare_response_from(
        producers_response((12345, 15, 25, last_timestamp, 3, 1234), (777, 1, 0, NOW_MS - 1_000, 1, 50)), node(env, 0)
    )
    client.prepare_response(metadata_response(env.cluster.nodes, "c", 0, []))
    listed: list[Any] = []
    for node_id in (0, 1, 2):
        client.prepare_response_from(
            recording(ApiKeys.LIST_TRANSACTIONS, listed), list_transactions_response(), node(env, node_id)
        )
    status, out, err = _run(env, "find-hanging", "--topic", "t", "--partition", "0", "--max-transaction-timeout", "10")
    assert (status, err) == (0, "")
    assert _rows(out) == [
        [
            "Topic",
            "Partition",
            "ProducerId",
            "ProducerEpoch",
            "CoordinatorEpoch",
            "StartOffset",
            "LastTimestamp",
            "Duration(min)",
        ],
        ["t", "0", "12345", "15", "3", "1234", str(last_timestamp), "20"],
    ]
    assert all(data.producer_id_filters == [12345] for data in listed)


def test_find_hanging_skips_a_transaction_its_coordinator_still_has(env: AdminClientUnitTestEnv) -> None:
    """An old open transaction whose coordinator still lists the partition in the transaction is not hanging."""
    client = env.kafka_client()
    last_timestamp = NOW_MS - 20 * 60_000
    client.prepare_response(leader_metadata(env, 0))
    client.prepare_response_from(producers_response((12345, 15, 25, last_timestamp, 3, 1234)), node(env, 0))
    client.prepare_response(metadata_response([node(env, 0)], "c", 0, []))
    client.prepare_response_from(list_transactions_response(("foo", 12345, "Ongoing")), node(env, 0))
    client.prepare_response(FindCoordinatorResponse.prepare_response(Errors.NONE, "foo", node(env, 0)))
    in_txn = DescribeTransactionsResponseData.TransactionState(
        transactional_id="foo",
        transaction_state="Ongoing",
        transaction_timeout_ms=60_000,
        transaction_start_time_ms=last_timestamp,
        producer_id=12345,
        producer_epoch=15,
        topics=[DescribeTransactionsResponseData.TopicData(topic="t", partitions=[0])],
    )
    client.prepare_response_from(
        DescribeTransactionsResponse(DescribeTransactionsResponseData(transaction_states=[in_txn])), node(env, 0)
    )
    status, out, err = _run(env, "find-hanging", "--topic", "t", "--partition", "0")
    assert (status, err) == (0, "")
    assert len(_rows(out)) == 1
