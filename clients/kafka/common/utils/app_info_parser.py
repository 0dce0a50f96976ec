"""Port of clients/src/main/java/org/apache/kafka/common/utils/AppInfoParser.java (Kafka 2.8), its version.

# PORT: Kafka reads its version from a properties file packed into the jar; here it is the installed
distribution's version ("unknown" when the package is not installed, as Kafka's fallback). The app-info
MBean is not registered; its values are the `app-info` metrics of the client's Metrics.
"""

from __future__ import annotations

import functools
import logging
from importlib import metadata
from typing import TYPE_CHECKING

from kafka.common.metrics.internals.metric_functions import GaugeFn

if TYPE_CHECKING:
    from kafka.common.metric_name import MetricName
    from kafka.common.metrics.metrics import Metrics

__all__ = ["get_commit_id", "get_version", "register_app_info", "unregister_app_info"]

_log = logging.getLogger("org.apache.kafka.common.utils.AppInfoParser")

_DISTRIBUTION = "kafka-port"


@functools.cache
def get_version() -> str:
    """The version every tool's `--version` prints, looked up once per process as Java reads it once per class
    load (the lookup scans every sys.path entry, zips included: each client's start-up asked twice)."""
    try:
        return metadata.version(_DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return "unknown"


def get_commit_id() -> str:
    """The commit the running code was built from.

    # PORT: Kafka's build writes it into the jar; a Python distribution carries none, so it is Kafka's fallback,
    "unknown"."""
    return "unknown"


def _app_info_metric_name(metrics: Metrics, name: str) -> MetricName:
    return metrics.metric_name(name, "app-info", f"Metric indicating {name}")


def register_app_info(prefix: str, id: str, metrics: Metrics | None, now_ms: int) -> None:
    """AppInfoParser.registerAppInfo: logs the version, commit id and start time, and registers them as the
    `version`, `commit-id` and `start-time-ms` metrics of group `app-info`.

    # PORT: there is no MBean server; `prefix` and `id` only name what is logged."""
    _log.info("Kafka version: %s", get_version())
    _log.info("Kafka commitId: %s", get_commit_id())
    _log.info("Kafka startTimeMs: %s", now_ms)
    if metrics is not None:
        version, commit_id = get_version(), get_commit_id()
        metrics.add_metric(_app_info_metric_name(metrics, "version"), GaugeFn(lambda config, now: version))
        metrics.add_metric(_app_info_metric_name(metrics, "commit-id"), GaugeFn(lambda config, now: commit_id))
        metrics.add_metric(_app_info_metric_name(metrics, "start-time-ms"), GaugeFn(lambda config, now: now_ms))


def unregister_app_info(prefix: str, id: str, metrics: Metrics | None) -> None:
    """AppInfoParser.unregisterAppInfo: removes the app-info metrics."""
    if metrics is not None:
        for name in ("version", "commit-id", "start-time-ms"):
            metrics.remove_metric(_app_info_metric_name(metrics, name))
    _log.info("App info %s for %s unregistered", prefix, id)
