"""Tests of the helpers the console and performance tools share: ToolsUtils' address check and metrics table,
exceptions and numbers printed as Java prints them, the tools' log layout, and the CommandLineUtils functions added
for the tools (key=value arguments, option merging, jopt-simple's requiredUnless)."""

from __future__ import annotations

import io
import logging

import pytest

from kafka.admin._tool_support import AdminCommandFailedException
from kafka.common.errors import KafkaException, TimeoutException, UnknownTopicOrPartitionException
from kafka.common.kafka_future import ExecutionException
from kafka.common.utils.utils import java_divide
from kafka.tools import tools_utils as tu
from kafka.utils.command_line_utils import (
    MissingRequiredOptionsException,
    OptionParser,
    UsageException,
    ensure_required_unless,
    maybe_merge_options,
    parse_key_value_args,
)


@pytest.mark.parametrize(
    ("address", "port"),
    [("localhost:9092", 9092), ("[::1]:9093", 9093), ("a.b-c_d:1", 1), ("localhost", None), ("host:", None)],
)
def test_get_port(address: str, port: int | None) -> None:
    """Utils.getPort reads the port of host:port (IPv6 in brackets) and nothing else."""
    assert tu.get_port(address) == port


def test_validate_port_or_die() -> None:
    """Every entry of the list needs a port; otherwise the tool ends with Kafka's message."""
    parser = OptionParser()
    tu.validate_port_or_die(parser, "h1:1,h2:2")
    tu.validate_port_or_die(parser, "h1:1,")  # Java's split drops the trailing empty entry
    for bad in ("h1:1,h2", "h1", ""):
        with pytest.raises(UsageException) as e:
            tu.validate_port_or_die(parser, bad)
        assert e.value.message == "Please provide valid host:port like host1:9091,host2:9092\n "


def test_exception_lines_name_the_causes() -> None:
    """An exception prints with Kafka's Java class names, its causes as `Caused by:` lines."""
    try:
        try:
            raise TimeoutException("inner")
        except TimeoutException as inner:
            raise KafkaException("Failed to construct kafka producer") from inner
    except KafkaException as outer:
        lines = tu.exception_lines(outer)
    assert lines == [
        "org.apache.kafka.common.KafkaException: Failed to construct kafka producer",
        "Caused by: org.apache.kafka.common.errors.TimeoutException: inner",
    ]


def test_log_layout_has_no_python_traceback() -> None:
    """The tools' log lines follow log4j's layout and show an exception as Java's trace header, not a traceback."""
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(tu.JavaStyleFormatter())
    logger = logging.getLogger("kafka.tools.TestLogger")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        try:
            raise TimeoutException("late")
        except TimeoutException as e:
            logger.error("Something failed: ", exc_info=e)
    finally:
        logger.removeHandler(handler)
    first, second = out.getvalue().splitlines()
    assert first.endswith("] ERROR Something failed:  (kafka.tools.TestLogger)")
    assert second == "org.apache.kafka.common.errors.TimeoutException: late"


def test_stack_trace_lines() -> None:
    """An ExecutionException prints as Java's, followed by its cause; suppressed exceptions are indented."""
    err = io.StringIO()
    tu.print_exception(ExecutionException(UnknownTopicOrPartitionException("gone")), err, "X ")
    assert err.getvalue().splitlines() == [
        "X java.util.concurrent.ExecutionException: org.apache.kafka.common.errors.UnknownTopicOrPartitionException: "
        "gone",
        "Caused by: org.apache.kafka.common.errors.UnknownTopicOrPartitionException: gone",
    ]
    root = AdminCommandFailedException("2 failed")
    root.add_suppressed(ValueError("bad"))
    err = io.StringIO()
    tu.print_exception(root, err)
    assert err.getvalue() == (
        "kafka.common.AdminCommandFailedException: 2 failed\n\tSuppressed: java.lang.IllegalArgumentException: bad\n"
    )


def test_java_double_formatting() -> None:
    """Doubles print with Java's %.Nf, and division by zero gives Java's Infinity and NaN."""
    assert tu.format_java_double(java_divide(1, 3), 4) == "0.3333"
    assert tu.format_java_double(java_divide(1, 0), 2) == "Infinity"
    assert tu.format_java_double(java_divide(-1, 0), 2) == "-Infinity"
    assert tu.format_java_double(java_divide(0, 0), 2) == "NaN"


def test_print_metrics() -> None:
    """Metrics print as Java's ToolsUtils.printMetrics: `group:name:{tags}` sorted and aligned, doubles to three
    places, other values as they are; no metrics print nothing."""
    from kafka.common.metrics.internals.metric_functions import GaugeFn
    from kafka.common.metrics.metric_config import MetricConfig
    from kafka.common.metrics.metrics import Metrics
    from kafka.common.metrics.stats.avg import Avg

    with Metrics(MetricConfig(tags={"client-id": "c"})) as metrics:
        metrics.sensor("s").add(metrics.metric_name("latency-avg", "g-metrics"), Avg())
        metrics.get_sensor("s").record(1.23456)  # type: ignore[union-attr]
        metrics.add_metric(metrics.metric_name("version", "app-info"), GaugeFn(lambda config, now: "1.0"))
        out = io.StringIO()
        tu.print_metrics(metrics.metrics(), out)
    width = len("kafka-metrics-count:count:{client-id=c}")
    assert out.getvalue().splitlines() == [
        "",
        "Metric Name".ljust(width) + "   Value",
        "app-info:version:{client-id=c}".ljust(width) + " : 1.0",
        "g-metrics:latency-avg:{client-id=c}".ljust(width) + " : 1.235",
        "kafka-metrics-count:count:{client-id=c} : 3.000",
    ]
    empty = io.StringIO()
    tu.print_metrics({}, empty)
    assert empty.getvalue() == ""


def test_parse_key_value_args() -> None:
    """key=value pairs, a value may hold '=', a missing value is empty or refused as Kafka refuses it."""
    assert parse_key_value_args(["a=1", "b=x=y", "c", "d="]) == {"a": "1", "b": "x=y", "c": "", "d": ""}
    with pytest.raises(ValueError, match="Missing value for key c"):
        parse_key_value_args(["c"], accept_missing_value=False)


def test_maybe_merge_options() -> None:
    """An option given on the command line overrides; a default fills only what is unset."""
    parser = OptionParser()
    acks = parser.accepts("acks").with_required_arg().defaults_to("1")
    linger = parser.accepts("linger").with_required_arg().of_type(int).defaults_to(1000)
    options = parser.parse(["--acks", "all"])
    props = {"acks": "0", "linger.ms": "5"}
    maybe_merge_options(props, "acks", options, acks)
    maybe_merge_options(props, "linger.ms", options, linger)
    maybe_merge_options(props, "other", options, linger)
    assert props == {"acks": "all", "linger.ms": "5", "other": "1000"}


def test_ensure_required_unless() -> None:
    """An option required unless another is given: missing both is jopt-simple's error, unless help is asked."""
    parser = OptionParser()
    help_opt = parser.accepts("help").for_help()
    server = parser.accepts("bootstrap-server").with_required_arg()
    brokers = parser.accepts("broker-list").with_required_arg()
    ensure_required_unless(parser.parse(["--broker-list", "h:1"]), server, brokers)
    ensure_required_unless(parser.parse(["--help"]), server, brokers)
    assert help_opt.for_help_spec
    with pytest.raises(MissingRequiredOptionsException) as e:
        ensure_required_unless(parser.parse([]), server, brokers)
    assert str(e.value) == "Missing required option(s) [bootstrap-server]"
