"""The broker's Prometheus endpoint: `GET /metrics` serving its Yammer and Java-style metrics with the names that
Strimzi's Prometheus JMX exporter rules (`kafka-metrics.yaml`) give Kafka's MBeans.

# PORT: Kafka has no such endpoint: its metrics are JMX MBeans, which operators scrape with the Prometheus JMX
# exporter agent and Strimzi's rules. Here the broker serves them itself (issue 16), naming every metric as that
# exporter would: each metric is rendered as the exporter sees an MBean attribute,
# `domain<key=value, ...><>Attribute: value`, and the first matching rule gives the Prometheus name, labels and
# type; a metric no rule matches is not exported, as with the exporter. The exposition format and the HTTP server
# are prometheus_client's (the Prometheus project's own Python client, well kept: its text format writer and
# threaded WSGI server).

Attributes as Yammer's JmxReporter and Kafka's JmxReporter show them:
- Yammer gauge: Value; counter: Count; meter: Count, MeanRate, One/Five/FifteenMinuteRate; histogram: Count, Min,
  Max, Mean, StdDev, 50th/75th/95th/98th/99th/999thPercentile; timer: both sets.
- a Java `Metrics` metric: MBean `kafka.server:type=<group>,<tag>=<value>...` (empty tags left out), attribute the
  metric's name.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final
from wsgiref.simple_server import WSGIRequestHandler, make_server

from prometheus_client.exposition import ThreadingWSGIServer, make_wsgi_app
from prometheus_client.metrics_core import Metric as PromMetric
from prometheus_client.registry import Collector, CollectorRegistry

from kafka.common.utils.sanitizer import jmx_sanitize
from kafka.metrics.yammer.counter import Counter
from kafka.metrics.yammer.gauge import Gauge
from kafka.metrics.yammer.histogram import Histogram
from kafka.metrics.yammer.meter import Meter
from kafka.metrics.yammer.sample import Snapshot
from kafka.metrics.yammer.timer import Timer

if TYPE_CHECKING:
    from kafka.common.metrics.metrics import Metrics
    from kafka.metrics.yammer.metrics_registry import Metric, MetricsRegistry

__all__ = ["JAVA_METRICS_RULES", "STRIMZI_RULES", "PrometheusReporter", "Rule", "bean_string", "safe_name"]

log = logging.getLogger("kafka.metrics.PrometheusReporter")

#: The JMX domain Kafka's broker registers its Java-style (`Metrics`) MBeans under.
JAVA_METRICS_JMX_PREFIX: Final = "kafka.server"

_GAUGE: Final = "gauge"
_COUNTER: Final = "counter"


@dataclass(frozen=True, slots=True)
class Rule:
    """One exporter rule: a pattern over `domain<props><>Attribute: value`, and the name and labels it yields, in
    which `$N` stands for the pattern's N-th group."""

    pattern: str
    name: str
    type: str
    labels: tuple[tuple[str, str], ...] = ()

    def compiled(self) -> re.Pattern[str]:
        # The exporter lets a pattern match anywhere in the string.
        return re.compile("^.*(?:" + self.pattern + ").*$", re.ASCII)


def _r(pattern: str, name: str, typ: str, *labels: tuple[str, str]) -> Rule:
    return Rule(pattern, name, typ, tuple(labels))


_L2: Final = (("$4", "$5"), ("$6", "$7"))
_L1: Final = (("$4", "$5"),)

