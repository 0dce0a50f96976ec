"""Transactions end to end on one broker started from the bin scripts (issue 13): a confluent-kafka transactional
producer initialises, commits and aborts; read_committed consumers see only what was committed and
read_uncommitted ones everything; an open transaction holds read_committed consumers at the last stable offset
until it ends; the broker's DescribeProducers, DescribeTransactions and ListTransactions show the open
transaction as its coordinator and its partition's leader know it. The wider scenarios (other clients, fencing,
timeouts, consume-transform-produce, failures on three brokers) are in test_transactions_clients and the
transaction fault workload."""

from __future__ import annotations

import confluent_kafka as ck
import pytest

from kafka.common.message import (
    DescribeProducersRequestData,
    DescribeTransactionsRequestData,
    FindCoordinatorRequestData,
    ListTransactionsRequestData,
)
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from tests.integration.broker import BrokerProcess
from tests.integration.test_group_apis import ProtocolClient
from tests.integration.txn_support import (
    Offsets,
    Reader,
    create_topic,
    offsets_fixture,
    one_broker_fixture,
    read_values,
    txn_producer,
)
from tests.utils import wait_until_true

pytestmark = pytest.mark.integration

broker = one_broker_fixture("transactions")
offsets = offsets_fixture()


def _send(producer: ck.Producer, topic: str, values: list[str]) -> None:
    for value in values:
        producer.produce(topic, value=value.encode(), partition=0)
    assert producer.flush(30) == 0, "records still unacknowledged after 30 s"


def test_commit_and_abort(broker: BrokerProcess, offsets: Offsets) -> None:
    """A committed, an aborted and a committed transaction: read_committed reads the committed records in order
    and nothing aborted, read_uncommitted every record; each transaction ends in one marker, so the log ends three
    offsets past the fifteen records."""
    topic = "commit-and-abort"
    create_topic(broker.bootstrap, topic)
    producer = txn_producer(broker.bootstrap, "commit-and-abort-1")
    first, aborted, second = [f"c{i}" for i in range(5)], [f"a{i}" for i in range(5)], [f"d{i}" for i in range(5)]
    for values, commit in ((first, True), (aborted, False), (second, True)):
        producer.begin_transaction()
        _send(producer, topic, values)
        if commit:
            producer.commit_transaction(60)
        else:
            producer.abort_transaction(60)
    offsets.wait_stable(topic)

    assert read_values(broker.bootstrap, topic, isolation="read_committed") == first + second
    assert read_values(broker.bootstrap, topic, isolation="read_uncommitted") == first + aborted + second
    assert offsets.high_watermark(topic) == 15 + 3


def test_open_transaction_holds_read_committed_at_the_lso(broker: BrokerProcess, offsets: Offsets) -> None:
    """While a transaction is open after committed records, the LSO stays at its first record: read_committed
    consumers stop there while read_uncommitted ones read on; once it commits, read_committed reads it too."""
    topic = "open-transaction"
    create_topic(broker.bootstrap, topic)
    producer = txn_producer(broker.bootstrap, "open-transaction-1")
    producer.begin_transaction()
    _send(producer, topic, ["before-0", "before-1"])
    producer.commit_transaction(60)
    offsets.wait_stable(topic)
    lso_before = offsets.lso(topic)
    assert lso_before == 3  # two records and the marker

    producer.begin_transaction()
    _send(producer, topic, ["open-0", "open-1", "open-2"])
    wait_until_true(lambda: offsets.high_watermark(topic) == lso_before + 3, "the open records are replicated")
    assert offsets.lso(topic) == lso_before

    committed_reader = Reader(broker.bootstrap, topic, isolation="read_committed")
    try:
        assert [v for _, _, v in committed_reader.read_to_end()] == ["before-0", "before-1"]
        assert read_values(broker.bootstrap, topic, isolation="read_uncommitted") == [
            "before-0",
            "before-1",
            "open-0",
            "open-1",
            "open-2",
        ]
        producer.commit_transaction(60)
        offsets.wait_stable(topic)
        # The same consumer, held at the LSO, now reads the transaction.
        assert [v for _, _, v in committed_reader.read_to_end()] == ["open-0", "open-1", "open-2"]
    finally:
        committed_reader.close()


def test_the_broker_describes_an_open_transaction(broker: BrokerProcess, offsets: Offsets) -> None:
    """While a transaction is open, its coordinator lists and describes it as Ongoing with its partition, and
    the partition's leader shows its producer with the transaction's first offset; once aborted, the coordinator
    describes it CompleteAbort and the partition has no open transaction."""
    topic = "described"
    create_topic(broker.bootstrap, topic)
    transactional_id = "described-1"
    producer = txn_producer(broker.bootstrap, transactional_id)
    producer.begin_transaction()
    _send(producer, topic, ["x"])

    with ProtocolClient(broker) as client:
        found = client.call(
            ApiKeys.FIND_COORDINATOR, 4, FindCoordinatorRequestData(key_type=1, coordinator_keys=[transactional_id])
        )
        assert [(c.error_code, c.node_id) for c in found.coordinators] == [(0, 0)]

        described = client.call(
            ApiKeys.DESCRIBE_TRANSACTIONS, 0, DescribeTransactionsRequestData(transactional_ids=[transactional_id])
        )
        (state,) = described.transaction_states
        assert (state.error_code, state.transaction_state) == (Errors.NONE.code, "Ongoing")
        assert [(t.topic, list(t.partitions)) for t in state.topics] == [(topic, [0])]
        producer_id = state.producer_id

        listed = client.call(
            ApiKeys.LIST_TRANSACTIONS, 0, ListTransactionsRequestData(state_filters=["Ongoing"], producer_id_filters=[])
        )
        assert (transactional_id, producer_id) in {
            (s.transactional_id, s.producer_id) for s in listed.transaction_states
        }

        producers = client.call(
            ApiKeys.DESCRIBE_PRODUCERS,
            0,
            DescribeProducersRequestData(
                topics=[DescribeProducersRequestData.TopicRequest(name=topic, partition_indexes=[0])]
            ),
        )
        ((partition,),) = [t.partitions for t in producers.topics]
        assert partition.error_code == Errors.NONE.code
        assert [(p.producer_id, p.current_txn_start_offset) for p in partition.active_producers] == [(producer_id, 0)]

        producer.abort_transaction(60)
        offsets.wait_stable(topic)

        def completed() -> bool:
            data = client.call(
                ApiKeys.DESCRIBE_TRANSACTIONS, 0, DescribeTransactionsRequestData(transactional_ids=[transactional_id])
            )
            return bool(data.transaction_states[0].transaction_state == "CompleteAbort")

        wait_until_true(completed, f"{transactional_id} is CompleteAbort", timeout=30)
        producers = client.call(
            ApiKeys.DESCRIBE_PRODUCERS,
            0,
            DescribeProducersRequestData(
                topics=[DescribeProducersRequestData.TopicRequest(name=topic, partition_indexes=[0])]
            ),
        )
        assert [
            (p.producer_id, p.current_txn_start_offset) for p in producers.topics[0].partitions[0].active_producers
        ] == [(producer_id, -1)]
    assert read_values(broker.bootstrap, topic, isolation="read_committed") == []
