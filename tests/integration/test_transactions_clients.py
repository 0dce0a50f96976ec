"""Transactions as a user meets them (issue 13), on one broker started from the bin scripts: confluent-kafka
(librdkafka) and aiokafka transactional producers with read_committed and read_uncommitted consumers; an open
transaction holding read_committed consumers at the last stable offset; consume-transform-produce with the
group's offsets committed in the transaction; fencing by a second producer with the same transactional.id; a
producer SIGKILLed inside its transaction, aborted after its transaction.timeout.ms; the error codes Kafka gives
bad transactional requests and TxnOffsetCommits the group refuses (sent with our own request classes);
kafka-dump-log.sh printing the markers."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import confluent_kafka as ck
import pytest

from kafka.common.message import (
    AddOffsetsToTxnRequestData,
    AddPartitionsToTxnRequestData,
    DescribeGroupsRequestData,
    DescribeTransactionsRequestData,
    EndTxnRequestData,
    FindCoordinatorRequestData,
    HeartbeatRequestData,
    InitProducerIdRequestData,
    OffsetFetchRequestData,
    SyncGroupRequestData,
    TxnOffsetCommitRequestData,
)
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from tests.integration.broker import ROOT, BrokerProcess
from tests.integration.test_group_apis import ProtocolClient
from tests.integration.txn_support import (
    ONE_BROKER_OVERRIDES,
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

MAX_TXN_TIMEOUT_MS = 120_000
TXN_OVERRIDES = {
    **ONE_BROKER_OVERRIDES,
    # Timed-out transactions are looked for twice a second (Kafka's default is every 10 s), so the test of a
    # producer that dies inside a transaction waits for that producer's transaction.timeout.ms, not the check.
    "transaction.abort.timed.out.transaction.cleanup.interval.ms": "500",
    "transaction.max.timeout.ms": str(MAX_TXN_TIMEOUT_MS),
}
FENCED = {ck.KafkaError.PRODUCER_FENCED, ck.KafkaError.INVALID_PRODUCER_EPOCH, ck.KafkaError._FENCED}

broker = one_broker_fixture("txn-clients", TXN_OVERRIDES)
offsets = offsets_fixture()


# ---- helpers ------------------------------------------------------------------------------------------------


def _plain_producer(broker: BrokerProcess) -> ck.Producer:
    return ck.Producer({"bootstrap.servers": broker.bootstrap, "acks": "all", "linger.ms": 5})


def _produce(producer: ck.Producer, topic: str, values: list[str], partitions: int = 1) -> None:
    for i, value in enumerate(values):
        producer.produce(topic, value=value.encode(), partition=i % partitions)


def _committed_offsets(broker: BrokerProcess, group: str, topic: str, partitions: int) -> dict[int, int]:
    """The group's committed offset of each partition of `topic`, as a confluent-kafka consumer fetches it."""
    checker = ck.Consumer({"bootstrap.servers": broker.bootstrap, "group.id": group, "enable.auto.commit": False})
    try:
        committed = checker.committed([ck.TopicPartition(topic, p) for p in range(partitions)], 30)
    finally:
        checker.close()
    return {tp.partition: tp.offset for tp in committed}


def _fenced_error(producer: ck.Producer, topic: str) -> ck.KafkaError:
    """What a producer that has been fenced meets when it sends once more and commits: the fatal error its
    commit (or the abort it is told to do) fails with."""
    try:
        producer.produce(topic, value=b"after-fencing", partition=0)
        producer.commit_transaction(60)
    except ck.KafkaException as e:
        error: ck.KafkaError = e.args[0]
    else:
        raise AssertionError("a fenced producer committed a transaction")
    if error.txn_requires_abort():
        # librdkafka may learn of the fencing from the Produce response (an abortable error); the abort's EndTxn
        # then fails as fenced.
        with pytest.raises(ck.KafkaException) as aborted:
            producer.abort_transaction(60)
        error = aborted.value.args[0]
    return error


# ---- confluent-kafka ------------------------------------------------------------------------------------------