#: Strimzi's kafka-metrics.yaml rules for the broker (the ZooKeeper-mode set, RequestMetrics included), in order.
STRIMZI_RULES: Final[tuple[Rule, ...]] = (
    # Special cases.
    _r(
        r"kafka.server<type=(.+), name=(.+), clientId=(.+), topic=(.+), partition=(.*)><>Value",
        "kafka_server_$1_$2",
        _GAUGE,
        ("clientId", "$3"),
        ("topic", "$4"),
        ("partition", "$5"),
    ),
    _r(
        r"kafka.server<type=(.+), name=(.+), clientId=(.+), brokerHost=(.+), brokerPort=(.+)><>Value",
        "kafka_server_$1_$2",
        _GAUGE,
        ("clientId", "$3"),
        ("broker", "$4:$5"),
    ),
    _r(
        r"kafka.server<type=(.+), cipher=(.+), protocol=(.+), listener=(.+), networkProcessor=(.+)><>connections",
        "kafka_server_$1_connections_tls_info",
        _GAUGE,
        ("cipher", "$2"),
        ("protocol", "$3"),
        ("listener", "$4"),
        ("networkProcessor", "$5"),
    ),
    _r(
        r"kafka.server<type=(.+), clientSoftwareName=(.+), clientSoftwareVersion=(.+), listener=(.+), "
        r"networkProcessor=(.+)><>connections",
        "kafka_server_$1_connections_software",
        _GAUGE,
        ("clientSoftwareName", "$2"),
        ("clientSoftwareVersion", "$3"),
        ("listener", "$4"),
        ("networkProcessor", "$5"),
    ),
    _r(
        r"kafka.server<type=(.+), listener=(.+), networkProcessor=(.+)><>(.+-total):",
        "kafka_server_$1_$4",
        _COUNTER,
        ("listener", "$2"),
        ("networkProcessor", "$3"),
    ),
    _r(
        r"kafka.server<type=(.+), listener=(.+), networkProcessor=(.+)><>(.+):",
        "kafka_server_$1_$4",
        _GAUGE,
        ("listener", "$2"),
        ("networkProcessor", "$3"),
    ),
    # Percents: some are meters read through MeanRate, some gauges.
    _r(r"kafka.(\w+)<type=(.+), name=(.+)Percent\w*><>MeanRate", "kafka_$1_$2_$3_percent", _GAUGE),
    _r(r"kafka.(\w+)<type=(.+), name=(.+)Percent\w*><>Value", "kafka_$1_$2_$3_percent", _GAUGE),
    _r(r"kafka.(\w+)<type=(.+), name=(.+)Percent\w*, (.+)=(.+)><>Value", "kafka_$1_$2_$3_percent", _GAUGE, *_L1),
    # Per-second meters, counted, with 0-2 tags.
    _r(
        r"kafka.(\w+)<type=(.+), name=(.+)PerSec\w*, (.+)=(.+), (.+)=(.+)><>Count",
        "kafka_$1_$2_$3_total",
        _COUNTER,
        *_L2,
    ),
    _r(r"kafka.(\w+)<type=(.+), name=(.+)PerSec\w*, (.+)=(.+)><>Count", "kafka_$1_$2_$3_total", _COUNTER, *_L1),
    _r(r"kafka.(\w+)<type=(.+), name=(.+)PerSec\w*><>Count", "kafka_$1_$2_$3_total", _COUNTER),
    # Gauges with 0-2 tags.
    _r(r"kafka.(\w+)<type=(.+), name=(.+), (.+)=(.+), (.+)=(.+)><>Value", "kafka_$1_$2_$3", _GAUGE, *_L2),
    _r(r"kafka.(\w+)<type=(.+), name=(.+), (.+)=(.+)><>Value", "kafka_$1_$2_$3", _GAUGE, *_L1),
    _r(r"kafka.(\w+)<type=(.+), name=(.+)><>Value", "kafka_$1_$2_$3", _GAUGE),
    # Histograms and timers as summaries: a count and quantile gauges (no sum).
    _r(r"kafka.(\w+)<type=(.+), name=(.+), (.+)=(.+), (.+)=(.+)><>Count", "kafka_$1_$2_$3_count", _COUNTER, *_L2),
    _r(
        r"kafka.(\w+)<type=(.+), name=(.+), (.+)=(.*), (.+)=(.+)><>(\d+)thPercentile",
        "kafka_$1_$2_$3",
        _GAUGE,
        *_L2,
        ("quantile", "0.$8"),
    ),
    _r(r"kafka.(\w+)<type=(.+), name=(.+), (.+)=(.+)><>Count", "kafka_$1_$2_$3_count", _COUNTER, *_L1),
    _r(
        r"kafka.(\w+)<type=(.+), name=(.+), (.+)=(.*)><>(\d+)thPercentile",
        "kafka_$1_$2_$3",
        _GAUGE,
        *_L1,
        ("quantile", "0.$6"),
    ),
    _r(r"kafka.(\w+)<type=(.+), name=(.+)><>Count", "kafka_$1_$2_$3_count", _COUNTER),
    _r(r"kafka.(\w+)<type=(.+), name=(.+)><>(\d+)thPercentile", "kafka_$1_$2_$3", _GAUGE, ("quantile", "0.$4")),
)

