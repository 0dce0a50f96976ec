"""Port of core/src/main/scala/kafka/admin/ConfigCommand.scala (Kafka 2.8).

`kafka-configs.sh --bootstrap-server HOST:PORT --describe | --alter ...`: describes the dynamic configs of topics,
brokers (each broker's and the cluster-wide defaults, `--entity-default`), broker loggers, clients, users and IPs,
or all configs with `--all`; alters them with `--add-config k1=v1,k2=[v1,v2]`, `--add-config-file` and
`--delete-config k1,k2`. An entity is named by `--entity-type T --entity-name N` (or `--entity-default`), or by
the shorthand flags (`--topic N`, `--broker N`, `--broker-defaults`, `--client N`, ...). Topic and broker-logger
configs change through incrementalAlterConfigs, broker configs through alterConfigs with every dynamic config of
the broker (as Kafka's tool sends them), quotas through alterClientQuotas. The options, checks, messages and
printed lines are Kafka's.

It works through the admin client (Admin.create); tests hand in a fake one through `admin_factory`.

# PORT: `--zookeeper` serves users only (SCRAM credentials, which must exist before a broker can check them, and
user quotas), written to and read from ZooKeeper as Kafka 2.8 does; other entity types are refused with one line.
Client, user and IP quotas go through describeClientQuotas/alterClientQuotas (org.apache.kafka.common.quota's
classes), SCRAM credentials through alterUserScramCredentials/describeUserScramCredentials. Kafka's message for a
malformed SCRAM value repeats the value; ours hides it, so that a password never reaches the terminal or a log.
Where Kafka prints a stack trace only the lines naming exceptions are printed.
"""

from __future__ import annotations

import logging
import os
import re
import socket
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from kafka.admin._tool_support import (
    AdminFactory,
    create_admin_client,
    java_hash_map_order,
    load_command_config,
)
from kafka.clients.admin.alter_client_quotas_options import AlterClientQuotasOptions
from kafka.clients.admin.alter_config_op import AlterConfigOp, OpType
from kafka.clients.admin.alter_configs_options import AlterConfigsOptions
from kafka.clients.admin.config import Config
from kafka.clients.admin.config_entry import ConfigEntry, ConfigSource
from kafka.clients.admin.describe_cluster_options import DescribeClusterOptions
from kafka.clients.admin.describe_configs_options import DescribeConfigsOptions
from kafka.clients.admin.list_topics_options import ListTopicsOptions
from kafka.common.config.config_exception import java_str
from kafka.common.config.config_resource import ConfigResource
from kafka.common.errors import InvalidConfigurationException
from kafka.common.internals.topic import Topic
from kafka.common.quota import ClientQuotaAlteration, ClientQuotaEntity, ClientQuotaFilter, ClientQuotaFilterComponent
from kafka.common.utils import sanitizer
from kafka.common.utils.utils import IllegalArgumentException, load_props, parse_int
from kafka.log.log_config import LogConfig
from kafka.server.config_handler import DynamicConfig
from kafka.tools.tools_utils import print_exception, tool_main
from kafka.utils.command_line_utils import (
    CommandDefaultOptions,
    OptionException,
    OptionSpec,
    UsageException,
    check_invalid_args,
    is_print_help_needed,
    print_usage_and_die,
    print_version_if_needed,
)
from kafka.utils.core_utils import scala_set
from kafka.zk.zk_data import ConfigEntityName, ConfigType

__all__ = [
    "BROKER_DEFAULT_ENTITY_NAME",
    "BROKER_LOGGER_CONFIG_TYPE",
    "ConfigCommandOptions",
    "ConfigEntity",
    "Entity",
    "main",
    "parse_configs_to_be_added",
    "parse_configs_to_be_deleted",
    "parse_entity",
    "run_command",
]

_logger = logging.getLogger("kafka.admin.ConfigCommand$")


# ConfigEntityName.Default: the name of the default entity where configs are stored.
CONFIG_ENTITY_DEFAULT = ConfigEntityName.DEFAULT
BROKER_DEFAULT_ENTITY_NAME = ""
BROKER_LOGGER_CONFIG_TYPE = "broker-loggers"
BROKER_SUPPORTED_CONFIG_TYPES = (*ConfigType.ALL, BROKER_LOGGER_CONFIG_TYPE)
ZK_SUPPORTED_CONFIG_TYPES = ConfigType.ALL

# org.apache.kafka.common.config.internals.QuotaConfigs and ScramMechanism.
CLIENT_QUOTA_CONFIGS = ("producer_byte_rate", "consumer_byte_rate", "request_percentage", "controller_mutation_rate")
IP_QUOTA_CONFIGS = ("connection_creation_rate",)
SCRAM_MECHANISM_NAMES = ("SCRAM-SHA-256", "SCRAM-SHA-512")

# ClientQuotaEntity's entity types, by ConfigType.
_QUOTA_ENTITY_TYPES = {
    ConfigType.USER: ClientQuotaEntity.USER,
    ConfigType.CLIENT: ClientQuotaEntity.CLIENT_ID,
    ConfigType.IP: ClientQuotaEntity.IP,
}
# What Java's Double.parseDouble takes (after trimming): decimal with optional exponent and f/d suffix, NaN, Infinity.
_JAVA_DOUBLE = re.compile(r"[+-]?(?:NaN|Infinity|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?[fFdD]?)")

_TIMEOUT_MS = 30000
_ALTER_WAIT_MS = 60000


def _is_client_or_user_quota_config(name: str) -> bool:
    return name in CLIENT_QUOTA_CONFIGS


def _is_scram(name: str) -> bool:
    return name in SCRAM_MECHANISM_NAMES


def _scala_buffer(names: Sequence[str]) -> str:
    return "ArrayBuffer(" + ", ".join(names) + ")"


def _java_parse_double(value: str) -> float:
    """Double.parseDouble; ValueError where Java raises NumberFormatException."""
    trimmed = value.strip()
    if not _JAVA_DOUBLE.fullmatch(trimmed):
        raise ValueError(value)
    return float(trimmed.rstrip("fFdD").replace("Infinity", "inf"))


def _sanitize(name: str) -> str:
    return sanitizer.sanitize(name)


def _desanitize(name: str) -> str:
    return sanitizer.desanitize(name)


