"""The `kafka-port` PySpark data source reads a real broker as Spark's Kafka source does: batch reads over offset,
timestamp and pattern ranges give exact counts in Spark's schema; streaming queries keep maxOffsetsPerTrigger's
batch sizes under availableNow and resume from their checkpoint exactly; read_committed hides aborted records;
records deleted under a query are Spark's data loss; bad options fail with Spark's messages.

All tests share one local[2] SparkSession (the `spark` fixture), found by PySpark's discovery of the installed
`pyspark_kafka_port` module: no test registers the source."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import confluent_kafka as ck
import pytest
from confluent_kafka.admin import AdminClient, NewTopic
from pyspark.sql import DataFrame, SparkSession
from pyspark.sql.streaming import StreamingQuery

from tests.integration.broker import BrokerProcess
from tests.utils import wait_until_true

pytestmark = pytest.mark.integration

FORMAT = "kafka-port"
#: Record timestamps of the timestamp tests: record i of a partition is stamped BASE_TS + i * 1000.
BASE_TS = 1_600_000_000_000

SPARK_SCHEMA = (
    "struct<key:binary,value:binary,topic:string,partition:int,offset:bigint,timestamp:timestamp,timestampType:int>"
)


def _topic(prefix: str = "t") -> str:
    return f"{prefix}-{uuid.uuid4().hex[:10]}"


def _create(broker: BrokerProcess, *topics: str, partitions: int = 3, config: dict[str, str] | None = None) -> None:
    admin = AdminClient({"bootstrap.servers": broker.bootstrap})
    futures = admin.create_topics(
        [NewTopic(t, partitions, 1, config=config or {}) for t in topics], operation_timeout=30
    )
    for future in futures.values():
        future.result(30)


def _produce(broker: BrokerProcess, topic: str, per_partition: dict[int, int], timestamps: bool = False) -> None:
    """`per_partition[p]` records into partition p: key b"p-i", value b"v-i", stamped BASE_TS + i s if asked."""
    producer = ck.Producer({"bootstrap.servers": broker.bootstrap, "linger.ms": 5, "acks": "all"})
    for partition, count in per_partition.items():
        for i in range(count):
            kwargs: dict[str, Any] = {"timestamp": BASE_TS + i * 1000} if timestamps else {}
            producer.produce(
                topic, key=f"{partition}-{i}".encode(), value=f"v-{i}".encode(), partition=partition, **kwargs
            )
            if i % 5000 == 0:
                producer.poll(0)
    assert producer.flush(60) == 0


def _reader(spark: SparkSession, broker: BrokerProcess, **options: str) -> Any:
    reader = spark.read.format(FORMAT).option("kafka.bootstrap.servers", broker.bootstrap)
    for key, value in options.items():
        reader = reader.option(key, value)
    return reader


def _read(spark: SparkSession, broker: BrokerProcess, **options: str) -> DataFrame:
    return _reader(spark, broker, **options).load()


@pytest.fixture(scope="module")
def offsets_topic(spark_broker: BrokerProcess) -> str:
    """Three partitions of 100, 50 and 0 records, stamped BASE_TS + i s."""
    topic = _topic("ranges")
    _create(spark_broker, topic)
    _produce(spark_broker, topic, {0: 100, 1: 50}, timestamps=True)
    return topic


def test_batch_read_has_sparks_schema_and_every_record(
    spark: SparkSession, spark_broker: BrokerProcess, offsets_topic: str
) -> None:
    """A batch read of a topic gives Spark's Kafka schema and each record once, with its partition and offset."""
    df = _read(spark, spark_broker, subscribe=offsets_topic)
    assert df.schema.simpleString() == SPARK_SCHEMA
    rows = df.select("key", "value", "topic", "partition", "offset", "timestamp", "timestampType").collect()
    assert len(rows) == 150
    assert {(r.partition, r.offset) for r in rows} == {(0, i) for i in range(100)} | {(1, i) for i in range(50)}
    first = next(r for r in rows if r.partition == 1 and r.offset == 7)
    assert (first.key, first.value, first.topic, first.timestampType) == (b"1-7", b"v-7", offsets_topic, 0)
    assert int(first.timestamp.timestamp() * 1000) == BASE_TS + 7000
    with_headers = _read(spark, spark_broker, subscribe=offsets_topic, includeHeaders="true")
    assert with_headers.schema.simpleString() == SPARK_SCHEMA[:-1] + ",headers:array<struct<key:string,value:binary>>>"


