"""Port of clients/src/main/java/org/apache/kafka/clients/consumer/internals/FetchMetricsRegistry.java (Kafka 3.7).

The names of the consumer's fetch metrics, group `{prefix}-fetch-manager-metrics`: totals (tag `client-id`), per
topic (plus `topic`) and per partition (plus `topic` and `partition`).

# PORT: Java's MetricNameTemplates (kept for its documentation build) are (name, description) pairs here.
"""

from __future__ import annotations

from typing import Final

__all__ = ["FetchMetricsRegistry"]


class FetchMetricsRegistry:
    """The fetch metric names and descriptions."""

    def __init__(self, metric_grp_prefix: str = "consumer") -> None:
        self.group_name: Final = metric_grp_prefix + "-fetch-manager-metrics"
        self.fetch_size_avg = ("fetch-size-avg", "The average number of bytes fetched per request")
        self.fetch_size_max = ("fetch-size-max", "The maximum number of bytes fetched per request")
        self.bytes_consumed_rate = ("bytes-consumed-rate", "The average number of bytes consumed per second")
        self.bytes_consumed_total = ("bytes-consumed-total", "The total number of bytes consumed")
        self.records_per_request_avg = ("records-per-request-avg", "The average number of records in each request")
        self.records_consumed_rate = ("records-consumed-rate", "The average number of records consumed per second")
        self.records_consumed_total = ("records-consumed-total", "The total number of records consumed")
        self.fetch_latency_avg = ("fetch-latency-avg", "The average time taken for a fetch request.")
        self.fetch_latency_max = ("fetch-latency-max", "The max time taken for any fetch request.")
        self.fetch_request_rate = ("fetch-rate", "The number of fetch requests per second.")
        self.fetch_request_total = ("fetch-total", "The total number of fetch requests.")
        self.records_lag_max = (
            "records-lag-max",
            "The maximum lag in terms of number of records for any partition in this window. NOTE: This is based on "
            "current offset and not committed offset",
        )
        self.records_lead_min = (
            "records-lead-min",
            "The minimum lead in terms of number of records for any partition in this window",
        )
        self.fetch_throttle_time_avg = ("fetch-throttle-time-avg", "The average throttle time in ms")
        self.fetch_throttle_time_max = ("fetch-throttle-time-max", "The maximum throttle time in ms")
        self.topic_fetch_size_avg = ("fetch-size-avg", "The average number of bytes fetched per request for a topic")
        self.topic_fetch_size_max = ("fetch-size-max", "The maximum number of bytes fetched per request for a topic")
        self.topic_bytes_consumed_rate = (
            "bytes-consumed-rate",
            "The average number of bytes consumed per second for a topic",
        )
        self.topic_bytes_consumed_total = ("bytes-consumed-total", "The total number of bytes consumed for a topic")
        self.topic_records_per_request_avg = (
            "records-per-request-avg",
            "The average number of records in each request for a topic",
        )
        self.topic_records_consumed_rate = (
            "records-consumed-rate",
            "The average number of records consumed per second for a topic",
        )
        self.topic_records_consumed_total = (
            "records-consumed-total",
            "The total number of records consumed for a topic",
        )
        self.partition_records_lag = ("records-lag", "The latest lag of the partition")
        self.partition_records_lag_max = ("records-lag-max", "The max lag of the partition")
        self.partition_records_lag_avg = ("records-lag-avg", "The average lag of the partition")
        self.partition_records_lead = ("records-lead", "The latest lead of the partition")
        self.partition_records_lead_min = ("records-lead-min", "The min lead of the partition")
        self.partition_records_lead_avg = ("records-lead-avg", "The average lead of the partition")
        self.partition_preferred_read_replica = (
            "preferred-read-replica",
            "The current read replica for the partition, or -1 if reading from leader",
        )