# -- entities -------------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Entity:
    """An entity type and its sanitized name (None: every entity of the type)."""

    entity_type: str
    sanitized_name: str | None

    @property
    def entity_path(self) -> str:
        return self.entity_type if self.sanitized_name is None else f"{self.entity_type}/{self.sanitized_name}"

    def __str__(self) -> str:
        type_name = {ConfigType.USER: "user-principal", ConfigType.CLIENT: "client-id", ConfigType.TOPIC: "topic"}.get(
            self.entity_type, self.entity_type
        )
        if self.sanitized_name == CONFIG_ENTITY_DEFAULT:
            return "default " + type_name
        if self.sanitized_name is not None:
            name = self.sanitized_name
            if self.entity_type in (ConfigType.USER, ConfigType.CLIENT):
                name = _desanitize(name)
            return f"{type_name} '{name}'"
        return self.entity_type


@dataclass(frozen=True, slots=True)
class ConfigEntity:
    """An entity, with a child for <user, client> quotas."""

    root: Entity
    child: Entity | None

    @property
    def full_sanitized_name(self) -> str:
        return (self.root.sanitized_name or "") + ("/" + self.child.entity_path if self.child is not None else "")

    def __str__(self) -> str:
        return str(self.root) + (", " + str(self.child) if self.child is not None else "")


def parse_entity(opts: ConfigCommandOptions) -> ConfigEntity:
    entity_types = opts.entity_types()
    entity_names = opts.entity_names()
    if entity_types[0] in (ConfigType.USER, ConfigType.CLIENT):
        return _parse_client_quota_entity(opts, entity_types, entity_names)
    name = entity_names[0] if entity_names else None
    if name == "":
        name = CONFIG_ENTITY_DEFAULT
    return ConfigEntity(Entity(entity_types[0], name), None)


def _parse_client_quota_entity(opts: ConfigCommandOptions, types: list[str], names: list[str]) -> ConfigEntity:
    if opts.options.has(opts.alter_opt) and len(names) != len(types):
        raise IllegalArgumentException(
            "--entity-name or --entity-default must be specified with each --entity-type for --alter"
        )
    reverse = len(types) == 2 and types[0] == ConfigType.CLIENT
    entity_types = list(reversed(types)) if reverse else types
    sorted_names = iter(list(reversed(names)) if reverse and len(names) == 2 else names)

    def sanitize_name(entity_type: str, name: str) -> str:
        if not name:
            return CONFIG_ENTITY_DEFAULT
        if entity_type in (ConfigType.USER, ConfigType.CLIENT):
            return _sanitize(name)
        raise IllegalArgumentException("Invalid entity type " + entity_type)

    entities = []
    for t in entity_types:
        name = next(sorted_names, None)
        entities.append(Entity(t, None if name is None else sanitize_name(t, name)))
    return ConfigEntity(entities[0], entities[1] if len(entities) > 1 else None)


# -- parsing configs --------------------------------------------------------------------------------------------------

# A comma or `=` outside square brackets.
_OUTSIDE_BRACKETS = r"(?=[^\]]*(?:\[|$))"


def parse_configs_to_be_added(opts: ConfigCommandOptions) -> dict[str, str]:
    """The configs of `--add-config-file` and `--add-config` (square brackets group values with commas)."""
    props: dict[str, str] = {}
    options = opts.options
    if options.has(opts.add_config_file):
        props.update(load_props(options.value_of(opts.add_config_file)))
    if options.has(opts.add_config):
        pieces = re.split("," + _OUTSIDE_BRACKETS, options.value_of(opts.add_config))
        while len(pieces) > 1 and pieces[-1] == "":
            pieces.pop()
        configs_to_be_added = [re.split(r"\s*=\s*" + _OUTSIDE_BRACKETS, p) for p in pieces]
        if not all(len(config) == 2 for config in configs_to_be_added):
            raise IllegalArgumentException(
                'requirement failed: Invalid entity config: all configs to be added must be in the format "key=val".'
            )
        for key, value in configs_to_be_added:
            props[key.strip()] = re.sub(r"\[?\]?", "", value).strip()
    if LogConfig.MESSAGE_FORMAT_VERSION_PROP in props:
        print(
            f"WARNING: The configuration {LogConfig.MESSAGE_FORMAT_VERSION_PROP}="
            f"{props[LogConfig.MESSAGE_FORMAT_VERSION_PROP]} is specified. This configuration will be ignored if the "
            "version is newer than the inter.broker.protocol.version specified in the broker.",
            file=opts.out,
        )
    return props


def parse_configs_to_be_deleted(opts: ConfigCommandOptions) -> list[str]:
    if opts.options.has(opts.delete_config):
        return [c.strip() for c in opts.options.values_of(opts.delete_config)]
    return []


# -- the command ----------------------------------------------------------------------------------------------------