def test_read_committed_sees_committed_records_only(broker: BrokerProcess, offsets: Offsets) -> None:
    """Two committed transactions and an aborted one between them over two partitions: read_committed consumers
    get exactly the committed records, in order, read_uncommitted ones all of them; each transaction left one
    marker per partition."""
    topic = "committed-and-aborted"
    create_topic(broker.bootstrap, topic, partitions=2)
    producer = txn_producer(broker.bootstrap, "cc-1")
    committed = [f"c{i}" for i in range(40)]
    aborted = [f"a{i}" for i in range(20)]
    for values, commit in ((committed[:20], True), (aborted, False), (committed[20:], True)):
        producer.begin_transaction()
        _produce(producer, topic, values, partitions=2)
        producer.flush(30)
        if commit:
            producer.commit_transaction(60)
        else:
            producer.abort_transaction(60)
    offsets.wait_stable(topic, partitions=2)

    read_committed = read_values(broker.bootstrap, topic, 2)
    assert Counter(read_committed) == Counter(committed)
    for p in range(2):
        in_partition = [v for v in read_committed if int(v[1:]) % 2 == p]
        assert in_partition == [v for v in committed if int(v[1:]) % 2 == p], f"order in partition {p}"
    assert Counter(read_values(broker.bootstrap, topic, 2, "read_uncommitted")) == Counter(committed + aborted)
    # 60 records and three control batches (one marker each) per partition
    assert sum(offsets.high_watermark(topic, p) for p in range(2)) == 60 + 3 * 2


def test_open_transaction_holds_read_committed_at_lso(broker: BrokerProcess, offsets: Offsets) -> None:
    """While a transaction is open, read_committed consumers stop at its first offset (the LSO), even for
    records written after it outside the transaction; read_uncommitted consumers see everything. The commit
    releases them."""
    topic = "held-at-lso"
    create_topic(broker.bootstrap, topic)
    plain = _plain_producer(broker)
    _produce(plain, topic, ["before-0", "before-1"])
    plain.flush(30)
    producer = txn_producer(broker.bootstrap, "lso-1")
    producer.begin_transaction()
    _produce(producer, topic, ["open-0", "open-1", "open-2"])
    producer.flush(30)
    _produce(plain, topic, ["after"])
    plain.flush(30)

    committed_reader = Reader(broker.bootstrap, topic)
    try:
        assert offsets.lso(topic) == 2 and offsets.high_watermark(topic) == 6
        assert [v for _, _, v in committed_reader.read_to_end()] == ["before-0", "before-1"]
        assert read_values(broker.bootstrap, topic, 1, "read_uncommitted") == [
            "before-0",
            "before-1",
            "open-0",
            "open-1",
            "open-2",
            "after",
        ]
        assert committed_reader.consumer.position([ck.TopicPartition(topic, 0)])[0].offset == 2
        producer.commit_transaction(60)
        assert [v for _, _, v in committed_reader.read_to_end()] == ["open-0", "open-1", "open-2", "after"]
        offsets.wait_stable(topic)
        assert offsets.high_watermark(topic) == 7
    finally:
        committed_reader.close()


