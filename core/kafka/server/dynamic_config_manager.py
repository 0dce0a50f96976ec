"""Port of core/src/main/scala/kafka/server/DynamicConfigManager.scala (Kafka 2.8).

Applies the dynamic configs kept in ZooKeeper to this broker, through one ConfigHandler per entity type
(`topics`, `brokers`, `clients`, `users`, `ips`).

An entity's overrides live in `/config/<entity type>/<entity name>` (`/config/users/<user>/clients/<client>`
for nested entities, `<default>` as the name of an entity type's defaults). Whoever changes them writes the znode
first, then a sequential notification `/config/changes/config_change_<n>` naming the entity:
`{"version":2,"entity_path":"topics/my-topic"}` (or the old form `{"version":1,"entity_type":"topics",
"entity_name":"my-topic"}`). Every broker follows `/config/changes` with a ZkNodeChangeNotificationListener and,
for each new notification, reads the entity's znode again and hands the whole set of overrides to the handler of
its type. The notification only says "look again"; the znode is the truth, so missed or repeated notifications
are harmless. Old notifications are deleted after `change_expiration_ms`.

At startup the configs of every entity the handlers care about are applied once, after the listener is set up,
so that no change can slip between the initial load and the watch.

# PORT: ConfigType and ConfigEntityName (companions in this Scala file) are defined in kafka.zk.zk_data, which
# needs them first; they are re-exported here. Kafka 2.8 does not hand `change_expiration_ms` and `time` on to its
# listener (it uses the listener's defaults); this port does, which is what the parameters are for.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

from kafka.common.utils.time import Time
from kafka.utils.logging import Logging
from kafka.zk.admin_zk_client import AdminZkClient
from kafka.zk.zk_data import (
    ConfigEntityChangeNotificationSequenceZNode,
    ConfigEntityChangeNotificationZNode,
    ConfigEntityName,
    ConfigType,
    parse_bytes,
)
from kafka.zk.zk_node_change_notification_listener import NotificationHandler, ZkNodeChangeNotificationListener

if TYPE_CHECKING:
    from kafka.server.config_handler import ConfigHandler
    from kafka.zk.kafka_zk_client import KafkaZkClient

__all__ = ["ConfigEntityName", "ConfigType", "DynamicConfigManager"]

_DEFAULT_CHANGE_EXPIRATION_MS: Final = 15 * 60 * 1000
#: ScramMechanism names: user configs holding SCRAM credentials, hidden in logs.
_SCRAM_MECHANISM_NAMES: Final = frozenset({"SCRAM-SHA-256", "SCRAM-SHA-512"})
_HIDDEN: Final = "[hidden]"


class DynamicConfigManager(Logging):
    """Watches `/config/changes` and applies changed entity configs through `config_handlers` (entity type ->
    handler)."""

    logger_name = "kafka.server.DynamicConfigManager"

    def __init__(
        self,
        zk_client: KafkaZkClient,
        config_handlers: Mapping[str, ConfigHandler],
        change_expiration_ms: int = _DEFAULT_CHANGE_EXPIRATION_MS,
        time: Time = Time.SYSTEM,
    ) -> None:
        self._zk_client = zk_client
        self._config_handlers = dict(config_handlers)
        self._change_expiration_ms = change_expiration_ms
        self._time = time
        self.admin_zk_client = AdminZkClient(zk_client)
        self._config_change_listener = ZkNodeChangeNotificationListener(
            zk_client,
            ConfigEntityChangeNotificationZNode.path,
            ConfigEntityChangeNotificationSequenceZNode.SEQUENCE_NUMBER_PREFIX,
            _ConfigChangedNotificationHandler(self),
            change_expiration_ms,
            time,
        )

    def startup(self) -> None:
        """Starts watching for changes, then applies the current config of every entity once."""
        self._config_change_listener.init()
        for config_type, handler in self._config_handlers.items():
            if config_type == ConfigType.USER:
                for sanitized_user, properties in self.admin_zk_client.fetch_all_entity_configs(
                    ConfigType.USER
                ).items():
                    handler.process_config_changes(sanitized_user, properties)
                child_configs = self.admin_zk_client.fetch_all_child_entity_configs(ConfigType.USER, ConfigType.CLIENT)
                for sanitized_user_client_id, properties in child_configs.items():
                    handler.process_config_changes(sanitized_user_client_id, properties)
            else:
                for entity_name, properties in self.admin_zk_client.fetch_all_entity_configs(config_type).items():
                    handler.process_config_changes(entity_name, properties)

    def shutdown(self) -> None:
        self._config_change_listener.close()

    # ---- notifications (on the listener's thread) -------------------------------------------------

    def _process_notification(self, json_bytes: bytes) -> None:
        js = parse_bytes(json_bytes)
        if js is None:
            return  # not JSON: a notification of the old TopicConfigManager, ignored as Kafka does
        text = json_bytes.decode("utf-8", "replace")
        if not isinstance(js, dict):
            raise ValueError(
                "Config change notification has an unexpected value. The format is:"
                '{"version" : 1, "entity_type":"topics/clients", "entity_name" : "topic_name/client_id"} or '
                '{"version" : 2, "entity_path":"entity_type/entity_name"}. '
                f"Received: {text}"
            )
        version = js.get("version")
        if version == 1 and not isinstance(version, bool):
            self._process_entity_config_change_version1(text, js)
        elif version == 2 and not isinstance(version, bool):
            self._process_entity_config_change_version2(text, js)
        else:
            raise ValueError(
                f"Config change notification has unsupported version '{version}', supported versions are 1 and 2."
            )

    def _process_entity_config_change_version1(self, text: str, js: Mapping[str, Any]) -> None:
        entity_type = js.get("entity_type")
        if entity_type not in (ConfigType.TOPIC, ConfigType.CLIENT):
            raise ValueError(
                "Version 1 config change notification must have 'entity_type' set to 'clients' or 'topics'. "
                f"Received: {text}"
            )
        entity = js.get("entity_name")
        if not isinstance(entity, str):
            raise ValueError(f"Version 1 config change notification does not specify 'entity_name'. Received: {text}")
        entity_config = self.admin_zk_client.fetch_entity_config(entity_type, entity)
        self.info(
            f"Processing override for entityType: {entity_type}, entity: {entity} with config: "
            f"{_properties_str(entity_config)}"
        )
        self._config_handlers[entity_type].process_config_changes(entity, entity_config)

    def _process_entity_config_change_version2(self, text: str, js: Mapping[str, Any]) -> None:
        entity_path = js.get("entity_path")
        if not isinstance(entity_path, str):
            raise ValueError(f"Version 2 config change notification must specify 'entity_path'. Received: {text}")
        index = entity_path.find("/")
        root_entity_type = entity_path[:index] if index >= 0 else ""
        if index < 0 or root_entity_type not in self._config_handlers:
            entity_types = ", ".join(f"'{entity_type}'/" for entity_type in self._config_handlers)
            raise ValueError(
                "Version 2 config change notification must have 'entity_path' starting with "
                f"one of {entity_types}. Received: {text}"
            )
        full_sanitized_entity_name = entity_path[index + 1 :]
        entity_config = self.admin_zk_client.fetch_entity_config(root_entity_type, full_sanitized_entity_name)
        loggable_config = {k: (_HIDDEN if k in _SCRAM_MECHANISM_NAMES else v) for k, v in entity_config.items()}
        self.info(f"Processing override for entityPath: {entity_path} with config: {_map_str(loggable_config)}")
        self._config_handlers[root_entity_type].process_config_changes(full_sanitized_entity_name, entity_config)


class _ConfigChangedNotificationHandler(NotificationHandler):
    """Kafka's inner object ConfigChangedNotificationHandler."""

    def __init__(self, manager: DynamicConfigManager) -> None:
        self._manager = manager

    def process_notification(self, notification_message: bytes) -> None:
        self._manager._process_notification(notification_message)


def _properties_str(props: Mapping[str, str]) -> str:
    """As java.util.Properties prints."""
    return "{" + ", ".join(f"{k}={v}" for k, v in props.items()) + "}"


def _map_str(props: Mapping[str, str]) -> str:
    """As a Scala Map prints."""
    return "Map(" + ", ".join(f"{k} -> {v}" for k, v in props.items()) + ")"