class ConfigService:
    """Describes and alters configs with an admin client; prints to `out`."""

    def __init__(self, admin_client: Any, out: TextIO) -> None:
        self.admin_client = admin_client
        self.out = out

    def _println(self, line: str = "") -> None:
        print(line, file=self.out)

    # -- alter ---------------------------------------------------------------------------------------------------

    def alter_config(self, opts: ConfigCommandOptions) -> None:
        entity_types = opts.entity_types()
        entity_names = opts.entity_names()
        entity_type_head = entity_types[0]
        entity_name_head = entity_names[0]
        configs_to_be_added_map = parse_configs_to_be_added(opts)
        configs_to_be_added = {k: ConfigEntry(k, v) for k, v in configs_to_be_added_map.items()}
        configs_to_be_deleted = parse_configs_to_be_deleted(opts)

        if entity_type_head == ConfigType.TOPIC:
            old_config = {
                e.name: e for e in self._get_resource_config(entity_type_head, entity_name_head, include_synonyms=False)
            }
            self._check_deleted_exist(configs_to_be_deleted, old_config)
            config_resource = ConfigResource(ConfigResource.Type.TOPIC, entity_name_head)
            alter_entries = [AlterConfigOp(e, OpType.SET) for e in configs_to_be_added.values()] + [
                AlterConfigOp(ConfigEntry(k, ""), OpType.DELETE) for k in configs_to_be_deleted
            ]
            self.admin_client.incremental_alter_configs({config_resource: alter_entries}, _alter_options()).all().get(
                _ALTER_WAIT_MS
            )

        elif entity_type_head == ConfigType.BROKER:
            old_config = {
                e.name: e for e in self._get_resource_config(entity_type_head, entity_name_head, include_synonyms=False)
            }
            self._check_deleted_exist(configs_to_be_deleted, old_config)
            new_entries = dict(old_config)
            new_entries.update(configs_to_be_added)
            for k in configs_to_be_deleted:
                new_entries.pop(k, None)
            sensitive_entries = [k for k, e in new_entries.items() if e.value is None]
            if sensitive_entries:
                raise InvalidConfigurationException(
                    "All sensitive broker config entries must be specified for --alter, missing entries: "
                    + scala_set(dict.fromkeys(sensitive_entries))
                )
            config_resource = ConfigResource(ConfigResource.Type.BROKER, entity_name_head)
            self.admin_client.alter_configs(
                {config_resource: Config(new_entries.values())}, _alter_options()
            ).all().get(_ALTER_WAIT_MS)

        elif entity_type_head == BROKER_LOGGER_CONFIG_TYPE:
            valid_loggers = [
                e.name for e in self._get_resource_config(entity_type_head, entity_name_head, include_synonyms=True)
            ]
            invalid_broker_loggers = [k for k in configs_to_be_deleted if k not in valid_loggers] + [
                k for k in configs_to_be_added if k not in valid_loggers
            ]
            if invalid_broker_loggers:
                raise InvalidConfigurationException(f"Invalid broker logger(s): {','.join(invalid_broker_loggers)}")
            config_resource = ConfigResource(ConfigResource.Type.BROKER_LOGGER, entity_name_head)
            alter_log_level_entries = [AlterConfigOp(e, OpType.SET) for e in configs_to_be_added.values()] + [
                AlterConfigOp(ConfigEntry(k, ""), OpType.DELETE) for k in configs_to_be_deleted
            ]
            self.admin_client.incremental_alter_configs(
                {config_resource: alter_log_level_entries}, _alter_options()
            ).all().get(_ALTER_WAIT_MS)

        elif entity_type_head in (ConfigType.USER, ConfigType.CLIENT):
            self._alter_user_or_client(
                entity_types, entity_names, configs_to_be_added_map, configs_to_be_added, configs_to_be_deleted
            )

        elif entity_type_head == ConfigType.IP:
            unknown_configs = [k for k in [*configs_to_be_added, *configs_to_be_deleted] if k not in IP_QUOTA_CONFIGS]
            if unknown_configs:
                raise IllegalArgumentException(
                    f"Only connection quota configs can be added for '{ConfigType.IP}' using --bootstrap-server. "
                    f"Unexpected config names: {','.join(unknown_configs)}"
                )
            self._alter_quota_configs(entity_types, entity_names, configs_to_be_added_map, configs_to_be_deleted)

        else:
            raise IllegalArgumentException(f"Unsupported entity type: {entity_type_head}")

        if entity_name_head:
            self._println(f"Completed updating config for {entity_type_head[:-1]} {entity_name_head}.")
        else:
            self._println(f"Completed updating default config for {entity_type_head} in the cluster.")

    @staticmethod
    def _check_deleted_exist(configs_to_be_deleted: list[str], old_config: Mapping[str, ConfigEntry]) -> None:
        invalid_configs = [k for k in configs_to_be_deleted if k not in old_config]
        if invalid_configs:
            raise InvalidConfigurationException(f"Invalid config(s): {','.join(invalid_configs)}")

    def _alter_user_or_client(
        self,
        entity_types: list[str],
        entity_names: list[str],
        configs_to_be_added_map: dict[str, str],
        configs_to_be_added: dict[str, ConfigEntry],
        configs_to_be_deleted: list[str],
    ) -> None:
        has_quota_configs_to_add = any(_is_client_or_user_quota_config(k) for k in configs_to_be_added)
        scram_configs_to_add = [k for k in configs_to_be_added if _is_scram(k)]
        unknown_configs_to_add = [
            k for k in configs_to_be_added if not (_is_scram(k) or _is_client_or_user_quota_config(k))
        ]
        has_quota_configs_to_delete = any(_is_client_or_user_quota_config(k) for k in configs_to_be_deleted)
        scram_configs_to_delete = [k for k in configs_to_be_deleted if _is_scram(k)]
        unknown_configs_to_delete = [
            k for k in configs_to_be_deleted if not (_is_scram(k) or _is_client_or_user_quota_config(k))
        ]
        if entity_types[0] == ConfigType.CLIENT or len(entity_types) == 2:
            if unknown_configs_to_add or scram_configs_to_add:
                unexpected = scala_set(dict.fromkeys(unknown_configs_to_add + scram_configs_to_add))
                raise IllegalArgumentException(
                    f"Only quota configs can be added for '{ConfigType.CLIENT}' using --bootstrap-server. "
                    f"Unexpected config names: {unexpected}"
                )
            if unknown_configs_to_delete or scram_configs_to_delete:
                raise IllegalArgumentException(
                    f"Only quota configs can be deleted for '{ConfigType.CLIENT}' using --bootstrap-server. "
                    f"Unexpected config names: {_scala_buffer(unknown_configs_to_delete + scram_configs_to_delete)}"
                )
        else:
            if unknown_configs_to_add:
                raise IllegalArgumentException(
                    f"Only quota and SCRAM credential configs can be added for '{ConfigType.USER}' using "
                    f"--bootstrap-server. Unexpected config names: {scala_set(dict.fromkeys(unknown_configs_to_add))}"
                )
            if unknown_configs_to_delete:
                raise IllegalArgumentException(
                    f"Only quota and SCRAM credential configs can be deleted for '{ConfigType.USER}' using "
                    f"--bootstrap-server. Unexpected config names: {_scala_buffer(unknown_configs_to_delete)}"
                )
            if scram_configs_to_add or scram_configs_to_delete:
                if any(not n for n in entity_names):
                    raise IllegalArgumentException(
                        "The use of --entity-default or --user-defaults is not allowed with User SCRAM Credentials "
                        "using --bootstrap-server."
                    )
                if has_quota_configs_to_add or has_quota_configs_to_delete:
                    raise IllegalArgumentException(
                        f"Cannot alter both quota and SCRAM credential configs simultaneously for '{ConfigType.USER}' "
                        "using --bootstrap-server."
                    )
        if has_quota_configs_to_add or has_quota_configs_to_delete:
            self._alter_quota_configs(entity_types, entity_names, configs_to_be_added_map, configs_to_be_deleted)
        else:
            self._alter_user_scram_credential_configs(
                entity_names[0],
                {k: configs_to_be_added[k].value or "" for k in scram_configs_to_add},
                scram_configs_to_delete,
            )

    def _alter_user_scram_credential_configs(
        self, user: str, scram_configs_to_add: Mapping[str, str], scram_configs_to_delete: Sequence[str]
    ) -> None:
        """Kafka 2.8's alterUserScramCredentialConfigs: `[iterations=N,]password=P` per mechanism (iterations -1 or
        absent: 4096) become upsertions, the deleted mechanisms deletions, in one alterUserScramCredentials call."""
        from kafka.clients.admin.scram_credential_info import ScramCredentialInfo
        from kafka.clients.admin.scram_mechanism import ScramMechanism as PublicScramMechanism
        from kafka.clients.admin.user_scram_credential_alteration import (
            UserScramCredentialAlteration,
            UserScramCredentialDeletion,
            UserScramCredentialUpsertion,
        )
        from kafka.common.security.scram.internals.scram_mechanism import ScramMechanism

        alterations: list[UserScramCredentialAlteration] = [
            UserScramCredentialDeletion(user, PublicScramMechanism.from_mechanism_name(name))
            for name in scram_configs_to_delete
        ]
        for name, value in scram_configs_to_add.items():
            mechanism = ScramMechanism.for_mechanism_name(name)
            assert mechanism is not None
            m = re.fullmatch(r"(?:iterations=(-?[0-9]*),)?password=(.*)", value, re.S)
            if m is None:
                raise IllegalArgumentException(f"Invalid credential property {name}=<hidden>")
            iterations = int(m[1]) if m[1] and m[1] != "-1" else 4096
            if iterations < mechanism.min_iterations:
                raise IllegalArgumentException(
                    f"Iterations {iterations} is less than the minimum {mechanism.min_iterations} required for {name}"
                )
            info = ScramCredentialInfo(PublicScramMechanism.from_mechanism_name(name), iterations)
            alterations.append(UserScramCredentialUpsertion(user, info, m[2].encode("utf-8")))
        self.admin_client.alter_user_scram_credentials(alterations).all().get(60_000)

    def _alter_quota_configs(
        self,
        entity_types: list[str],
        entity_names: list[str],
        configs_to_be_added_map: Mapping[str, str],
        configs_to_be_deleted: list[str],
    ) -> None:
        old_config = self._get_client_quotas_config(entity_types, entity_names)
        invalid_configs = [k for k in configs_to_be_deleted if k not in old_config]
        if invalid_configs:
            raise InvalidConfigurationException(f"Invalid config(s): {','.join(invalid_configs)}")
        alter_entity_types = []
        for t in entity_types:
            quota_type = _QUOTA_ENTITY_TYPES.get(t)
            if quota_type is None:
                raise IllegalArgumentException(f"Unexpected entity type: {t}")
            alter_entity_types.append(quota_type)
        alter_entity_names = [n if n else None for n in entity_names]
        entity = ClientQuotaEntity(dict(zip(alter_entity_types, alter_entity_names, strict=False)))
        alter_options = AlterClientQuotasOptions().validate_only(False)
        ops: list[ClientQuotaAlteration.Op] = []
        for key, value in configs_to_be_added_map.items():
            try:
                ops.append(ClientQuotaAlteration.Op(key, _java_parse_double(value)))
            except ValueError:
                raise IllegalArgumentException(f"Cannot parse quota configuration value for {key}: {value}") from None
        ops.extend(ClientQuotaAlteration.Op(key, None) for key in configs_to_be_deleted)
        self.admin_client.alter_client_quotas([ClientQuotaAlteration(entity, ops)], alter_options).all().get(
            _ALTER_WAIT_MS
        )

    # -- describe ------------------------------------------------------------------------------------------------

    def describe_config(self, opts: ConfigCommandOptions) -> None:
        entity_types = opts.entity_types()
        entity_names = opts.entity_names()
        describe_all = opts.options.has(opts.all_opt)
        head = entity_types[0]
        if head in (ConfigType.TOPIC, ConfigType.BROKER, BROKER_LOGGER_CONFIG_TYPE):
            self._describe_resource_config(head, entity_names[0] if entity_names else None, describe_all)
        elif head in (ConfigType.USER, ConfigType.CLIENT):
            self._describe_client_quota_and_user_scram_credential_configs(entity_types, entity_names)
        elif head == ConfigType.IP:
            self._describe_quota_configs(entity_types, entity_names)
        else:
            raise IllegalArgumentException(f"Invalid entity type: {head}")

    def _describe_resource_config(self, entity_type: str, entity_name: str | None, describe_all: bool) -> None:
        if entity_name is not None:
            entities = [entity_name]
        elif entity_type == ConfigType.TOPIC:
            names = self.admin_client.list_topics(ListTopicsOptions().list_internal(True)).names().get()
            # names() is the key set of a java.util.HashMap: Kafka goes through the topics in its order.
            entities = java_hash_map_order(names)
        elif entity_type in (ConfigType.BROKER, BROKER_LOGGER_CONFIG_TYPE):
            nodes = self.admin_client.describe_cluster(DescribeClusterOptions()).nodes().get()
            entities = [n.id_string for n in nodes] + [BROKER_DEFAULT_ENTITY_NAME]
        else:
            raise IllegalArgumentException(f"Invalid entity type: {entity_type}")

        for entity in entities:
            if entity == BROKER_DEFAULT_ENTITY_NAME:
                self._println(f"Default configs for {entity_type} in the cluster are:")
            else:
                config_source_str = "All" if describe_all else "Dynamic"
                self._println(f"{config_source_str} configs for {entity_type[:-1]} {entity} are:")
            for entry in self._get_resource_config(
                entity_type, entity, include_synonyms=True, describe_all=describe_all
            ):
                synonyms = ", ".join(f"{s.source}:{s.name}={_java_str(s.value)}" for s in entry.synonyms)
                self._println(
                    f"  {entry.name}={_java_str(entry.value)} sensitive={str(entry.is_sensitive).lower()} "
                    f"synonyms={{{synonyms}}}"
                )

    def _get_resource_config(
        self, entity_type: str, entity_name: str, include_synonyms: bool, describe_all: bool = False
    ) -> list[ConfigEntry]:
        def validate_broker_id() -> None:
            try:
                parse_int(entity_name)
            except ValueError:
                raise IllegalArgumentException(
                    f"The entity name for {entity_type} must be a valid integer broker id, found: {entity_name}"
                ) from None

        if entity_type == ConfigType.TOPIC:
            if entity_name:
                Topic.validate(entity_name)
            config_resource_type = ConfigResource.Type.TOPIC
            dynamic_config_source: ConfigSource | None = ConfigSource.DYNAMIC_TOPIC_CONFIG
        elif entity_type == ConfigType.BROKER:
            config_resource_type = ConfigResource.Type.BROKER
            if entity_name == BROKER_DEFAULT_ENTITY_NAME:
                dynamic_config_source = ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG
            else:
                validate_broker_id()
                dynamic_config_source = ConfigSource.DYNAMIC_BROKER_CONFIG
        elif entity_type == BROKER_LOGGER_CONFIG_TYPE:
            if entity_name:
                validate_broker_id()
            config_resource_type = ConfigResource.Type.BROKER_LOGGER
            dynamic_config_source = None
        else:
            raise IllegalArgumentException(f"Invalid entity type: {entity_type}")

        config_source_filter = None if describe_all else dynamic_config_source
        config_resource = ConfigResource(config_resource_type, entity_name)
        describe_options = DescribeConfigsOptions().include_synonyms(include_synonyms)
        configs = self.admin_client.describe_configs([config_resource], describe_options).all().get(_TIMEOUT_MS)
        return [
            entry
            for entry in configs[config_resource].entries
            if config_source_filter is None or entry.source == config_source_filter
        ]

    def _describe_quota_configs(self, entity_types: list[str], entity_names: list[str]) -> None:
        quota_configs = self._get_all_client_quotas_configs(entity_types, entity_names)
        for entity, entries in quota_configs.items():
            entity_entries = entity.entries()
            parts = []
            for quota_type, type_str in (
                (ClientQuotaEntity.USER, "user-principal"),
                (ClientQuotaEntity.CLIENT_ID, "client-id"),
                (ClientQuotaEntity.IP, "ip"),
            ):
                if quota_type in entity_entries:
                    name = entity_entries[quota_type]
                    parts.append(f"{type_str} '{name}'" if name is not None else f"the default {type_str}")
            entries_str = ", ".join(f"{k}={java_str(float(v))}" for k, v in entries.items())
            self._println(f"Quota configs for {', '.join(parts)} are {entries_str}")

    def _describe_client_quota_and_user_scram_credential_configs(
        self, entity_types: list[str], entity_names: list[str]
    ) -> None:
        self._describe_quota_configs(entity_types, entity_names)
        if ConfigType.CLIENT not in entity_types and "" not in entity_names:
            result = self.admin_client.describe_user_scram_credentials(entity_names)
            for user in result.users().get(_TIMEOUT_MS):
                try:
                    description = result.description(user).get(_TIMEOUT_MS)
                    description_text = ", ".join(
                        f"{info.mechanism.mechanism_name}=iterations={info.iterations}"
                        for info in description.credential_infos
                    )
                    self._println(f"SCRAM credential configs for user-principal '{user}' are {description_text}")
                except BrokenPipeError:
                    raise
                except Exception as e:
                    self._println(
                        f"Error retrieving SCRAM credential configs for user-principal '{user}': "
                        f"{type(e).__name__}: {e}"
                    )

    def _get_client_quotas_config(self, entity_types: list[str], entity_names: list[str]) -> dict[str, float]:
        if len(entity_types) != len(entity_names):
            raise IllegalArgumentException("Exactly one entity name must be specified for every entity type")
        found = self._get_all_client_quotas_configs(entity_types, entity_names)
        return dict(next(iter(found.values()), {}))

    def _get_all_client_quotas_configs(
        self, entity_types: list[str], entity_names: list[str]
    ) -> dict[ClientQuotaEntity, dict[str, float]]:
        components = []
        for i in range(max(len(entity_types), len(entity_names))):
            entity_type_opt = entity_types[i] if i < len(entity_types) else None
            entity_name_opt = entity_names[i] if i < len(entity_names) else None
            if entity_type_opt is None:
                raise IllegalArgumentException("More entity names specified than entity types")
            quota_type = _QUOTA_ENTITY_TYPES.get(entity_type_opt)
            if quota_type is None:
                raise IllegalArgumentException(f"Unexpected entity type {entity_type_opt}")
            if entity_name_opt == "":
                components.append(ClientQuotaFilterComponent.of_default_entity(quota_type))
            elif entity_name_opt is not None:
                components.append(ClientQuotaFilterComponent.of_entity(quota_type, entity_name_opt))
            else:
                components.append(ClientQuotaFilterComponent.of_entity_type(quota_type))
        result = self.admin_client.describe_client_quotas(ClientQuotaFilter.contains_only(components))
        entities: dict[ClientQuotaEntity, dict[str, float]] = result.entities().get(_TIMEOUT_MS)
        return dict(entities)

    def close(self) -> None:
        self.admin_client.close()


