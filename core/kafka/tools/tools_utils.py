"""Port of tools/src/main/java/org/apache/kafka/tools/ToolsUtils.java (Kafka 3.7) and of
core/src/main/scala/kafka/utils/ToolsUtils.scala (Kafka 2.8).

Helpers shared by the console and performance tools: checking a `host:port` list, printing client metrics,
and what every tool's entry point does around Kafka's behaviour: logging as Kafka's
config/tools-log4j.properties sets it up (WARN and above on stderr, log4j's layout) and printing a failure
the way the JVM prints an exception that ends a tool (`org.apache.kafka.common.errors.TimeoutException: ...`
and its `Caused by:` lines).

# PORT: a Python traceback is never shown to a user: where the JVM or log4j would print a stack trace, the
tools print its header lines only (the exception as Java's Throwable.toString writes it, its suppressed
exceptions, then each cause), without frames. The Java class names are kafka.common.utils.utils.java_class_name's.
"""

from __future__ import annotations

import logging
import os
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TextIO

from kafka.common.utils.utils import java_to_string
from kafka.utils.command_line_utils import OptionException, OptionParser, UsageException, print_usage_and_die
from kafka.utils.logging import DATE_FORMAT, LOG_FORMAT

__all__ = [
    "JavaStyleFormatter",
    "configure_tool_logging",
    "exception_lines",
    "finish_stdout",
    "format_java_double",
    "get_port",
    "pretty_print_table",
    "print_exception",
    "print_metrics",
    "run_reporting_errors",
    "silence_stdout",
    "tool_main",
    "validate_port_or_die",
]

# Utils.HOST_PORT_PATTERN: an optional host (IPv6 in brackets), a colon and a port.
_HOST_PORT_PATTERN = re.compile(r".*?\[?([0-9a-zA-Z\-%._:]*)\]?:([0-9]+)")


def get_port(address: str) -> int | None:
    """Utils.getPort: the port of `host:port`, None when `address` is not of that form."""
    match = _HOST_PORT_PATTERN.fullmatch(address)
    return int(match.group(2)) if match else None


def validate_port_or_die(parser: OptionParser, host_port: str) -> None:
    """ToolsUtils.validatePortOrDie (2.8): every comma-separated entry must be a `host:port`, else the tool ends
    with Kafka's message and its help."""
    host_ports = _java_split(host_port, ",") if "," in host_port else [host_port]
    valid = [hp for hp in host_ports if get_port(hp) is not None]
    if not valid or len(valid) != len(host_ports):
        print_usage_and_die(parser, "Please provide valid host:port like host1:9091,host2:9092\n ")


def _java_split(text: str, separator: str) -> list[str]:
    """String.split with a literal separator: trailing empty strings are dropped."""
    parts = text.split(separator)
    while parts and parts[-1] == "":
        parts.pop()
    return parts


def print_metrics(metrics: Mapping[Any, Any], out: TextIO | None = None) -> None:
    """ToolsUtils.printMetrics: each metric as `group:name:{tags}` (the tags as Java prints a map), sorted, with
    its value; floats with three decimals. Prints nothing for no metrics, as Java's."""
    out = out or sys.stdout
    if not metrics:
        return
    sorted_metrics: dict[str, Any] = {}
    for metric in metrics.values():
        name = metric.metric_name()
        tags = ", ".join(f"{k}={v}" for k, v in name.tags.items())
        sorted_metrics[f"{name.group}:{name.name}:{{{tags}}}"] = metric.metric_value()
    width = max(len(merged_name) for merged_name in sorted_metrics)
    out.write("\n" + "Metric Name".ljust(width) + "   Value\n")
    for merged_name in sorted(sorted_metrics):
        value = sorted_metrics[merged_name]
        shown = format_java_double(value, 3) if isinstance(value, float) else str(value)
        out.write(f"{merged_name.ljust(width)} : {shown}\n")
    out.flush()


# -- numbers as Java prints them --------------------------------------------------------------------------------


def pretty_print_table(headers: Sequence[str], rows: Sequence[Sequence[str]], out: TextIO) -> None:
    """ToolsUtils.prettyPrintTable: the headers and rows, each column padded to its widest cell, every cell
    followed by a tab (the last one too)."""
    widths = [len(h) for h in headers]
    for row in rows:
        for i in range(len(headers)):
            widths[i] = max(widths[i], len(row[i]))
    for row in (headers, *rows):
        out.write("".join(f"{value.ljust(widths[i])}\t" for i, value in enumerate(row)) + "\n")


