"""A streaming ETL on the `kafka-port` source and exactly-once sink: JSON events from one topic, parsed, counted
per user in one-minute event-time windows with a watermark, each closed window written exactly once to another
topic as JSON.

    spark-submit examples/spark/streaming_etl.py --bootstrap-servers localhost:9092 \\
        --source events --sink user-counts --checkpoint /tmp/etl-checkpoint

An event looks like `{"user": "ann", "action": "click", "ts": "2024-05-01T12:00:03Z"}`; an output record has the
user as its key and `{"window_start": ..., "window_end": ..., "user": "ann", "count": 3}` as its value.
"""

from __future__ import annotations

import argparse

from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import functions as F

import kafka.spark

EVENT_SCHEMA = "user string, action string, ts timestamp"


def user_counts(events: DataFrame, watermark: str = "30 seconds", window: str = "1 minute") -> DataFrame:
    """Counts of each user's events per event-time window, as (key, value) rows ready for the Kafka sink."""
    parsed = events.select(F.from_json(F.col("value").cast("string"), EVENT_SCHEMA).alias("e")).select("e.*")
    counts = (
        parsed.where(F.col("user").isNotNull() & F.col("ts").isNotNull())
        .withWatermark("ts", watermark)
        .groupBy(F.window("ts", window), "user")
        .count()
    )
    value = F.to_json(
        F.struct(
            F.col("window.start").alias("window_start"),
            F.col("window.end").alias("window_end"),
            "user",
            "count",
        )
    )
    return counts.select(F.col("user").alias("key"), value.alias("value"))


def start(
    spark: SparkSession,
    bootstrap_servers: str,
    source: str,
    sink: str,
    checkpoint: str,
    available_now: bool = False,
    starting_offsets: str = "earliest",
) -> object:
    """Starts the query (returns its StreamingQuery)."""
    events = (
        spark.readStream.format("kafka-port")
        .option("kafka.bootstrap.servers", bootstrap_servers)
        .option("subscribe", source)
        .option("startingOffsets", starting_offsets)
        .load()
    )
    writer = (
        user_counts(events)
        .writeStream.format("kafka-port")
        .outputMode("append")
        .option("kafka.bootstrap.servers", bootstrap_servers)
        .option("topic", sink)
        .option("exactlyOnce", "true")
        .option("checkpointLocation", checkpoint)
    )
    writer = writer.trigger(availableNow=True) if available_now else writer.trigger(processingTime="5 seconds")
    return writer.start()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bootstrap-servers", default="localhost:9092")
    parser.add_argument("--source", default="events")
    parser.add_argument("--sink", default="user-counts")
    parser.add_argument("--checkpoint", required=True)
    parser.add_argument("--available-now", action="store_true", help="process what is there, then stop")
    args = parser.parse_args()
    spark = SparkSession.builder.appName("kafka-port streaming ETL").getOrCreate()
    # Discovery finds the source where the project is installed; registering also covers --py-files.
    kafka.spark.register(spark)
    query = start(spark, args.bootstrap_servers, args.source, args.sink, args.checkpoint, args.available_now)
    query.awaitTermination()  # type: ignore[attr-defined]


if __name__ == "__main__":
    main()
