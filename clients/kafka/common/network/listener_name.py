"""Port of clients/src/main/java/org/apache/kafka/common/network/ListenerName.java (Kafka 2.8).

The name of a listener (`PLAINTEXT`, `INTERNAL`, ...), always upper case once normalised, and the
prefixes under which per-listener configs are written (`listener.name.internal.`).
"""

from __future__ import annotations

from dataclasses import dataclass

from kafka.common.security.auth.security_protocol import SecurityProtocol

__all__ = ["ListenerName"]

_CONFIG_STATIC_PREFIX = "listener.name."


@dataclass(frozen=True, slots=True)
class ListenerName:
    """A listener name; `value` is kept exactly as given (use `normalised` to upper-case it)."""

    value: str

    def __post_init__(self) -> None:
        if self.value is None:
            raise ValueError("value should not be null")

    @staticmethod
    def for_security_protocol(security_protocol: SecurityProtocol) -> ListenerName:
        """The listener named after a security protocol (`PLAINTEXT`, `SSL`, ...)."""
        return ListenerName(security_protocol.name)

    @staticmethod
    def normalised(value: str) -> ListenerName:
        """The listener name upper-cased, as Kafka compares listener names."""
        return ListenerName(value.upper())

    def config_prefix(self) -> str:
        """The prefix of this listener's own configs: `listener.name.<lower-case name>.`."""
        return f"{_CONFIG_STATIC_PREFIX}{self.value.lower()}."

    def sasl_mechanism_config_prefix(self, sasl_mechanism: str) -> str:
        """The prefix of one SASL mechanism's configs on this listener."""
        return f"{self.config_prefix()}{sasl_mechanism.lower()}."

    def __str__(self) -> str:
        return f"ListenerName({self.value})"