#: Rules tried, after Strimzi's, on the Java-style metrics only (the quota sensors and the other `Metrics` of the
#: broker, which Strimzi's rules leave out): `kafka_server_<type>_<metric name>` with the tags as labels, counters
#: for `-total` metrics, as Strimzi's socket-server rules name theirs.
JAVA_METRICS_RULES: Final[tuple[Rule, ...]] = (
    _r(
        r"kafka.server<type=([^,>]+), ([^,>]+)=([^,>]*), ([^,>]+)=([^,>]*)><>(.+-total):",
        "kafka_server_$1_$6",
        _COUNTER,
        ("$2", "$3"),
        ("$4", "$5"),
    ),
    _r(
        r"kafka.server<type=([^,>]+), ([^,>]+)=([^,>]*), ([^,>]+)=([^,>]*)><>(.+):",
        "kafka_server_$1_$6",
        _GAUGE,
        ("$2", "$3"),
        ("$4", "$5"),
    ),
    _r(r"kafka.server<type=([^,>]+), ([^,>]+)=([^,>]*)><>(.+-total):", "kafka_server_$1_$4", _COUNTER, ("$2", "$3")),
    _r(r"kafka.server<type=([^,>]+), ([^,>]+)=([^,>]*)><>(.+):", "kafka_server_$1_$4", _GAUGE, ("$2", "$3")),
    _r(r"kafka.server<type=([^,>]+)><>(.+-total):", "kafka_server_$1_$2", _COUNTER),
    _r(r"kafka.server<type=([^,>]+)><>(.+):", "kafka_server_$1_$2", _GAUGE),
)

_GROUP_REF: Final = re.compile(r"\$(\d+)")
_UNSAFE: Final = re.compile(r"[^a-zA-Z0-9:_]")


def safe_name(name: str) -> str:
    """A Prometheus name from `name` as the exporter makes it: every run of characters other than letters, digits,
    `:` and `_` (and of underscores) becomes one `_`; a leading digit gets a `_` before it."""
    out = _UNSAFE.sub("_", name)
    out = re.sub(r"__+", "_", out)
    if out and out[0].isdigit():
        out = "_" + out
    return out


def bean_string(mbean_name: str) -> str:
    """`domain:k1=v1,k2=v2` as the exporter writes an MBean: `domain<k1=v1, k2=v2>` (the keys in their order)."""
    domain, _, props = mbean_name.partition(":")
    return f"{domain}<{', '.join(_split_properties(props))}>"


def _split_properties(props: str) -> list[str]:
    """The `key=value` parts of an MBean's property list; a quoted value may hold commas."""
    parts: list[str] = []
    start = 0
    in_quotes = False
    i = 0
    while i < len(props):
        c = props[i]
        if in_quotes:
            if c == "\\":
                i += 1
            elif c == '"':
                in_quotes = False
        elif c == '"':
            in_quotes = True
        elif c == ",":
            parts.append(props[start:i])
            start = i + 1
        i += 1
    if props:
        parts.append(props[start:])
    return parts


@dataclass(frozen=True, slots=True)
class _Outcome:
    name: str
    type: str
    labels: tuple[tuple[str, str], ...]
    help: str


class _RuleSet:
    """Rules with their compiled patterns, and a cache of what each bean attribute matched (as the exporter's rule
    cache): a scrape renders and matches a metric's attribute only the first time it is seen."""

    def __init__(self, rules: Iterable[Rule]) -> None:
        self._rules = [(rule, rule.compiled()) for rule in rules]
        self._cache: dict[str, _Outcome | None] = {}

    def match(self, bean: str, attribute: str) -> _Outcome | None:
        key = bean + attribute
        try:
            return self._cache[key]
        except KeyError:
            pass
        outcome = self._match(bean, attribute)
        self._cache[key] = outcome
        return outcome

    def _match(self, bean: str, attribute: str) -> _Outcome | None:
        # The value is part of the string the exporter matches; no rule captures it, so a placeholder stands in
        # for it and the outcome can be cached.
        text = f"{bean}<>{attribute}: 0"
        for rule, pattern in self._rules:
            m = pattern.match(text)
            if m is None:
                continue

            def expand(template: str, m: re.Match[str] = m) -> str:
                return _GROUP_REF.sub(lambda g: m.group(int(g.group(1))) or "", template)

            name = safe_name(expand(rule.name)).lower()
            if not name:
                return None
            labels = []
            for label_name, label_value in rule.labels:
                ln = safe_name(expand(label_name))
                lv = expand(label_value)
                if ln and lv:
                    labels.append((ln, lv))
            return _Outcome(name, rule.type, tuple(labels), f"{bean}<>{attribute}")
        return None

    def retain(self, keys: set[str]) -> None:
        """Forgets the attributes of metrics no longer registered."""
        if len(self._cache) > len(keys):
            self._cache = {k: v for k, v in self._cache.items() if k in keys}