def test_batch_offset_ranges(spark: SparkSession, spark_broker: BrokerProcess, offsets_topic: str) -> None:
    """startingOffsets/endingOffsets as JSON (with -2 and -1) bound each partition's range exactly."""
    t = offsets_topic
    df = _read(
        spark,
        spark_broker,
        subscribe=t,
        startingOffsets=f'{{"{t}":{{"0":10,"1":-2,"2":-2}}}}',
        endingOffsets=f'{{"{t}":{{"0":25,"1":-1,"2":-1}}}}',
    )
    rows = df.select("partition", "offset").collect()
    assert sorted((r.partition, r.offset) for r in rows) == [(0, i) for i in range(10, 25)] + [
        (1, i) for i in range(50)
    ]
    assert _read(spark, spark_broker, subscribe=t, startingOffsets="earliest", endingOffsets="latest").count() == 150
    assign = _read(spark, spark_broker, assign=f'{{"{t}":[1]}}', endingOffsets=f'{{"{t}":{{"1":20}}}}')
    assert assign.count() == 20
    # minPartitions splits the large ranges into more tasks without changing what is read.
    split = _read(spark, spark_broker, subscribe=t, minPartitions="6")
    assert split.rdd.getNumPartitions() >= 6
    assert split.count() == 150
    assert split.select("partition", "offset").distinct().count() == 150
    capped = _read(spark, spark_broker, subscribe=t, maxRecordsPerPartition="30")
    assert capped.rdd.getNumPartitions() == 4 + 2
    assert capped.select("partition", "offset").distinct().count() == 150


def test_batch_timestamp_ranges(spark: SparkSession, spark_broker: BrokerProcess, offsets_topic: str) -> None:
    """Timestamp options resolve to the first offset at or after the timestamp, per partition or for all."""
    t = offsets_topic
    by_partition = _read(
        spark,
        spark_broker,
        subscribe=t,
        startingOffsetsByTimestamp=f'{{"{t}":{{"0":{BASE_TS + 20_000},"1":{BASE_TS},"2":{BASE_TS}}}}}',
        endingOffsetsByTimestamp=f'{{"{t}":{{"0":{BASE_TS + 30_500},"1":{BASE_TS + 5_000},"2":{BASE_TS}}}}}',
        # Partition 2 is empty: no offset matches its starting timestamp, which this strategy reads as latest.
        startingOffsetsByTimestampStrategy="latest",
    )
    assert sorted((r.partition, r.offset) for r in by_partition.select("partition", "offset").collect()) == [
        (0, i) for i in range(20, 31)
    ] + [(1, i) for i in range(5)]
    # One timestamp for every partition: partition 0 from offset 40, partition 1 from 40; partition 2 has no record
    # at or after it, which is an error by default and the latest offset with the LATEST strategy.
    with pytest.raises(Exception, match="No offset matched from request of topic-partition"):
        _read(spark, spark_broker, subscribe=t, startingTimestamp=str(BASE_TS + 40_000)).count()
    global_ts = _read(
        spark,
        spark_broker,
        subscribe=t,
        startingTimestamp=str(BASE_TS + 40_000),
        startingOffsetsByTimestampStrategy="latest",
        endingTimestamp=str(BASE_TS + 45_000),
    )
    assert sorted((r.partition, r.offset) for r in global_ts.select("partition", "offset").collect()) == [
        (0, i) for i in range(40, 45)
    ] + [(1, i) for i in range(40, 45)]
    # An ending timestamp after the last record reads to the end.
    assert _read(spark, spark_broker, subscribe=t, endingTimestamp=str(BASE_TS + 10_000_000)).count() == 150


def test_batch_subscribe_pattern(spark: SparkSession, spark_broker: BrokerProcess) -> None:
    """subscribePattern reads every topic whose name matches, and only those; subscribe takes a list."""
    tag = uuid.uuid4().hex[:8]
    a, b, other = f"pat-{tag}-a", f"pat-{tag}-b", f"nopat-{tag}"
    _create(spark_broker, a, b, other, partitions=2)
    for topic, n in ((a, 7), (b, 11), (other, 13)):
        _produce(spark_broker, topic, {0: n, 1: n})
    df = _read(spark, spark_broker, subscribePattern=f"^pat-{tag}-.*")
    counts = {r.topic: r["count"] for r in df.groupBy("topic").count().collect()}
    assert counts == {a: 14, b: 22}
    assert _read(spark, spark_broker, subscribe=f"{a}, {other}").count() == 14 + 26