def test_consume_transform_produce_exactly_once(broker: BrokerProcess, offsets: Offsets) -> None:
    """A group member reads 200 records and writes one output per input, its position sent to the transaction
    with send_offsets_to_transaction; every third transaction is aborted and the member rewinds to the group's
    committed offsets. The read_committed output holds every input exactly once, and the group's committed
    offsets are the input's end offsets."""
    source, sink, group = "ctp-in", "ctp-out", "ctp-group"
    create_topic(broker.bootstrap, source, partitions=2)
    create_topic(broker.bootstrap, sink, partitions=2)
    plain = _plain_producer(broker)
    inputs = [str(i) for i in range(200)]
    _produce(plain, source, inputs, partitions=2)
    plain.flush(30)
    ends = {p: offsets.high_watermark(source, p) for p in range(2)}
    assert sum(ends.values()) == 200

    consumer = ck.Consumer(
        {
            "bootstrap.servers": broker.bootstrap,
            "group.id": group,
            "enable.auto.commit": False,
            "auto.offset.reset": "earliest",
            "isolation.level": "read_committed",
        }
    )
    producer = txn_producer(broker.bootstrap, "ctp-1")
    consumer.subscribe([source])
    transactions = aborts = 0
    deadline = time.monotonic() + 120
    try:
        while True:
            assert time.monotonic() < deadline, "the group did not get through its input in 120 s"
            # Done once the group's committed offsets are the input's ends (a position is unknown after a rewind
            # until a record is consumed, so the committed offsets are what to look at).
            assignment = consumer.assignment()
            if len(assignment) == 2 and all(
                tp.offset == ends[tp.partition] for tp in consumer.committed(assignment, 30)
            ):
                break
            msgs = [m for m in consumer.consume(num_messages=25, timeout=0.5) if m.error() is None]
            if not msgs:
                continue
            producer.begin_transaction()
            for msg in msgs:
                value, partition = msg.value(), msg.partition()
                assert value is not None and partition is not None
                producer.produce(sink, key=value, value=b"out-" + value, partition=partition)
            producer.send_offsets_to_transaction(
                consumer.position(consumer.assignment()), consumer.consumer_group_metadata(), 30
            )
            transactions += 1
            if transactions % 3 == 0:
                producer.flush(30)
                producer.abort_transaction(60)
                aborts += 1
                # Back to what the group last committed: the aborted batch is processed again.
                for tp in consumer.committed(consumer.assignment(), 30):
                    offset = tp.offset if tp.offset >= 0 else ck.OFFSET_BEGINNING
                    consumer.seek(ck.TopicPartition(source, tp.partition, offset))
            else:
                producer.commit_transaction(60)
    finally:
        consumer.close()
    assert aborts > 0
    offsets.wait_stable(sink, partitions=2)
    outputs = read_values(broker.bootstrap, sink, 2)
    assert Counter(outputs) == Counter(f"out-{i}" for i in inputs), "every input exactly once in the output"
    assert len(read_values(broker.bootstrap, sink, 2, "read_uncommitted")) > 200, "the aborted outputs are in the log"

    assert _committed_offsets(broker, group, source, 2) == ends


def test_second_producer_fences_the_first(broker: BrokerProcess, offsets: Offsets) -> None:
    """A second producer initialising the same transactional.id fences the first: the first one's open
    transaction is aborted, its next send and commit fail with a fatal fencing error, and read_committed consumers
    see only the second producer's records."""
    topic = "fenced"
    create_topic(broker.bootstrap, topic)
    first = txn_producer(broker.bootstrap, "fence-1")
    first.begin_transaction()
    _produce(first, topic, ["first-open-0", "first-open-1"])
    first.flush(30)

    second = txn_producer(broker.bootstrap, "fence-1")
    second.begin_transaction()
    _produce(second, topic, ["second-0"])
    second.commit_transaction(60)

    error = _fenced_error(first, topic)
    assert error.fatal(), error
    assert error.code() in FENCED, error
    offsets.wait_stable(topic)
    assert read_values(broker.bootstrap, topic) == ["second-0"]
    assert "first-open-0" in read_values(broker.bootstrap, topic, 1, "read_uncommitted")


CHILD_PRODUCER = textwrap.dedent(
    """
    import sys, time
    import confluent_kafka as ck
    bootstrap, transactional_id, timeout_ms, topic = sys.argv[1:5]
    config = {"bootstrap.servers": bootstrap, "transactional.id": transactional_id}
    producer = ck.Producer({**config, "transaction.timeout.ms": int(timeout_ms)})
    producer.init_transactions(90)
    producer.begin_transaction()
    for i in range(5):
        producer.produce(topic, value=b"doomed-%d" % i, partition=0)
    producer.flush(30)
    print("in-transaction", flush=True)
    time.sleep(600)
    """
)


