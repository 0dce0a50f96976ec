"""aiokafka (assign mode) and kafka-python (in its own virtualenv, as a separate process) produce to and fetch
from a broker started with bin/kafka-server-start.sh."""

from __future__ import annotations

import asyncio
import json
import subprocess
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.integration.broker import ROOT, BrokerProcess

pytestmark = pytest.mark.integration

KAFKA_PYTHON = ROOT / ".venv-kafka-python" / "bin" / "python"


@pytest.fixture(scope="module")
def broker(zookeeper, tmp_path_factory: pytest.TempPathFactory) -> Iterator[BrokerProcess]:  # type: ignore[no-untyped-def]
    work = Path(tmp_path_factory.mktemp("others"))
    b = BrokerProcess(work, zookeeper.connect_string + "/others-" + work.name)
    b.start()
    yield b
    assert b.stop() == 0, b.console_tail()


def test_aiokafka_produces_and_fetches(broker: BrokerProcess) -> None:
    """aiokafka's producer and an assigned aiokafka consumer round-trip 500 keyed records."""
    import aiokafka
    from aiokafka.structs import TopicPartition

    async def run() -> list[tuple[bytes, bytes, int]]:
        producer = aiokafka.AIOKafkaProducer(bootstrap_servers=broker.bootstrap, acks="all")
        await producer.start()
        try:
            for i in range(500):
                await producer.send("aio", key=f"k{i}".encode(), value=f"v{i}".encode(), partition=0)
            await producer.flush()
        finally:
            await producer.stop()
        consumer = aiokafka.AIOKafkaConsumer(bootstrap_servers=broker.bootstrap, enable_auto_commit=False)
        await consumer.start()
        try:
            tp = TopicPartition("aio", 0)
            consumer.assign([tp])
            consumer.seek(tp, 0)
            out: list[tuple[bytes, bytes, int]] = []
            while len(out) < 500:
                batch = await asyncio.wait_for(consumer.getmany(timeout_ms=500), 30)
                for records in batch.values():
                    out.extend((r.key, r.value, r.offset) for r in records)
            return out
        finally:
            await consumer.stop()

    got = asyncio.run(run())
    assert got == [(f"k{i}".encode(), f"v{i}".encode(), i) for i in range(500)]


KAFKA_PYTHON_SCRIPT = textwrap.dedent(
    """
    import json, sys
    from kafka import KafkaConsumer, KafkaProducer, TopicPartition
    bootstrap = sys.argv[1]
    producer = KafkaProducer(bootstrap_servers=bootstrap, acks="all", compression_type="gzip")
    for i in range(300):
        producer.send("kp", key=b"k%d" % i, value=b"v%d" % i, partition=0)
    producer.flush(30)
    producer.close()
    consumer = KafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False, consumer_timeout_ms=10000)
    tp = TopicPartition("kp", 0)
    consumer.assign([tp])
    consumer.seek_to_beginning(tp)
    out = []
    for record in consumer:
        out.append([record.key.decode(), record.value.decode(), record.offset])
        if len(out) == 300:
            break
    consumer.close()
    print(json.dumps(out))
    """
)


def test_kafka_python_produces_and_fetches(broker: BrokerProcess, tmp_path: Path) -> None:
    """kafka-python, run from its own virtualenv, produces 300 gzip records and fetches them back in order."""
    if not KAFKA_PYTHON.exists():
        pytest.fail("make install creates .venv-kafka-python with kafka-python")
    script = tmp_path / "kp.py"
    script.write_text(KAFKA_PYTHON_SCRIPT)
    done = subprocess.run(
        [str(KAFKA_PYTHON), str(script), broker.bootstrap], capture_output=True, text=True, timeout=120, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr[-3000:]
    got = json.loads(done.stdout.strip().splitlines()[-1])
    assert got == [[f"k{i}", f"v{i}", i] for i in range(300)]