def test_read_committed_hides_aborted_records(spark: SparkSession, spark_broker: BrokerProcess) -> None:
    """With kafka.isolation.level=read_committed only committed transactions' records are read; without it, all."""
    topic = _topic("txn")
    _create(spark_broker, topic, partitions=1)
    producer = ck.Producer({"bootstrap.servers": spark_broker.bootstrap, "transactional.id": f"spark-{topic}"})
    producer.init_transactions(30)
    for commit, n in ((True, 5), (False, 7), (True, 3)):
        producer.begin_transaction()
        for i in range(n):
            producer.produce(topic, value=f"{commit}-{i}".encode())
        producer.flush(30)
        if commit:
            producer.commit_transaction(30)
        else:
            producer.abort_transaction(30)
    committed = _read(spark, spark_broker, subscribe=topic, **{"kafka.isolation.level": "read_committed"})
    assert sorted(r.value for r in committed.select("value").collect()) == sorted(
        [f"True-{i}".encode() for i in range(5)] + [f"True-{i}".encode() for i in range(3)]
    )
    assert _read(spark, spark_broker, subscribe=topic).count() == 15


# -- streaming


def _stream(spark: SparkSession, broker: BrokerProcess, **options: str) -> DataFrame:
    reader = spark.readStream.format(FORMAT).option("kafka.bootstrap.servers", broker.bootstrap)
    for key, value in options.items():
        reader = reader.option(key, value)
    return reader.load()


def _run_available_now(df: DataFrame, out: Path, checkpoint: Path) -> StreamingQuery:
    query = (
        df.select("partition", "offset")
        .writeStream.format("parquet")
        .option("path", str(out))
        .option("checkpointLocation", str(checkpoint))
        .trigger(availableNow=True)
        .start()
    )
    query.awaitTermination(300)
    assert query.exception() is None, query.exception()
    return query


def _batch_sizes(query: StreamingQuery) -> list[int]:
    return [p["numInputRows"] for p in query.recentProgress if p["numInputRows"] > 0]


def test_available_now_with_max_offsets_per_trigger(
    spark: SparkSession, spark_broker: BrokerProcess, tmp_path: Path
) -> None:
    """maxOffsetsPerTrigger is split over the partitions by backlog, each share rounded down, as Spark does:
    6667/6667/6666 records with a limit of 7000 run in batches of 6999, 6998 and 6003."""
    topic = _topic("rate")
    _create(spark_broker, topic)
    _produce(spark_broker, topic, {0: 6667, 1: 6667, 2: 6666})
    df = _stream(spark, spark_broker, subscribe=topic, startingOffsets="earliest", maxOffsetsPerTrigger="7000")
    query = _run_available_now(df, tmp_path / "out", tmp_path / "checkpoint")
    assert _batch_sizes(query) == [6999, 6998, 6003]
    rows = spark.read.parquet(str(tmp_path / "out"))
    assert rows.count() == 20000
    assert rows.distinct().count() == 20000


def test_restart_resumes_from_checkpoint(spark: SparkSession, spark_broker: BrokerProcess, tmp_path: Path) -> None:
    """A query restarted on its checkpoint reads from the offsets it stopped at: nothing twice, nothing skipped;
    the offsets are checkpointed in Spark's JSON shape."""
    topic = _topic("restart")
    _create(spark_broker, topic, partitions=2)
    _produce(spark_broker, topic, {0: 300, 1: 200})
    out, checkpoint = tmp_path / "out", tmp_path / "checkpoint"
    first = _run_available_now(
        _stream(spark, spark_broker, subscribe=topic, startingOffsets="earliest"), out, checkpoint
    )
    assert sum(_batch_sizes(first)) == 500
    first_progress = first.lastProgress
    assert first_progress is not None
    end = json.loads(first_progress["sources"][0]["endOffset"])
    assert end == {topic: {"0": 300, "1": 200}}
    _produce(spark_broker, topic, {0: 40, 1: 60})
    # startingOffsets applies to new queries only: the restarted one goes on from its checkpoint.
    second = _run_available_now(
        _stream(spark, spark_broker, subscribe=topic, startingOffsets="latest"), out, checkpoint
    )
    progress = [p for p in second.recentProgress if p["numInputRows"] > 0]
    assert json.loads(progress[0]["sources"][0]["startOffset"]) == end
    assert sum(p["numInputRows"] for p in progress) == 100
    rows = spark.read.parquet(str(out)).collect()
    assert sorted((r.partition, r.offset) for r in rows) == [(0, i) for i in range(340)] + [(1, i) for i in range(260)]


