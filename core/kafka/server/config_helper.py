"""Port of core/src/main/scala/kafka/server/ConfigHelper.scala (Kafka 2.8).

DescribeConfigs: every config of a topic, of this broker (or the cluster-wide dynamic broker defaults), or this
broker's logger levels, each with its value, where the value comes from (ConfigSource), whether it is read-only or
sensitive, its type (v3+), its documentation (when asked, v3+) and its synonyms (when asked, v1+): the other
settings that could supply it, highest priority first.

Where a value comes from, highest priority first:
  topic config  TOPIC_CONFIG (`/config/topics/<topic>`), then the broker settings that supply the topic
                default (`retention.ms` <- `log.retention.ms`, `log.retention.minutes`, `log.retention.hours`)
  broker config DYNAMIC_BROKER_CONFIG (`/config/brokers/<id>`), DYNAMIC_DEFAULT_BROKER_CONFIG
                (`/config/brokers/<default>`), STATIC_BROKER_CONFIG (server.properties), DEFAULT_CONFIG
A config with no synonym holding a value is reported as DEFAULT_CONFIG. Passwords (and keys of unknown type)
are sensitive: their values are null. Broker configs that cannot be updated dynamically are read-only; topic
configs never are.

# PORT: `is_default` is a v0-only field (a true value cannot be written at v1+). Kafka 2.7+ never sets it, so its
# v0 clients see every config as explicitly set; `mark_defaults_for_v0(results)` fills it in from the source, as
# Kafka brokers before 2.7 did, for KafkaApis to call on v0 responses.
# PORT: kafka/utils/Log4jController.scala (the logger levels behind BROKER_LOGGER) is not ported; its functions
# over Python's logging are at the end of this module (`Log4jController`). Levels use log4j's names
# (WARN, FATAL); the root logger is `root`, as in log4j.
# PORT: kafka/server/metadata/ZkConfigRepository.scala (topic overrides from ZooKeeper) is here as
# `ZkConfigRepository`, next to its first user, until kafka/server/metadata exists.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Final

from kafka.common.config.abstract_config import AbstractConfig
from kafka.common.config.config_def import ConfigDef, Type
from kafka.common.config.config_resource import ConfigResource
from kafka.common.errors import ApiException, InvalidRequestException
from kafka.common.internals.topic import Topic
from kafka.common.message import DescribeConfigsResponseData
from kafka.common.protocol.errors import Errors
from kafka.common.requests.api_error import ApiError
from kafka.common.requests.describe_configs_response import ConfigSource
from kafka.common.requests.describe_configs_response import ConfigType as ResponseConfigType
from kafka.common.utils.utils import parse_int
from kafka.log.log_config import LogConfig
from kafka.server.config_handler import DynamicBrokerConfig, dynamic_config_of
from kafka.server.kafka_config import KafkaConfig
from kafka.utils.logging import TRACE, Logging
from kafka.zk.zk_data import ConfigType

if TYPE_CHECKING:
    from kafka.log.log_manager import ConfigRepository
    from kafka.server.metadata_cache import MetadataCache
    from kafka.zk.admin_zk_client import AdminZkClient

__all__ = [
    "ConfigHelper",
    "Log4jController",
    "ZkConfigRepository",
    "mark_defaults_for_v0",
    "resource_name_to_broker_id",
]

_DescribeConfigsResult = Any  # DescribeConfigsResponseData.DescribeConfigsResult (generated at run time)
_DescribeConfigsResourceResult = Any  # DescribeConfigsResponseData.DescribeConfigsResourceResult
_DescribeConfigsSynonym = Any  # DescribeConfigsResponseData.DescribeConfigsSynonym


class ZkConfigRepository:
    """Entity configs read from ZooKeeper (kafka.server.metadata.ZkConfigRepository)."""

    def __init__(self, admin_zk_client: AdminZkClient) -> None:
        self._admin_zk_client = admin_zk_client

    def topic_config(self, topic: str) -> dict[str, str]:
        return self.config(ConfigResource(ConfigResource.Type.TOPIC, topic))

    def broker_config(self, broker_id: int) -> dict[str, str]:
        return self.config(ConfigResource(ConfigResource.Type.BROKER, str(broker_id)))

    def config(self, config_resource: ConfigResource) -> dict[str, str]:
        if config_resource.type is ConfigResource.Type.TOPIC:
            config_type_as_string = ConfigType.TOPIC
        elif config_resource.type is ConfigResource.Type.BROKER:
            config_type_as_string = ConfigType.BROKER
        else:
            raise ValueError(f"Unsupported config type: {config_resource.type}")
        return self._admin_zk_client.fetch_entity_config(config_type_as_string, config_resource.name)


class ConfigHelper(Logging):
    """Answers DescribeConfigs (see the module docstring)."""

    logger_name = "kafka.server.ConfigHelper"

    def __init__(self, metadata_cache: MetadataCache, config: KafkaConfig, config_repository: ConfigRepository) -> None:
        self._metadata_cache = metadata_cache
        self._config = config
        self._config_repository = config_repository

    @property
    def _dynamic_config(self) -> DynamicBrokerConfig:
        return dynamic_config_of(self._config)

    def describe_configs(
        self, resource_to_config_names: Sequence[Any], include_synonyms: bool, include_documentation: bool
    ) -> list[_DescribeConfigsResult]:
        """One DescribeConfigsResult per DescribeConfigsRequestData.DescribeConfigsResource, in order."""
        return [
            self._describe_resource(resource, include_synonyms, include_documentation)
            for resource in resource_to_config_names
        ]

    def _describe_resource(
        self, resource: Any, include_synonyms: bool, include_documentation: bool
    ) -> _DescribeConfigsResult:
        def all_configs(config: AbstractConfig) -> dict[str, Any]:
            configs = {k: v for k, v in config.originals().items() if v is not None}
            configs.update(config.non_internal_values())
            return configs

        def create_response_config(
            configs: Mapping[str, Any], create_config_entry: Callable[[str, Any], _DescribeConfigsResourceResult]
        ) -> _DescribeConfigsResult:
            keys = resource.configuration_keys
            if not keys:
                filtered_config_pairs = list(configs.items())
            else:
                wanted = set(keys)
                filtered_config_pairs = [(name, value) for name, value in configs.items() if name in wanted]
            config_entries = [create_config_entry(name, value) for name, value in filtered_config_pairs]
            return DescribeConfigsResponseData.DescribeConfigsResult(
                error_code=Errors.NONE.code, configs=config_entries
            )

        try:
            resource_type = ConfigResource.Type.for_id(resource.resource_type)
            if resource_type is ConfigResource.Type.TOPIC:
                topic = resource.resource_name
                Topic.validate(topic)
                if self._metadata_cache.contains(topic):
                    topic_props = dict(self._config_repository.topic_config(topic))
                    log_config = LogConfig.from_props(LogConfig.extract_log_config_map(self._config), topic_props)
                    config_result = create_response_config(
                        all_configs(log_config),
                        lambda name, value: self.create_topic_config_entry(
                            log_config, topic_props, include_synonyms, include_documentation, name, value
                        ),
                    )
                else:
                    config_result = DescribeConfigsResponseData.DescribeConfigsResult(
                        error_code=Errors.UNKNOWN_TOPIC_OR_PARTITION.code, configs=[]
                    )
            elif resource_type is ConfigResource.Type.BROKER:
                if not resource.resource_name:
                    config_result = create_response_config(
                        self._dynamic_config.current_dynamic_default_configs,
                        lambda name, value: self._create_broker_config_entry(
                            False, include_synonyms, include_documentation, name, value
                        ),
                    )
                elif self._resource_name_to_broker_id(resource.resource_name) == self._config.broker_id:
                    # PORT: Kafka's KafkaConfig answers originals/nonInternalValues from its current (dynamic)
                    # config; ours routes only some accessors, so the current config is asked directly.
                    config_result = create_response_config(
                        all_configs(self._config.current_config),
                        lambda name, value: self._create_broker_config_entry(
                            True, include_synonyms, include_documentation, name, value
                        ),
                    )
                else:
                    raise InvalidRequestException(
                        f"Unexpected broker id, expected {self._config.broker_id} or empty string, "
                        f"but received {resource.resource_name}"
                    )
            elif resource_type is ConfigResource.Type.BROKER_LOGGER:
                if not resource.resource_name:
                    raise InvalidRequestException("Broker id must not be empty")
                if self._resource_name_to_broker_id(resource.resource_name) != self._config.broker_id:
                    raise InvalidRequestException(
                        f"Unexpected broker id, expected {self._config.broker_id} but received {resource.resource_name}"
                    )
                config_result = create_response_config(
                    Log4jController.loggers(),
                    lambda name, value: DescribeConfigsResponseData.DescribeConfigsResourceResult(
                        name=name,
                        value=str(value),
                        config_source=ConfigSource.DYNAMIC_BROKER_LOGGER_CONFIG,
                        is_sensitive=False,
                        read_only=False,
                        synonyms=[],
                    ),
                )
            else:
                raise InvalidRequestException(f"Unsupported resource type: {resource_type.name}")
            config_result.resource_name = resource.resource_name
            config_result.resource_type = resource.resource_type
            return config_result
        except Exception as e:
            message = f"Error processing describe configs request for resource {resource}"
            if isinstance(e, ApiException):
                self.info(message, e)
            else:
                self.error(message, e)
            err = ApiError.from_throwable(e)
            return DescribeConfigsResponseData.DescribeConfigsResult(
                resource_name=resource.resource_name,
                resource_type=resource.resource_type,
                error_message=err.message,
                error_code=err.error.code,
                configs=[],
            )

    def create_topic_config_entry(
        self,
        log_config: LogConfig,
        topic_props: Mapping[str, Any],
        include_synonyms: bool,
        include_documentation: bool,
        name: str,
        value: Any,
    ) -> _DescribeConfigsResourceResult:
        """The description of one topic config (also used for CreateTopics v5+ responses)."""
        config_entry_type = LogConfig.config_type(name)
        is_sensitive = KafkaConfig.maybe_sensitive(config_entry_type)
        value_as_string = None if is_sensitive else ConfigDef.convert_to_string(value, config_entry_type)
        broker_name = LogConfig.TOPIC_CONFIG_SYNONYMS.get(name)
        all_synonyms = (
            []
            if broker_name is None
            else self._config_synonyms(broker_name, self._broker_synonyms(broker_name), is_sensitive)
        )
        if name in topic_props:
            all_synonyms.insert(
                0,
                DescribeConfigsResponseData.DescribeConfigsSynonym(
                    name=name, value=value_as_string, source=ConfigSource.TOPIC_CONFIG
                ),
            )
        source = ConfigSource.DEFAULT_CONFIG if not all_synonyms else all_synonyms[0].source
        synonyms = all_synonyms if include_synonyms else []
        data_type = self._config_response_type(config_entry_type)
        config_documentation = log_config.documentation_of(name) if include_documentation else None
        return DescribeConfigsResponseData.DescribeConfigsResourceResult(
            name=name,
            value=value_as_string,
            config_source=source,
            is_sensitive=is_sensitive,
            read_only=False,
            synonyms=synonyms,
            documentation=config_documentation,
            config_type=data_type,
        )

    def _create_broker_config_entry(
        self, per_broker_config: bool, include_synonyms: bool, include_documentation: bool, name: str, value: Any
    ) -> _DescribeConfigsResourceResult:
        all_names = self._broker_synonyms(name)
        config_entry_type = KafkaConfig.config_type(name)
        is_sensitive = KafkaConfig.maybe_sensitive(config_entry_type)
        if is_sensitive:
            value_as_string = None
        elif isinstance(value, str):
            value_as_string = value
        else:
            value_as_string = ConfigDef.convert_to_string(value, config_entry_type)
        all_synonyms = [
            s
            for s in self._config_synonyms(name, all_names, is_sensitive)
            if per_broker_config or s.source == ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG
        ]
        synonyms = all_synonyms if include_synonyms else []
        source = ConfigSource.DEFAULT_CONFIG if not all_synonyms else all_synonyms[0].source
        read_only = name not in DynamicBrokerConfig.ALL_DYNAMIC_CONFIGS
        data_type = self._config_response_type(config_entry_type)
        config_documentation = self._broker_documentation(name) if include_documentation else None
        return DescribeConfigsResponseData.DescribeConfigsResourceResult(
            name=name,
            value=value_as_string,
            config_source=source,
            is_sensitive=is_sensitive,
            read_only=read_only,
            synonyms=synonyms,
            documentation=config_documentation,
            config_type=data_type,
        )

    def _config_synonyms(self, name: str, synonyms: Sequence[str], is_sensitive: bool) -> list[_DescribeConfigsSynonym]:
        """The settings among `synonyms` that hold a value, level by level (dynamic broker, dynamic default,
        static, default), starting at the first entry named `name` (so that a base config's description leaves
        out the listener overrides found before it)."""
        dynamic_config = self._dynamic_config
        all_synonyms: list[_DescribeConfigsSynonym] = []

        def maybe_add_synonyms(configs: Mapping[str, str], source: ConfigSource) -> None:
            for synonym in synonyms:
                value = configs.get(synonym)
                if value is not None:
                    all_synonyms.append(
                        DescribeConfigsResponseData.DescribeConfigsSynonym(
                            name=synonym, value=None if is_sensitive else value, source=source
                        )
                    )

        maybe_add_synonyms(dynamic_config.current_dynamic_broker_configs, ConfigSource.DYNAMIC_BROKER_CONFIG)
        maybe_add_synonyms(dynamic_config.current_dynamic_default_configs, ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG)
        maybe_add_synonyms(dynamic_config.static_broker_configs, ConfigSource.STATIC_BROKER_CONFIG)
        maybe_add_synonyms(dynamic_config.static_default_configs, ConfigSource.DEFAULT_CONFIG)
        for i, s in enumerate(all_synonyms):
            if s.name == name:
                return all_synonyms[i:]
        return []

    @staticmethod
    def _broker_synonyms(name: str) -> list[str]:
        return DynamicBrokerConfig.broker_config_synonyms(name, match_listener_override=True)

    def _broker_documentation(self, name: str) -> str | None:
        return self._config.documentation_of(name)

    _RESPONSE_TYPES: ClassVar[dict[Type, ResponseConfigType]] = {
        Type.BOOLEAN: ResponseConfigType.BOOLEAN,
        Type.STRING: ResponseConfigType.STRING,
        Type.INT: ResponseConfigType.INT,
        Type.SHORT: ResponseConfigType.SHORT,
        Type.LONG: ResponseConfigType.LONG,
        Type.DOUBLE: ResponseConfigType.DOUBLE,
        Type.LIST: ResponseConfigType.LIST,
        Type.CLASS: ResponseConfigType.CLASS,
        Type.PASSWORD: ResponseConfigType.PASSWORD,
    }

    @staticmethod
    def _config_response_type(config_type: Type | None) -> ResponseConfigType:
        if config_type is None:
            return ResponseConfigType.UNKNOWN
        return ConfigHelper._RESPONSE_TYPES.get(config_type, ResponseConfigType.UNKNOWN)

    @staticmethod
    def _resource_name_to_broker_id(resource_name: str) -> int:
        return resource_name_to_broker_id(resource_name)


def mark_defaults_for_v0(results: Sequence[_DescribeConfigsResult]) -> None:
    """Sets `is_default` (DescribeConfigs v0 only) on every config whose source is DEFAULT_CONFIG."""
    for result in results:
        for config in result.configs:
            config.is_default = config.config_source == ConfigSource.DEFAULT_CONFIG


def resource_name_to_broker_id(resource_name: str) -> int:
    """The broker id a resource names; InvalidRequestException unless it is a Java int (Integer.parseInt)."""
    try:
        return parse_int(resource_name)
    except ValueError:
        raise InvalidRequestException(f"Broker id must be an integer, but it is: {resource_name}") from None


# ---- Log4jController (kafka/utils/Log4jController.scala) over Python's logging ------------------------------

#: LogLevelConfig.VALID_LOG_LEVELS with the Python level each stands for.
_LOG4J_LEVELS: Final = {
    "FATAL": logging.CRITICAL,
    "ERROR": logging.ERROR,
    "WARN": logging.WARNING,
    "INFO": logging.INFO,
    "DEBUG": logging.DEBUG,
    "TRACE": TRACE,
}


def _level_name(level: int) -> str:
    for name, value in _LOG4J_LEVELS.items():
        if value == level:
            return name
    return "ALL" if level <= logging.NOTSET else logging.getLevelName(level)


class Log4jController:
    """The broker's loggers and their levels, as DescribeConfigs and IncrementalAlterConfigs see them."""

    ROOT_LOGGER: ClassVar[str] = "root"
    VALID_LOG_LEVELS: ClassVar[frozenset[str]] = frozenset(_LOG4J_LEVELS)

    @staticmethod
    def loggers() -> dict[str, str]:
        """Every existing logger with its own level, or the root logger's when it has none."""
        root_logger_lvl = _level_name(logging.getLogger().level)
        logs = {Log4jController.ROOT_LOGGER: root_logger_lvl}
        for name, logger in list(logging.Logger.manager.loggerDict.items()):
            if isinstance(logger, logging.Logger):
                logs[name] = _level_name(logger.level) if logger.level != logging.NOTSET else root_logger_lvl
        return logs

    @staticmethod
    def _existing_logger(logger_name: str) -> logging.Logger | None:
        if logger_name == Log4jController.ROOT_LOGGER:
            return logging.getLogger()
        logger = logging.Logger.manager.loggerDict.get(logger_name)
        return logger if isinstance(logger, logging.Logger) else None

    @staticmethod
    def logger_exists(logger_name: str) -> bool:
        return Log4jController._existing_logger(logger_name) is not None

    @staticmethod
    def log_level(logger_name: str, log_level: str) -> bool:
        """Sets an existing logger's level; False if there is no such logger or the arguments are blank."""
        log = Log4jController._existing_logger(logger_name)
        if logger_name.strip() and log_level.strip() and log is not None:
            # log4j's Level.toLevel falls back to DEBUG for a name it does not know.
            log.setLevel(_LOG4J_LEVELS.get(log_level.upper(), logging.DEBUG))
            return True
        return False

    @staticmethod
    def unset_log_level(logger_name: str) -> bool:
        """Makes an existing logger inherit its level again."""
        log = Log4jController._existing_logger(logger_name)
        if logger_name.strip() and log is not None:
            log.setLevel(logging.NOTSET)
            return True
        return False