def _alter_options() -> AlterConfigsOptions:
    options = AlterConfigsOptions().validate_only(False)
    options.timeout_ms(_TIMEOUT_MS)
    return options


def _java_str(value: object) -> str:
    """A value as Java's string concatenation shows it ("null" for none)."""
    return "null" if value is None else str(value)


# -- options ------------------------------------------------------------------------------------------------------


class ConfigCommandOptions(CommandDefaultOptions):
    """The command line of kafka-configs.sh, parsed; `check_args` makes Kafka's checks."""

    def __init__(self, args: Sequence[str], out: TextIO | None = None) -> None:
        super().__init__(args)
        self.out = out or sys.stdout
        parser = self.parser
        nl = os.linesep
        self.zk_connect_opt = (
            parser.accepts(
                "zookeeper",
                "DEPRECATED. The connection string for the zookeeper connection in the form host:port. Multiple URLS "
                "can be given to allow fail-over. Replaced by --bootstrap-server, REQUIRED unless --bootstrap-server "
                "is given.",
            )
            .with_required_arg()
            .described_as("urls")
            .of_type(str)
        )
        self.bootstrap_server_opt = (
            parser.accepts(
                "bootstrap-server",
                "The Kafka server to connect to. This is required for describing and altering broker configs.",
            )
            .with_required_arg()
            .described_as("server to connect to")
            .of_type(str)
        )
        self.command_config_opt = (
            parser.accepts(
                "command-config",
                "Property file containing configs to be passed to Admin Client. This is used only with "
                "--bootstrap-server option for describing and altering broker configs.",
            )
            .with_required_arg()
            .described_as("command config property file")
            .of_type(str)
        )
        self.alter_opt = parser.accepts("alter", "Alter the configuration for the entity.")
        self.describe_opt = parser.accepts("describe", "List configs for the given entity.")
        self.all_opt = parser.accepts(
            "all",
            "List all configs for the given topic, broker, or broker-logger entity (includes static configuration "
            "when the entity type is brokers)",
        )
        self.entity_type = (
            parser.accepts("entity-type", "Type of entity (topics/clients/users/brokers/broker-loggers/ips)")
            .with_required_arg()
            .of_type(str)
        )
        self.entity_name = (
            parser.accepts("entity-name", "Name of entity (topic name/client id/user principal name/broker id/ip)")
            .with_required_arg()
            .of_type(str)
        )
        self.entity_default = parser.accepts(
            "entity-default",
            "Default entity name for clients/users/brokers/ips (applies to corresponding entity type in command line)",
        )

        def listing(names: Sequence[str]) -> str:
            return nl + nl.join("\t" + n for n in names) + nl

        self.add_config = (
            parser.accepts(
                "add-config",
                "Key Value pairs of configs to add. Square brackets can be used to group values which contain "
                "commas: 'k1=v1,k2=[v1,v2,v2],k3=v3'. The following is a list of valid configurations: "
                + f"For entity-type '{ConfigType.TOPIC}': "
                + listing(LogConfig.config_names())
                + f"For entity-type '{ConfigType.BROKER}': "
                + listing(sorted(DynamicConfig.Broker.names()))
                + f"For entity-type '{ConfigType.USER}': "
                + listing(sorted((*SCRAM_MECHANISM_NAMES, *CLIENT_QUOTA_CONFIGS)))
                + f"For entity-type '{ConfigType.CLIENT}': "
                + listing(sorted(CLIENT_QUOTA_CONFIGS))
                + f"For entity-type '{ConfigType.IP}': "
                + listing(sorted(IP_QUOTA_CONFIGS))
                + f"Entity types '{ConfigType.USER}' and '{ConfigType.CLIENT}' may be specified together to update "
                "config for clients of a specific user.",
            )
            .with_required_arg()
            .of_type(str)
        )
        self.add_config_file = (
            parser.accepts(
                "add-config-file",
                "Path to a properties file with configs to add. See add-config for a list of valid configurations.",
            )
            .with_required_arg()
            .of_type(str)
        )
        self.delete_config = (
            parser.accepts("delete-config", "config keys to remove 'k1,k2'")
            .with_values_separated_by(",")
            .with_required_arg()
            .of_type(str)
        )
        self.force_opt = parser.accepts("force", "Suppress console prompts")
        self.topic = parser.accepts("topic", "The topic's name.").with_required_arg().of_type(str)
        self.client = parser.accepts("client", "The client's ID.").with_required_arg().of_type(str)
        self.client_defaults = parser.accepts("client-defaults", "The config defaults for all clients.")
        self.user = parser.accepts("user", "The user's principal name.").with_required_arg().of_type(str)
        self.user_defaults = parser.accepts("user-defaults", "The config defaults for all users.")
        self.broker = parser.accepts("broker", "The broker's ID.").with_required_arg().of_type(str)
        self.broker_defaults = parser.accepts("broker-defaults", "The config defaults for all brokers.")
        self.broker_logger = (
            parser.accepts("broker-logger", "The broker's ID for its logger config.").with_required_arg().of_type(str)
        )
        self.ip_defaults = parser.accepts("ip-defaults", "The config defaults for all IPs.")
        self.ip = parser.accepts("ip", "The IP address.").with_required_arg().of_type(str)
        self.zk_tls_config_file = (
            parser.accepts(
                "zk-tls-config-file",
                "Identifies the file where ZooKeeper client TLS connectivity properties are defined.  Any properties "
                "other than zookeeper.clientCnxnSocket, zookeeper.ssl.cipher.suites, zookeeper.ssl.client.enable, "
                "zookeeper.ssl.crl.enable, zookeeper.ssl.enabled.protocols, "
                "zookeeper.ssl.endpoint.identification.algorithm, zookeeper.ssl.keystore.location, "
                "zookeeper.ssl.keystore.password, zookeeper.ssl.keystore.type, zookeeper.ssl.ocsp.enable, "
                "zookeeper.ssl.protocol, zookeeper.ssl.truststore.location, zookeeper.ssl.truststore.password, "
                "zookeeper.ssl.truststore.type are ignored.",
            )
            .with_required_arg()
            .described_as("ZooKeeper TLS configuration")
            .of_type(str)
        )
        self.options = parser.parse(self.args)

        self._entity_flags: list[tuple[OptionSpec, str]] = [
            (self.topic, ConfigType.TOPIC),
            (self.client, ConfigType.CLIENT),
            (self.user, ConfigType.USER),
            (self.broker, ConfigType.BROKER),
            (self.broker_logger, BROKER_LOGGER_CONFIG_TYPE),
            (self.ip, ConfigType.IP),
        ]
        self._entity_defaults_flags: list[tuple[OptionSpec, str]] = [
            (self.client_defaults, ConfigType.CLIENT),
            (self.user_defaults, ConfigType.USER),
            (self.broker_defaults, ConfigType.BROKER),
            (self.ip_defaults, ConfigType.IP),
        ]

    def entity_types(self) -> list[str]:
        options = self.options
        return list(options.values_of(self.entity_type)) + [
            t for spec, t in self._entity_flags + self._entity_defaults_flags if options.has(spec)
        ]

    def entity_names(self) -> list[str]:
        """The names in command-line order: each `--entity-name`'s, "" for each `--entity-default`; then the
        shorthand flags' names and "" for the shorthand default flags."""
        options = self.options
        names_iterator = iter(options.values_of(self.entity_name))
        names = [
            next(names_iterator) if spec is self.entity_name else ""
            for spec in options.specs()
            if spec is self.entity_name or spec is self.entity_default
        ]
        names += [options.value_of(spec) for spec, _ in self._entity_flags if options.has(spec)]
        names += ["" for spec, _ in self._entity_defaults_flags if options.has(spec)]
        return names

    def check_args(self) -> None:
        parser, options = self.parser, self.options
        actions = sum(1 for o in (self.alter_opt, self.describe_opt) if options.has(o))
        if actions != 1:
            print_usage_and_die(parser, "Command must include exactly one action: --describe, --alter")
        check_invalid_args(parser, options, self.alter_opt, [self.describe_opt])
        check_invalid_args(parser, options, self.describe_opt, [self.alter_opt, self.add_config, self.delete_config])

        entity_type_vals = self.entity_types()
        if len(entity_type_vals) != len(set(entity_type_vals)):
            remaining = list(entity_type_vals)
            for t in dict.fromkeys(entity_type_vals):
                remaining.remove(t)
            raise IllegalArgumentException(f"Duplicate entity type(s) specified: {','.join(remaining)}")

        allowed_entity_types: tuple[str, ...]
        if options.has(self.bootstrap_server_opt):
            allowed_entity_types, connect_opt_string = BROKER_SUPPORTED_CONFIG_TYPES, "--bootstrap-server"
        else:
            allowed_entity_types, connect_opt_string = ZK_SUPPORTED_CONFIG_TYPES, "--zookeeper"
        for entity_type_val in entity_type_vals:
            if entity_type_val not in allowed_entity_types:
                raise IllegalArgumentException(
                    f"Invalid entity type {entity_type_val}, the entity type must be one of "
                    f"{','.join(allowed_entity_types)} with the {connect_opt_string} argument"
                )
        if not entity_type_vals:
            raise IllegalArgumentException("At least one entity type must be specified")
        if len(entity_type_vals) > 1 and set(entity_type_vals) != {ConfigType.USER, ConfigType.CLIENT}:
            raise IllegalArgumentException(
                f"Only '{ConfigType.USER}' and '{ConfigType.CLIENT}' entity types may be specified together"
            )

        if (options.has(self.entity_name) or options.has(self.entity_type) or options.has(self.entity_default)) and any(
            options.has(spec) for spec, _ in self._entity_flags + self._entity_defaults_flags
        ):
            raise IllegalArgumentException(
                "--entity-{type,name,default} should not be used in conjunction with specific entity flags"
            )

        entity_names = self.entity_names()
        has_entity_name = any(n for n in entity_names)
        has_entity_default = any(not n for n in entity_names)

        if not options.has(self.bootstrap_server_opt) and not options.has(self.zk_connect_opt):
            raise IllegalArgumentException(
                "One of the required --bootstrap-server or --zookeeper arguments must be specified"
            )
        if options.has(self.bootstrap_server_opt) and options.has(self.zk_connect_opt):
            raise IllegalArgumentException("Only one of --bootstrap-server or --zookeeper must be specified")

        if options.has(self.all_opt) and options.has(self.zk_connect_opt):
            raise IllegalArgumentException("--bootstrap-server must be specified for --all")

        if has_entity_name and (ConfigType.BROKER in entity_type_vals or BROKER_LOGGER_CONFIG_TYPE in entity_type_vals):
            for spec in (self.entity_name, self.broker, self.broker_logger):
                if options.has(spec):
                    broker_id = options.value_of(spec)
                    try:
                        parse_int(broker_id)
                    except ValueError:
                        raise IllegalArgumentException(
                            f"The entity name for {entity_type_vals[0]} must be a valid integer broker id, but it "
                            f"is: {broker_id}"
                        ) from None

        if has_entity_name and ConfigType.IP in entity_type_vals:
            for spec in (self.entity_name, self.ip):
                if options.has(spec):
                    ip_entity = options.value_of(spec)
                    if not _is_valid_ip_entity(ip_entity):
                        raise IllegalArgumentException(
                            f"The entity name for {entity_type_vals[0]} must be a valid IP or resolvable host, but it "
                            f"is: {ip_entity}"
                        )

        if options.has(self.describe_opt) and BROKER_LOGGER_CONFIG_TYPE in entity_type_vals and not has_entity_name:
            raise IllegalArgumentException(
                f"an entity name must be specified with --describe of {','.join(entity_type_vals)}"
            )

        if options.has(self.alter_opt):
            if any(
                t in entity_type_vals for t in (ConfigType.USER, ConfigType.CLIENT, ConfigType.BROKER, ConfigType.IP)
            ):
                if not has_entity_name and not has_entity_default:
                    raise IllegalArgumentException(
                        "an entity-name or default entity must be specified with --alter of users, clients, brokers "
                        "or ips"
                    )
            elif not has_entity_name:
                raise IllegalArgumentException(
                    f"an entity name must be specified with --alter of {','.join(entity_type_vals)}"
                )
            is_add_config_present = options.has(self.add_config)
            is_add_config_file_present = options.has(self.add_config_file)
            is_delete_config_present = options.has(self.delete_config)
            if is_add_config_present and is_add_config_file_present:
                raise IllegalArgumentException("Only one of --add-config or --add-config-file must be specified")
            if not is_add_config_present and not is_add_config_file_present and not is_delete_config_present:
                raise IllegalArgumentException(
                    "At least one of --add-config, --add-config-file, or --delete-config must be specified with --alter"
                )