def format_java_double(value: float, decimals: int) -> str:
    """String.format's `%.Nf`, with Java's names for infinities and NaN."""
    if value != value:
        return "NaN"
    if value in (float("inf"), float("-inf")):
        return "Infinity" if value > 0 else "-Infinity"
    return f"{value:.{decimals}f}"


# -- exceptions as Java prints them ------------------------------------------------------------------------------


def exception_lines(exc: BaseException) -> list[str]:
    """The header lines of the stack trace Java prints for `exc`: itself, its suppressed exceptions (indented),
    then `Caused by: ...` per cause."""
    lines = [java_to_string(exc)]
    lines.extend(f"\tSuppressed: {java_to_string(s)}" for s in getattr(exc, "suppressed", ()))
    seen = {id(exc)}
    cause = exc.__cause__
    while cause is not None and id(cause) not in seen:
        seen.add(id(cause))
        lines.append(f"Caused by: {java_to_string(cause)}")
        cause = cause.__cause__
    return lines


def print_exception(exc: BaseException, err: TextIO | None = None, prefix: str = "") -> None:
    """Prints `exc` as e.printStackTrace() starts (or, with a prefix, as the JVM reports an uncaught one)."""
    err = err or sys.stderr
    lines = exception_lines(exc)
    lines[0] = prefix + lines[0]
    err.write("\n".join(lines) + "\n")
    err.flush()


class JavaStyleFormatter(logging.Formatter):
    """log4j's `[%d] %p %m (%c)%n` layout; an attached exception is printed as Java's trace header lines."""

    def __init__(self) -> None:
        super().__init__(LOG_FORMAT, DATE_FORMAT)

    def formatException(self, ei: Any) -> str:
        exc = ei[1]
        if exc is None:
            return ""
        return "\n".join(exception_lines(exc))


def configure_tool_logging(level: int = logging.WARNING, stream: TextIO | None = None) -> None:
    """Sets up logging as Kafka's config/tools-log4j.properties: `level` and above on stderr; run from bin/, the
    log4j.properties file KAFKA_LOG4J_OPTS names (kafka-run-class.sh: config/tools-log4j.properties)."""
    if stream is None and level == logging.WARNING:
        from kafka.utils.log4j_property_configurator import PropertyConfigurator, configuration_file, system_properties

        sys_props = system_properties()
        path = configuration_file(sys_props)
        renderer = lambda e: "\n".join(exception_lines(e))  # noqa: E731
        if path is not None and PropertyConfigurator(sys_props, renderer).configure_file(path):
            return
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JavaStyleFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)


def silence_stdout() -> None:
    """After a write to a closed pipe (`tool | head`): point standard output at /dev/null, so that nothing more
    fails on it, not even the interpreter's final flush. Java's System.out swallows such errors."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass


def finish_stdout() -> None:
    """Flushes standard output at the end of a tool; a closed pipe is silenced rather than reported."""
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        silence_stdout()


def tool_main(run_command: Callable[[Sequence[str], TextIO, TextIO], int], argv: Sequence[str] | None = None) -> int:
    """Runs a tool's command line with Kafka's tool logging (config/tools-log4j.properties: WARN and above, on
    stderr); returns the exit status. A closed stdout (`| head`) ends the tool quietly."""
    configure_tool_logging()
    args = sys.argv[1:] if argv is None else argv
    try:
        return run_command(args, sys.stdout, sys.stderr)
    except BrokenPipeError:
        silence_stdout()
        return 0


def run_reporting_errors(body: Callable[[], int], err: TextIO, parser_for_option_errors: Callable[[], Any]) -> int:
    """Runs a tool's `body` and turns what escapes it into Kafka's output and an exit status: a command line
    jopt-simple refuses prints its message and the help (of `parser_for_option_errors()`), a usage error its
    message and the help, anything else the lines a JVM prints for an uncaught exception; all give status 1."""
    try:
        return body()
    except OptionException as e:
        print(str(e), file=err)
        parser_for_option_errors().print_help_on(err)
        return 1
    except UsageException as e:
        print(e.message, file=err)
        e.parser.print_help_on(err)
        return 1
    except BrokenPipeError:
        raise
    except Exception as e:
        print_exception(e, err, 'Exception in thread "main" ')
        return 1
