"""kafka-transactions.sh as an operator uses it (issue 13), on one broker started from the bin scripts: a
confluent-kafka transaction shown open by `list`, `describe` and `describe-producers`, then complete; and a
hanging transaction (transactional records written under a producer id no coordinator knows, as a producer that
skipped AddPartitionsToTxn leaves them) found by `find-hanging`, holding read_committed consumers at the last
stable offset until `abort --start-offset` writes its abort marker."""

from __future__ import annotations

import time
from typing import Any

import confluent_kafka as ck
import pytest
from confluent_kafka.admin import AdminClient, NewTopic

from kafka.common.message import InitProducerIdRequestData, ProduceRequestData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.record.compression_type import CompressionType
from kafka.common.record.memory_records import MemoryRecords
from kafka.common.record.simple_record import SimpleRecord
from tests.integration.broker import BrokerProcess
from tests.integration.test_console_tools import Run, tool
from tests.integration.test_group_apis import ProtocolClient
from tests.integration.txn_support import Offsets, create_topic, one_broker_fixture, read_values, txn_producer
from tests.utils import wait_until_true

pytestmark = pytest.mark.integration

broker = one_broker_fixture("txn-tools")


def transactions(broker: BrokerProcess | str, *args: str) -> Run:
    """Runs bin/kafka-transactions.sh against the broker (or a bootstrap.servers list)."""
    bootstrap = broker if isinstance(broker, str) else broker.bootstrap
    run = tool("kafka-transactions.sh", "--bootstrap-server", bootstrap, *args)
    assert "Traceback" not in run.err, run.err
    return run


def _rows(run: Run) -> list[list[str]]:
    """The tool's table: one list of cells per line (cells end with a tab)."""
    return [[cell.strip() for cell in line.split("\t")[:-1]] for line in run.out.splitlines()]


def _row_of(run: Run, column: str, value: str) -> dict[str, str] | None:
    """The first row of the table whose `column` is `value`, as {header: cell}."""
    header, *rows = _rows(run)
    for row in rows:
        cells = dict(zip(header, row, strict=True))
        if cells[column] == value:
            return cells
    return None


def test_an_open_transaction_in_list_describe_and_describe_producers(broker: BrokerProcess) -> None:
    """While a confluent-kafka transaction is open, `list` shows it Ongoing on its coordinator, `describe` shows
    its producer, partitions and start time, `describe-producers` its first offset on the partition; after the
    commit they show CompleteCommit and no open transaction."""
    topic, tid = "txn-tools-open", "txn-tools-open-id"
    create_topic(broker.bootstrap, topic)
    producer = txn_producer(broker.bootstrap, tid)
    producer.begin_transaction()
    for i in range(3):
        producer.produce(topic, value=f"v{i}".encode(), partition=0)
    assert producer.flush(30) == 0

    listed = transactions(broker, "list")
    assert listed.status == 0, listed.err
    assert _rows(listed)[0] == ["TransactionalId", "Coordinator", "ProducerId", "TransactionState"]
    listing = _row_of(listed, "TransactionalId", tid)
    assert listing is not None, listed.out
    assert listing["Coordinator"] == str(broker.broker_id) and listing["TransactionState"] == "Ongoing"
    producer_id = listing["ProducerId"]

    described = transactions(broker, "describe", "--transactional-id", tid)
    assert described.status == 0, described.err
    (header, row) = _rows(described)
    cells = dict(zip(header, row, strict=True))
    assert cells["CoordinatorId"] == str(broker.broker_id) and cells["TransactionalId"] == tid
    assert cells["ProducerId"] == producer_id and cells["TransactionState"] == "Ongoing"
    assert cells["TopicPartitions"] == f"{topic}-0"
    start_ms = int(cells["CurrentTransactionStartTimeMs"])
    assert abs(start_ms - time.time() * 1000) < 600_000 and int(cells["TransactionDurationMs"]) >= 0

    producers = transactions(broker, "describe-producers", "--topic", topic, "--partition", "0")
    assert producers.status == 0, producers.err
    active = _row_of(producers, "ProducerId", producer_id)
    assert active is not None, producers.out
    assert active["CurrentTransactionStartOffset"] == "0" and active["LastSequence"] == "2"

    producer.commit_transaction(60)
    wait_until_true(
        lambda: (
            (_row_of(transactions(broker, "list"), "TransactionalId", tid) or {}).get("TransactionState")
            == "CompleteCommit"
        ),
        "the transaction to be listed as CompleteCommit",
        timeout=60,
        pause=0.5,
    )
    after = transactions(broker, "describe-producers", "--topic", topic, "--partition", "0", "--broker-id", "0")
    assert (_row_of(after, "ProducerId", producer_id) or {}).get("CurrentTransactionStartOffset") == "None", after.out
    assert read_values(broker.bootstrap, topic) == ["v0", "v1", "v2"]