def _is_valid_ip_entity(ip: str) -> bool:
    if ip != CONFIG_ENTITY_DEFAULT:
        try:
            socket.getaddrinfo(ip, None)
        except (OSError, UnicodeError):
            return False
    return True


# -- entry points -------------------------------------------------------------------------------------------------


def _process_command(opts: ConfigCommandOptions, out: TextIO, admin_factory: AdminFactory | None) -> None:
    options = opts.options
    props = load_command_config(
        options.value_of(opts.command_config_opt) if options.has(opts.command_config_opt) else None
    )
    props["bootstrap.servers"] = options.value_of(opts.bootstrap_server_opt)
    service = ConfigService(create_admin_client(props, admin_factory), out)
    if options.has(opts.alter_opt) and len(opts.entity_types()) != len(opts.entity_names()):
        raise IllegalArgumentException("An entity name must be specified for every entity type")
    try:
        if options.has(opts.alter_opt):
            service.alter_config(opts)
        elif options.has(opts.describe_opt):
            service.describe_config(opts)
    finally:
        service.close()


# -- --zookeeper: users (SCRAM credentials before any broker runs) ---------------------------------------------------

DEFAULT_SCRAM_ITERATIONS = 4096


def _process_command_with_zk(opts: ConfigCommandOptions, out: TextIO) -> None:
    """Kafka 2.8's processCommandWithZk, for users: their configs are written to and read from ZooKeeper directly,
    so that SCRAM credentials can exist before the first broker starts.

    # PORT: only users go through ZooKeeper here; the other entity types are refused (use --bootstrap-server)."""
    from kafka.common.utils.time import Time
    from kafka.zk.admin_zk_client import AdminZkClient
    from kafka.zk.kafka_zk_client import KafkaZkClient

    if opts.entity_types()[0] != ConfigType.USER:
        raise IllegalArgumentException(
            "--zookeeper is supported by this version of kafka-configs.sh for users only (SCRAM credentials and "
            "quotas): use --bootstrap-server"
        )
    print("Warning: --zookeeper is deprecated and will be removed in a future version of Kafka.", file=out)
    print("Use --bootstrap-server instead to specify a broker to connect to.", file=out)
    zk_client = KafkaZkClient.apply(
        opts.options.value_of(opts.zk_connect_opt), False, 30000, 30000, 2**31 - 1, Time.SYSTEM
    )
    try:
        admin_zk_client = AdminZkClient(zk_client)
        if opts.options.has(opts.alter_opt):
            _alter_config_with_zk(opts, admin_zk_client, out)
        elif opts.options.has(opts.describe_opt):
            _describe_config_with_zk(opts, admin_zk_client, out)
    finally:
        zk_client.close()


