"""Port of core/src/main/scala/kafka/server/ConfigHandler.scala (Kafka 2.8).

The handlers DynamicConfigManager calls when the config of an entity changes in ZooKeeper, each with the
entity's name and its full set of overrides read from `/config/<type>/<name>`:

- TopicConfigHandler: every local log of the topic gets a new LogConfig (the broker's current topic defaults
  overridden by the topic's znode); `leader/follower.replication.throttled.replicas` go to the leader and follower
  replication quota managers (when given); `unclean.leader.election.enable=true` is passed on to the controller.
- BrokerConfigHandler: `/config/brokers/<default>` and `/config/brokers/<this broker's id>` become the
  broker's dynamic configs (DynamicBrokerConfig below), which rebuild the broker's KafkaConfig and
  reconfigure what is registered for the changed keys; this broker's own entity also sets the replication
  throttle rates (`leader.replication.throttled.rate`, `follower.replication.throttled.rate`,
  `replica.alter.log.dirs.io.max.bytes.per.second`) on the quota managers, a key that is absent meaning
  DynamicConfig.Broker's default (unbounded). As in Kafka 2.8, rates set at the cluster default
  (`/config/brokers/<default>`) are stored and described but throttle nothing.

# PORT: the dynamic broker config machinery of Kafka 2.8 (kafka/server/DynamicBrokerConfig.scala and the
# `DynamicConfig.Broker` object of kafka/server/DynamicConfig.scala) has no module of its own yet; the part
# the admin path needs lives here, under "Dynamic broker configs", with Kafka's names: DynamicConfig.Broker,
# DynamicBrokerConfig, BrokerReconfigurable and DynamicLogConfig. What it does and does not do:
#   - validation is Kafka's: keys that are not dynamically updatable are refused with "Cannot update these
#     configs dynamically: Set(...)", SSL configs need the listener prefix, per-broker-only keys are refused
#     at the cluster default, values are type-checked, and the merged KafkaConfig must be valid;
#   - KafkaConfig reads (its Scala defs, which are properties here) see the dynamic values at once through
#     `KafkaConfig.update_current_config`;
#   - reconfigured components: DynamicLogConfig (the topic-level defaults: log.retention.ms, log.segment.bytes,
#     ... become the new defaults of every log without a topic override) and DynamicSocketServerConfig (the
#     SocketServer's connection limits and rates). Registering more BrokerReconfigurables (thread pools,
#     cleaner, listeners) is open to the components that implement them; until then such keys are stored,
#     described and read through KafkaConfig but nothing resizes on them;
#   - dynamic password configs are stored encrypted with `password.encoder.secret` (kafka.utils.password_encoder,
#     Kafka's format); re-encoding them after a change of secret (`password.encoder.old.secret`) is not ported;
#   - Java Reconfigurables: the listeners' channel builders (new keystores and truststores, validated then
#     applied to new connections) register with add_reconfigurable; metric reporters, the authorizer and config
#     providers (`config.providers` keys are dropped as Kafka drops them) are not ported.
# Kafka creates DynamicBrokerConfig inside KafkaConfig (`config.dynamicConfig`); here KafkaConfig's
# `dynamic_config` starts as None and `dynamic_config_of(config)` creates it on first use (KafkaConfig cannot build
# it in its constructor: this module imports kafka_config), so every component asking for a given KafkaConfig
# shares one.
- ClientIdConfigHandler (`/config/clients/<client-id>`), UserConfigHandler (`/config/users/<user>` and
  `/config/users/<user>/clients/<client-id>`): the entity's `producer_byte_rate`, `consumer_byte_rate`,
  `request_percentage` and `controller_mutation_rate` go to the client quota managers (a key that is absent
  removes that quota); a user's other configs (SCRAM credentials) go to the credential provider.
- IpConfigHandler (`/config/ips/<ip>` and `/config/ips/<default>`): `connection_creation_rate` goes to the
  SocketServer's ConnectionQuotas.
"""

from __future__ import annotations

import re
import threading
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Final, Protocol

from kafka.common.config.config_def import ConfigDef, Importance, Range, Type
from kafka.common.config.config_exception import ConfigException
from kafka.common.config.password import Password
from kafka.common.metrics.quota import Quota
from kafka.common.utils.sanitizer import desanitize
from kafka.common.utils.utils import NumberFormatException, parse_long
from kafka.log.log_cleaner import LogCleaner
from kafka.log.log_config import LogConfig, ThrottledReplicaListValidator
from kafka.network.socket_server import RECONFIGURABLE_CONFIGS as SOCKET_SERVER_RECONFIGURABLE_CONFIGS
from kafka.server.kafka_config import KafkaConfig, _broker_config_synonyms
from kafka.server.replication_quota_manager import ALL_REPLICAS, ReplicationQuotaManager
from kafka.utils.core_utils import scala_set
from kafka.utils.logging import Logging
from kafka.utils.read_write_lock import ReentrantReadWriteLock
from kafka.zk.zk_data import ConfigEntityName, ConfigType

if TYPE_CHECKING:
    from kafka.log.log_manager import LogManager
    from kafka.network.socket_server import ConnectionQuotas, SocketServer
    from kafka.server.quota_factory import QuotaManagers
    from kafka.utils.password_encoder import PasswordEncoder
    from kafka.zk.kafka_zk_client import KafkaZkClient

__all__ = [
    "ALL_REPLICAS",
    "BrokerConfigHandler",
    "BrokerReconfigurable",
    "ClientIdConfigHandler",
    "ConfigHandler",
    "DynamicBrokerConfig",
    "DynamicConfig",
    "DynamicLogConfig",
    "DynamicSocketServerConfig",
    "IpConfigHandler",
    "QuotaConfigHandler",
    "ThrottledReplicaListValidator",
    "TopicConfigHandler",
    "UserConfigHandler",
    "dynamic_config_of",
]

_LONG_MAX: Final = 2**63 - 1


class ConfigHandler(ABC):
    """Applies the config overrides of one entity (a topic, a broker, ...) read from ZooKeeper."""

    @abstractmethod
    def process_config_changes(self, entity_name: str, value: Mapping[str, str]) -> None: ...


class _UncleanLeaderElectionEnabler(Protocol):
    """The KafkaController method a topic config change may call."""

    def enable_topic_unclean_leader_election(self, topic: str) -> None: ...