_PERCENTILES: Final = (
    ("50thPercentile", 0.5),
    ("75thPercentile", 0.75),
    ("95thPercentile", 0.95),
    ("98thPercentile", 0.98),
    ("99thPercentile", 0.99),
    ("999thPercentile", 0.999),
)


def _meter_attributes(m: Meter | Timer) -> list[tuple[str, Callable[[], float]]]:
    return [
        ("Count", lambda: m.count),
        ("MeanRate", lambda: m.mean_rate),
        ("OneMinuteRate", lambda: m.one_minute_rate),
        ("FiveMinuteRate", lambda: m.five_minute_rate),
        ("FifteenMinuteRate", lambda: m.fifteen_minute_rate),
    ]


def _histogram_attributes(h: Histogram | Timer) -> list[tuple[str, Callable[[], float]]]:
    snapshot: list[Snapshot] = []

    def quantile(q: float) -> float:
        if not snapshot:
            snapshot.append(h.snapshot())
        return snapshot[0].get_value(q)

    attributes: list[tuple[str, Callable[[], float]]] = [
        ("Count", lambda: h.count),
        ("Min", lambda: h.min),
        ("Max", lambda: h.max),
        ("Mean", lambda: h.mean),
        ("StdDev", lambda: h.std_dev),
    ]
    attributes.extend((attr, lambda q=q: quantile(q)) for attr, q in _PERCENTILES)  # type: ignore[misc]
    return attributes


def _yammer_attributes(metric: Metric) -> list[tuple[str, Callable[[], Any]]]:
    if isinstance(metric, Gauge):
        return [("Value", metric.value)]
    if isinstance(metric, Counter):
        return [("Count", lambda: metric.count)]
    if isinstance(metric, Meter):
        return _meter_attributes(metric)
    if isinstance(metric, Histogram):
        return _histogram_attributes(metric)
    # A Timer: its histogram's attributes (Count among them), then its rates.
    return _histogram_attributes(metric) + _meter_attributes(metric)[1:]


def _number(value: Any) -> float | None:
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, (int, float)):
        return float(value)
    return None


class _Families:
    """Samples grouped into Prometheus metric families by name (the first type seen for a name wins)."""

    def __init__(self) -> None:
        self._families: dict[str, PromMetric] = {}
        self._seen: set[tuple[str, tuple[tuple[str, str], ...]]] = set()

    def add(self, outcome: _Outcome, value: float) -> None:
        key = (outcome.name, outcome.labels)
        if key in self._seen:
            return
        self._seen.add(key)
        family = self._families.get(outcome.name)
        if family is None:
            # PORT: prometheus_client writes a counter family's TYPE line as `<family>_total`; counters whose
            # name ends otherwise (the summaries' `_count`) are written untyped so that every sample keeps the
            # exporter's name.
            if outcome.type == _COUNTER and outcome.name.endswith("_total"):
                family = PromMetric(outcome.name[: -len("_total")], outcome.help, "counter")
            elif outcome.type == _COUNTER:
                family = PromMetric(outcome.name, outcome.help, "unknown")
            else:
                family = PromMetric(outcome.name, outcome.help, "gauge")
            self._families[outcome.name] = family
        family.add_sample(outcome.name, dict(outcome.labels), value)

    def __iter__(self) -> Iterator[PromMetric]:
        return iter(self._families.values())