def test_describe_of_an_unknown_transactional_id(broker: BrokerProcess) -> None:
    """`describe` of an id no coordinator knows ends with status 1 and Kafka's message."""
    run = transactions(broker, "describe", "--transactional-id", "txn-tools-never-used")
    assert run.status == 1 and run.out == ""
    assert run.err.startswith(
        "Failed to describe transaction state of transactional-id `txn-tools-never-used`: DescribeTransactions "
        "request for transactionalId `txn-tools-never-used` failed because the ID could not be found."
    ), run.err


def _write_hanging_transaction(broker: BrokerProcess, topic: str, timestamp_ms: int) -> int:
    """Transactional records under an idempotent producer id: no coordinator ever heard of this transaction, so
    none will end it. Returns the producer id."""
    with ProtocolClient(broker) as client:
        deadline = time.monotonic() + 60
        while True:
            init = client.call(
                ApiKeys.INIT_PRODUCER_ID, 4, InitProducerIdRequestData(transactional_id=None, transaction_timeout_ms=0)
            )
            if init.error_code == Errors.NONE.code or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        assert init.error_code == Errors.NONE.code
        records = MemoryRecords.with_transactional_records(
            CompressionType.NONE,
            init.producer_id,
            init.producer_epoch,
            0,
            *(SimpleRecord(timestamp_ms, None, f"hanging-{i}".encode()) for i in range(2)),
        )
        # A transactional Produce must name a transactional id (Kafka checks it may write with it), but the
        # coordinator of that id never learns of this producer id or partition.
        produce = ProduceRequestData(transactional_id="txn-tools-rogue", acks=-1, timeout_ms=30_000)
        produce.topic_data.append(
            ProduceRequestData.TopicProduceData(
                name=topic, partition_data=[ProduceRequestData.PartitionProduceData(index=0, records=records)]
            )
        )
        response = client.call(ApiKeys.PRODUCE, 8, produce)
        assert response.responses[0].partition_responses[0].error_code == Errors.NONE.code
        return int(init.producer_id)


def test_find_hanging_and_abort_a_hanging_transaction(broker: BrokerProcess) -> None:
    """A transaction its coordinator does not know, older than --max-transaction-timeout, is listed by
    `find-hanging` (by topic and by broker); it holds read_committed consumers at the LSO until `abort
    --start-offset` writes the abort marker; then the LSO moves on, the records stay invisible to read_committed
    (librdkafka's and kafka-console-consumer.sh --isolation-level's) and find-hanging finds nothing."""
    topic = "txn-tools-hanging"
    create_topic(broker.bootstrap, topic)
    committed = ck.Producer({"bootstrap.servers": broker.bootstrap, "acks": "all"})
    committed.produce(topic, value=b"before", partition=0)
    assert committed.flush(30) == 0
    last_timestamp = int(time.time() * 1000) - 20 * 60_000
    producer_id = _write_hanging_transaction(broker, topic, last_timestamp)
    committed.produce(topic, value=b"after", partition=0)
    assert committed.flush(30) == 0

    offsets = Offsets(broker.bootstrap)
    try:
        assert offsets.lso(topic) == 1 and offsets.high_watermark(topic) == 4

        by_topic = transactions(broker, "find-hanging", "--topic", topic)
        assert by_topic.status == 0, by_topic.err
        assert _rows(by_topic)[0] == [
            "Topic",
            "Partition",
            "ProducerId",
            "ProducerEpoch",
            "CoordinatorEpoch",
            "StartOffset",
            "LastTimestamp",
            "Duration(min)",
        ]
        (row,) = _rows(by_topic)[1:]
        assert row[:6] == [topic, "0", str(producer_id), "0", "-1", "1"]
        assert row[6] == str(last_timestamp) and int(row[7]) >= 20
        by_broker = transactions(broker, "find-hanging", "--broker-id", str(broker.broker_id))
        assert by_broker.status == 0, by_broker.err
        assert [r[:3] for r in _rows(by_broker)[1:]] == [[topic, "0", str(producer_id)]]
        recent_only = transactions(broker, "find-hanging", "--topic", topic, "--max-transaction-timeout", "30")
        assert _rows(recent_only)[1:] == []

        wrong_offset = transactions(broker, "abort", "--topic", topic, "--partition", "0", "--start-offset", "0")
        assert wrong_offset.status == 1
        assert wrong_offset.err == f"Could not find any open transactions starting at offset 0 on partition {topic}-0\n"

        aborted = transactions(broker, "abort", "--topic", topic, "--partition", "0", "--start-offset", "1")
        assert (aborted.status, aborted.out, aborted.err) == (0, "", "")
        wait_until_true(lambda: offsets.lso(topic) == 5, "the LSO to pass the abort marker", timeout=30)
    finally:
        offsets.close()
    assert _rows(transactions(broker, "find-hanging", "--topic", topic))[1:] == []
    producers = transactions(broker, "describe-producers", "--topic", topic, "--partition", "0")
    assert (_row_of(producers, "ProducerId", str(producer_id)) or {}).get("CurrentTransactionStartOffset") == "None"
    assert read_values(broker.bootstrap, topic) == ["before", "after"]
    assert read_values(broker.bootstrap, topic, isolation="read_uncommitted") == [
        "before",
        "hanging-0",
        "hanging-1",
        "after",
    ]
    for isolation, expected in (("read_committed", "before\nafter\n"), ("read_uncommitted", None)):
        consumed = tool(
            "kafka-console-consumer.sh",
            "--bootstrap-server",
            broker.bootstrap,
            "--topic",
            topic,
            "--from-beginning",
            "--max-messages",
            "2" if expected else "4",
            "--isolation-level",
            isolation,
        )
        assert consumed.status == 0, consumed.err
        assert consumed.out == (expected or "before\nhanging-0\nhanging-1\nafter\n")