class TopicConfigHandler(ConfigHandler, Logging):
    """Applies a topic's config overrides to the broker's logs of that topic (see the module docstring)."""

    logger_name = "kafka.server.TopicConfigHandler"

    def __init__(
        self,
        log_manager: LogManager,
        kafka_config: KafkaConfig,
        quotas: QuotaManagers | None = None,
        kafka_controller: _UncleanLeaderElectionEnabler | None = None,
    ) -> None:
        self._log_manager = log_manager
        self._kafka_config = kafka_config
        self.quotas = quotas
        self._kafka_controller = kafka_controller

    def _update_log_config(
        self, topic: str, topic_config: Mapping[str, str], config_names_to_exclude: set[str]
    ) -> None:
        # Logs of the topic still loading pick the new config up when they finish.
        self._log_manager.topic_config_updated(topic)
        logs = self._log_manager.logs_by_topic(topic)
        if logs:
            props = {k: v for k, v in topic_config.items() if k not in config_names_to_exclude}
            log_config = LogConfig.from_props(self._log_manager.current_default_config.originals(), props)
            for log in logs:
                log.update_config(log_config)

    def process_config_changes(self, entity_name: str, value: Mapping[str, str]) -> None:
        topic, topic_config = entity_name, value
        config_names_to_exclude = self.excluded_configs(topic, topic_config)
        self._update_log_config(topic, topic_config, config_names_to_exclude)

        def update_throttled_list(prop: str, quota_manager: ReplicationQuotaManager) -> None:
            if topic_config.get(prop):
                partitions = self.parse_throttled_partitions(topic_config, self._kafka_config.broker_id, prop)
                quota_manager.mark_throttled(topic, partitions)
                self.debug(
                    f"Setting {prop} on broker {self._kafka_config.broker_id} for topic: {topic} "
                    f"and partitions {partitions}"
                )
            else:
                quota_manager.remove_throttle(topic)
                self.debug(f"Removing {prop} from broker {self._kafka_config.broker_id} for topic {topic}")

        if self.quotas is not None:
            update_throttled_list(LogConfig.LEADER_REPLICATION_THROTTLED_REPLICAS_PROP, self.quotas.leader)
            update_throttled_list(LogConfig.FOLLOWER_REPLICATION_THROTTLED_REPLICAS_PROP, self.quotas.follower)

        # Scala's Try(...toBoolean).getOrElse(false): only a well-formed "true" counts.
        unclean = topic_config.get(KafkaConfig.UNCLEAN_LEADER_ELECTION_ENABLE_PROP)
        if unclean is not None and unclean.lower() == "true" and self._kafka_controller is not None:
            self._kafka_controller.enable_topic_unclean_leader_election(topic)

    def parse_throttled_partitions(self, topic_config: Mapping[str, str], broker_id: int, prop: str) -> Sequence[int]:
        """The partitions of this broker named in a `partition:broker,...` list (ALL_REPLICAS itself for `*`)."""
        config_value = str(topic_config[prop]).strip()
        ThrottledReplicaListValidator.ensure_valid_string(prop, config_value)
        if config_value == "":
            return []
        if config_value == "*":
            return ALL_REPLICAS
        pairs = [entry.split(":") for entry in config_value.split(",")]
        return [int(pair[0]) for pair in pairs if int(pair[1]) == broker_id]

    def excluded_configs(self, topic: str, topic_config: Mapping[str, str]) -> set[str]:
        """Overrides to ignore: a message format newer than the inter-broker protocol allows."""
        from kafka.server.kafka_config import ApiVersion

        version_string = topic_config.get(LogConfig.MESSAGE_FORMAT_VERSION_PROP)
        if version_string is None:
            return set()
        if self._kafka_config.inter_broker_protocol_version < ApiVersion.apply(version_string):
            self.warn(
                f"Log configuration {LogConfig.MESSAGE_FORMAT_VERSION_PROP} is ignored for `{topic}` because "
                f"`{version_string}` is not compatible with Kafka inter-broker protocol version "
                f"`{self._kafka_config.inter_broker_protocol_version_string}`"
            )
            return {LogConfig.MESSAGE_FORMAT_VERSION_PROP}
        return set()


class QuotaConfigHandler:
    """Hands an entity's client quota configs to the client quota managers."""

    def __init__(self, quota_managers: QuotaManagers) -> None:
        self._quota_managers = quota_managers

    def update_quota_config(
        self, sanitized_user: str | None, sanitized_client_id: str | None, config: Mapping[str, str]
    ) -> None:
        """Sets each quota the entity's config names and removes those it does not. A value that is not a number
        raises ValueError (the notification is then logged as failed)."""
        from kafka.common.config.internals.quota_configs import QuotaConfigs

        client_id = desanitize(sanitized_client_id) if sanitized_client_id is not None else None

        def quota_of(key: str, as_long: bool) -> Quota | None:
            value = config.get(key)
            if value is None:
                return None
            number = float(parse_long(str(value))) if as_long else float(str(value).strip())
            return Quota(number, True)

        managers = self._quota_managers
        # Each value is read before any quota changes, so that a bad value leaves them all as they were.
        producer_quota = quota_of(QuotaConfigs.PRODUCER_BYTE_RATE_OVERRIDE_CONFIG, True)
        consumer_quota = quota_of(QuotaConfigs.CONSUMER_BYTE_RATE_OVERRIDE_CONFIG, True)
        request_quota = quota_of(QuotaConfigs.REQUEST_PERCENTAGE_OVERRIDE_CONFIG, False)
        controller_mutation_quota = quota_of(QuotaConfigs.CONTROLLER_MUTATION_RATE_OVERRIDE_CONFIG, False)
        managers.produce.update_quota(sanitized_user, client_id, sanitized_client_id, producer_quota)
        managers.fetch.update_quota(sanitized_user, client_id, sanitized_client_id, consumer_quota)
        managers.request.update_quota(sanitized_user, client_id, sanitized_client_id, request_quota)
        managers.controller_mutation.update_quota(
            sanitized_user, client_id, sanitized_client_id, controller_mutation_quota
        )


class ClientIdConfigHandler(QuotaConfigHandler, ConfigHandler):
    """Applies `/config/clients/<client-id>` (or `<default>`) quotas."""

    def process_config_changes(self, entity_name: str, value: Mapping[str, str]) -> None:
        self.update_quota_config(None, entity_name, value)


class _CredentialUpdater(Protocol):
    """The CredentialProvider method a user config change calls (SCRAM credentials)."""

    def update_credentials(self, username: str, config: Mapping[str, str]) -> None: ...