class PrometheusReporter(Collector):
    """Serves the Yammer registry and (optionally) a Java-style `Metrics` over HTTP in Prometheus' text format."""

    THREAD_NAME: Final = "prometheus-metrics-endpoint"

    def __init__(self, yammer_registry: MetricsRegistry, java_metrics: Metrics | None = None) -> None:
        self.yammer_registry = yammer_registry
        self.java_metrics = java_metrics
        self._strimzi = _RuleSet(STRIMZI_RULES)
        self._java = _RuleSet(STRIMZI_RULES + JAVA_METRICS_RULES)
        self._bean_strings: dict[str, str] = {}
        self._collect_lock = threading.Lock()
        self._server: ThreadingWSGIServer | None = None
        self._thread: threading.Thread | None = None
        # Collectors of metrics that are no MBean (the consumer-group lag), added to every scrape.
        self.extra_collectors: list[Collector] = []

    # ---- collection

    def _bean(self, mbean_name: str) -> str:
        bean = self._bean_strings.get(mbean_name)
        if bean is None:
            bean = bean_string(mbean_name)
            self._bean_strings[mbean_name] = bean
        return bean

    def collect(self) -> Iterable[PromMetric]:
        families = _Families()
        with self._collect_lock:
            yammer_keys: set[str] = set()
            beans: set[str] = set()
            for metric_name, metric in sorted(self.yammer_registry.all_metrics().items(), key=lambda kv: kv[0]):
                beans.add(metric_name.mbean_name)
                bean = self._bean(metric_name.mbean_name)
                for attribute, getter in _yammer_attributes(metric):
                    yammer_keys.add(bean + attribute)
                    outcome = self._strimzi.match(bean, attribute)
                    if outcome is not None:
                        self._add(families, outcome, getter)
            self._strimzi.retain(yammer_keys)
            java_keys: set[str] = set()
            if self.java_metrics is not None:
                for java_name, kafka_metric in list(self.java_metrics.metrics().items()):
                    mbean_name = self._java_mbean_name(java_name.group, java_name.tags)
                    beans.add(mbean_name)
                    bean = self._bean(mbean_name)
                    java_keys.add(bean + java_name.name)
                    outcome = self._java.match(bean, java_name.name)
                    if outcome is not None:
                        self._add(families, outcome, kafka_metric.metric_value)
            self._java.retain(java_keys)
            if len(self._bean_strings) > len(beans):
                self._bean_strings = {k: v for k, v in self._bean_strings.items() if k in beans}
        extra = [family for collector in list(self.extra_collectors) for family in collector.collect()]
        return [*families, *extra]

    @staticmethod
    def _java_mbean_name(group: str, tags: dict[str, str]) -> str:
        """The MBean Kafka's JmxReporter registers a Java-style metric under (its tags in order, empty ones left
        out, values quoted where JMX needs it)."""
        parts = [f"{JAVA_METRICS_JMX_PREFIX}:type={group}"]
        for key, value in tags.items():
            if key and value:
                parts.append(f",{key}={jmx_sanitize(value)}")
        return "".join(parts)

    @staticmethod
    def _add(families: _Families, outcome: _Outcome, getter: Callable[[], Any]) -> None:
        try:
            value = _number(getter())
        except Exception as e:  # a gauge reading a component being shut down, for one
            log.debug("Skipping %s: %s", outcome.help, e)
            return
        if value is not None:
            families.add(outcome, value)

    def scrape(self) -> bytes:
        """The text the endpoint serves now."""
        from prometheus_client.exposition import generate_latest

        registry = CollectorRegistry(auto_describe=False)
        registry.register(self)
        return generate_latest(registry)

    # ---- the HTTP endpoint

    def startup(self, host: str, port: int) -> None:
        """Serves GET /metrics on `host`:`port` (an empty host: every interface; port 0: any free port)."""
        registry = CollectorRegistry(auto_describe=False)
        registry.register(self)
        from kafka.metrics.jmx_json_view import jmx_json_app

        # GET /jmx: the same metrics as MBeans in JSON, for JmxTool.
        app = jmx_json_app(self, make_wsgi_app(registry))
        server = make_server(host, port, app, ThreadingWSGIServer, handler_class=_QuietHandler)
        thread = threading.Thread(target=server.serve_forever, name=self.THREAD_NAME, daemon=True)
        self._server, self._thread = server, thread
        thread.start()
        log.info("Serving metrics for Prometheus on %s:%d/metrics", host or "0.0.0.0", self.bound_port)

    @property
    def bound_port(self) -> int:
        if self._server is None:
            return -1
        return int(self._server.server_port)

    def shutdown(self) -> None:
        server, thread = self._server, self._thread
        self._server = self._thread = None
        if server is not None:
            server.shutdown()
            server.server_close()
        if thread is not None:
            thread.join()
        for collector in self.extra_collectors:
            close = getattr(collector, "close", None)
            if close is not None:
                close()


class _QuietHandler(WSGIRequestHandler):
    """Leaves each scrape unlogged (the standard handler writes every request to stderr)."""

    def log_message(self, format: str, *args: Any) -> None:
        pass
