"""A batch job on the `kafka-port` source: the latest value of every key of a compacted topic, written to
Parquet. A key's last record wins; a key whose last record is a tombstone (null value) is left out, as
compaction would eventually leave it out of the topic.

    spark-submit examples/spark/compacted_to_parquet.py --bootstrap-servers localhost:9092 \\
        --topic customers --output /tmp/customers.parquet
"""

from __future__ import annotations

import argparse

from pyspark.sql import DataFrame, SparkSession, Window
from pyspark.sql import functions as F

import kafka.spark


def latest_values(records: DataFrame) -> DataFrame:
    """One row per live key: key and value as strings, with the offset and timestamp of the record that set it.

    A key's records are in one partition (Kafka's default partitioner), so the highest offset is the latest."""
    by_key = Window.partitionBy("key").orderBy(F.col("offset").desc())
    return (
        records.where(F.col("key").isNotNull())
        .withColumn("rank", F.row_number().over(by_key))
        .where((F.col("rank") == 1) & F.col("value").isNotNull())
        .select(
            F.col("key").cast("string").alias("key"),
            F.col("value").cast("string").alias("value"),
            "partition",
            "offset",
            "timestamp",
        )
    )


def run(spark: SparkSession, bootstrap_servers: str, topic: str, output: str) -> int:
    """Writes the topic's latest values to `output` (replacing it); returns the number of keys written."""
    records = (
        spark.read.format("kafka-port")
        .option("kafka.bootstrap.servers", bootstrap_servers)
        .option("subscribe", topic)
        .option("startingOffsets", "earliest")
        .option("endingOffsets", "latest")
        .load()
    )
    latest = latest_values(records).cache()
    latest.write.mode("overwrite").parquet(output)
    count = latest.count()
    latest.unpersist()
    return count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bootstrap-servers", default="localhost:9092")
    parser.add_argument("--topic", required=True)
    parser.add_argument("--output", required=True)
    args = parser.parse_args()
    spark = SparkSession.builder.appName("kafka-port compacted topic to Parquet").getOrCreate()
    # Discovery finds the source where the project is installed; registering also covers --py-files.
    kafka.spark.register(spark)
    print(f"{run(spark, args.bootstrap_servers, args.topic, args.output)} keys written to {args.output}")


if __name__ == "__main__":
    main()