class UserConfigHandler(QuotaConfigHandler, ConfigHandler):
    """Applies `/config/users/<user>` and `/config/users/<user>/clients/<client-id>` (either may be `<default>`):
    quotas to the quota managers, a user's credentials to `credential_provider` (when the broker has one)."""

    def __init__(self, quota_managers: QuotaManagers, credential_provider: _CredentialUpdater | None = None) -> None:
        super().__init__(quota_managers)
        self.credential_provider = credential_provider

    def process_config_changes(self, entity_name: str, value: Mapping[str, str]) -> None:
        entities = entity_name.split("/")
        if len(entities) not in (1, 3):
            raise ValueError(f"Invalid quota entity path: {entity_name}")
        sanitized_user = entities[0]
        sanitized_client_id = entities[2] if len(entities) == 3 else None
        self.update_quota_config(sanitized_user, sanitized_client_id, value)
        if sanitized_client_id is None and sanitized_user != ConfigEntityName.DEFAULT:
            if self.credential_provider is not None:
                self.credential_provider.update_credentials(desanitize(sanitized_user), value)


class IpConfigHandler(ConfigHandler, Logging):
    """Applies `/config/ips/<ip>` (or `<default>`) connection creation rates to the ConnectionQuotas."""

    logger_name = "kafka.server.IpConfigHandler"

    def __init__(self, connection_quotas: ConnectionQuotas) -> None:
        self._connection_quotas = connection_quotas

    def process_config_changes(self, entity_name: str, value: Mapping[str, str]) -> None:
        from kafka.common.config.internals.quota_configs import QuotaConfigs

        ip = entity_name
        rate = value.get(QuotaConfigs.IP_CONNECTION_RATE_OVERRIDE_CONFIG)
        ip_connection_rate_quota = int(str(rate).strip()) if rate is not None else None
        updated_ip: str | None = None
        if ip != ConfigEntityName.DEFAULT:
            try:
                updated_ip = _resolve_ip(ip)
            except OSError:
                raise ValueError(f"Unable to resolve address {ip}") from None
        self._connection_quotas.update_ip_connection_rate_quota(updated_ip, ip_connection_rate_quota)


def _resolve_ip(host: str) -> str:
    """InetAddress.getByName(host).getHostAddress: an IP address as it is, a host name resolved."""
    import ipaddress
    import socket

    try:
        return str(ipaddress.ip_address(host))
    except ValueError:
        return str(socket.getaddrinfo(host, None, 0, socket.SOCK_STREAM)[0][4][0])


class BrokerConfigHandler(ConfigHandler, Logging):
    """Applies `/config/brokers/<default>` and `/config/brokers/<id>` as the broker's dynamic configs."""

    logger_name = "kafka.server.BrokerConfigHandler"

    def __init__(self, broker_config: KafkaConfig, quota_managers: QuotaManagers | None = None) -> None:
        """`quota_managers` are the broker's (QuotaFactory.instantiate), which Kafka's KafkaServer always passes;
        without them (a handler used for its dynamic configs only) the throttle rates are stored but not applied."""
        self._broker_config = broker_config
        self._quota_managers = quota_managers

    def process_config_changes(self, entity_name: str, value: Mapping[str, str]) -> None:
        broker_id, properties = entity_name, value
        dynamic_config = dynamic_config_of(self._broker_config)
        if broker_id == ConfigEntityName.DEFAULT:
            dynamic_config.update_default_config(properties)
        elif self._broker_config.broker_id == int(broker_id.strip()):
            dynamic_config.update_broker_config(self._broker_config.broker_id, properties)
            if self._quota_managers is not None:
                self._update_replication_quotas(properties, self._quota_managers)

    def _update_replication_quotas(self, properties: Mapping[str, str], quota_managers: QuotaManagers) -> None:
        broker = DynamicConfig.Broker

        def get_or_default(prop: str) -> int:
            if prop in properties:
                return parse_long(str(properties[prop]))
            return broker.DEFAULT_REPLICATION_THROTTLED_RATE

        try:
            leader_rate = get_or_default(broker.LEADER_REPLICATION_THROTTLED_RATE_PROP)
            follower_rate = get_or_default(broker.FOLLOWER_REPLICATION_THROTTLED_RATE_PROP)
            alter_log_dirs_rate = get_or_default(broker.REPLICA_ALTER_LOG_DIRS_IO_MAX_BYTES_PER_SECOND_PROP)
        except NumberFormatException as e:
            # PORT: Kafka's `toLong` throws out of the handler (the notification is logged as failed, or start-up
            # fails). Values written through the admin path are validated first; a hand-written bad value leaves
            # every rate as it was, with this error logged.
            self.error(f"Replication throttle rates of broker {self._broker_config.broker_id} not applied", e)
            return
        quota_managers.leader.update_quota(Quota.upper_bound(float(leader_rate)))
        quota_managers.follower.update_quota(Quota.upper_bound(float(follower_rate)))
        quota_managers.alter_log_dirs.update_quota(Quota.upper_bound(float(alter_log_dirs_rate)))


# ==========================================================================================================
# Dynamic broker configs (kafka/server/DynamicConfig.scala's Broker object, kafka/server/DynamicBrokerConfig.scala)
# ==========================================================================================================

#: SslConfigs.RECONFIGURABLE_CONFIGS: the keystore and truststore settings.
_SSL_RECONFIGURABLE_CONFIGS: Final = frozenset(
    {
        "ssl.keystore.type",
        "ssl.keystore.location",
        "ssl.keystore.password",
        "ssl.key.password",
        "ssl.truststore.type",
        "ssl.truststore.location",
        "ssl.truststore.password",
        "ssl.keystore.certificate.chain",
        "ssl.keystore.key",
        "ssl.truststore.certificates",
    }
)

#: DynamicThreadPool.ReconfigurableConfigs
_DYNAMIC_THREAD_POOL_RECONFIGURABLE_CONFIGS: Final = frozenset(
    {
        KafkaConfig.NUM_IO_THREADS_PROP,
        KafkaConfig.NUM_NETWORK_THREADS_PROP,
        KafkaConfig.NUM_REPLICA_FETCHERS_PROP,
        KafkaConfig.NUM_RECOVERY_THREADS_PER_DATA_DIR_PROP,
        KafkaConfig.BACKGROUND_THREADS_PROP,
    }
)

