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
