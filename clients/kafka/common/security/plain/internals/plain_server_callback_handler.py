"""Port of clients/src/main/java/org/apache/kafka/common/security/plain/internals/PlainServerCallbackHandler.java
(Kafka 3.7).

Checks a SASL/PLAIN login against the broker's JAAS options: user `alice` is known by the option `user_alice`,
whose value is her password.
"""

from __future__ import annotations

import hmac

from kafka.common.security.jaas_context import AppConfigurationEntry

__all__ = ["PlainServerCallbackHandler"]

_JAAS_USER_PREFIX = "user_"
PLAIN_LOGIN_MODULE = "org.apache.kafka.common.security.plain.PlainLoginModule"


class PlainServerCallbackHandler:
    __slots__ = ("_jaas_config_entries",)

    def __init__(self) -> None:
        self._jaas_config_entries: list[AppConfigurationEntry] = []

    def configure(self, mechanism: str, jaas_config_entries: list[AppConfigurationEntry]) -> None:
        self._jaas_config_entries = list(jaas_config_entries)

    def authenticate(self, username: str, password: str) -> bool:
        """Whether `password` is `username`'s (compared in constant time)."""
        if not username:
            return False
        expected = None
        for entry in self._jaas_config_entries:
            if entry.login_module_name == PLAIN_LOGIN_MODULE and _JAAS_USER_PREFIX + username in entry.options:
                expected = entry.options[_JAAS_USER_PREFIX + username]
                break
        return expected is not None and hmac.compare_digest(expected.encode("utf-8"), password.encode("utf-8"))

    def close(self) -> None:
        pass