def _alter_config_with_zk(opts: ConfigCommandOptions, admin_zk_client: Any, out: TextIO) -> None:
    configs_to_be_added = parse_configs_to_be_added(opts)
    configs_to_be_deleted = parse_configs_to_be_deleted(opts)
    entity = parse_entity(opts)
    entity_type = entity.root.entity_type
    entity_name = entity.full_sanitized_name
    _pre_process_scram_credentials(configs_to_be_added)
    configs = admin_zk_client.fetch_entity_config(entity_type, entity_name)
    invalid_configs = [c for c in configs_to_be_deleted if c not in configs]
    if invalid_configs:
        raise InvalidConfigurationException(f"Invalid config(s): {','.join(invalid_configs)}")
    configs.update(configs_to_be_added)
    for c in configs_to_be_deleted:
        configs.pop(c, None)
    admin_zk_client.change_configs(entity_type, entity_name, configs)
    print(f"Completed updating config for entity: {entity}.", file=out)


def _pre_process_scram_credentials(configs_to_be_added: dict[str, str]) -> None:
    """Replaces `SCRAM-SHA-256=[iterations=N,]password=P` with the credential ZooKeeper keeps (the password
    itself is never stored)."""
    from kafka.common.security.scram.internals import scram_credential_utils
    from kafka.common.security.scram.internals.scram_formatter import ScramFormatter
    from kafka.common.security.scram.internals.scram_mechanism import ScramMechanism

    for mechanism in ScramMechanism:
        value = configs_to_be_added.get(mechanism.mechanism_name)
        if value is None:
            continue
        m = re.fullmatch(r"(?:iterations=([0-9]*),)?password=(.*)", value, re.S)
        if m is None:
            raise IllegalArgumentException(f"Invalid credential property {mechanism.mechanism_name}=<hidden>")
        iterations = int(m[1]) if m[1] else DEFAULT_SCRAM_ITERATIONS
        if iterations < mechanism.min_iterations:
            raise IllegalArgumentException(
                f"Iterations {iterations} is less than the minimum {mechanism.min_iterations} required for "
                f"{mechanism.mechanism_name}"
            )
        credential = ScramFormatter(mechanism).generate_credential(m[2], iterations)
        configs_to_be_added[mechanism.mechanism_name] = scram_credential_utils.credential_to_string(credential)