#: DynamicListenerConfig.ReconfigurableConfigs
_DYNAMIC_LISTENER_RECONFIGURABLE_CONFIGS: Final = frozenset(
    {
        # Listener configs
        KafkaConfig.ADVERTISED_LISTENERS_PROP,
        KafkaConfig.LISTENERS_PROP,
        KafkaConfig.LISTENER_SECURITY_PROTOCOL_MAP_PROP,
        # SSL configs
        KafkaConfig.PRINCIPAL_BUILDER_CLASS_PROP,
        KafkaConfig.SSL_PROTOCOL_PROP,
        KafkaConfig.SSL_PROVIDER_PROP,
        KafkaConfig.SSL_CIPHER_SUITES_PROP,
        KafkaConfig.SSL_ENABLED_PROTOCOLS_PROP,
        KafkaConfig.SSL_KEYSTORE_TYPE_PROP,
        KafkaConfig.SSL_KEYSTORE_LOCATION_PROP,
        KafkaConfig.SSL_KEYSTORE_PASSWORD_PROP,
        KafkaConfig.SSL_KEY_PASSWORD_PROP,
        KafkaConfig.SSL_TRUSTSTORE_TYPE_PROP,
        KafkaConfig.SSL_TRUSTSTORE_LOCATION_PROP,
        KafkaConfig.SSL_TRUSTSTORE_PASSWORD_PROP,
        KafkaConfig.SSL_KEY_MANAGER_ALGORITHM_PROP,
        KafkaConfig.SSL_TRUST_MANAGER_ALGORITHM_PROP,
        KafkaConfig.SSL_ENDPOINT_IDENTIFICATION_ALGORITHM_PROP,
        KafkaConfig.SSL_SECURE_RANDOM_IMPLEMENTATION_PROP,
        KafkaConfig.SSL_CLIENT_AUTH_PROP,
        KafkaConfig.SSL_ENGINE_FACTORY_CLASS_PROP,
        # SASL configs
        KafkaConfig.SASL_MECHANISM_INTER_BROKER_PROTOCOL_PROP,
        KafkaConfig.SASL_JAAS_CONFIG_PROP,
        KafkaConfig.SASL_ENABLED_MECHANISMS_PROP,
        KafkaConfig.SASL_KERBEROS_SERVICE_NAME_PROP,
        KafkaConfig.SASL_KERBEROS_KINIT_CMD_PROP,
        KafkaConfig.SASL_KERBEROS_TICKET_RENEW_WINDOW_FACTOR_PROP,
        KafkaConfig.SASL_KERBEROS_TICKET_RENEW_JITTER_PROP,
        KafkaConfig.SASL_KERBEROS_MIN_TIME_BEFORE_RELOGIN_PROP,
        KafkaConfig.SASL_KERBEROS_PRINCIPAL_TO_LOCAL_RULES_PROP,
        KafkaConfig.SASL_LOGIN_REFRESH_WINDOW_FACTOR_PROP,
        KafkaConfig.SASL_LOGIN_REFRESH_WINDOW_JITTER_PROP,
        KafkaConfig.SASL_LOGIN_REFRESH_MIN_PERIOD_SECONDS_PROP,
        KafkaConfig.SASL_LOGIN_REFRESH_BUFFER_SECONDS_PROP,
        # Connection limit configs
        KafkaConfig.MAX_CONNECTIONS_PROP,
        KafkaConfig.MAX_CONNECTION_CREATION_RATE_PROP,
    }
)


class BrokerReconfigurable(ABC):
    """A broker component that adapts itself when some dynamic broker configs change."""

    @property
    @abstractmethod
    def reconfigurable_configs(self) -> frozenset[str]: ...

    @abstractmethod
    def validate_reconfiguration(self, new_config: KafkaConfig) -> None:
        """Raise (ConfigException) if the component cannot take `new_config`."""

    @abstractmethod
    def reconfigure(self, old_config: KafkaConfig, new_config: KafkaConfig) -> None:
        """Adapt to `new_config`, already installed as the broker's current config."""


class DynamicSocketServerConfig(BrokerReconfigurable):
    """The SocketServer's broker-wide connection limits (`max.connections`, `max.connections.per.ip`,
    `max.connections.per.ip.overrides`, `max.connection.creation.rate`) applied when they change dynamically.

    # PORT: Kafka registers the SocketServer itself as a BrokerReconfigurable; kafka.network cannot import this
    # module (it imports kafka.network), so this adapter stands in for it."""

    def __init__(self, socket_server: SocketServer) -> None:
        self._socket_server = socket_server

    @property
    def reconfigurable_configs(self) -> frozenset[str]:
        return SOCKET_SERVER_RECONFIGURABLE_CONFIGS

    def validate_reconfiguration(self, new_config: KafkaConfig) -> None:
        self._socket_server.validate_reconfiguration(new_config)

    def reconfigure(self, old_config: KafkaConfig, new_config: KafkaConfig) -> None:
        self._socket_server.reconfigure(old_config, new_config)


class DynamicLogConfig(BrokerReconfigurable, Logging):
    """Makes dynamic broker log configs (log.retention.ms, log.segment.bytes, ...) the new topic defaults.

    The defaults of the LogManager are replaced, and every log gets them under its own topic overrides.
    """

    logger_name = "kafka.server.DynamicLogConfig"

    # message.format.version is left out, as in Kafka: every broker of the cluster must support the version.
    EXCLUDED_CONFIGS: ClassVar[frozenset[str]] = frozenset({KafkaConfig.LOG_MESSAGE_FORMAT_VERSION_PROP})
    RECONFIGURABLE_CONFIGS: ClassVar[frozenset[str]] = (
        frozenset(LogConfig.TOPIC_CONFIG_SYNONYMS.values()) - EXCLUDED_CONFIGS
    )
    KAFKA_CONFIG_TO_LOG_CONFIG_NAME: ClassVar[dict[str, str]] = {
        broker_name: topic_name for topic_name, broker_name in LogConfig.TOPIC_CONFIG_SYNONYMS.items()
    }

    def __init__(self, log_manager: LogManager, kafka_controller: Any = None) -> None:
        self._log_manager = log_manager
        self._kafka_controller = kafka_controller

    @property
    def reconfigurable_configs(self) -> frozenset[str]:
        return DynamicLogConfig.RECONFIGURABLE_CONFIGS

    def validate_reconfiguration(self, new_config: KafkaConfig) -> None:
        # Names and types were checked already; like topic overrides, nothing more is validated.
        pass

    def _update_logs_config(self, new_broker_defaults: Mapping[str, Any]) -> None:
        self._log_manager.broker_config_updated()
        for log in self._log_manager.all_logs():
            overridden = log.config.overridden_configs
            props = dict(new_broker_defaults)
            props.update({k: v for k, v in log.config.originals().items() if k in overridden})
            log.update_config(LogConfig(props, overridden))

    def reconfigure(self, old_config: KafkaConfig, new_config: KafkaConfig) -> None:
        current_log_config = self._log_manager.current_default_config
        orig_unclean_leader_election_enable = current_log_config.unclean_leader_election_enable
        new_broker_defaults = current_log_config.originals()
        for k, v in new_config.values_from_this_config().items():
            if k in DynamicLogConfig.RECONFIGURABLE_CONFIGS:
                config_name = DynamicLogConfig.KAFKA_CONFIG_TO_LOG_CONFIG_NAME.get(k)
                if config_name is not None:
                    # As in Kafka, a broker key without a value (log.roll.ms when only log.roll.hours is set)
                    # leaves the topic key to LogConfig's own default.
                    if v is None:
                        new_broker_defaults.pop(config_name, None)
                    else:
                        new_broker_defaults[config_name] = v

        self._log_manager.reconfigure_default_log_config(LogConfig(new_broker_defaults))
        self._update_logs_config(new_broker_defaults)

        if (
            self._log_manager.current_default_config.unclean_leader_election_enable
            and not orig_unclean_leader_election_enable
            and self._kafka_controller is not None
        ):
            self._kafka_controller.enable_default_unclean_leader_election()