def _delete_records(broker: BrokerProcess, topic: str, partition: int, before: int) -> None:
    from confluent_kafka import TopicPartition

    admin = AdminClient({"bootstrap.servers": broker.bootstrap})
    futures = admin.delete_records([TopicPartition(topic, partition, before)], request_timeout=30)
    for future in futures.values():
        future.result(30)


def test_data_loss_between_batches(spark: SparkSession, spark_broker: BrokerProcess, tmp_path: Path) -> None:
    """Records deleted (DeleteRecords) between a query's batches fail it with KAFKA_DATA_LOSS when failOnDataLoss
    is true (the default); with false it skips them and reads what is left."""
    topic = _topic("loss")
    _create(spark_broker, topic, partitions=1)
    _produce(spark_broker, topic, {0: 100})
    out, checkpoint = tmp_path / "out", tmp_path / "checkpoint"
    _run_available_now(_stream(spark, spark_broker, subscribe=topic, startingOffsets="earliest"), out, checkpoint)
    _produce(spark_broker, topic, {0: 100})
    _delete_records(spark_broker, topic, 0, 150)
    failing = (
        _stream(spark, spark_broker, subscribe=topic)
        .select("partition", "offset")
        .writeStream.format("parquet")
        .option("path", str(out))
        .option("checkpointLocation", str(checkpoint))
        .trigger(availableNow=True)
        .start()
    )
    with pytest.raises(Exception, match=r"KAFKA_DATA_LOSS\.COULD_NOT_READ_OFFSET_RANGE"):
        failing.awaitTermination(300)
    lenient = _stream(spark, spark_broker, subscribe=topic, failOnDataLoss="false")
    _run_available_now(lenient, out, checkpoint)
    offsets = sorted(r.offset for r in spark.read.parquet(str(out)).collect())
    assert offsets == list(range(100)) + list(range(150, 200))


def test_trigger_once_reads_everything_in_one_batch(
    spark: SparkSession, spark_broker: BrokerProcess, tmp_path: Path
) -> None:
    """Trigger.Once reads all that is available in one batch, maxOffsetsPerTrigger notwithstanding (Spark asks the
    source with ReadAllAvailable)."""
    topic = _topic("once")
    _create(spark_broker, topic, partitions=2)
    _produce(spark_broker, topic, {0: 30, 1: 20})
    df = _stream(spark, spark_broker, subscribe=topic, startingOffsets="earliest", maxOffsetsPerTrigger="10")
    query = (
        df.writeStream.format("memory")
        .queryName("once_" + topic.replace("-", "_"))
        .option("checkpointLocation", str(tmp_path / "checkpoint"))
        .trigger(once=True)
        .start()
    )
    query.awaitTermination(300)
    assert query.exception() is None, query.exception()
    assert _batch_sizes(query) == [50]


def test_processing_time_trigger_keeps_up(spark: SparkSession, spark_broker: BrokerProcess, tmp_path: Path) -> None:
    """A processingTime query reads records as they arrive, within maxOffsetsPerTrigger per batch, each once."""
    topic = _topic("ptime")
    _create(spark_broker, topic, partitions=1)
    _produce(spark_broker, topic, {0: 250})
    name = "ptime_" + topic.replace("-", "_")
    df = _stream(spark, spark_broker, subscribe=topic, startingOffsets="earliest", maxOffsetsPerTrigger="100")
    query = (
        df.select("offset")
        .writeStream.format("memory")
        .queryName(name)
        .option("checkpointLocation", str(tmp_path / "checkpoint"))
        .trigger(processingTime="100 milliseconds")
        .start()
    )
    try:
        wait_until_true(lambda: spark.table(name).count() == 250, "the first 250 records", timeout=120)
        _produce(spark_broker, topic, {0: 30})
        wait_until_true(lambda: spark.table(name).count() == 280, "the 30 records produced later", timeout=120)
    finally:
        query.stop()
    assert sorted(r.offset for r in spark.table(name).collect()) == list(range(280))
    assert _batch_sizes(query)[:3] == [100, 100, 50]