def test_abort_by_producer_id_epoch_and_coordinator_epoch(broker: BrokerProcess) -> None:
    """The older form, `abort --producer-id --producer-epoch --coordinator-epoch -1`, aborts a hanging transaction
    too (coordinator epoch 0 on the marker)."""
    topic = "txn-tools-hanging-old-form"
    create_topic(broker.bootstrap, topic)
    producer_id = _write_hanging_transaction(broker, topic, int(time.time() * 1000))
    offsets = Offsets(broker.bootstrap)
    try:
        assert offsets.lso(topic) == 0
        run = transactions(
            broker,
            "abort",
            "--topic",
            topic,
            "--partition",
            "0",
            "--producer-id",
            str(producer_id),
            "--producer-epoch",
            "0",
            "--coordinator-epoch",
            "-1",
        )
        assert (run.status, run.err) == (0, "")
        wait_until_true(lambda: offsets.lso(topic) == 3, "the LSO to pass the abort marker", timeout=30)
    finally:
        offsets.close()
    assert read_values(broker.bootstrap, topic) == []


def test_list_merges_every_coordinator_of_three_brokers(cluster_factory: Any) -> None:
    """On three brokers, `list` asks each one and shows every open transaction under the broker that
    coordinates it, the same broker `describe` finds with FindCoordinator."""
    cluster = cluster_factory({"transaction.state.log.num.partitions": "6"})
    topic = "txn-tools-fanout"
    admin = AdminClient({"bootstrap.servers": cluster.bootstrap})
    admin.create_topics([NewTopic(topic, 1, 3)], operation_timeout=30)[topic].result(30)
    producers = []
    tids = [f"txn-tools-fanout-{i}" for i in range(6)]
    try:
        for tid in tids:
            producer = txn_producer(cluster.bootstrap, tid)
            producer.begin_transaction()
            producer.produce(topic, value=tid.encode(), partition=0)
            assert producer.flush(30) == 0
            producers.append(producer)
        run = transactions(cluster.bootstrap, "list")
        assert run.status == 0, run.err
        listed = {row[0]: row for row in _rows(run)[1:]}
        assert set(tids) <= set(listed), run.out
        for tid in tids:
            assert listed[tid][3] == "Ongoing"
            described = transactions(cluster.bootstrap, "describe", "--transactional-id", tid)
            assert described.status == 0, described.err
            (_header, row) = _rows(described)
            assert row[0] == listed[tid][1] and row[2] == listed[tid][2]
        for producer in producers:
            producer.commit_transaction(60)
    finally:
        for producer in producers:
            producer.flush(5)
