"""Port of clients/src/main/java/org/apache/kafka/common/security/JaasContext.java (Kafka 3.7).

The login modules of one SASL mechanism on one side: a broker's from the listener's
`listener.name.<listener>.<mechanism>.sasl.jaas.config`, else from the JAAS file's `<listener>.KafkaServer` or
`KafkaServer` context; a client's from `sasl.jaas.config`, else from the file's `KafkaClient` context. The JAAS file
is named as Java names it, by `-Djava.security.auth.login.config=<path>` in the KAFKA_OPTS environment variable
(which kafka-run-class.sh passes on).
"""

from __future__ import annotations

import enum
import logging
import os
import shlex
from collections.abc import Mapping
from typing import Any

from kafka.common.network.listener_name import ListenerName
from kafka.common.security.jaas_config import AppConfigurationEntry, JaasConfig, parse_jaas_file

__all__ = ["AppConfigurationEntry", "JaasContext", "java_system_property"]

log = logging.getLogger("org.apache.kafka.common.security.JaasContext")

JAVA_LOGIN_CONFIG_PARAM = "java.security.auth.login.config"
GLOBAL_CONTEXT_NAME_SERVER = "KafkaServer"
GLOBAL_CONTEXT_NAME_CLIENT = "KafkaClient"
SASL_JAAS_CONFIG = "sasl.jaas.config"


def java_system_property(name: str, kafka_opts: str | None = None) -> str | None:
    """The value of `-D<name>=<value>` in KAFKA_OPTS (or `kafka_opts`), as the JVM would see it; None if absent."""
    opts = os.environ.get("KAFKA_OPTS", "") if kafka_opts is None else kafka_opts
    value = None
    prefix = f"-D{name}="
    for word in shlex.split(opts):
        if word.startswith(prefix):
            value = word[len(prefix) :]
    return value


def _password_value(value: Any) -> str | None:
    if value is None:
        return None
    inner = getattr(value, "value", value)
    return str(inner() if callable(inner) else inner)


class JaasContext:
    class Type(enum.Enum):
        SERVER = "SERVER"
        CLIENT = "CLIENT"

    __slots__ = ("_name", "_type", "_configuration_entries", "_dynamic_jaas_config")

    def __init__(
        self, name: str, type_: JaasContext.Type, entries: list[AppConfigurationEntry], dynamic_jaas_config: str | None
    ) -> None:
        if not entries:
            raise ValueError(f"Could not find a '{name}' entry in this JAAS configuration.")
        self._name = name
        self._type = type_
        self._configuration_entries = entries
        self._dynamic_jaas_config = dynamic_jaas_config

    @staticmethod
    def load_server_context(listener_name: ListenerName, mechanism: str, configs: Mapping[str, Any]) -> JaasContext:
        """The broker's context for `mechanism` on `listener_name`; `configs` are the listener's configs with the
        `listener.name.<listener>.` prefix already resolved (KafkaConfig.values_with_prefix_override)."""
        if mechanism == "GSSAPI":
            raise ValueError("SASL mechanism GSSAPI (Kerberos) is not supported by this broker")
        listener_context_name = listener_name.value.lower() + "." + GLOBAL_CONTEXT_NAME_SERVER
        dynamic = _password_value(configs.get(mechanism.lower() + "." + SASL_JAAS_CONFIG))
        if dynamic is None and configs.get(SASL_JAAS_CONFIG) is not None:
            log.warning(
                "Server config %s should be prefixed with SASL mechanism name, ignoring config", SASL_JAAS_CONFIG
            )
        return JaasContext._load(
            JaasContext.Type.SERVER, listener_context_name, GLOBAL_CONTEXT_NAME_SERVER, dynamic, configs
        )

    @staticmethod
    def load_client_context(configs: Mapping[str, Any]) -> JaasContext:
        dynamic = _password_value(configs.get(SASL_JAAS_CONFIG))
        return JaasContext._load(JaasContext.Type.CLIENT, None, GLOBAL_CONTEXT_NAME_CLIENT, dynamic, configs)

    @staticmethod
    def _load(
        context_type: JaasContext.Type,
        listener_context_name: str | None,
        global_context_name: str,
        dynamic_jaas_config: str | None,
        configs: Mapping[str, Any],
    ) -> JaasContext:
        if dynamic_jaas_config is not None:
            jaas_config = JaasConfig(global_context_name, dynamic_jaas_config)
            modules = jaas_config.get_app_configuration_entry(global_context_name) or []
            if len(modules) != 1:
                raise ValueError(f"JAAS config property contains {len(modules)} login modules, should be 1 module")
            return JaasContext(global_context_name, context_type, modules, dynamic_jaas_config)
        return JaasContext._default_context(context_type, listener_context_name, global_context_name)

    @staticmethod
    def _default_context(
        context_type: JaasContext.Type, listener_context_name: str | None, global_context_name: str
    ) -> JaasContext:
        path = java_system_property(JAVA_LOGIN_CONFIG_PARAM)
        if path is None:
            raise ValueError(
                f"Could not find a '{global_context_name}' entry in the JAAS configuration. System property "
                f"'{JAVA_LOGIN_CONFIG_PARAM}' is not set"
            )
        try:
            with open(path, encoding="utf-8") as f:
                contexts = parse_jaas_file(f.read())
        except OSError as e:
            raise ValueError(f"Could not read the JAAS configuration file {path}: {e.strerror}") from e
        except ValueError as e:
            raise ValueError(f"Invalid JAAS configuration file {path}: {e}") from e
        if listener_context_name is not None and listener_context_name in contexts:
            return JaasContext(listener_context_name, context_type, contexts[listener_context_name], None)
        if global_context_name in contexts:
            return JaasContext(global_context_name, context_type, contexts[global_context_name], None)
        names = f"'{global_context_name}'"
        if listener_context_name is not None:
            names = f"'{global_context_name}' or '{listener_context_name}'"
        raise ValueError(
            f"Could not find a {names} entry in the JAAS configuration. System property "
            f"'{JAVA_LOGIN_CONFIG_PARAM}' is {path}"
        )

    def name(self) -> str:
        return self._name

    def type(self) -> JaasContext.Type:
        return self._type

    def configuration_entries(self) -> list[AppConfigurationEntry]:
        return self._configuration_entries

    def dynamic_jaas_config(self) -> str | None:
        return self._dynamic_jaas_config

    def config_entry_option(self, key: str, login_module_name: str | None = None) -> str | None:
        """The option `key` of the first entry (of `login_module_name` if given) that has it."""
        for entry in self._configuration_entries:
            if login_module_name is not None and entry.login_module_name != login_module_name:
                continue
            if key in entry.options:
                return entry.options[key]
        return None