def test_integration_guide_pipelines(spark: SparkSession, spark_broker: BrokerProcess, tmp_path: Path) -> None:
    """The read examples of Spark's Structured Streaming + Kafka Integration Guide run with the format name
    changed (and the guide's placeholder topics and servers filled in)."""
    topic1, topic2 = _topic("topic1"), _topic("topic2")
    _create(spark_broker, topic1, partitions=2)
    _create(spark_broker, topic2, partitions=1)
    _produce(spark_broker, topic1, {0: 60, 1: 10})
    _produce(spark_broker, topic2, {0: 5})
    servers = spark_broker.bootstrap

    # Subscribe to 1 topic
    df = (
        spark.readStream.format("kafka-port")
        .option("kafka.bootstrap.servers", servers)
        .option("subscribe", topic1)
        .option("startingOffsets", "earliest")
        .load()
    )
    df = df.selectExpr("CAST(key AS STRING)", "CAST(value AS STRING)")
    query = (
        df.writeStream.format("memory")
        .queryName("guide_" + topic1.replace("-", "_"))
        .option("checkpointLocation", str(tmp_path / "guide"))
        .trigger(availableNow=True)
        .start()
    )
    query.awaitTermination(300)
    assert query.exception() is None, query.exception()
    rows = spark.table("guide_" + topic1.replace("-", "_")).collect()
    assert len(rows) == 70
    assert ("0-5", "v-5") in {(r.key, r.value) for r in rows}

    # Subscribe to multiple topics, specifying explicit Kafka offsets
    df = (
        spark.read.format("kafka-port")
        .option("kafka.bootstrap.servers", servers)
        .option("subscribe", f"{topic1},{topic2}")
        .option("startingOffsets", f"""{{"{topic1}":{{"0":23,"1":-2}},"{topic2}":{{"0":-2}}}}""")
        .option("endingOffsets", f"""{{"{topic1}":{{"0":50,"1":-1}},"{topic2}":{{"0":-1}}}}""")
        .load()
    )
    df = df.selectExpr("CAST(key AS STRING)", "CAST(value AS STRING)")
    assert df.count() == (50 - 23) + 10 + 5

    # Subscribe to a pattern, at the earliest and latest offsets
    df = (
        spark.read.format("kafka-port")
        .option("kafka.bootstrap.servers", servers)
        .option("subscribePattern", topic2[:-3] + ".*")
        .option("startingOffsets", "earliest")
        .option("endingOffsets", "latest")
        .load()
    )
    assert df.selectExpr("CAST(key AS STRING)", "CAST(value AS STRING)").count() == 5


def test_missing_topic_fails_clearly(spark: SparkSession, spark_broker: BrokerProcess) -> None:
    """Subscribing to a topic that does not exist fails the read with the broker's error, not an empty result."""
    with pytest.raises(Exception, match=r"UnknownTopicOrPartition|does not host this topic-partition"):
        _read(spark, spark_broker, subscribe=_topic("missing"), **{"fetchOffset.retryIntervalMs": "10"}).count()


# -- writing


