"""Port of clients/src/main/java/org/apache/kafka/clients/admin/ConfigEntry.java (Kafka 3.7).

One configuration as describeConfigs reports it (name, value, where the value comes from, whether it is
sensitive or read-only, its synonyms, type and documentation), or as alterConfigs takes it (name and value).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["ConfigEntry", "ConfigSource", "ConfigSynonym", "ConfigType"]


class ConfigType(enum.Enum):
    """The type of a config's value."""

    UNKNOWN = "UNKNOWN"
    BOOLEAN = "BOOLEAN"
    STRING = "STRING"
    INT = "INT"
    SHORT = "SHORT"
    LONG = "LONG"
    DOUBLE = "DOUBLE"
    LIST = "LIST"
    CLASS = "CLASS"
    PASSWORD = "PASSWORD"

    def __str__(self) -> str:
        return self.name


class ConfigSource(enum.Enum):
    """Where a config's value comes from."""

    DYNAMIC_TOPIC_CONFIG = "DYNAMIC_TOPIC_CONFIG"
    DYNAMIC_BROKER_LOGGER_CONFIG = "DYNAMIC_BROKER_LOGGER_CONFIG"
    DYNAMIC_BROKER_CONFIG = "DYNAMIC_BROKER_CONFIG"
    DYNAMIC_DEFAULT_BROKER_CONFIG = "DYNAMIC_DEFAULT_BROKER_CONFIG"
    DYNAMIC_CLIENT_METRICS_CONFIG = "DYNAMIC_CLIENT_METRICS_CONFIG"
    STATIC_BROKER_CONFIG = "STATIC_BROKER_CONFIG"
    DEFAULT_CONFIG = "DEFAULT_CONFIG"
    UNKNOWN = "UNKNOWN"

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class ConfigSynonym:
    """A value a config would take at one level (topic, broker, default...)."""

    name: str
    value: str | None
    source: ConfigSource

    def __str__(self) -> str:
        return f"ConfigSynonym(name={self.name}, value={self.value}, source={self.source})"


@dataclass(frozen=True, slots=True)
class ConfigEntry:
    """A config name and value with what the broker says about it.

    # PORT: Java's two constructors are one with defaults; `ConfigEntry(name, value)` is the alterConfigs form."""

    name: str
    value: str | None
    source: ConfigSource = ConfigSource.UNKNOWN
    is_sensitive: bool = False
    is_read_only: bool = False
    synonyms: tuple[ConfigSynonym, ...] = ()
    type: ConfigType = ConfigType.UNKNOWN
    documentation: str | None = None

    def __init__(
        self,
        name: str,
        value: str | None,
        source: ConfigSource = ConfigSource.UNKNOWN,
        is_sensitive: bool = False,
        is_read_only: bool = False,
        synonyms: Iterable[ConfigSynonym] = (),
        type: ConfigType = ConfigType.UNKNOWN,
        documentation: str | None = None,
    ) -> None:
        if name is None:
            raise TypeError("name should not be null")
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "value", value)
        object.__setattr__(self, "source", source)
        object.__setattr__(self, "is_sensitive", is_sensitive)
        object.__setattr__(self, "is_read_only", is_read_only)
        object.__setattr__(self, "synonyms", tuple(synonyms))
        object.__setattr__(self, "type", type)
        object.__setattr__(self, "documentation", documentation)

    @property
    def is_default(self) -> bool:
        """Whether the value is the built-in default."""
        return self.source is ConfigSource.DEFAULT_CONFIG

    def __str__(self) -> str:
        value = "Redacted" if self.is_sensitive else self.value
        return (
            f"ConfigEntry(name={self.name}, value={value}, source={self.source}, "
            f"isSensitive={str(self.is_sensitive).lower()}, isReadOnly={str(self.is_read_only).lower()}, "
            f"synonyms=[{', '.join(map(str, self.synonyms))}], type={self.type}, documentation={self.documentation})"
        )
