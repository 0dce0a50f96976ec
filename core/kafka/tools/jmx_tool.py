"""Port of core/src/main/scala/kafka/tools/JmxTool.scala (Kafka 2.8).

`kafka-run-class.sh kafka.tools.JmxTool [--object-name NAME]... [--attributes a,b] [--reporting-interval MS]
[--one-time true] [--date-format FORMAT] [--report-format original|properties|csv|tsv] [--wait]
[--jmx-url URL]`: polls MBean attributes of a running broker and prints them, by default as CSV lines
`"time","<mbean>:<attribute>",...` then one line of values per interval, as Kafka's tool does.

# PORT: Java's tool reads MBeans over a JMX connector (`--jmx-url service:jmx:rmi:///jndi/rmi://host:9999/jmxrmi`).
# Our broker has no MBean server; it serves its metrics' MBeans and attributes as JSON at `/jmx` on its metrics
# endpoint (metrics.prometheus.port, see kafka.metrics.jmx_json_view), and `--jmx-url` is that address:
# `http://host:7071/jmx` (a bare `host:port` means the same). The default is `http://localhost:7071/jmx`, the
# endpoint of config/server.properties. `--jmx-auth-prop` and `--jmx-ssl-enable` (RMI options) are accepted and
# have nothing to act on. Object-name patterns follow javax.management.ObjectName: `*` and `?` in the domain and in
# property values, and a trailing `,*` for "any further properties".
"""

from __future__ import annotations

import json
import re
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from kafka.tools.consumer_performance import SimpleDateFormat
from kafka.tools.tools_utils import configure_tool_logging, finish_stdout, silence_stdout
from kafka.utils.command_line_utils import Integer, OptionParser, UsageException, print_usage_and_die

__all__ = ["ObjectNamePattern", "format_value", "main", "query_attributes", "run_command"]

DEFAULT_JMX_URL = "http://localhost:7071/jmx"
_CONNECT_TIMEOUT_MS = 10000
_WAIT_TIMEOUT_MS = 10000

# One JSON read of every MBean: name -> attribute -> value.
Beans = dict[str, dict[str, Any]]


def _wildcard(text: str) -> re.Pattern[str]:
    return re.compile("".join(".*" if c == "*" else "." if c == "?" else re.escape(c) for c in text), re.DOTALL)


def _split_properties(props: str) -> list[tuple[str, str]]:
    """`k=v,k2="a,b"` as pairs; a quoted value keeps its commas."""
    pairs: list[tuple[str, str]] = []
    i = 0
    while i < len(props):
        eq = props.index("=", i) if "=" in props[i:] else -1
        if eq < 0:
            raise ValueError(f"Invalid ObjectName key property: {props[i:]}")
        key = props[i:eq]
        j = eq + 1
        if j < len(props) and props[j] == '"':
            j += 1
            while j < len(props) and props[j] != '"':
                j += 2 if props[j] == "\\" else 1
            j += 1
        while j < len(props) and props[j] != ",":
            j += 1
        pairs.append((key, props[eq + 1 : j]))
        i = j + 1
    return pairs


@dataclass(frozen=True)
class ObjectNamePattern:
    """A javax.management.ObjectName used as a query: exact, or a pattern in its domain, values or property list."""

    text: str
    domain: re.Pattern[str]
    properties: tuple[tuple[str, re.Pattern[str]], ...]
    property_list_pattern: bool
    is_pattern: bool

    @classmethod
    def parse(cls, text: str) -> ObjectNamePattern:
        domain, sep, props = text.partition(":")
        if not sep or not props:
            raise ValueError(f"Key properties cannot be empty: {text}")
        if props == "*":
            list_pattern, pairs = True, []
        elif props.endswith(",*"):
            list_pattern, pairs = True, _split_properties(props[: -len(",*")])
        else:
            list_pattern, pairs = False, _split_properties(props)
        patterned = any(c in domain for c in "*?") or any(any(c in v for c in "*?") for _, v in pairs)
        return cls(
            text,
            _wildcard(domain),
            tuple((k, _wildcard(v)) for k, v in pairs),
            list_pattern,
            patterned or list_pattern,
        )

    def matches(self, mbean_name: str) -> bool:
        domain, _, props = mbean_name.partition(":")
        if not self.domain.fullmatch(domain):
            return False
        actual = dict(_split_properties(props))
        for key, value in self.properties:
            if key not in actual or not value.fullmatch(actual[key]):
                return False
        return self.property_list_pattern or len(actual) == len(self.properties)

    def __str__(self) -> str:
        return self.text


def _beans_url(jmx_url: str) -> str:
    if "://" not in jmx_url:
        return f"http://{jmx_url}/jmx"
    return jmx_url