def test_batch_write_columns(spark: SparkSession, spark_broker: BrokerProcess) -> None:
    """A batch write sends each row as a record: topic (column, or the option, which wins), key, value, headers,
    partition and timestamp as given; reading it back gives the same rows."""
    a, b = _topic("wa"), _topic("wb")
    _create(spark_broker, a, b, partitions=2)
    rows = [
        (a if i % 3 else b, f"k{i}", f"v{i}".encode(), i % 2, [("h", f"{i}".encode())], BASE_TS + i) for i in range(30)
    ]
    df = spark.createDataFrame(
        rows,
        "topic string, key string, value binary, partition int, "
        "headers array<struct<key:string,value:binary>>, ts bigint",
    ).selectExpr("topic", "key", "value", "partition", "headers", "timestamp_millis(ts) AS timestamp")
    df.write.format(FORMAT).mode("append").option("kafka.bootstrap.servers", spark_broker.bootstrap).save()
    back = _read(spark, spark_broker, subscribe=f"{a},{b}", includeHeaders="true").collect()
    got = {
        (
            r.topic,
            r.key.decode(),
            r.value,
            r.partition,
            tuple((h.key, h.value) for h in r.headers),
            int(r.timestamp.timestamp() * 1000),
        )
        for r in back
    }
    assert got == {(t, k, v, p, tuple(h), ts) for t, k, v, p, h, ts in rows}
    # The topic option overrides the column.
    df.select("topic", "value").write.format(FORMAT).mode("append").option(
        "kafka.bootstrap.servers", spark_broker.bootstrap
    ).option("topic", b).save()
    assert _read(spark, spark_broker, subscribe=b).count() == 10 + 30


@pytest.mark.parametrize(
    ("select", "options", "message"),
    [
        ("value", {}, "topic option required when no 'topic' attribute is present. Use the topic option for setting"),
        ("key", {"topic": "x"}, "Required attribute 'value' not found"),
        ("1 AS value", {"topic": "x"}, "value attribute unsupported type int. value must be a(n) string or binary"),
        ("value, 1.5 AS partition", {"topic": "x"}, "partition attribute unsupported type decimal(2,1)"),
        ("value", {"topic": "x", "kafka.key.serializer": "x"}, "Kafka option 'key.serializer' is not supported"),
    ],
)
def test_bad_writes(
    spark: SparkSession, spark_broker: BrokerProcess, select: str, options: dict[str, str], message: str
) -> None:
    """Columns or options Spark's Kafka sink refuses fail the write with Spark's messages."""
    df = spark.createDataFrame([("k", "v")], "key string, value string").selectExpr(*select.split(", "))
    writer = df.write.format(FORMAT).mode("append").option("kafka.bootstrap.servers", spark_broker.bootstrap)
    for key, value in options.items():
        writer = writer.option(key, value)
    with pytest.raises(Exception, match=_escaped(message)):
        writer.save()


def test_overwrite_refused(spark: SparkSession, spark_broker: BrokerProcess) -> None:
    """Kafka cannot be overwritten: mode overwrite fails with Spark's message."""
    df = spark.createDataFrame([("v",)], "value string")
    with pytest.raises(Exception, match="Save mode Overwrite not allowed for Kafka"):
        df.write.format(FORMAT).mode("overwrite").option("kafka.bootstrap.servers", spark_broker.bootstrap).option(
            "topic", "x"
        ).save()


def _copy_query(
    spark: SparkSession, broker: BrokerProcess, source: str, sink: str, checkpoint: Path, **sink_options: str
) -> StreamingQuery:
    writer = (
        _stream(spark, broker, subscribe=source, startingOffsets="earliest", maxOffsetsPerTrigger="40")
        .selectExpr("key", "value")
        .writeStream.format(FORMAT)
        .option("kafka.bootstrap.servers", broker.bootstrap)
        .option("topic", sink)
        .option("checkpointLocation", str(checkpoint))
        .trigger(availableNow=True)
    )
    for key, value in sink_options.items():
        writer = writer.option(key, value)
    query = writer.start()
    query.awaitTermination(300)
    assert query.exception() is None, query.exception()
    return query


def _forget_last_commit(checkpoint: Path) -> int:
    """Deletes the last commits/N file (and its .crc), as a crash between a batch's write and its commit does."""
    last = max(int(p.name) for p in (checkpoint / "commits").iterdir() if p.name.isdigit())
    (checkpoint / "commits" / str(last)).unlink()
    (checkpoint / "commits" / f".{last}.crc").unlink()
    return last