def test_producer_killed_in_transaction_is_aborted_after_its_timeout(
    broker: BrokerProcess, offsets: Offsets, tmp_path: Path
) -> None:
    """A producer SIGKILLed inside a transaction (a child process, transaction.timeout.ms=10000) holds the LSO
    at its first record until the coordinator aborts the transaction for timing out; then the LSO moves on,
    read_committed consumers skip its records and get the ones written after it, and its transactional.id can be
    used again."""
    topic = "killed-in-txn"
    create_topic(broker.bootstrap, topic)
    plain = _plain_producer(broker)
    _produce(plain, topic, ["before"])
    plain.flush(30)
    script = tmp_path / "child_producer.py"
    script.write_text(CHILD_PRODUCER)
    child = subprocess.Popen(
        [sys.executable, str(script), broker.bootstrap, "doomed-1", "10000", topic],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        line = _readline(child, timeout=120)
        assert line == "in-transaction", line
    finally:
        os.kill(child.pid, signal.SIGKILL)
        child.wait(30)
    _produce(plain, topic, ["after"])
    plain.flush(30)
    assert offsets.high_watermark(topic) == 7
    assert offsets.lso(topic) == 1, "the dead producer's open transaction holds the LSO"

    offsets.wait_stable(topic, timeout=90)
    assert offsets.high_watermark(topic) == 8, "the abort marker"
    assert read_values(broker.bootstrap, topic) == ["before", "after"]
    again = txn_producer(broker.bootstrap, "doomed-1")
    again.begin_transaction()
    _produce(again, topic, ["reborn"])
    again.commit_transaction(60)
    offsets.wait_stable(topic)
    assert read_values(broker.bootstrap, topic) == ["before", "after", "reborn"]


def _readline(process: subprocess.Popen[str], timeout: float) -> str:
    """The child's first line of output, waiting at most `timeout` seconds."""
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.append(process.stdout.readline() if process.stdout else ""))
    reader.start()
    reader.join(timeout)
    return lines[0].strip() if lines else f"(nothing within {timeout} s; exit code {process.poll()})"