def fetch_beans(url: str, timeout_s: float = 10.0) -> Beans:
    """Every MBean the broker at `url` serves, with its attributes."""
    with urllib.request.urlopen(url, timeout=timeout_s) as response:
        document = json.loads(response.read())
    return {bean["name"]: {k: v for k, v in bean.items() if k != "name"} for bean in document.get("beans", [])}


def format_value(value: Any) -> str:
    """An attribute value as Java's toString prints it (a double as `1.0`, `1.5E-4`; a long as `5`)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if value != value:
            return "NaN"
        if value in (float("inf"), float("-inf")):
            return "Infinity" if value > 0 else "-Infinity"
        if value == 0 or 1e-3 <= abs(value) < 1e7:
            text = repr(value)
            return text if ("." in text or "e" in text) else text + ".0"
        mantissa, _, exponent = f"{value:.16E}".partition("E")
        digits = repr(float(mantissa))
        return f"{digits}E{int(exponent)}"
    if value is None:
        return "null"
    return str(value)


def query_attributes(beans: Beans, names: Iterable[str], attributes_include: Sequence[str] | None) -> dict[str, Any]:
    """`<mbean>:<attribute>` -> value for the named MBeans (only the listed attributes when given)."""
    result: dict[str, Any] = {}
    for name in names:
        for attribute, value in beans.get(name, {}).items():
            if attributes_include is None or attribute in attributes_include:
                result[f"{name}:{attribute}"] = value
    return result


def _query_names(beans: Beans, queries: Sequence[ObjectNamePattern | None]) -> list[str]:
    names: list[str] = []
    for query in queries:
        for name in sorted(beans):
            if (query is None or query.matches(name)) and name not in names:
                names.append(name)
    return names


def run_command(
    args: Sequence[str],
    out: TextIO | None = None,
    err: TextIO | None = None,
    fetch: Callable[[str], Beans] = fetch_beans,
    sleep: Callable[[float], None] = time.sleep,
    now_ms: Callable[[], int] = lambda: int(time.time() * 1000),
) -> int:
    """Runs the tool until interrupted (or once); returns the exit status."""
    out = out or sys.stdout
    err = err or sys.stderr
    parser = OptionParser()
    object_name_opt = (
        parser.accepts(
            "object-name",
            "A JMX object name to use as a query. This can contain wild cards, and this option can be given multiple "
            "times to specify more than one query. If no objects are specified all objects will be queried.",
        )
        .with_required_arg()
        .described_as("name")
        .of_type(str)
    )
    attributes_opt = (
        parser.accepts(
            "attributes",
            "The list of attributes to include in the query. This is a comma-separated list. If no attributes are "
            "specified all objects will be queried.",
        )
        .with_required_arg()
        .described_as("name")
        .of_type(str)
    )
    reporting_interval_opt = (
        parser.accepts(
            "reporting-interval",
            "Interval in MS with which to poll jmx stats; default value is 2 seconds. Value of -1 equivalent to "
            "setting one-time to true",
        )
        .with_required_arg()
        .described_as("ms")
        .of_type(Integer)
        .defaults_to(2000)
    )
    one_time_opt = (
        parser.accepts("one-time", "Flag to indicate run once only.")
        .with_required_arg()
        .described_as("one-time")
        .of_type(str)
        .defaults_to("false")
    )
    date_format_opt = (
        parser.accepts(
            "date-format",
            "The date format to use for formatting the time field. See java.text.SimpleDateFormat for options.",
        )
        .with_required_arg()
        .described_as("format")
        .of_type(str)
    )
    jmx_url_opt = (
        parser.accepts(
            "jmx-url",
            "The url to poll JMX data from: the broker's metrics endpoint, http://host:port/jmx "
            "(metrics.prometheus.port).",
        )
        .with_required_arg()
        .described_as("service-url")
        .of_type(str)
        .defaults_to(DEFAULT_JMX_URL)
    )
    report_format_opt = (
        parser.accepts("report-format", "output format name: either 'original', 'properties', 'csv', 'tsv' ")
        .with_required_arg()
        .described_as("report-format")
        .of_type(str)
        .defaults_to("original")
    )
    parser.accepts(
        "jmx-auth-prop",
        "A mechanism to pass property in the form 'username=password' when enabling remote JMX with password "
        "authentication.",
    ).with_required_arg().described_as("jmx-auth-prop").of_type(str)
    parser.accepts("jmx-ssl-enable", "Flag to enable remote JMX with SSL.").with_required_arg().described_as(
        "ssl-enable"
    ).of_type(str).defaults_to("false")
    wait_opt = parser.accepts(
        "wait",
        "Wait for requested JMX objects to become available before starting output. Only supported when the list "
        "of objects is non-empty and contains no object name patterns.",
    )
    help_opt = parser.accepts("help", "Print usage information.")

    try:
        if not args:
            print_usage_and_die(parser, "Dump JMX values to standard output.")
        options = parser.parse(args)
        if options.has(help_opt):
            parser.print_help_on(out)
            return 0
        url = _beans_url(str(options.value_of(jmx_url_opt)))
        interval = int(options.value_of(reporting_interval_opt))
        one_time = interval < 0 or (options.has(one_time_opt) and str(options.value_of(one_time_opt)).lower() == "true")
        attributes_include: list[str] | None = (
            [a for a in str(options.value_of(attributes_opt)).split(",") if a] if options.has(attributes_opt) else None
        )
        date_format = SimpleDateFormat(str(options.value_of(date_format_opt))) if options.has(date_format_opt) else None
        wait = options.has(wait_opt)
        report_format = str(options.value_of(report_format_opt)).lower()
        if report_format not in ("properties", "csv", "tsv"):
            report_format = "original"
        queries: list[ObjectNamePattern | None] = (
            [ObjectNamePattern.parse(str(n)) for n in options.values_of(object_name_opt)]
            if options.has(object_name_opt)
            else [None]
        )
    except UsageException as e:
        print(e.message, file=err)
        e.parser.print_help_on(err)
        return 1
    except ValueError as e:
        print(f"Error: {e}", file=err)
        return 1

    # Connect: the first read of the MBeans, retried for up to 10 s as Java's tool retries its connector.
    beans: Beans | None = None
    started = now_ms()
    while beans is None:
        print(f"Trying to connect to JMX url: {url}.", file=err)
        try:
            beans = fetch(url)
        except (OSError, ValueError, urllib.error.URLError) as e:
            print(f"Could not connect to JMX url: {url}. Exception {e}.", file=err)
            if now_ms() - started >= _CONNECT_TIMEOUT_MS:
                print(f"Could not connect to JMX url {url} after {_CONNECT_TIMEOUT_MS} ms.", file=err)
                print("Exiting.", file=err)
                return 1
            sleep(0.1)

    has_pattern_queries = any(q is not None and q.is_pattern for q in queries)
    names = _query_names(beans, queries)
    if wait and not has_pattern_queries:
        wanted = {str(q) for q in queries if q is not None}
        start = now_ms()
        while not wanted <= set(names) and now_ms() - start < _WAIT_TIMEOUT_MS:
            print("Could not find all object names, retrying", file=err)
            sleep(0.1)
            beans = fetch(url)
            names = _query_names(beans, queries)
        if not wanted <= set(names):
            missing = ", ".join(sorted(wanted - set(names)))
            print(f"Could not find all requested object names after {_WAIT_TIMEOUT_MS} ms. Missing {missing}", file=err)
            print("Exiting.", file=err)
            return 1

    if attributes_include is None:
        num_expected = {n: len(beans.get(n, {})) for n in names}
    elif not has_pattern_queries:
        num_expected = {n: c for n in names if (c := sum(1 for a in beans.get(n, {}) if a in attributes_include)) > 0}
    else:
        num_expected = {str(q): len(attributes_include) for q in queries}
    if not num_expected:
        try:
            print_usage_and_die(parser, f"No matched attributes for the queried objects {_scala_list(queries)}.")
        except UsageException as e:
            print(e.message, file=err)
            e.parser.print_help_on(err)
            return 1

    expected_total = sum(num_expected.values()) + 1
    keys = ["time", *sorted(query_attributes(beans, names, attributes_include))]
    if report_format == "original" and len(keys) == expected_total:
        print(",".join(f'"{k}"' for k in keys), file=out, flush=True)

    first = True
    while True:
        start = now_ms()
        if not first:
            try:
                beans = fetch(url)
            except (OSError, ValueError) as e:
                print(f"Could not read JMX url: {url}. Exception {e}.", file=err)
                beans = {}
            if has_pattern_queries:
                names = _query_names(beans, queries)
        first = False
        attributes: dict[str, Any] = dict(query_attributes(beans, names, attributes_include))
        attributes["time"] = date_format.format(now_ms()) if date_format is not None else str(now_ms())
        if len(attributes) == expected_total:
            if report_format == "original":
                print(",".join(format_value(attributes.get(k)) for k in keys), file=out, flush=True)
            else:
                for k in keys:
                    value = format_value(attributes.get(k))
                    if report_format == "properties":
                        print(f"{k}={value}", file=out)
                    elif report_format == "csv":
                        print(f'{k},"{value}"', file=out)
                    else:
                        print(f"{k}\t{value}", file=out)
                out.flush()
        if one_time:
            return 0
        sleep(max(0, interval - (now_ms() - start)) / 1000)


def _scala_list(queries: Sequence[ObjectNamePattern | None]) -> str:
    return "List(" + ", ".join("null" if q is None else str(q) for q in queries) + ")"


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of `kafka-run-class.sh kafka.tools.JmxTool`; returns the exit status."""
    configure_tool_logging()
    args = sys.argv[1:] if argv is None else argv
    try:
        return run_command(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        silence_stdout()
        return 0
    finally:
        finish_stdout()


if __name__ == "__main__":
    sys.exit(main())