@pytest.mark.parametrize("exactly_once", [True, False])
def test_replayed_batch_through_the_sink(
    spark: SparkSession, spark_broker: BrokerProcess, tmp_path: Path, exactly_once: bool
) -> None:
    """A batch Spark replays (its commit file lost) is written again by the at-least-once sink, as by Spark's;
    with exactlyOnce=true it adds nothing, and read_committed consumers see every source record exactly once."""
    source, sink = _topic("src"), _topic("dst")
    _create(spark_broker, source, sink, partitions=2)
    _produce(spark_broker, source, {0: 60, 1: 40})
    options = {"exactlyOnce": "true"} if exactly_once else {}
    checkpoint = tmp_path / "checkpoint"
    first = _copy_query(spark, spark_broker, source, sink, checkpoint, **options)
    assert _batch_sizes(first) == [40, 40, 20]
    last = _forget_last_commit(checkpoint)
    replay = _copy_query(spark, spark_broker, source, sink, checkpoint, **options)
    assert _batch_sizes(replay) == [20]  # Spark re-ran the last batch, with the same offsets
    progress = replay.lastProgress
    assert progress is not None
    assert json.loads(progress["sources"][0]["endOffset"]) == {source: {"0": 60, "1": 40}}
    assert progress["batchId"] == last
    committed = _read(spark, spark_broker, subscribe=sink, **{"kafka.isolation.level": "read_committed"})
    keys = [r.key for r in committed.select("key").collect()]
    if exactly_once:
        assert sorted(keys) == sorted(f"{p}-{i}".encode() for p, n in ((0, 60), (1, 40)) for i in range(n))
    else:
        assert len(keys) == 120 and len(set(keys)) == 100


# -- the example pipelines (examples/spark)


def _example(name: str) -> Any:
    import importlib.util

    path = Path(__file__).resolve().parents[3] / "examples" / "spark" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"kafka_port_example_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_streaming_etl_example(spark: SparkSession, spark_broker: BrokerProcess, tmp_path: Path) -> None:
    """The streaming ETL example counts each user's events per closed one-minute window and writes each count
    once, also when its last batch is replayed."""
    etl = _example("streaming_etl")
    source, sink = _topic("events"), _topic("counts")
    _create(spark_broker, source, sink, partitions=2)
    producer = ck.Producer({"bootstrap.servers": spark_broker.bootstrap})
    events = [("ann", "00:10"), ("bob", "00:20"), ("ann", "00:50"), ("ann", "01:10"), ("bob", "01:30")]
    # A late-enough event moves the watermark past the first two windows, which closes them.
    for user, at in [*events, ("zed", "05:00")]:
        value = json.dumps({"user": user, "action": "click", "ts": f"2024-05-01T12:{at}Z"})
        producer.produce(source, key=user.encode(), value=value.encode())
    assert producer.flush(30) == 0
    checkpoint = str(tmp_path / "etl")
    for attempt in range(2):
        query = etl.start(spark, spark_broker.bootstrap, source, sink, checkpoint, available_now=True)
        query.awaitTermination(300)
        assert query.exception() is None, query.exception()
        if attempt == 0:
            _forget_last_commit(tmp_path / "etl")
    out = _read(spark, spark_broker, subscribe=sink, **{"kafka.isolation.level": "read_committed"}).collect()
    counts = sorted(
        (r.key.decode(), json.loads(r.value)["window_start"][11:16], json.loads(r.value)["count"]) for r in out
    )
    assert counts == [("ann", "12:00", 2), ("ann", "12:01", 1), ("bob", "12:00", 1), ("bob", "12:01", 1)]


def test_compacted_to_parquet_example(spark: SparkSession, spark_broker: BrokerProcess, tmp_path: Path) -> None:
    """The batch example writes each key's latest value of a compacted topic to Parquet, tombstoned keys left out."""
    job = _example("compacted_to_parquet")
    topic = _topic("compacted")
    _create(spark_broker, topic, partitions=2, config={"cleanup.policy": "compact"})
    producer = ck.Producer({"bootstrap.servers": spark_broker.bootstrap})
    for key, value in [("a", "1"), ("b", "1"), ("a", "2"), ("c", "1"), ("b", None), ("c", "3")]:
        producer.produce(topic, key=key.encode(), value=None if value is None else value.encode())
    assert producer.flush(30) == 0
    output = str(tmp_path / "latest.parquet")
    assert job.run(spark, spark_broker.bootstrap, topic, output) == 2
    assert sorted((r.key, r.value) for r in spark.read.parquet(output).collect()) == [("a", "2"), ("c", "3")]