_ALL_DYNAMIC_CONFIGS: Final = (
    _SSL_RECONFIGURABLE_CONFIGS
    | LogCleaner.RECONFIGURABLE_CONFIGS
    | DynamicLogConfig.RECONFIGURABLE_CONFIGS
    | _DYNAMIC_THREAD_POOL_RECONFIGURABLE_CONFIGS
    | {KafkaConfig.METRIC_REPORTER_CLASSES_PROP}
    | _DYNAMIC_LISTENER_RECONFIGURABLE_CONFIGS
    | SOCKET_SERVER_RECONFIGURABLE_CONFIGS
)


class DynamicConfig:
    """Kafka's `object DynamicConfig`: the definitions of the configs that can be set dynamically."""

    class Broker:
        """The broker's dynamic configs: the dynamically updatable KafkaConfig keys and three throttle rates
        that exist only as dynamic configs."""

        LEADER_REPLICATION_THROTTLED_RATE_PROP: ClassVar[str] = "leader.replication.throttled.rate"
        FOLLOWER_REPLICATION_THROTTLED_RATE_PROP: ClassVar[str] = "follower.replication.throttled.rate"
        REPLICA_ALTER_LOG_DIRS_IO_MAX_BYTES_PER_SECOND_PROP: ClassVar[str] = (
            "replica.alter.log.dirs.io.max.bytes.per.second"
        )
        #: ReplicationQuotaManagerConfig.QuotaBytesPerSecondDefault: unlimited.
        DEFAULT_REPLICATION_THROTTLED_RATE: ClassVar[int] = _LONG_MAX

        broker_config_def: ClassVar[ConfigDef]
        non_dynamic_props: ClassVar[frozenset[str]]

        @staticmethod
        def names() -> set[str]:
            return DynamicConfig.Broker.broker_config_def.names()

        @staticmethod
        def validate(props: Mapping[str, Any]) -> dict[str, Any]:
            """Parses the known keys (custom keys are allowed); ConfigException for a bad value."""
            return DynamicConfig.Broker.broker_config_def.parse(_resolve_variable_configs(props))


def _build_broker_config_def() -> ConfigDef:
    config_def = ConfigDef()
    rate_doc = (
        "A long representing the upper bound (bytes/sec) on {what}. This property can be only set dynamically. "
        "It is suggested that the limit be kept above 1MB/s for accurate behaviour."
    )
    for name, what in (
        (
            DynamicConfig.Broker.LEADER_REPLICATION_THROTTLED_RATE_PROP,
            "replication traffic for leaders enumerated in the property leader.replication.throttled.replicas "
            "(for each topic)",
        ),
        (
            DynamicConfig.Broker.FOLLOWER_REPLICATION_THROTTLED_RATE_PROP,
            "replication traffic for followers enumerated in the property follower.replication.throttled.replicas "
            "(for each topic)",
        ),
        (
            DynamicConfig.Broker.REPLICA_ALTER_LOG_DIRS_IO_MAX_BYTES_PER_SECOND_PROP,
            "disk IO used for moving replica between log directories on the same broker",
        ),
    ):
        config_def.define(
            name,
            Type.LONG,
            DynamicConfig.Broker.DEFAULT_REPLICATION_THROTTLED_RATE,
            Range.at_least(0),
            Importance.MEDIUM,
            rate_doc.format(what=what),
        )
    # DynamicBrokerConfig.addDynamicConfigs: the KafkaConfig keys that may change at run time.
    for name, key in KafkaConfig.config_def.config_keys.items():
        if name in _ALL_DYNAMIC_CONFIGS:
            config_def.define_key(key)
    return config_def


DynamicConfig.Broker.broker_config_def = _build_broker_config_def()
DynamicConfig.Broker.non_dynamic_props = frozenset(KafkaConfig.config_names()) - DynamicConfig.Broker.names()


def _resolve_variable_configs(props: Mapping[str, Any]) -> dict[str, Any]:
    """DynamicBrokerConfig.resolveVariableConfigs: the props without the `config.providers` keys.

    # PORT: config providers (${provider:path:key} values) are not ported, so values are taken as they are."""
    return {k: v for k, v in props.items() if not k.startswith("config.providers")}


