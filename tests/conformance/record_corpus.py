"""Records the conformance corpus: real clients against this project's broker, through the recording proxy.

    .venv/bin/python -m tests.conformance.record_corpus [--only NAME ...] [--list] [--out DIR]

Starts a ZooKeeper and a broker with bin/kafka-server-start.sh (its advertised listener is the proxy's
address, so that clients reach it only through the proxy), then for each scenario: sets up the topics its
manifest names (not recorded), starts the recorder (kafka.tools.conformance.traffic_recorder) in front of
the broker, runs the client, stops the recorder, tidies up, checks the capture against the invariants,
replays it once against the same broker, and writes `<name>.jsonl` and `<name>.json` (the manifest) into
tests/conformance/corpus/. It prints each session's decoded listing (capture_summary), which is what must be
read before a session is committed as a fixture.

Scenarios whose client is not installed are skipped with a message. Topic and group names are unique per
scenario, so that sessions replayed one after another on one broker cannot see each other's data.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
for _p in (ROOT / "core", ROOT / "clients", ROOT):
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))

from kafka.common.utils.time import Time  # noqa: E402
from kafka.tools.conformance.capture import CaptureHeader, CaptureWriter, read_capture  # noqa: E402
from kafka.tools.conformance.capture_summary import summary_lines  # noqa: E402
from kafka.tools.conformance.invariants import check_capture  # noqa: E402
from kafka.tools.conformance.manifest import Manifest, Rule, TopicSetup  # noqa: E402
from kafka.tools.conformance.session_setup import SessionSetup  # noqa: E402
from kafka.tools.conformance.traffic_recorder import TrafficRecorder  # noqa: E402
from kafka.tools.conformance.traffic_replayer import replay_session  # noqa: E402
from tests.integration.broker import BrokerProcess  # noqa: E402
from tests.integration.zookeeper import ZooKeeperServer, free_port  # noqa: E402

CORPUS = Path(__file__).resolve().parent / "corpus"
MAX_CAPTURE_BYTES = 128 * 1024  # a session larger than this is a scenario to shorten, not a fixture
KAFKA_PYTHON = ROOT / ".venv-kafka-python" / "bin" / "python"

# The broker settings every session is recorded (and replayed) with, beside bin/kafka-server-start.sh's
# config/server.properties.
BASE_BROKER_CONFIGS = {
    "num.partitions": "1",
    "offsets.topic.num.partitions": "1",
    "offsets.topic.replication.factor": "1",
    "group.initial.rebalance.delay.ms": "0",
}


@dataclass
class Ctx:
    """What a scenario gets: the address clients bootstrap from (the proxy)."""

    bootstrap: str


@dataclass
class Scenario:
    name: str
    client: dict[str, Any]
    scenario: str
    description: str
    run: Callable[[Ctx], None]
    topics: list[TopicSetup] = field(default_factory=list)
    groups: list[str] = field(default_factory=list)
    broker_configs: dict[str, str] = field(default_factory=dict)
    rules: list[Rule] = field(default_factory=list)
    reviewed: str = ""  # what the hand check of the recorded session found; holds for a re-recording to be kept
    available: Callable[[], str | None] = lambda: None  # a reason it cannot run here, or None


def wait_for(condition: Callable[[], bool], what: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out: {what}")
        time.sleep(0.05)


# ---- client versions ------------------------------------------------------------------------------------


def _confluent() -> dict[str, Any]:
    import confluent_kafka as ck

    version = ck.version()
    return {
        "name": "confluent-kafka",
        "version": version if isinstance(version, str) else version[0],
        "library": f"librdkafka {ck.libversion()[0]}",
    }


def _kcat() -> dict[str, Any]:
    """From `kcat -V`: `Version 1.7.1 (JSON, ..., librdkafka 2.0.2 builtin.features=...)`."""
    out = subprocess.run(["kcat", "-V"], capture_output=True, text=True, check=False).stdout
    match = re.search(r"Version (\S+) \(.*librdkafka (\S+)", out)
    version, lib = match.groups() if match else ("?", "?")
    return {"name": "kcat", "version": version, "library": f"librdkafka {lib} (Debian's)"}


def _aiokafka() -> dict[str, Any]:
    import aiokafka

    return {"name": "aiokafka", "version": aiokafka.__version__}


def _kafka_python() -> dict[str, Any]:
    out = subprocess.run(
        [str(KAFKA_PYTHON), "-c", "import kafka; print(kafka.__version__)"], capture_output=True, text=True, check=True
    )
    return {"name": "kafka-python", "version": out.stdout.strip()}


def _ours(what: str) -> dict[str, Any]:
    return {"name": f"kafka-port {what}", "version": "0.1.0", "library": "clients/kafka/clients (Java 3.7 port)"}


def _need_module(name: str) -> Callable[[], str | None]:
    def check() -> str | None:
        try:
            __import__(name)
        except ImportError:
            return f"{name} is not installed"
        return None

    return check


def _need_kcat() -> str | None:
    return None if subprocess.run(["which", "kcat"], capture_output=True, check=False).returncode == 0 else "no kcat"


def _need_kafka_python() -> str | None:
    return None if KAFKA_PYTHON.exists() else f"{KAFKA_PYTHON} does not exist (make install)"


# ---- confluent-kafka ------------------------------------------------------------------------------------


def _ck_producer(ctx: Ctx, **conf: Any) -> Any:
    import confluent_kafka as ck

    return ck.Producer({"bootstrap.servers": ctx.bootstrap, "linger.ms": 5, **conf})


def _ck_produce(
    producer: Any, topic: str, records: Sequence[tuple[int, bytes | None, bytes | None]], **kw: Any
) -> list[Any]:
    results: list[Any] = []
    for partition, key, value in records:
        producer.produce(
            topic, key=key, value=value, partition=partition, on_delivery=lambda e, m: results.append(e), **kw
        )
    producer.flush(30)
    return results


def ck_admin(ctx: Ctx) -> None:
    from confluent_kafka.admin import AdminClient, ConfigResource, NewPartitions, NewTopic

    admin = AdminClient({"bootstrap.servers": ctx.bootstrap})
    fs = admin.create_topics(
        [NewTopic("ck-admin-a", 2, 1, config={"cleanup.policy": "compact", "retention.ms": "3600000"})],
        operation_timeout=10,
    )
    fs["ck-admin-a"].result(30)
    fs = admin.create_topics([NewTopic("ck-admin-a", 1, 1)])  # already exists: TOPIC_ALREADY_EXISTS
    try:
        fs["ck-admin-a"].result(30)
    except Exception:
        pass
    wait_for(lambda: "ck-admin-a" in admin.list_topics(timeout=10).topics, "metadata shows the topic")
    md = admin.list_topics(topic="ck-admin-a", timeout=10)
    assert len(md.topics["ck-admin-a"].partitions) == 2
    res = admin.describe_configs([ConfigResource(ConfigResource.Type.TOPIC, "ck-admin-a")])
    for f in res.values():
        f.result(30)
    fs = admin.create_partitions([NewPartitions("ck-admin-a", 3)], operation_timeout=10)
    fs["ck-admin-a"].result(30)
    fs = admin.delete_topics(["ck-admin-a"], operation_timeout=10)
    fs["ck-admin-a"].result(30)
    fs = admin.delete_topics(["ck-admin-missing"], operation_timeout=10)
    try:
        fs["ck-admin-missing"].result(30)
    except Exception:
        pass


def ck_produce_codecs(ctx: Ctx) -> None:
    for i, codec in enumerate(["none", "gzip", "snappy", "lz4", "zstd"]):
        p = _ck_producer(ctx, **{"compression.type": codec, "acks": "all"})
        records = [(0, f"k{i}-{n}".encode(), (f"{codec} value {n} " * 8).encode()) for n in range(6)]
        assert _ck_produce(p, "ck-codecs", records) == [None] * 6


def ck_produce_acks(ctx: Ctx) -> None:
    for acks in ("0", "1", "all"):
        p = _ck_producer(ctx, acks=acks)
        records = [(n % 2, f"k{n}".encode(), f"acks={acks} {n}".encode()) for n in range(6)]
        assert _ck_produce(p, "ck-acks", records) == [None] * 6


def ck_idempotent(ctx: Ctx) -> None:
    p = _ck_producer(ctx, **{"enable.idempotence": True, "acks": "all"})
    records = [(n % 2, f"k{n}".encode(), f"idempotent {n}".encode()) for n in range(10)]
    assert _ck_produce(p, "ck-idempotent", records) == [None] * 10
    assert _ck_produce(p, "ck-idempotent", records[:4]) == [None] * 4


def _ck_consume(consumer: Any, count: int, timeout: float = 20.0) -> list[Any]:
    out: list[Any] = []
    deadline = time.monotonic() + timeout
    while len(out) < count and time.monotonic() < deadline:
        msg = consumer.poll(0.1)
        if msg is not None and msg.error() is None:
            out.append(msg)
    assert len(out) >= count, f"consumed {len(out)} of {count}"
    return out


def ck_fetch(ctx: Ctx) -> None:
    import confluent_kafka as ck

    p = _ck_producer(ctx, acks="all")
    assert _ck_produce(p, "ck-fetch", [(0, None, b"x" * 200) for _ in range(20)]) == [None] * 20
    c = ck.Consumer(
        {
            "bootstrap.servers": ctx.bootstrap,
            "group.id": "ck-fetch-unused",
            "enable.auto.commit": False,
            "fetch.min.bytes": 100_000,
            "fetch.wait.max.ms": 300,
            "enable.partition.eof": False,
        }
    )
    c.assign([ck.TopicPartition("ck-fetch", 0, 0)])
    _ck_consume(c, 20)
    c.close()


def ck_list_offsets(ctx: Ctx) -> None:
    import confluent_kafka as ck

    p = _ck_producer(ctx, acks="all")
    base = 1_700_000_000_000
    for n in range(6):
        p.produce("ck-offsets", value=f"t{n}".encode(), partition=0, timestamp=base + n * 1000)
    p.flush(30)
    c = ck.Consumer({"bootstrap.servers": ctx.bootstrap, "group.id": "ck-offsets-unused", "enable.auto.commit": False})
    assert c.get_watermark_offsets(ck.TopicPartition("ck-offsets", 0), timeout=10) == (0, 6)
    found = c.offsets_for_times([ck.TopicPartition("ck-offsets", 0, base + 2500)], timeout=10)
    assert found[0].offset == 3
    found = c.offsets_for_times([ck.TopicPartition("ck-offsets", 0, base + 60_000)], timeout=10)
    assert found[0].offset == -1
    c.close()


def ck_group(ctx: Ctx) -> None:
    import confluent_kafka as ck

    p = _ck_producer(ctx, acks="all")
    assert _ck_produce(p, "ck-group", [(n % 4, f"k{n}".encode(), f"v{n}".encode()) for n in range(16)]) == [None] * 16

    def member(name: str) -> Any:
        return ck.Consumer(
            {
                "bootstrap.servers": ctx.bootstrap,
                "group.id": "ck-group-g",
                "client.id": name,
                "enable.auto.commit": False,
                "auto.offset.reset": "earliest",
                "session.timeout.ms": 6000,
                "heartbeat.interval.ms": 300,
                "fetch.wait.max.ms": 100,
                "partition.assignment.strategy": "range",
            }
        )

    c1 = member("ck-member-1")
    c1.subscribe(["ck-group"])
    _ck_consume(c1, 16)
    c1.commit(asynchronous=False)
    c2 = member("ck-member-2")
    c2.subscribe(["ck-group"])

    def both_assigned() -> bool:
        c1.poll(0.05)
        c2.poll(0.05)
        return bool(c1.assignment()) and bool(c2.assignment())

    wait_for(both_assigned, "the rebalance to give both members partitions")
    c2.commit(offsets=[ck.TopicPartition(tp.topic, tp.partition, 4) for tp in c2.assignment()], asynchronous=False)
    c2.close()  # LeaveGroup

    def one_has_all() -> bool:
        c1.poll(0.05)
        return len(c1.assignment()) == 4

    wait_for(one_has_all, "the remaining member to take all partitions")
    c1.commit(offsets=[ck.TopicPartition("ck-group", n, 4) for n in range(4)], asynchronous=False)
    c1.close()


def ck_errors(ctx: Ctx) -> None:
    import confluent_kafka as ck

    # A record over the topic's max.message.bytes: MESSAGE_TOO_LARGE.
    p = _ck_producer(ctx, acks="all", retries=0)
    errors = _ck_produce(p, "ck-errors-small", [(0, None, b"y" * 3000)])
    assert errors[0] is not None and errors[0].code() == ck.KafkaError.MSG_SIZE_TOO_LARGE, errors
    assert _ck_produce(p, "ck-errors-data", [(0, None, f"d{n}".encode()) for n in range(5)]) == [None] * 5
    # A fetch beyond the log end: OFFSET_OUT_OF_RANGE, then a reset to the earliest offset.
    c = ck.Consumer(
        {
            "bootstrap.servers": ctx.bootstrap,
            "group.id": "ck-errors-unused",
            "enable.auto.commit": False,
            "auto.offset.reset": "earliest",
            "fetch.wait.max.ms": 100,
        }
    )
    c.assign([ck.TopicPartition("ck-errors-data", 0, 1000)])
    _ck_consume(c, 5)
    c.close()
    # A topic that does not exist: UNKNOWN_TOPIC_OR_PARTITION in Metadata (consumers do not create topics).
    c = ck.Consumer(
        {"bootstrap.servers": ctx.bootstrap, "group.id": "ck-errors-unused", "allow.auto.create.topics": False}
    )
    md = c.list_topics(topic="ck-errors-missing", timeout=10)
    assert md.topics["ck-errors-missing"].error is not None
    c.close()


# ---- kcat (Debian's librdkafka) ---------------------------------------------------------------------------


def _kcat_run(ctx: Ctx, args: list[str], stdin: bytes | None = None, timeout: float = 30) -> str:
    proc = subprocess.run(
        ["kcat", "-b", ctx.bootstrap, *args], input=stdin, capture_output=True, timeout=timeout, check=False
    )
    if proc.returncode != 0:
        raise AssertionError(f"kcat {args} failed ({proc.returncode}): {proc.stderr.decode(errors='replace')}")
    return proc.stdout.decode(errors="replace")


def kcat_metadata(ctx: Ctx) -> None:
    out = _kcat_run(ctx, ["-L"])
    assert "kcat-meta" in out
    out = _kcat_run(ctx, ["-L", "-t", "kcat-meta", "-J"])
    assert json.loads(out)["topics"][0]["partitions"]


def kcat_produce_consume(ctx: Ctx) -> None:
    lines = b"".join(f"key{n}:value {n}\n".encode() for n in range(10))
    _kcat_run(ctx, ["-P", "-t", "kcat-pc", "-p", "0", "-K", ":", "-z", "snappy", "-X", "linger.ms=5"], stdin=lines)
    out = _kcat_run(
        ctx, ["-C", "-t", "kcat-pc", "-p", "0", "-o", "beginning", "-e", "-K", ":", "-X", "fetch.wait.max.ms=100"]
    )
    assert out.count("value") == 10, out


def kcat_group(ctx: Ctx) -> None:
    _kcat_run(ctx, ["-P", "-t", "kcat-group", "-p", "0", "-X", "linger.ms=5"], stdin=b"a\nb\nc\n")
    out = _kcat_run(
        ctx,
        [
            "-G",
            "kcat-group-g",
            "-X",
            "auto.offset.reset=earliest",
            "-X",
            "fetch.wait.max.ms=100",
            "-X",
            "heartbeat.interval.ms=300",
            "-e",
            "kcat-group",
        ],
    )
    assert out.split() == ["a", "b", "c"], out


def kcat_errors(ctx: Ctx) -> None:
    _kcat_run(ctx, ["-P", "-t", "kcat-errors", "-p", "0"], stdin=b"one\ntwo\n")
    # An offset beyond the end: OFFSET_OUT_OF_RANGE, reset to the end (-e: exit there).
    _kcat_run(ctx, ["-C", "-t", "kcat-errors", "-p", "0", "-o", "1000", "-e", "-X", "fetch.wait.max.ms=100"])
    # Metadata for a topic that does not exist, not asking to create it: UNKNOWN_TOPIC_OR_PARTITION.
    out = _kcat_run(ctx, ["-L", "-t", "kcat-errors-missing", "-X", "allow.auto.create.topics=false"])
    assert "Unknown topic or partition" in out, out


def _kcat_fallback(ctx: Ctx, version: str, topic: str) -> None:
    old = ["-X", "api.version.request=false", "-X", f"broker.version.fallback={version}"]
    _kcat_run(ctx, ["-P", "-t", topic, "-p", "0", "-z", "gzip", "-X", "linger.ms=5", *old], stdin=b"x1\nx2\nx3\n")
    out = _kcat_run(ctx, ["-C", "-t", topic, "-p", "0", "-o", "beginning", "-e", "-X", "fetch.wait.max.ms=100", *old])
    assert out.split() == ["x1", "x2", "x3"], out
    _kcat_run(ctx, ["-L", "-t", topic, *old])


def kcat_fallback_0100(ctx: Ctx) -> None:
    _kcat_fallback(ctx, "0.10.0", "kcat-v0100")


def kcat_fallback_0110(ctx: Ctx) -> None:
    _kcat_fallback(ctx, "0.11.0", "kcat-v0110")


def kcat_fallback_090(ctx: Ctx) -> None:
    _kcat_fallback(ctx, "0.9.0", "kcat-v090")


def ck_fallback_090(ctx: Ctx) -> None:
    import confluent_kafka as ck

    old = {"api.version.request": False, "broker.version.fallback": "0.9.0"}
    p = _ck_producer(ctx, acks="all", **old)
    assert _ck_produce(p, "ck-v090", [(n % 2, f"k{n}".encode(), f"v{n}".encode()) for n in range(6)]) == [None] * 6
    c = ck.Consumer(
        {
            "bootstrap.servers": ctx.bootstrap,
            "group.id": "ck-v090-g",
            "enable.auto.commit": False,
            "auto.offset.reset": "earliest",
            "session.timeout.ms": 6000,
            "heartbeat.interval.ms": 300,
            "fetch.wait.max.ms": 100,
            **old,
        }
    )
    c.subscribe(["ck-v090"])
    _ck_consume(c, 6)
    c.commit(asynchronous=False)
    c.close()


# ---- aiokafka -----------------------------------------------------------------------------------------------


def aiokafka_produce_fetch(ctx: Ctx) -> None:
    import aiokafka
    from aiokafka.structs import TopicPartition

    async def run() -> None:
        producer = aiokafka.AIOKafkaProducer(bootstrap_servers=ctx.bootstrap, acks="all", compression_type="gzip")
        await producer.start()
        try:
            for n in range(10):
                await producer.send("aio-pf", key=f"k{n}".encode(), value=f"v{n}".encode(), partition=0)
            await producer.flush()
        finally:
            await producer.stop()
        consumer = aiokafka.AIOKafkaConsumer(
            bootstrap_servers=ctx.bootstrap, enable_auto_commit=False, fetch_max_wait_ms=100
        )
        await consumer.start()
        try:
            tp = TopicPartition("aio-pf", 0)
            consumer.assign([tp])
            await consumer.seek_to_beginning(tp)
            got = 0
            while got < 10:
                batch = await asyncio.wait_for(consumer.getmany(timeout_ms=300), 20)
                got += sum(len(v) for v in batch.values())
            assert (await consumer.end_offsets([tp]))[tp] == 10
        finally:
            await consumer.stop()

    asyncio.run(run())


def aiokafka_group(ctx: Ctx) -> None:
    import aiokafka

    async def run() -> None:
        producer = aiokafka.AIOKafkaProducer(bootstrap_servers=ctx.bootstrap, acks="all")
        await producer.start()
        try:
            for n in range(8):
                await producer.send("aio-group", value=f"v{n}".encode(), partition=n % 2)
            await producer.flush()
        finally:
            await producer.stop()

        def member(name: str) -> Any:
            return aiokafka.AIOKafkaConsumer(
                "aio-group",
                bootstrap_servers=ctx.bootstrap,
                group_id="aio-group-g",
                client_id=name,
                enable_auto_commit=False,
                auto_offset_reset="earliest",
                heartbeat_interval_ms=300,
                session_timeout_ms=6000,
                fetch_max_wait_ms=100,
            )

        c1 = member("aio-member-1")
        await c1.start()
        got = 0
        while got < 8:
            batch = await asyncio.wait_for(c1.getmany(timeout_ms=300), 20)
            got += sum(len(v) for v in batch.values())
        await c1.commit()
        c2 = member("aio-member-2")
        await c2.start()
        deadline = time.monotonic() + 30
        while not (c1.assignment() and c2.assignment()):
            assert time.monotonic() < deadline, "rebalance"
            await c1.getmany(timeout_ms=100)
            await c2.getmany(timeout_ms=100)
        await c2.stop()  # LeaveGroup
        while len(c1.assignment()) != 2:
            assert time.monotonic() < deadline, "rebalance after leave"
            await c1.getmany(timeout_ms=100)
        await c1.commit()
        await c1.stop()

    asyncio.run(run())


# ---- kafka-python (its own virtualenv, a separate process) ---------------------------------------------------

_KP_PRODUCE_FETCH = textwrap.dedent(
    """
    import sys
    from kafka import KafkaConsumer, KafkaProducer, TopicPartition
    bootstrap = sys.argv[1]
    producer = KafkaProducer(bootstrap_servers=bootstrap, acks="all", compression_type="gzip", linger_ms=5)
    for n in range(10):
        producer.send("kp-pf", key=b"k%d" % n, value=b"v%d" % n, partition=0)
    producer.flush(30)
    producer.close()
    consumer = KafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False, consumer_timeout_ms=1000,
                             fetch_max_wait_ms=100)
    tp = TopicPartition("kp-pf", 0)
    consumer.assign([tp])
    consumer.seek_to_beginning(tp)
    got = [r.value for r in consumer]
    assert len(got) == 10, got
    assert consumer.end_offsets([tp])[tp] == 10
    consumer.close()
    """
)

_KP_GROUP = textwrap.dedent(
    """
    import sys, time
    from kafka import KafkaConsumer, KafkaProducer
    bootstrap = sys.argv[1]
    producer = KafkaProducer(bootstrap_servers=bootstrap, acks="all", linger_ms=5)
    for n in range(8):
        producer.send("kp-group", value=b"v%d" % n, partition=n % 2)
    producer.flush(30)
    producer.close()
    def member(name):
        return KafkaConsumer("kp-group", bootstrap_servers=bootstrap, group_id="kp-group-g", client_id=name,
                             enable_auto_commit=False, auto_offset_reset="earliest", heartbeat_interval_ms=300,
                             session_timeout_ms=6000, fetch_max_wait_ms=100)
    c1 = member("kp-member-1")
    got = 0
    deadline = time.time() + 30
    while got < 8 and time.time() < deadline:
        got += sum(len(v) for v in c1.poll(timeout_ms=200).values())
    assert got == 8, got
    c1.commit()
    c2 = member("kp-member-2")
    while not (c1.assignment() and c2.assignment()):
        assert time.time() < deadline, "rebalance"
        c1.poll(timeout_ms=100)
        c2.poll(timeout_ms=100)
    c2.close()
    while len(c1.assignment()) != 2:
        assert time.time() < deadline, "rebalance after leave"
        c1.poll(timeout_ms=100)
    c1.commit()
    c1.close()
    """
)


def _kafka_python_run(ctx: Ctx, script: str) -> None:
    proc = subprocess.run(
        [str(KAFKA_PYTHON), "-c", script, ctx.bootstrap], capture_output=True, text=True, timeout=120, check=False
    )
    if proc.returncode != 0:
        raise AssertionError(f"kafka-python failed: {proc.stderr[-3000:]}")


def kafka_python_produce_fetch(ctx: Ctx) -> None:
    _kafka_python_run(ctx, _KP_PRODUCE_FETCH)


def kafka_python_group(ctx: Ctx) -> None:
    _kafka_python_run(ctx, _KP_GROUP)


# ---- this project's clients ------------------------------------------------------------------------------------


def our_producer(ctx: Ctx) -> None:
    from kafka.clients.producer.kafka_producer import KafkaProducer
    from kafka.clients.producer.producer_record import ProducerRecord
    from kafka.common.serialization.byte_array_serializer import ByteArraySerializer

    configs = {"bootstrap.servers": ctx.bootstrap, "linger.ms": 5, "compression.type": "lz4", "acks": "all"}
    producer: KafkaProducer[bytes, bytes] = KafkaProducer(configs, ByteArraySerializer(), ByteArraySerializer())
    with producer:
        futures = [
            producer.send(ProducerRecord("py-producer", f"value {n}".encode(), key=f"k{n}".encode(), partition=n % 2))
            for n in range(10)
        ]
        producer.flush()
        for f in futures:
            f.get()
        producer.send(ProducerRecord("py-producer", b"h", partition=0, headers=[("h1", b"a")])).get()


def our_admin(ctx: Ctx) -> None:
    from kafka.clients.admin.admin import Admin
    from kafka.clients.admin.new_partitions import NewPartitions
    from kafka.clients.admin.new_topic import NewTopic
    from kafka.clients.admin.offset_spec import OffsetSpec
    from kafka.common.config.config_resource import ConfigResource
    from kafka.common.topic_partition import TopicPartition

    wait = 30_000
    admin = Admin.create({"bootstrap.servers": ctx.bootstrap, "client.id": "py-admin"})
    try:
        topic = NewTopic("py-admin-a", 2, 1).configs({"cleanup.policy": "compact"})
        admin.create_topics([topic]).all().get(wait)
        assert "py-admin-a" in admin.list_topics().names().get(wait)
        described = admin.describe_topics(["py-admin-a"]).all_topic_names().get(wait)["py-admin-a"]
        assert len(described.partitions) == 2
        resource = ConfigResource(ConfigResource.Type.TOPIC, "py-admin-a")
        cleanup_policy = admin.describe_configs([resource]).all().get(wait)[resource].get("cleanup.policy")
        assert cleanup_policy is not None and cleanup_policy.value == "compact"
        admin.create_partitions({"py-admin-a": NewPartitions.increase_to(3)}).all().get(wait)
        tp = TopicPartition("py-admin-a", 0)
        assert admin.list_offsets({tp: OffsetSpec.latest()}).all().get(wait)[tp].offset == 0
        admin.delete_topics(["py-admin-a"]).all().get(wait)
    finally:
        admin.close(wait)


def our_consumer_group(ctx: Ctx) -> None:
    from kafka.clients.consumer.kafka_consumer import KafkaConsumer
    from kafka.clients.producer.kafka_producer import KafkaProducer
    from kafka.clients.producer.producer_record import ProducerRecord
    from kafka.common.serialization.byte_array_deserializer import ByteArrayDeserializer
    from kafka.common.serialization.byte_array_serializer import ByteArraySerializer

    producer: KafkaProducer[bytes, bytes] = KafkaProducer(
        {"bootstrap.servers": ctx.bootstrap, "linger.ms": 5}, ByteArraySerializer(), ByteArraySerializer()
    )
    with producer:
        for n in range(8):
            producer.send(ProducerRecord("py-group", f"v{n}".encode(), partition=n % 2))
        producer.flush()

    def member(name: str) -> KafkaConsumer[bytes, bytes]:
        settings = {
            "bootstrap.servers": ctx.bootstrap,
            "group.id": "py-group-g",
            "client.id": name,
            "enable.auto.commit": False,
            "auto.offset.reset": "earliest",
            "fetch.max.wait.ms": 100,
            "session.timeout.ms": 6000,
            "heartbeat.interval.ms": 300,
        }
        return KafkaConsumer(settings, ByteArrayDeserializer(), ByteArrayDeserializer())

    c1 = member("py-member-1")
    c2 = member("py-member-2")
    try:
        c1.subscribe(["py-group"])
        got = 0
        deadline = time.monotonic() + 30
        while got < 8:
            assert time.monotonic() < deadline, "consume"
            got += c1.poll(100).count()
        c1.commit_sync()
        c2.subscribe(["py-group"])
        while not (c1.assignment() and c2.assignment()):
            assert time.monotonic() < deadline, "rebalance"
            c1.poll(100)
            c2.poll(100)
        c2.close(5000)  # LeaveGroup
        while len(c1.assignment()) != 2:
            assert time.monotonic() < deadline, "rebalance after leave"
            c1.poll(100)
        c1.commit_sync()
    finally:
        c2.close(5000)
        c1.close(5000)


# ---- the scenarios -----------------------------------------------------------------------------------------------


def _t(name: str, partitions: int = 1, create: bool = True, **configs: str) -> TopicSetup:
    return TopicSetup(name, partitions, 1, {k.replace("_", "."): v for k, v in configs.items()}, create)


SCENARIOS: list[Scenario] = [
    Scenario(
        "confluent-admin",
        {},
        "metadata and topic admin",
        "AdminClient: create a topic with configs (and again: TOPIC_ALREADY_EXISTS), list topics, describe its "
        "configs, add a partition, delete it, delete a topic that does not exist.",
        ck_admin,
        topics=[_t("ck-admin-a", create=False), _t("ck-admin-missing", create=False)],
        reviewed=(
            "CreateTopics v4 makes ck-admin-a (0), then TOPIC_ALREADY_EXISTS (36) with its message; "
            "Metadata v12 lists it with 2 partitions led by broker 0; DescribeConfigs v1 gives "
            "cleanup.policy and retention.ms as topic overrides (source 1), segment.bytes from "
            "server.properties (4), the rest defaults; CreatePartitions to 3 (0); DeleteTopics v4: 0, "
            "and 3 for the missing topic."
        ),
        available=_need_module("confluent_kafka"),
    ),
    Scenario(
        "confluent-produce-codecs",
        {},
        "produce with each codec",
        "One producer per codec (none, gzip, snappy, lz4, zstd), acks=all, six records each to one partition.",
        ck_produce_codecs,
        topics=[_t("ck-codecs")],
        reviewed=(
            "Five producers, each ApiVersions v3, Metadata v12 and one Produce v10 of six records in a "
            "v2 batch with its codec (none, gzip, snappy, lz4, zstd); base offsets 0, 6, 12, 18, 24, "
            "all error 0."
        ),
        available=_need_module("confluent_kafka"),
    ),
    Scenario(
        "confluent-produce-acks",
        {},
        "produce with acks 0, 1 and all",
        "One producer per acks setting, six records each over two partitions; acks=0 requests get no response.",
        ck_produce_acks,
        topics=[_t("ck-acks", 2)],
        reviewed=(
            "acks=0: two Produce v10 without responses, the connection closed; acks=1 and acks=-1: "
            "base offsets 3 and 6 on both partitions, so the acks=0 records were stored."
        ),
        available=_need_module("confluent_kafka"),
    ),
    Scenario(
        "confluent-idempotent",
        {},
        "idempotent produce",
        "enable.idempotence=true: InitProducerId, then batches with the producer id, epoch and sequences.",
        ck_idempotent,
        topics=[_t("ck-idempotent", 2)],
        reviewed=(
            "InitProducerId v4 gives producer 0 epoch 0; batches carry it with sequences 0 then 5 per "
            "partition; all error 0."
        ),
        available=_need_module("confluent_kafka"),
    ),
    Scenario(
        "confluent-fetch",
        {},
        "fetch with min bytes and max wait",
        "Twenty 200-byte records, then an assigned consumer with fetch.min.bytes=100000 and fetch.wait.max.ms=300: "
        "every fetch waits out its max wait.",
        ck_fetch,
        topics=[_t("ck-fetch")],
        reviewed=(
            "Produce of 20 records; Fetch v16 with max_wait 300 ms and min_bytes 100000 is answered "
            "after the wait with all 20 (high watermark 20); the next fetch is cut short by the "
            "consumer's close (no response recorded)."
        ),
        available=_need_module("confluent_kafka"),
    ),
    Scenario(
        "confluent-list-offsets",
        {},
        "list offsets",
        "Six records with set timestamps; watermarks (earliest and latest) and offsets for two times, one past the "
        "last record.",
        ck_list_offsets,
        topics=[_t("ck-offsets")],
        reviewed=(
            "ListOffsets v7: earliest 0, latest 6; the time 2.5 s after the first record gives offset "
            "3 (timestamp +3000), a time past the last gives -1; no errors."
        ),
        available=_need_module("confluent_kafka"),
    ),
    Scenario(
        "confluent-group",
        {},
        "consumer group join/sync/heartbeat/commit/leave with a rebalance",
        "Member 1 joins alone and consumes 16 records from 4 partitions and commits; member 2 joins (rebalance: 2+2), "
        "commits and leaves (LeaveGroup: rebalance back to member 1), member 1 commits and leaves.",
        ck_group,
        topics=[_t("ck-group", 4)],
        groups=["ck-group-g"],
        reviewed=(
            "JoinGroup v5 (79 then 0, generation 1), SyncGroup v3 with all 4 partitions, OffsetFetch "
            "v9 (-1), ListOffsets earliest, OffsetCommit v9; member 2: 79, held JoinGroup, member 1's "
            "Heartbeat gets 27 and rejoins, generation 2 with a 2+2 split; member 2 commits and leaves "
            "(LeaveGroup v1); Heartbeat 27, generation 3 with 4 partitions, commit, leave."
        ),
        available=_need_module("confluent_kafka"),
    ),
    Scenario(
        "confluent-errors",
        {},
        "error paths",
        "A 3000-byte record to a topic with max.message.bytes=1000 (MESSAGE_TOO_LARGE), a fetch at offset 1000 of a "
        "5-record log (OFFSET_OUT_OF_RANGE, then a reset), Metadata for a topic that does not exist.",
        ck_errors,
        topics=[
            _t("ck-errors-small", max_message_bytes="1000"),
            _t("ck-errors-data"),
            _t("ck-errors-missing", create=False),
        ],
        reviewed=(
            "Produce v10 of 3000 bytes to max.message.bytes=1000: MESSAGE_TOO_LARGE (10); Fetch v16 at "
            "1000: OFFSET_OUT_OF_RANGE (1), ListOffsets earliest 0, refetch from 0; Metadata v12 for "
            "ck-errors-missing with auto-creation off: UNKNOWN_TOPIC_OR_PARTITION (3)."
        ),
        available=_need_module("confluent_kafka"),
    ),
    Scenario(
        "kcat-metadata",
        {},
        "metadata",
        "kcat -L for all topics, and for one topic as JSON.",
        kcat_metadata,
        topics=[_t("kcat-meta", 2)],
        reviewed=(
            "Metadata v4 for all topics (kcat-meta with 2 partitions and __consumer_offsets) and for "
            "kcat-meta alone; no errors."
        ),
        available=_need_kcat,
    ),
    Scenario(
        "kcat-produce-consume",
        {},
        "produce (snappy) and fetch",
        "kcat -P of ten keyed records with snappy, then kcat -C from the beginning to the end.",
        kcat_produce_consume,
        topics=[_t("kcat-pc")],
        reviewed=(
            "Produce v7 of ten keyed records in one snappy batch; ListOffsets v2 earliest 0, Fetch v11 "
            "returns the batch, the next fetch waits 100 ms empty; last fetch cut by exit."
        ),
        available=_need_kcat,
    ),
    Scenario(
        "kcat-group",
        {},
        "consumer group",
        "kcat -P of three records, then kcat -G (a balanced consumer) until the end of the partition.",
        kcat_group,
        topics=[_t("kcat-group")],
        groups=["kcat-group-g"],
        reviewed=(
            "JoinGroup v5 (79, then generation 1), SyncGroup v3, OffsetFetch v7 (-1), ListOffsets v2, "
            "Fetch v11 of the 3 records, OffsetCommit v7, LeaveGroup v1; no other errors."
        ),
        available=_need_kcat,
    ),
    Scenario(
        "kcat-errors",
        {},
        "error paths",
        "kcat -C at offset 1000 of a 2-record log (OFFSET_OUT_OF_RANGE, reset to the end) and kcat -L for a topic "
        "that does not exist.",
        kcat_errors,
        topics=[_t("kcat-errors"), _t("kcat-errors-missing", create=False)],
        reviewed=(
            "Fetch v11 at 1000: OFFSET_OUT_OF_RANGE (1), ListOffsets v2 latest 2, fetch waits at 2; "
            "Metadata v4 for kcat-errors-missing with allow_auto_topic_creation=false: "
            "UNKNOWN_TOPIC_OR_PARTITION (3)."
        ),
        available=_need_kcat,
    ),
    Scenario(
        "kcat-fallback-0.9.0",
        {},
        "old protocol versions (api.version.request=false, broker.version.fallback=0.9.0)",
        "No ApiVersions: kcat -P (gzip) with Produce v0 and magic-0 messages, kcat -C with ListOffsets v0 and "
        "Fetch v0, Metadata v0.",
        kcat_fallback_090,
        topics=[_t("kcat-v090")],
        available=_need_kcat,
    ),
    Scenario(
        "confluent-fallback-0.9.0",
        {},
        "old protocol versions with a consumer group (broker.version.fallback=0.9.0)",
        "api.version.request=false, broker.version.fallback=0.9.0: a producer and a group member of the new "
        "librdkafka on the oldest versions it has (no ApiVersions; Produce, Fetch, JoinGroup, SyncGroup, "
        "OffsetCommit and OffsetFetch at their first versions).",
        ck_fallback_090,
        topics=[_t("ck-v090", 2)],
        groups=["ck-v090-g"],
        available=_need_module("confluent_kafka"),
    ),
    Scenario(
        "kcat-fallback-0.10.0",
        {},
        "old protocol versions requested (api.version.request=false, broker.version.fallback=0.10.0)",
        "librdkafka 2.0.2 honours api.version.request=false only for a fallback below 0.10: with 0.10.0 it still "
        "asks ApiVersions and uses the versions the broker offers. Recorded as the brief asks, to hold that.",
        kcat_fallback_0100,
        topics=[_t("kcat-v0100")],
        reviewed=(
            "As the description says: ApiVersions v3 is still sent and Produce v7, Fetch v11, Metadata "
            "v4, ListOffsets v2 are used; no errors."
        ),
        available=_need_kcat,
    ),
    Scenario(
        "kcat-fallback-0.11.0",
        {},
        "old protocol versions requested (api.version.request=false, broker.version.fallback=0.11.0)",
        "As with 0.10.0: librdkafka 2.0.2 still asks ApiVersions for a fallback of 0.10 or later and uses the "
        "versions the broker offers.",
        kcat_fallback_0110,
        topics=[_t("kcat-v0110")],
        reviewed=("Same versions as 0.10.0 (ApiVersions v3 sent); no errors."),
        available=_need_kcat,
    ),
    Scenario(
        "aiokafka-produce-fetch",
        {},
        "produce (gzip), fetch and list offsets",
        "AIOKafkaProducer sends ten records (gzip, acks=all); an assigned consumer seeks to the beginning, reads them "
        "and asks for the end offset.",
        aiokafka_produce_fetch,
        topics=[_t("aio-pf")],
        reviewed=(
            "ApiVersions v0, Metadata v5, Produce v7 (gzip batch of 10), ListOffsets v3 earliest and "
            "latest (10), Fetch v11 of the batch; no errors."
        ),
        available=_need_module("aiokafka"),
    ),
    Scenario(
        "aiokafka-group",
        {},
        "consumer group with a rebalance",
        "Member 1 joins, consumes 8 records from 2 partitions and commits; member 2 joins (rebalance) and leaves "
        "(rebalance back); member 1 commits and leaves.",
        aiokafka_group,
        topics=[_t("aio-group", 2)],
        groups=["aio-group-g"],
        reviewed=(
            "JoinGroup v5 (79, generation 1), SyncGroup v3, OffsetFetch v3, Fetch v11, OffsetCommit "
            "v3; member 2 joins, Heartbeat v1 27, generation 2; LeaveGroup v1, Heartbeat 27, "
            "generation 3; commit and leave."
        ),
        available=_need_module("aiokafka"),
    ),
    Scenario(
        "kafka-python-produce-fetch",
        {},
        "produce (gzip), fetch and list offsets",
        "KafkaProducer sends ten records (gzip, acks=all); an assigned KafkaConsumer reads them from the beginning "
        "and asks for the end offset.",
        kafka_python_produce_fetch,
        topics=[_t("kp-pf")],
        reviewed=(
            "ApiVersions v4 answered UNSUPPORTED_VERSION (35) with a v0 body, then v3; InitProducerId "
            "v4 (idempotent by default), Produce v9 (gzip), ListOffsets v8, Fetch v12; no other errors."
        ),
        available=_need_kafka_python,
    ),
    Scenario(
        "kafka-python-group",
        {},
        "consumer group with a rebalance",
        "Member 1 joins, consumes 8 records from 2 partitions and commits; member 2 joins (rebalance) and leaves "
        "(rebalance back); member 1 commits and leaves.",
        kafka_python_group,
        topics=[_t("kp-group", 2)],
        groups=["kp-group-g"],
        reviewed=(
            "ApiVersions v4 -> 35 -> v3; JoinGroup v7 (79, generation 1), SyncGroup v5, OffsetCommit "
            "v8; member 2 joins, Heartbeat v4 27, generation 2; LeaveGroup v5, Heartbeat 27, "
            "generation 3; commit and leave."
        ),
        available=_need_kafka_python,
    ),
    Scenario(
        "python-producer",
        {},
        "idempotent produce (lz4) with this project's producer",
        "kafka.clients.producer.KafkaProducer (idempotent by default, as Java's): InitProducerId, ten keyed records "
        "over two partitions with lz4, then one with a header.",
        our_producer,
        topics=[_t("py-producer", 2)],
        reviewed=(
            "ApiVersions v3, Metadata v12 and InitProducerId v4 (producer 0 epoch 0) pipelined; two "
            "Produce v10 with lz4 batches over both partitions (sequences from 0), then the header "
            "record; no errors."
        ),
    ),
]

SCENARIOS += [
    Scenario(
        "python-admin",
        {},
        "topic admin with this project's admin client",
        "kafka.clients.admin.Admin: create a topic with a config, list and describe topics, describe its configs, "
        "add a partition, list the latest offset, delete the topic.",
        our_admin,
        topics=[_t("py-admin-a", create=False)],
        reviewed=(
            "Metadata v12, CreateTopics v7 (topic id, configs, 2 partitions; 0), Metadata for all "
            "topics and for py-admin-a, DescribeConfigs v4 (cleanup.policy=compact from the topic), "
            "CreatePartitions v3 to 3 (0), ListOffsets v8 latest 0, DeleteTopics v6 by name (0)."
        ),
    ),
    Scenario(
        "python-consumer-group",
        {},
        "consumer group with a rebalance, with this project's consumer (fetch sessions)",
        "kafka.clients.consumer.KafkaConsumer: member 1 joins, consumes 8 records from 2 partitions and commits; "
        "member 2 joins (rebalance) and leaves (rebalance back); member 1 commits and leaves. The consumer uses "
        "incremental fetch sessions (KIP-227), whose ids the replay rewrites.",
        our_consumer_group,
        topics=[_t("py-group", 2)],
        groups=["py-group-g"],
        reviewed=(
            "InitProducerId v4 and Produce v10 of 8 records; FindCoordinator v4, JoinGroup v9 (79, "
            "generation 1), SyncGroup v5, OffsetFetch v9, ListOffsets v8, Fetch v16 opening session "
            "epochs 0, 1, 2, 3, OffsetCommit v9; member 2 joins, Heartbeat v4 27, generation 2, "
            "OffsetForLeaderEpoch v4, member 2 leaves (LeaveGroup v5, its session closed with epoch "
            "-1), Heartbeat 27, generation 3, LeaveGroup v5."
        ),
    ),
]

_CLIENTS: dict[str, Callable[[], dict[str, Any]]] = {
    "confluent": _confluent,
    "kcat": _kcat,
    "aiokafka": _aiokafka,
    "kafka-python": _kafka_python,
    "python-producer": lambda: _ours("producer"),
    "python-admin": lambda: _ours("admin client"),
    "python-consumer": lambda: _ours("consumer"),
}


def client_info(name: str) -> dict[str, Any]:
    for prefix, info in _CLIENTS.items():
        if name.startswith(prefix):
            return info()
    return {}


# ---- recording ------------------------------------------------------------------------------------------------


class Recording:
    """ZooKeeper, one broker (restarted when a scenario needs other broker configs) and the proxy port."""

    def __init__(self, work: Path) -> None:
        self.work = work
        self.zk = ZooKeeperServer(work / "zookeeper")
        self.broker: BrokerProcess | None = None
        self.broker_configs: dict[str, str] | None = None
        self.broker_port = free_port()  # the listener clients reach through the proxy
        self.internal_port = free_port()  # the inter-broker listener (the controller's connection to the broker)
        self.proxy_port = free_port()

    def start(self) -> None:
        self.zk.start()

    def ensure_broker(self, configs: dict[str, str]) -> None:
        if self.broker is not None and self.broker_configs == configs:
            return
        if self.broker is not None:
            self.broker.stop()
        overrides = dict(configs)
        # Clients learn the proxy's address from Metadata; the controller reaches the broker directly.
        overrides["listeners"] = f"INTERNAL://127.0.0.1:{self.internal_port},EXTERNAL://127.0.0.1:{self.broker_port}"
        overrides["advertised.listeners"] = (
            f"INTERNAL://127.0.0.1:{self.internal_port},EXTERNAL://127.0.0.1:{self.proxy_port}"
        )
        overrides["listener.security.protocol.map"] = "INTERNAL:PLAINTEXT,EXTERNAL:PLAINTEXT"
        overrides["inter.broker.listener.name"] = "INTERNAL"
        n = len(list(self.work.glob("broker-*")))
        work = self.work / f"broker-{n}"
        work.mkdir(parents=True)
        self.broker = BrokerProcess(work, f"{self.zk.connect_string}/corpus-{n}", overrides=overrides)
        self.broker.start()
        self.broker_configs = dict(configs)

    def stop(self) -> None:
        if self.broker is not None:
            self.broker.stop()
        self.zk.stop()

    def record(self, s: Scenario, out_dir: Path) -> Path:
        configs = {**BASE_BROKER_CONFIGS, **s.broker_configs}
        self.ensure_broker(configs)
        manifest = Manifest(
            session=s.name,
            capture=f"{s.name}.jsonl",
            client=s.client or client_info(s.name),
            scenario=s.scenario,
            description=s.description,
            topics=s.topics,
            groups=s.groups,
            broker_configs=configs,
            rules=s.rules,
            reviewed=s.reviewed,
        )
        setup = SessionSetup("127.0.0.1", self.broker_port, Time.SYSTEM)
        setup.prepare(manifest)
        capture_path = out_dir / f"{s.name}.jsonl"
        try:
            with open(capture_path, "w", encoding="utf-8") as f:
                writer = CaptureWriter(f, CaptureHeader("proxy", {"tool": "tests/conformance/record_corpus.py"}))
                recorder = TrafficRecorder(("127.0.0.1", self.proxy_port), ("127.0.0.1", self.broker_port), writer)
                recorder.startup()
                started = time.monotonic()
                try:
                    s.run(Ctx(f"127.0.0.1:{self.proxy_port}"))
                finally:
                    recorder.shutdown()
            duration = time.monotonic() - started
        finally:
            setup.cleanup(manifest)  # the next session must find the broker as this one did
        manifest.extra["recorded_seconds"] = round(duration, 1)
        manifest.save(out_dir / f"{s.name}.json")
        return out_dir / f"{s.name}.json"

    def check(self, manifest_path: Path) -> list[str]:
        """Invariants of the capture, and a replay against the same broker: what a reviewer must look at."""
        from kafka.tools.conformance.manifest import load_manifest

        manifest = load_manifest(manifest_path)
        capture = read_capture(manifest.capture_path())
        problems = [f"recorded: {v}" for v in check_capture(capture)]
        report = replay_session(manifest, capture, "127.0.0.1", self.broker_port)
        problems += [line for line in report.lines() if not line.startswith("Session ")][:-1]
        problems.append(report.lines()[-1])
        return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Records the conformance corpus (see the module docstring).")
    parser.add_argument("--only", action="append", help="record only these scenarios (repeatable)")
    parser.add_argument("--list", action="store_true", help="list the scenarios and exit")
    parser.add_argument("--out", default=str(CORPUS), help=f"where to write (default {CORPUS})")
    parser.add_argument("--work", default="/tmp/kafka-port-record-corpus", help="scratch directory")
    parser.add_argument("--quiet", action="store_true", help="do not print the decoded sessions")
    args = parser.parse_args(argv)
    if args.list:
        for s in SCENARIOS:
            print(f"{s.name}: {s.scenario}")
        return 0
    chosen = [s for s in SCENARIOS if not args.only or s.name in args.only]
    out_dir = Path(args.out)
    out_dir.mkdir(parents=True, exist_ok=True)
    work = Path(args.work)
    if work.exists():
        subprocess.run(["rm", "-rf", str(work)], check=True)
    work.mkdir(parents=True)
    rec = Recording(work)
    rec.start()
    failed = 0
    try:
        for s in chosen:
            reason = s.available()
            if reason:
                print(f"== {s.name}: skipped ({reason})")
                continue
            print(f"== {s.name}: recording", flush=True)
            staging = work / "staging"
            staging.mkdir(exist_ok=True)
            try:
                staged = rec.record(s, staging)
                size = (staging / f"{s.name}.jsonl").stat().st_size
                if size > MAX_CAPTURE_BYTES:
                    raise AssertionError(f"the capture has {size} bytes, over {MAX_CAPTURE_BYTES}")
            except Exception as e:
                failed += 1
                print(f"== {s.name}: FAILED (the corpus keeps what it had): {type(e).__name__}: {e}", flush=True)
                continue
            for suffix in (".jsonl", ".json"):
                (staging / f"{s.name}{suffix}").replace(out_dir / f"{s.name}{suffix}")
            manifest_path = out_dir / staged.name
            if not args.quiet:
                capture = read_capture(out_dir / f"{s.name}.jsonl")
                print("\n".join(summary_lines(capture)))
            for line in rec.check(manifest_path):
                print(f"   check: {line}")
            size = (out_dir / f"{s.name}.jsonl").stat().st_size
            print(f"== {s.name}: {size} bytes", flush=True)
    finally:
        rec.stop()
    return 1 if failed else 0


if __name__ == "__main__":
    threading.current_thread().name = "record-corpus"
    sys.exit(main())