def _describe_config_with_zk(opts: ConfigCommandOptions, admin_zk_client: Any, out: TextIO) -> None:
    config_entity = parse_entity(opts)
    describe_all_users = config_entity.root.sanitized_name is None and config_entity.child is None
    if describe_all_users:
        entities = [
            ConfigEntity(Entity(ConfigType.USER, name), None)
            for name in admin_zk_client.zk_client.get_all_entities_with_config(ConfigType.USER)
        ]
    else:
        entities = [config_entity]
    for entity in entities:
        configs = admin_zk_client.fetch_entity_config(entity.root.entity_type, entity.full_sanitized_name)
        if configs or not describe_all_users:
            print(f"Configs for {entity} are {','.join(f'{k}={v}' for k, v in configs.items())}", file=out)


def run_command(
    args: Sequence[str],
    out: TextIO | None = None,
    err: TextIO | None = None,
    admin_factory: AdminFactory | None = None,
) -> int:
    """Parses, checks and runs a command line; returns the exit status."""
    out = out or sys.stdout
    err = err or sys.stderr
    try:
        opts = ConfigCommandOptions(args, out)
        if is_print_help_needed(opts):
            print_usage_and_die(
                opts.parser,
                "This tool helps to manipulate and describe entity config for a topic, client, user, broker or ip",
            )
        if print_version_if_needed(opts, out):
            return 0
        opts.check_args()
        if opts.options.has(opts.zk_connect_opt):
            _process_command_with_zk(opts, out)
        else:
            _process_command(opts, out, admin_factory)
    except UsageException as e:
        print(e.message, file=err)
        e.parser.print_help_on(err)
        return 1
    except (ValueError, InvalidConfigurationException, OptionException) as e:
        _logger.debug(f"Failed config command with args '{' '.join(args)}'", exc_info=e)
        print(str(e), file=err)
        return 1
    except BrokenPipeError:
        raise
    except Exception as e:
        _logger.debug(f"Error while executing config command with args '{' '.join(args)}'", exc_info=e)
        print(f"Error while executing config command with args '{' '.join(args)}'", file=err)
        print_exception(e, err)
        return 1
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of kafka-configs.sh (through kafka-run-class.sh); returns the exit status."""
    return tool_main(run_command, argv)


if __name__ == "__main__":
    sys.exit(main())