class DynamicBrokerConfig(Logging):
    """The broker's dynamic configs and the KafkaConfig they make (see the module docstring).

    Precedence, highest first: per-broker dynamic configs (`/config/brokers/<id>`), cluster-wide dynamic
    defaults (`/config/brokers/<default>`), the static configs the broker started with, KafkaConfig's defaults.

    Locking: `_lock` (Kafka's ReentrantReadWriteLock) guards the dynamic maps and the current config; updates
    reconfigure the registered BrokerReconfigurables while holding it, so it comes before their locks (a
    LogManager's, a Log's).
    """

    logger_name = "kafka.server.DynamicBrokerConfig"

    DYNAMIC_SECURITY_CONFIGS: ClassVar[frozenset[str]] = _SSL_RECONFIGURABLE_CONFIGS
    ALL_DYNAMIC_CONFIGS: ClassVar[frozenset[str]] = _ALL_DYNAMIC_CONFIGS
    CLUSTER_LEVEL_LISTENER_CONFIGS: ClassVar[frozenset[str]] = frozenset(
        {KafkaConfig.MAX_CONNECTIONS_PROP, KafkaConfig.MAX_CONNECTION_CREATION_RATE_PROP}
    )
    PER_BROKER_CONFIGS: ClassVar[frozenset[str]] = (
        _SSL_RECONFIGURABLE_CONFIGS | _DYNAMIC_LISTENER_RECONFIGURABLE_CONFIGS
    ) - CLUSTER_LEVEL_LISTENER_CONFIGS
    LISTENER_MECHANISM_CONFIGS: ClassVar[frozenset[str]] = frozenset(
        {
            KafkaConfig.SASL_JAAS_CONFIG_PROP,
            KafkaConfig.SASL_LOGIN_CALLBACK_HANDLER_CLASS_PROP,
            KafkaConfig.SASL_LOGIN_CLASS_PROP,
            KafkaConfig.SASL_SERVER_CALLBACK_HANDLER_CLASS_PROP,
            "connections.max.reauth.ms",
        }
    )
    LISTENER_CONFIG_REGEX: ClassVar[re.Pattern[str]] = re.compile(r"listener\.name\.[^.]*\.(.*)")
    RELOADABLE_FILE_CONFIGS: ClassVar[frozenset[str]] = frozenset(
        {KafkaConfig.SSL_KEYSTORE_LOCATION_PROP, KafkaConfig.SSL_TRUSTSTORE_LOCATION_PROP}
    )
    DYNAMIC_PASSWORD_CONFIGS: ClassVar[frozenset[str]] = frozenset(
        name
        for name, key in KafkaConfig.config_def.config_keys.items()
        if key.type is Type.PASSWORD and name in _ALL_DYNAMIC_CONFIGS
    )

    # ---- companion-object functions -------------------------------------------------------------

    @staticmethod
    def is_password_config(name: str) -> bool:
        return any(name.endswith(p) for p in DynamicBrokerConfig.DYNAMIC_PASSWORD_CONFIGS)

    @staticmethod
    def broker_config_synonyms(name: str, match_listener_override: bool) -> list[str]:
        """The broker keys that set the same value as `name`, highest priority first."""
        return _broker_config_synonyms(name, match_listener_override)

    @staticmethod
    def validate_configs(props: Mapping[str, Any], per_broker_config: bool) -> None:
        """Kafka's checks of a dynamic update's keys and values; ConfigException naming the offending keys."""

        def check_invalid_props(invalid_prop_names: set[str], error_message: str) -> None:
            if invalid_prop_names:
                raise ConfigException(f"{error_message}: {scala_set(sorted(invalid_prop_names))}")

        check_invalid_props(DynamicBrokerConfig._non_dynamic_configs(props), "Cannot update these configs dynamically")
        check_invalid_props(
            DynamicBrokerConfig._security_configs_without_listener_prefix(props),
            "These security configs can be dynamically updated only per-listener using the listener prefix",
        )
        DynamicBrokerConfig._validate_config_types(props)
        if not per_broker_config:
            check_invalid_props(
                DynamicBrokerConfig._per_broker_configs(props),
                "Cannot update these configs at default cluster level, broker id must be specified",
            )

    @staticmethod
    def _per_broker_configs(props: Mapping[str, Any]) -> set[str]:
        def per_broker_listener_config(name: str) -> bool:
            m = DynamicBrokerConfig.LISTENER_CONFIG_REGEX.fullmatch(name)
            return m is not None and m.group(1) not in DynamicBrokerConfig.CLUSTER_LEVEL_LISTENER_CONFIGS

        names = set(props)
        return (names & DynamicBrokerConfig.PER_BROKER_CONFIGS) | {n for n in names if per_broker_listener_config(n)}

    @staticmethod
    def _non_dynamic_configs(props: Mapping[str, Any]) -> set[str]:
        return set(props) & DynamicConfig.Broker.non_dynamic_props

    @staticmethod
    def _security_configs_without_listener_prefix(props: Mapping[str, Any]) -> set[str]:
        return {name for name in DynamicBrokerConfig.DYNAMIC_SECURITY_CONFIGS if name in props}

    @staticmethod
    def _validate_config_types(props: Mapping[str, Any]) -> None:
        base_props: dict[str, Any] = {}
        for k, v in props.items():
            m = DynamicBrokerConfig.LISTENER_CONFIG_REGEX.fullmatch(k)
            base_props[m.group(1) if m is not None else k] = v
        DynamicConfig.Broker.validate(base_props)

    # ---- the broker's dynamic config --------------------------------------------------------------

    def __init__(self, kafka_config: KafkaConfig) -> None:
        self._kafka_config = kafka_config
        self.static_broker_configs: dict[str, str] = ConfigDef.convert_to_string_map_with_password_values(
            kafka_config.originals_from_this_config()
        )
        self.static_default_configs: dict[str, str] = ConfigDef.convert_to_string_map_with_password_values(
            KafkaConfig.default_values()
        )
        self._dynamic_broker_configs: dict[str, str] = {}
        self._dynamic_default_configs: dict[str, str] = {}
        self._broker_reconfigurables: list[BrokerReconfigurable] = []
        # Java Reconfigurables: the listeners' channel builders (ListenerReconfigurables: new keystores, truststores).
        self._reconfigurables: list[Any] = []
        self._lock = ReentrantReadWriteLock()
        self._current_config: KafkaConfig = kafka_config

    def initialize(self, zk_client: KafkaZkClient) -> None:
        """Loads the dynamic configs stored in ZooKeeper (KafkaServer does this before creating the log manager)."""
        from kafka.zk.admin_zk_client import AdminZkClient

        self._current_config = KafkaConfig(self._kafka_config.props, False)
        admin_zk_client = AdminZkClient(zk_client)
        # Nothing stored means nothing to apply: skip rebuilding (and logging) the whole config at start-up.
        defaults = admin_zk_client.fetch_entity_config(ConfigType.BROKER, ConfigEntityName.DEFAULT)
        if defaults:
            self.update_default_config(defaults)
        props = admin_zk_client.fetch_entity_config(ConfigType.BROKER, str(self._kafka_config.broker_id))
        if props:
            self.update_broker_config(self._kafka_config.broker_id, props)

    def clear(self) -> None:
        """Forgets the dynamic values and the registered reconfigurables (KafkaServer's shutdown does this)."""
        with self._lock.write_lock:
            self._dynamic_broker_configs.clear()
            self._dynamic_default_configs.clear()
            self._broker_reconfigurables.clear()

    def add_reconfigurable(self, reconfigurable: Any) -> None:
        """Registers a Java Reconfigurable (`reconfigurable_configs()`, `validate_reconfiguration(configs)`,
        `reconfigure(configs)`); one with `listener_name()` is a ListenerReconfigurable, given its listener's
        values (`listener.name.<l>.` overrides applied)."""
        with self._lock.write_lock:
            self._verify_reconfigurable_configs(reconfigurable.reconfigurable_configs())
            self._reconfigurables.append(reconfigurable)

    def remove_reconfigurable(self, reconfigurable: Any) -> None:
        with self._lock.write_lock:
            if reconfigurable in self._reconfigurables:
                self._reconfigurables.remove(reconfigurable)

    def add_broker_reconfigurable(self, reconfigurable: BrokerReconfigurable) -> None:
        with self._lock.write_lock:
            self._verify_reconfigurable_configs(reconfigurable.reconfigurable_configs)
            self._broker_reconfigurables.append(reconfigurable)

    def remove_broker_reconfigurable(self, reconfigurable: BrokerReconfigurable) -> None:
        with self._lock.write_lock:
            if reconfigurable in self._broker_reconfigurables:
                self._broker_reconfigurables.remove(reconfigurable)

    def _verify_reconfigurable_configs(self, config_names: Iterable[str]) -> None:
        non_dynamic = {n for n in config_names if n in DynamicConfig.Broker.non_dynamic_props}
        if non_dynamic:
            raise ValueError(
                f"requirement failed: Reconfigurable contains non-dynamic configs {scala_set(sorted(non_dynamic))}"
            )

    @property
    def current_kafka_config(self) -> KafkaConfig:
        with self._lock.read_lock:
            return self._current_config

    @property
    def current_dynamic_broker_configs(self) -> dict[str, str]:
        with self._lock.read_lock:
            return dict(self._dynamic_broker_configs)

    @property
    def current_dynamic_default_configs(self) -> dict[str, str]:
        with self._lock.read_lock:
            return dict(self._dynamic_default_configs)

    def update_broker_config(self, broker_id: int, persistent_props: Mapping[str, str]) -> None:
        """Installs this broker's dynamic configs (the whole set read from ZooKeeper)."""
        with self._lock.write_lock:
            try:
                props = self.from_persistent_props(persistent_props, per_broker_config=True)
                self._dynamic_broker_configs = dict(props)
                self._update_current_config()
            except Exception as e:
                self.error(f"Per-broker configs of {broker_id} could not be applied: {sorted(persistent_props)}", e)

    def update_default_config(self, persistent_props: Mapping[str, str]) -> None:
        """Installs the cluster-wide dynamic defaults (the whole set read from ZooKeeper)."""
        with self._lock.write_lock:
            try:
                props = self.from_persistent_props(persistent_props, per_broker_config=False)
                self._dynamic_default_configs = dict(props)
                self._update_current_config()
            except Exception as e:
                self.error(f"Cluster default configs could not be applied: {sorted(persistent_props)}", e)

    def reload_updated_files_without_config_change(self, new_props: Mapping[str, str]) -> None:
        """Kafka's reloadUpdatedFilesWithoutConfigChange: an alter of this broker's configs (`new_props`, the
        request's) makes every listener re-read its keystore and truststore files, which a listener's SslFactory
        rebuilds its engines from when a file changed in place under the same name. Changed values are applied
        later, when ZooKeeper's change notification comes back; this handles the unchanged names alone."""
        with self._lock.write_lock:
            for reconfigurable in list(self._reconfigurables):
                if not DynamicBrokerConfig.RELOADABLE_FILE_CONFIGS & frozenset(reconfigurable.reconfigurable_configs()):
                    continue
                listener_name = getattr(reconfigurable, "listener_name", None)
                if listener_name is not None and listener_name() is not None:
                    kafka_props = self._validated_kafka_props(new_props, per_broker_config=True)
                    new_config = KafkaConfig(kafka_props, False)
                    self._process_listener_reconfigurable(
                        reconfigurable, listener_name(), new_config, validate_only=False, reload_only=True
                    )
                else:
                    self.trace(f"Files will not be reloaded without config change for {reconfigurable}")

    def _password_encoder(self) -> PasswordEncoder:
        """The encoder of dynamic password configs, keyed by `password.encoder.secret`."""
        # Imported here: `cryptography` is loaded only by a broker that stores a dynamic password config.
        from kafka.utils.password_encoder import PasswordEncoder

        config = self._kafka_config
        secret = config.password_encoder_secret
        if secret is None:
            raise ConfigException("Password encoder secret not configured")
        return PasswordEncoder(
            secret,
            config.password_encoder_key_factory_algorithm,
            config.password_encoder_cipher_algorithm,
            config.password_encoder_key_length,
            config.password_encoder_iterations,
        )

    def to_persistent_props(self, config_props: Mapping[str, str], per_broker_config: bool) -> dict[str, str]:
        """The props to store in ZooKeeper: password values encrypted with `password.encoder.secret`."""
        props = dict(config_props)
        for name, value in config_props.items():
            if DynamicBrokerConfig.is_password_config(name) and value is not None:
                if not per_broker_config:
                    raise ConfigException("Password config can be defined only at broker level")
                props[name] = self._password_encoder().encode(Password(value))
        return props

    def from_persistent_props(self, persistent_props: Mapping[str, str], per_broker_config: bool) -> dict[str, str]:
        """The usable dynamic configs among those stored: invalid, non-dynamic and misplaced keys are dropped
        (and logged)."""
        props = dict(persistent_props)
        self._remove_invalid_configs(props, per_broker_config)

        def remove_invalid_props(invalid_prop_names: set[str], error_message: str) -> None:
            if invalid_prop_names:
                for name in invalid_prop_names:
                    props.pop(name, None)
                self.error(f"{error_message}: {scala_set(sorted(invalid_prop_names))}")

        remove_invalid_props(
            DynamicBrokerConfig._non_dynamic_configs(props),
            "Non-dynamic configs configured in ZooKeeper will be ignored",
        )
        remove_invalid_props(
            DynamicBrokerConfig._security_configs_without_listener_prefix(props),
            "Security configs can be dynamically updated only using listener prefix, base configs will be ignored",
        )
        if not per_broker_config:
            remove_invalid_props(
                DynamicBrokerConfig._per_broker_configs(props),
                "Per-broker configs defined at default cluster level will be ignored",
            )
        for name in [n for n, v in props.items() if DynamicBrokerConfig.is_password_config(n) and v is not None]:
            try:
                props[name] = self._password_encoder().decode(props[name]).value
            except Exception as e:
                self.error(f"Dynamic password config {name} could not be decoded, ignoring.", e)
                del props[name]
        return props

    def _validated_kafka_props(self, props_override: Mapping[str, str], per_broker_config: bool) -> dict[str, str]:
        """The full broker props with `props_override` applied at its level, after checking the override.
        The caller holds the lock."""
        props_resolved = _resolve_variable_configs(props_override)
        DynamicBrokerConfig.validate_configs(props_resolved, per_broker_config)
        new_props = dict(self.static_broker_configs)
        if per_broker_config:
            self._override_props(new_props, self._dynamic_default_configs)
            self._override_props(new_props, props_resolved)
        else:
            self._override_props(new_props, props_resolved)
            self._override_props(new_props, self._dynamic_broker_configs)
        return new_props

    def validate(self, props: Mapping[str, str], per_broker_config: bool) -> None:
        """Raises ConfigException unless `props` could replace the dynamic configs at that level."""
        with self._lock.read_lock:
            new_props = self._validated_kafka_props(props, per_broker_config)
            self._process_reconfiguration(new_props, validate_only=True)

    def _remove_invalid_configs(self, props: dict[str, str], per_broker_config: bool) -> None:
        try:
            DynamicBrokerConfig._validate_config_types(props)
        except Exception as e:
            invalid = []
            for k, v in list(props.items()):
                try:
                    DynamicBrokerConfig._validate_config_types({k: v})
                except Exception:
                    invalid.append(k)
            for k in invalid:
                del props[k]
            config_source = "broker" if per_broker_config else "default cluster"
            self.error(
                f"Dynamic {config_source} config contains invalid values in: {sorted(invalid)}, "
                "these configs will be ignored",
                e,
            )

    @staticmethod
    def _updated_configs(
        new_props: Mapping[str, Any], current_props: Mapping[str, Any]
    ) -> tuple[dict[str, Any], set[str]]:
        change_map = {k: v for k, v in new_props.items() if v != current_props.get(k)}
        deleted_key_set = {k for k in current_props if k not in new_props}
        return change_map, deleted_key_set

    @staticmethod
    def _override_props(props: dict[str, str], props_override: Mapping[str, str]) -> None:
        """Lays `props_override` over `props`; synonyms of an overridden key are removed first, so that the
        override wins even over a synonym of higher priority (log.roll.hours set dynamically beats a static
        log.roll.ms). Listener-prefixed keys keep their base keys, which other listeners may use."""
        for k, v in props_override.items():
            for synonym in DynamicBrokerConfig.broker_config_synonyms(k, match_listener_override=False):
                props.pop(synonym, None)
            props[k] = v

    def _update_current_config(self) -> None:
        new_props = dict(self.static_broker_configs)
        self._override_props(new_props, self._dynamic_default_configs)
        self._override_props(new_props, self._dynamic_broker_configs)
        old_config = self._current_config
        new_config, broker_reconfigurables_to_update = self._process_reconfiguration(new_props, validate_only=False)
        if new_config is not self._current_config:
            self._current_config = new_config
            self._kafka_config.update_current_config(new_config)
            # BrokerReconfigurables run once the new config is installed.
            for reconfigurable in broker_reconfigurables_to_update:
                reconfigurable.reconfigure(old_config, new_config)

    def _process_reconfiguration(
        self, new_props: Mapping[str, str], validate_only: bool
    ) -> tuple[KafkaConfig, list[BrokerReconfigurable]]:
        new_config = KafkaConfig(new_props, not validate_only)
        change_map, deleted_key_set = self._updated_configs(
            new_config.originals_from_this_config(), self._current_config.originals()
        )
        if not change_map and not deleted_key_set:
            return self._current_config, []
        try:
            for java_reconfigurable in list(self._reconfigurables):
                listener_name = getattr(java_reconfigurable, "listener_name", None)
                if listener_name is not None and listener_name() is not None:
                    self._process_listener_reconfigurable(
                        java_reconfigurable, listener_name(), new_config, validate_only
                    )
                elif self._needs_reconfiguration(
                    frozenset(java_reconfigurable.reconfigurable_configs()), change_map, deleted_key_set
                ):
                    self._process_reconfigurable(
                        java_reconfigurable, set(change_map) | deleted_key_set, new_config.values(), validate_only
                    )
            to_update: list[BrokerReconfigurable] = []
            for reconfigurable in self._broker_reconfigurables:
                if self._needs_reconfiguration(reconfigurable.reconfigurable_configs, change_map, deleted_key_set):
                    reconfigurable.validate_reconfiguration(new_config)
                    if not validate_only:
                        to_update.append(reconfigurable)
            return new_config, to_update
        except Exception as e:
            if not validate_only:
                self.error(f"Failed to update broker configuration with configs : {sorted(new_props)}", e)
            raise ConfigException("Invalid dynamic configuration") from e

    def _process_listener_reconfigurable(
        self,
        reconfigurable: Any,
        listener_name: Any,
        new_config: KafkaConfig,
        validate_only: bool,
        reload_only: bool = False,
    ) -> None:
        """A listener's channel builder sees its listener's values; it is reconfigured when one of its keys
        changed there (a new `listener.name.<l>.ssl.keystore.location`, say), or with `reload_only` even when none
        did (its SslFactory then rebuilds only for store files modified in place)."""
        prefix = listener_name.config_prefix()
        old_values = self._current_config.values_with_prefix_override(prefix)
        new_values = new_config.values_with_prefix_override(prefix)
        change_map, deleted_keys = self._updated_configs(new_values, old_values)
        updated_keys = set(change_map) | deleted_keys
        if self._needs_reconfiguration(frozenset(reconfigurable.reconfigurable_configs()), updated_keys, deleted_keys):
            self._process_reconfigurable(reconfigurable, updated_keys, new_values, validate_only)
        elif reload_only and not validate_only:
            reconfigurable.reconfigure(new_values)

    def _process_reconfigurable(
        self,
        reconfigurable: Any,
        updated_config_names: set[str],
        all_new_configs: Mapping[str, Any],
        validate_only: bool,
    ) -> None:
        new_configs = dict(all_new_configs)
        try:
            reconfigurable.validate_reconfiguration(new_configs)
        except ConfigException:
            raise
        except Exception as e:
            raise ConfigException(
                f"Validation of dynamic config update of {scala_set(sorted(updated_config_names))} failed with class "
                f"{type(reconfigurable).__name__}"
            ) from e
        if not validate_only:
            self.info(f"Reconfiguring {reconfigurable}, updated configs: {scala_set(sorted(updated_config_names))}")
            reconfigurable.reconfigure(new_configs)

    @staticmethod
    def _needs_reconfiguration(
        reconfigurable_configs: frozenset[str], updated_keys: Iterable[str], deleted_keys: Iterable[str]
    ) -> bool:
        return bool(reconfigurable_configs.intersection(updated_keys)) or bool(
            reconfigurable_configs.intersection(deleted_keys)
        )


_ATTACH_LOCK: Final = threading.Lock()


def broker_dynamic_config(config: object) -> DynamicBrokerConfig | None:
    """dynamic_config_of for a broker's KafkaConfig, None for anything else (a component's test stand-in), for
    the components that register Reconfigurables (Kafka's `config.addReconfigurable`) when they run in a broker."""
    return dynamic_config_of(config) if isinstance(config, KafkaConfig) else None


def dynamic_config_of(config: KafkaConfig) -> DynamicBrokerConfig:
    """Kafka's `config.dynamicConfig`: the DynamicBrokerConfig of this KafkaConfig (created on first use)."""
    existing = getattr(config, "dynamic_config", None)
    if isinstance(existing, DynamicBrokerConfig):
        return existing
    with _ATTACH_LOCK:
        existing = getattr(config, "dynamic_config", None)
        if not isinstance(existing, DynamicBrokerConfig):
            existing = DynamicBrokerConfig(config)
            config.dynamic_config = existing
        return existing
