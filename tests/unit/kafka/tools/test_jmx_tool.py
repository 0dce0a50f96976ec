"""Unit tests of kafka.tools.jmx_tool (ObjectName patterns, value formatting, the CSV output)."""

from __future__ import annotations

import io
from typing import Any

from kafka.tools.jmx_tool import ObjectNamePattern, format_value, run_command

BEANS: dict[str, dict[str, Any]] = {
    "kafka.server:type=ReplicaManager,name=PartitionCount": {"Value": 3},
    "kafka.server:type=ReplicaManager,name=LeaderCount": {"Value": 2},
    "kafka.server:type=BrokerTopicMetrics,name=MessagesInPerSec,topic=t": {"Count": 7, "OneMinuteRate": 0.5},
}


def test_object_name_patterns_match_as_javax_management_object_name() -> None:
    """Exact names, value wildcards and a trailing `,*` select the MBeans JMX's queryNames would."""
    exact = ObjectNamePattern.parse("kafka.server:type=ReplicaManager,name=PartitionCount")
    assert not exact.is_pattern
    assert exact.matches("kafka.server:type=ReplicaManager,name=PartitionCount")
    assert exact.matches("kafka.server:name=PartitionCount,type=ReplicaManager")
    assert not exact.matches("kafka.server:type=ReplicaManager,name=LeaderCount")
    wildcard = ObjectNamePattern.parse("kafka.server:type=ReplicaManager,name=*")
    assert wildcard.is_pattern and wildcard.matches("kafka.server:type=ReplicaManager,name=LeaderCount")
    property_list = ObjectNamePattern.parse("kafka.server:type=BrokerTopicMetrics,*")
    assert property_list.matches("kafka.server:type=BrokerTopicMetrics,name=MessagesInPerSec,topic=t")
    assert not ObjectNamePattern.parse("kafka.server:type=BrokerTopicMetrics").matches(
        "kafka.server:type=BrokerTopicMetrics,name=MessagesInPerSec,topic=t"
    )
    assert ObjectNamePattern.parse("kafka.*:type=ReplicaManager,*").matches(
        "kafka.server:type=ReplicaManager,name=LeaderCount"
    )


def test_values_print_as_java_to_string() -> None:
    """Longs, doubles and strings print as Java's toString does."""
    assert [format_value(v) for v in (5, 0.5, 2.0, 1.5e-5, 0.0, "CONNECTED", True)] == [
        "5",
        "0.5",
        "2.0",
        "1.5E-5",
        "0.0",
        "CONNECTED",
        "true",
    ]


def test_one_time_prints_the_csv_header_and_one_line() -> None:
    """A one-time query prints the quoted header "time","<mbean>:<attr>",... sorted, then the values."""
    out, err = io.StringIO(), io.StringIO()
    status = run_command(
        ["--object-name", "kafka.server:type=ReplicaManager,name=*", "--one-time", "true", "--jmx-url", "h:1"],
        out,
        err,
        fetch=lambda url: BEANS,
        now_ms=lambda: 1234,
    )
    assert status == 0, err.getvalue()
    assert out.getvalue().splitlines() == [
        '"time","kafka.server:type=ReplicaManager,name=LeaderCount:Value",'
        '"kafka.server:type=ReplicaManager,name=PartitionCount:Value"',
        "1234,2,3",
    ]


def test_attributes_select_and_reporting_interval_repeats() -> None:
    """--attributes keeps the listed attributes; without --one-time the tool polls every interval."""
    out, err = io.StringIO(), io.StringIO()
    sleeps: list[float] = []

    def sleep(seconds: float) -> None:
        sleeps.append(seconds)
        if len(sleeps) == 2:
            raise KeyboardInterrupt

    try:
        run_command(
            [
                "--object-name",
                "kafka.server:type=BrokerTopicMetrics,*",
                "--attributes",
                "Count",
                "--reporting-interval",
                "500",
            ],
            out,
            err,
            fetch=lambda url: BEANS,
            sleep=sleep,
            now_ms=lambda: 10,
        )
    except KeyboardInterrupt:
        pass
    assert out.getvalue().splitlines() == [
        '"time","kafka.server:type=BrokerTopicMetrics,name=MessagesInPerSec,topic=t:Count"',
        "10,7",
        "10,7",
    ]
    assert sleeps == [0.5, 0.5]


def test_unreachable_url_fails_after_retrying() -> None:
    """A broker that cannot be reached ends the tool with status 1 after its connect timeout."""
    clock = iter(range(0, 100000, 1000))
    err = io.StringIO()

    def fetch(url: str) -> dict[str, dict[str, Any]]:
        raise OSError("Connection refused")

    status = run_command(
        ["--jmx-url", "http://h:1/jmx"],
        io.StringIO(),
        err,
        fetch=fetch,
        sleep=lambda s: None,
        now_ms=lambda: next(clock),
    )
    assert status == 1
    assert "Could not connect to JMX url http://h:1/jmx after 10000 ms." in err.getvalue()


def test_the_brokers_jmx_view_feeds_the_tool() -> None:
    """The /jmx view lists each metric as its MBean with the JMX reporters' attributes, which the tool reads."""
    from kafka.common.metrics.metrics import Metrics
    from kafka.common.metrics.stats.cumulative_sum import CumulativeSum
    from kafka.metrics.jmx_json_view import mbeans
    from kafka.metrics.kafka_metrics_group import explicit_metric_name
    from kafka.metrics.yammer import MetricsRegistry
    from kafka.tools.jmx_tool import ObjectNamePattern, query_attributes
    from kafka.utils.time_unit import TimeUnit

    registry = MetricsRegistry()
    registry.new_gauge(explicit_metric_name("kafka.server", "ReplicaManager", "LeaderCount"), lambda: 4)
    registry.new_gauge(
        explicit_metric_name("kafka.server", "SessionExpireListener", "SessionState"), lambda: "CONNECTED"
    )
    meter = registry.new_meter(
        explicit_metric_name("kafka.server", "BrokerTopicMetrics", "MessagesInPerSec", {"topic": "t"}),
        "messages",
        TimeUnit.SECONDS,
    )
    meter.mark(3)
    java = Metrics()
    sensor = java.sensor("s")
    sensor.add(java.metric_name("byte-total", "Produce", "", {"user": "", "client-id": "c1"}), CumulativeSum())
    sensor.record(10.0)

    beans = {b["name"]: {k: v for k, v in b.items() if k != "name"} for b in mbeans(registry, java)}
    assert beans["kafka.server:type=ReplicaManager,name=LeaderCount"] == {"Value": 4}
    assert beans["kafka.server:type=SessionExpireListener,name=SessionState"] == {"Value": "CONNECTED"}
    messages = beans["kafka.server:type=BrokerTopicMetrics,name=MessagesInPerSec,topic=t"]
    assert messages["Count"] == 3 and {"MeanRate", "OneMinuteRate", "FiveMinuteRate", "FifteenMinuteRate"} <= set(
        messages
    )
    assert beans["kafka.server:type=Produce,client-id=c1"]["byte-total"] == 10.0
    pattern = ObjectNamePattern.parse("kafka.server:type=BrokerTopicMetrics,*")
    names = [n for n in beans if pattern.matches(n)]
    assert query_attributes(beans, names, ["Count"]) == {
        "kafka.server:type=BrokerTopicMetrics,name=MessagesInPerSec,topic=t:Count": 3
    }
    java.close()