def test_unreachable_broker_fails_the_read(spark: SparkSession, spark_broker: BrokerProcess) -> None:
    """A read whose broker stops answering fails with the client's timeout, not with a short result."""
    import signal

    topic = _topic("gone")
    _create(spark_broker, topic, partitions=1)
    _produce(spark_broker, topic, {0: 10})
    options = {
        "subscribe": topic,
        "kafka.default.api.timeout.ms": "3000",
        "kafka.request.timeout.ms": "1000",
        "fetchOffset.numRetries": "1",
    }
    df = _read(spark, spark_broker, **options)
    spark_broker.signal(signal.SIGSTOP)
    try:
        with pytest.raises(Exception, match="TimeoutException"):
            df.count()
    finally:
        spark_broker.signal(signal.SIGCONT)
    assert df.count() == 10


# -- bad options


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (
            {"subscribe": "a", "assign": '{"a":[0]}'},
            "Only one of the following options can be specified for Kafka source: subscribe, subscribepattern, assign",
        ),
        ({}, "One of the following options must be specified for Kafka source: subscribe, subscribepattern, assign"),
        ({"subscribe": " , "}, "No topics to subscribe to as specified value for option 'subscribe' is ' , '"),
        ({"assign": "a"}, "No topicpartitions to assign as specified value for option 'assign' is 'a'"),
        ({"subscribe": "a", "kafka.auto.offset.reset": "latest"}, "Kafka option 'auto.offset.reset' is not supported"),
        ({"subscribe": "a", "kafka.enable.auto.commit": "true"}, "Kafka option 'enable.auto.commit' is not supported"),
        (
            {"subscribe": "a", "kafka.value.deserializer": "x"},
            "Kafka option 'value.deserializer' is not supported as values are deserialized as byte arrays",
        ),
        ({"subscribe": "a", "minPartitions": "0"}, "minPartitions must be positive"),
        ({"subscribe": "a", "startingOffsets": "latest"}, "starting offset can't be latest for batch queries on Kafka"),
        ({"subscribe": "a", "endingOffsets": "earliest"}, "ending offset can't be earliest for batch queries on Kafka"),
        ({"subscribe": "a", "startingOffsets": "{oops"}, 'Expected e.g. {"topicA":{"0":23,"1":-1},"topicB":{"0":-2}}'),
        ({"subscribe": "a", "startingTimestamp": "soon"}, "Expected a single long value, got soon"),
    ],
)
def test_bad_batch_options(
    spark: SparkSession, spark_broker: BrokerProcess, options: dict[str, str], message: str
) -> None:
    """Options Spark refuses fail the read with Spark's message."""
    with pytest.raises(Exception, match=_escaped(message)):
        _read(spark, spark_broker, **options).count()


def test_missing_bootstrap_servers(spark: SparkSession) -> None:
    """Without kafka.bootstrap.servers the read fails with Spark's message."""
    with pytest.raises(
        Exception, match=_escaped("Option 'kafka.bootstrap.servers' must be specified for configuring Kafka")
    ):
        spark.read.format(FORMAT).option("subscribe", "a").load().count()


def test_starting_offsets_for_unknown_partitions(
    spark: SparkSession, spark_broker: BrokerProcess, offsets_topic: str
) -> None:
    """startingOffsets naming partitions the topic does not have (or leaving some out) is Spark's
    KAFKA_START_OFFSET_DOES_NOT_MATCH_ASSIGNED."""
    t = offsets_topic
    with pytest.raises(Exception, match="KAFKA_START_OFFSET_DOES_NOT_MATCH_ASSIGNED"):
        _read(spark, spark_broker, subscribe=t, startingOffsets=f'{{"{t}":{{"0":0,"7":0}}}}').count()


def test_bad_stream_options(spark: SparkSession, spark_broker: BrokerProcess, tmp_path: Path) -> None:
    """endingOffsets is refused in a streaming query with Spark's message."""
    df = _stream(spark, spark_broker, subscribe="a", endingOffsets="latest")
    with pytest.raises(Exception, match="ending offset not valid in streaming queries"):
        query = (
            df.writeStream.format("memory")
            .queryName(f"bad_{uuid.uuid4().hex[:6]}")
            .option("checkpointLocation", str(tmp_path / "c"))
            .start()
        )
        query.awaitTermination(120)


def _escaped(message: str) -> str:
    import re

    return re.escape(message)


@pytest.fixture(autouse=True)
def _no_active_streams(spark: SparkSession) -> Iterator[None]:
    yield
    for query in spark.streams.active:
        query.stop()
