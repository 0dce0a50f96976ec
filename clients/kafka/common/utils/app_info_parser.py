"""Port of clients/src/main/java/org/apache/kafka/common/utils/AppInfoParser.java (Kafka 2.8), its version.

# PORT: Kafka reads its version from a properties file packed into the jar; here it is the installed
distribution's version ("unknown" when the package is not installed, as Kafka's fallback). The app-info
MBean is not registered.
"""

from __future__ import annotations

from importlib import metadata

__all__ = ["get_version"]

_DISTRIBUTION = "kafka-port"


def get_version() -> str:
    """The version every tool's `--version` prints."""
    try:
        return metadata.version(_DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return "unknown"