def test_dump_log_prints_transaction_markers(broker: BrokerProcess, offsets: Offsets) -> None:
    """kafka-dump-log.sh on a segment holding a committed and an aborted transaction prints the transactional
    batches and both control records (`endTxnMarker: COMMIT` / `ABORT`)."""
    topic = "dumped"
    create_topic(broker.bootstrap, topic)
    producer = txn_producer(broker.bootstrap, "dump-1")
    for commit in (True, False):
        producer.begin_transaction()
        _produce(producer, topic, ["x", "y"])
        producer.flush(30)
        if commit:
            producer.commit_transaction(60)
        else:
            producer.abort_transaction(60)
    offsets.wait_stable(topic)
    segment = broker.log_dir / f"{topic}-0" / "00000000000000000000.log"
    done = subprocess.run(
        [str(ROOT / "bin" / "kafka-dump-log.sh"), "--files", str(segment), "--deep-iteration"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    out = done.stdout
    assert out.count("isTransactional: true isControl: false") == 2, out
    assert out.count("isTransactional: true isControl: true") == 2, out
    assert "endTxnMarker: COMMIT coordinatorEpoch:" in out, out
    assert "endTxnMarker: ABORT coordinatorEpoch:" in out, out
    assert out.index("endTxnMarker: COMMIT") < out.index("endTxnMarker: ABORT")


# ---- aiokafka -------------------------------------------------------------------------------------------------


async def _aio_read(broker: BrokerProcess, topic: str, isolation: str, end: int) -> list[str]:
    """What an aiokafka consumer of `isolation` reads from partition 0 until its position reaches `end`."""
    import aiokafka
    from aiokafka.structs import TopicPartition

    consumer = aiokafka.AIOKafkaConsumer(
        bootstrap_servers=broker.bootstrap, enable_auto_commit=False, isolation_level=isolation
    )
    await consumer.start()
    try:
        tp = TopicPartition(topic, 0)
        consumer.assign([tp])
        consumer.seek(tp, 0)
        out: list[str] = []
        deadline = time.monotonic() + 60
        while await consumer.position(tp) < end:
            assert time.monotonic() < deadline, f"aiokafka read {out} and stopped short of offset {end}"
            batch = await consumer.getmany(tp, timeout_ms=500)
            out.extend(r.value.decode() for r in batch.get(tp, []))
        return out
    finally:
        await consumer.stop()


def test_aiokafka_commits_and_aborts(broker: BrokerProcess, offsets: Offsets) -> None:
    """aiokafka's transactional producer commits one transaction and aborts the next: its read_committed consumer
    (and librdkafka's) get only the committed records, its read_uncommitted consumer all of them."""
    import aiokafka

    topic = "aio-committed"
    create_topic(broker.bootstrap, topic)

    async def produce() -> None:
        producer = aiokafka.AIOKafkaProducer(bootstrap_servers=broker.bootstrap, transactional_id="aio-1")
        await producer.start()
        try:
            async with producer.transaction():
                for i in range(10):
                    await producer.send(topic, value=f"c{i}".encode(), partition=0)
            await producer.begin_transaction()
            for i in range(10):
                await producer.send(topic, value=f"a{i}".encode(), partition=0)
            await producer.flush()
            await producer.abort_transaction()
            async with producer.transaction():
                await producer.send(topic, value=b"c10", partition=0)
        finally:
            await producer.stop()

    asyncio.run(produce())
    offsets.wait_stable(topic)
    end = offsets.high_watermark(topic)
    assert end == 21 + 3
    committed = [f"c{i}" for i in range(11)]
    assert asyncio.run(_aio_read(broker, topic, "read_committed", end)) == committed
    assert asyncio.run(_aio_read(broker, topic, "read_uncommitted", end)) == (
        committed[:10] + [f"a{i}" for i in range(10)] + committed[10:]
    )
    assert read_values(broker.bootstrap, topic) == committed


def test_aiokafka_producer_is_fenced(broker: BrokerProcess, offsets: Offsets) -> None:
    """A second aiokafka producer with the same transactional_id fences the first: the first one's next commit
    raises ProducerFenced, and its open transaction never reaches read_committed consumers."""
    import aiokafka
    from aiokafka.errors import ProducerFenced

    topic = "aio-fenced"
    create_topic(broker.bootstrap, topic)

    async def run() -> None:
        first = aiokafka.AIOKafkaProducer(bootstrap_servers=broker.bootstrap, transactional_id="aio-fence")
        second = aiokafka.AIOKafkaProducer(bootstrap_servers=broker.bootstrap, transactional_id="aio-fence")
        await first.start()
        try:
            await first.begin_transaction()
            await first.send_and_wait(topic, value=b"first-open", partition=0)
            await second.start()
            async with second.transaction():
                await second.send(topic, value=b"second", partition=0)
            with pytest.raises(ProducerFenced):
                await first.send_and_wait(topic, value=b"first-after", partition=0)
                await first.commit_transaction()
        finally:
            await second.stop()
            await first.stop()

    asyncio.run(run())
    offsets.wait_stable(topic)
    assert read_values(broker.bootstrap, topic) == ["second"]


def test_aiokafka_consume_transform_produce(broker: BrokerProcess, offsets: Offsets) -> None:
    """aiokafka's consume-transform-produce: a group member's batches go out in transactions with its offsets
    (send_offsets_to_transaction with the group id), every other one aborted and its input re-read; the
    read_committed output holds each of the 120 inputs once and the group committed the input's end offsets."""
    import aiokafka

    source, sink, group = "aio-ctp-in", "aio-ctp-out", "aio-ctp-group"
    create_topic(broker.bootstrap, source, partitions=2)
    create_topic(broker.bootstrap, sink, partitions=2)
    plain = _plain_producer(broker)
    _produce(plain, source, [str(i) for i in range(120)], partitions=2)
    plain.flush(30)
    ends = {p: offsets.high_watermark(source, p) for p in range(2)}

    async def run() -> int:
        consumer = aiokafka.AIOKafkaConsumer(
            source,
            bootstrap_servers=broker.bootstrap,
            group_id=group,
            enable_auto_commit=False,
            auto_offset_reset="earliest",
            isolation_level="read_committed",
            max_poll_records=20,
        )
        producer = aiokafka.AIOKafkaProducer(bootstrap_servers=broker.bootstrap, transactional_id="aio-ctp-1")
        await consumer.start()
        await producer.start()
        aborts = transactions = 0
        try:
            deadline = time.monotonic() + 120
            while True:
                assert time.monotonic() < deadline, "the group did not get through its input in 120 s"
                assignment = consumer.assignment()
                committed = {tp.partition: await consumer.committed(tp) for tp in assignment}
                if committed == ends:
                    return aborts
                batch = await consumer.getmany(timeout_ms=500)
                if not any(batch.values()):
                    continue
                # Where this transaction's input starts: an abort rewinds there. (Not to committed(): aiokafka
                # sends OffsetFetch without require_stable, so right after a commit it may still be answered the
                # offsets from before it, until the COMMIT marker reaches __consumer_offsets, as Kafka answers;
                # rewinding there would read a committed batch twice.)
                start = {tp: records[0].offset for tp, records in batch.items() if records}
                await producer.begin_transaction()
                for tp, records in batch.items():
                    for r in records:
                        await producer.send(sink, value=b"out-" + r.value, partition=tp.partition)
                positions = {tp: await consumer.position(tp) for tp in consumer.assignment()}
                await producer.send_offsets_to_transaction(positions, group)
                transactions += 1
                if transactions % 2 == 0:
                    await producer.flush()
                    await producer.abort_transaction()
                    aborts += 1
                    for tp, offset in start.items():
                        consumer.seek(tp, offset)
                else:
                    await producer.commit_transaction()
        finally:
            await producer.stop()
            await consumer.stop()

    assert asyncio.run(run()) > 0
    offsets.wait_stable(sink, partitions=2)
    assert Counter(read_values(broker.bootstrap, sink, 2)) == Counter(f"out-{i}" for i in range(120))
    assert _committed_offsets(broker, group, source, 2) == ends


# ---- bad input on the wire ------------------------------------------------------------------------------------


def _init_producer_id(client: ProtocolClient, transactional_id: str, timeout_ms: int) -> Any:
    """InitProducerId, retried while the coordinator answers with a retriable error."""
    retriable = {Errors.COORDINATOR_LOAD_IN_PROGRESS.code, Errors.CONCURRENT_TRANSACTIONS.code}
    deadline = time.monotonic() + 60
    while True:
        response = client.call(
            ApiKeys.INIT_PRODUCER_ID,
            3,
            InitProducerIdRequestData(transactional_id=transactional_id, transaction_timeout_ms=timeout_ms),
        )
        if response.error_code not in retriable or time.monotonic() > deadline:
            return response
        time.sleep(0.1)


def _end_txn(client: ProtocolClient, version: int, transactional_id: str, producer_id: int, epoch: int) -> int:
    data = EndTxnRequestData(
        transactional_id=transactional_id, producer_id=producer_id, producer_epoch=epoch, committed=True
    )
    return int(client.call(ApiKeys.END_TXN, version, data).error_code)


def _add_partitions(
    client: ProtocolClient, transactional_id: str, producer_id: int, epoch: int, topics: dict[str, list[int]]
) -> dict[tuple[str, int], int]:
    data = AddPartitionsToTxnRequestData(
        v3_and_below_transactional_id=transactional_id,
        v3_and_below_producer_id=producer_id,
        v3_and_below_producer_epoch=epoch,
        v3_and_below_topics=[
            AddPartitionsToTxnRequestData.AddPartitionsToTxnTopic(name=t, partitions=p) for t, p in topics.items()
        ],
    )
    response = client.call(ApiKeys.ADD_PARTITIONS_TO_TXN, 3, data)
    return {
        (t.name, p.partition_index): p.partition_error_code
        for t in response.results_by_topic_v3_and_below
        for p in t.results_by_partition
    }


def test_bad_transactional_requests_get_kafkas_errors(broker: BrokerProcess) -> None:
    """EndTxn for an unknown transactional id, InitProducerId with a timeout above transaction.max.timeout.ms,
    AddPartitionsToTxn with an unknown topic, EndTxn with no transaction open, with another producer id and with
    a wrong epoch get Kafka's error codes, and leave the transaction as it was: it still commits."""
    topic, tid = "bad-txn-input", "bad-input-1"
    create_topic(broker.bootstrap, topic)
    with ProtocolClient(broker) as client:
        wait_until_true(
            lambda: (
                client.call(ApiKeys.FIND_COORDINATOR, 3, FindCoordinatorRequestData(key=tid, key_type=1)).error_code
                == Errors.NONE.code
            ),
            "the transaction coordinator of the id is available",
            timeout=90,
            pause=0.2,
        )
        for version in (0, 3):
            assert _end_txn(client, version, "never-initialised", 4242, 0) == Errors.INVALID_PRODUCER_ID_MAPPING.code

        too_long = _init_producer_id(client, tid, MAX_TXN_TIMEOUT_MS + 1)
        assert too_long.error_code == Errors.INVALID_TRANSACTION_TIMEOUT.code
        init = _init_producer_id(client, tid, 60_000)
        assert init.error_code == Errors.NONE.code
        pid, epoch = init.producer_id, init.producer_epoch

        assert _end_txn(client, 3, tid, pid, epoch) == Errors.INVALID_TXN_STATE.code, "no transaction is open"
        assert _add_partitions(client, tid, pid, epoch, {topic: [0], "no-such-topic": [0]}) == {
            (topic, 0): Errors.OPERATION_NOT_ATTEMPTED.code,
            ("no-such-topic", 0): Errors.UNKNOWN_TOPIC_OR_PARTITION.code,
        }
        assert _add_partitions(client, tid, pid, epoch, {topic: [0]}) == {(topic, 0): Errors.NONE.code}
        assert _end_txn(client, 3, tid, pid + 1, epoch) == Errors.INVALID_PRODUCER_ID_MAPPING.code
        assert _end_txn(client, 3, tid, pid, epoch + 1) == Errors.PRODUCER_FENCED.code
        assert _end_txn(client, 1, tid, pid, epoch + 1) == Errors.INVALID_PRODUCER_EPOCH.code, "before EndTxn v2"

        described = client.call(
            ApiKeys.DESCRIBE_TRANSACTIONS, 0, DescribeTransactionsRequestData(transactional_ids=[tid])
        ).transaction_states[0]
        assert (described.error_code, described.transaction_state) == (Errors.NONE.code, "Ongoing")
        assert (described.producer_id, described.producer_epoch) == (pid, epoch)
        assert [(t.topic, list(t.partitions)) for t in described.topics] == [(topic, [0])]
        assert _end_txn(client, 3, tid, pid, epoch) == Errors.NONE.code, "the transaction commits after all that"


def _txn_offset_commit(
    client: ProtocolClient, tid: str, pid: int, epoch: int, group: str, topic: str, offset: int, **member: Any
) -> dict[tuple[str, int], int]:
    """TxnOffsetCommit v3 of `offset` for partition 0 of `topic`; `member` holds the v3 member fields. The error
    code per partition."""
    data = TxnOffsetCommitRequestData(
        transactional_id=tid,
        group_id=group,
        producer_id=pid,
        producer_epoch=epoch,
        topics=[
            TxnOffsetCommitRequestData.TxnOffsetCommitRequestTopic(
                name=topic,
                partitions=[
                    TxnOffsetCommitRequestData.TxnOffsetCommitRequestPartition(
                        partition_index=0, committed_offset=offset
                    )
                ],
            )
        ],
        **member,
    )
    response = client.call(ApiKeys.TXN_OFFSET_COMMIT, 3, data)
    return {(t.name, p.partition_index): p.error_code for t in response.topics for p in t.partitions}


def _stable_offset(client: ProtocolClient, group: str, topic: str) -> tuple[int, int]:
    """(committed offset, error) of partition 0 as a read_committed consumer fetches it (OffsetFetch v7 with
    require_stable: UNSTABLE_OFFSET_COMMIT while a transaction holds an offset for it)."""
    data = OffsetFetchRequestData(
        group_id=group,
        topics=[OffsetFetchRequestData.OffsetFetchRequestTopic(name=topic, partition_indexes=[0])],
        require_stable=True,
    )
    response = client.call(ApiKeys.OFFSET_FETCH, 7, data)
    assert response.error_code == Errors.NONE.code
    (partition,) = response.topics[0].partitions
    return partition.committed_offset, partition.error_code


def test_txn_offset_commit_refused_by_the_group_gets_kafkas_errors(broker: BrokerProcess) -> None:
    """TxnOffsetCommit v3 through the wire, inside a transaction that added the group's offsets: the group, Stable
    with one static member, refuses a commit from a member id it does not know (UNKNOWN_MEMBER_ID), from another
    generation (ILLEGAL_GENERATION), from an old member id of its static instance (FENCED_INSTANCE_ID), and an empty
    group id is INVALID_GROUP_ID, as Kafka 2.8's GroupCoordinator answers. Nothing of them is kept: the group is
    still Stable with its member in its generation, no offset is pending, and the transaction then commits the
    member's own offset."""
    topic, tid, group, instance = "bad-txn-commit", "bad-txn-commit-1", "bad-txn-commit-group", "static-1"
    create_topic(broker.bootstrap, topic)
    with ProtocolClient(broker) as client:
        for key, key_type in ((group, 0), (tid, 1)):
            wait_until_true(
                lambda key=key, key_type=key_type: (  # type: ignore[misc]
                    client.call(
                        ApiKeys.FIND_COORDINATOR, 3, FindCoordinatorRequestData(key=key, key_type=key_type)
                    ).error_code
                    == Errors.NONE.code
                ),
                f"the coordinator of {key} is available",
                timeout=90,
                pause=0.2,
            )
        init = _init_producer_id(client, tid, 60_000)
        assert init.error_code == Errors.NONE.code
        pid, epoch = init.producer_id, init.producer_epoch
        added = client.call(
            ApiKeys.ADD_OFFSETS_TO_TXN,
            3,
            AddOffsetsToTxnRequestData(transactional_id=tid, producer_id=pid, producer_epoch=epoch, group_id=group),
        )
        assert added.error_code == Errors.NONE.code

        # The group: one static member, joined and synced (Stable).
        joined = client.join(5, group, "", instance)
        assert joined.error_code == Errors.NONE.code
        member, generation = joined.member_id, joined.generation_id
        synced = client.call(
            ApiKeys.SYNC_GROUP,
            5,
            SyncGroupRequestData(
                group_id=group,
                generation_id=generation,
                member_id=member,
                group_instance_id=instance,
                protocol_type="consumer",
                protocol_name="range",
                assignments=[SyncGroupRequestData.SyncGroupRequestAssignment(member_id=member, assignment=b"a")],
            ),
        )
        assert synced.error_code == Errors.NONE.code

        def commit(offset: int, group_id: str = group, **fields: Any) -> int:
            errors = _txn_offset_commit(client, tid, pid, epoch, group_id, topic, offset, **fields)
            assert list(errors) == [(topic, 0)]
            return errors[(topic, 0)]

        refused = {
            "unknown member": commit(11, member_id="not-a-member", generation_id=generation),
            "other generation": commit(12, member_id=member, generation_id=generation + 1),
            "fenced instance": commit(
                13, member_id="old-member-id", group_instance_id=instance, generation_id=generation
            ),
            "empty group id": commit(14, group_id="", member_id=member, generation_id=generation),
        }
        assert refused == {
            "unknown member": Errors.UNKNOWN_MEMBER_ID.code,
            "other generation": Errors.ILLEGAL_GENERATION.code,
            "fenced instance": Errors.FENCED_INSTANCE_ID.code,
            "empty group id": Errors.INVALID_GROUP_ID.code,
        }

        # The coordinator's state is as before: the member's heartbeat in its generation is answered NONE, the
        # group is Stable with that one member, and no transactional offset is pending for the partition.
        heartbeat = client.call(
            ApiKeys.HEARTBEAT,
            4,
            HeartbeatRequestData(
                group_id=group, generation_id=generation, member_id=member, group_instance_id=instance
            ),
        )
        assert heartbeat.error_code == Errors.NONE.code
        (described,) = client.call(ApiKeys.DESCRIBE_GROUPS, 5, DescribeGroupsRequestData(groups=[group])).groups
        assert described.group_state == "Stable"
        assert [(m.member_id, m.group_instance_id) for m in described.members] == [(member, instance)]
        assert _stable_offset(client, group, topic) == (-1, Errors.NONE.code)

        # The transaction is unharmed: the member's own commit is taken and committed with it.
        assert commit(15, member_id=member, group_instance_id=instance, generation_id=generation) == Errors.NONE.code
        assert _stable_offset(client, group, topic) == (-1, Errors.UNSTABLE_OFFSET_COMMIT.code)
        assert _end_txn(client, 3, tid, pid, epoch) == Errors.NONE.code
        wait_until_true(
            lambda: _stable_offset(client, group, topic) == (15, Errors.NONE.code),
            "the committed transaction's offset is the group's",
            timeout=30,
            pause=0.1,
        )
