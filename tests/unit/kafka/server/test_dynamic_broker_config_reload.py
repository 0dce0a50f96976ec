"""DynamicBrokerConfig.reload_updated_files_without_config_change (Kafka 2.8's reloadUpdatedFilesWithoutConfigChange):
an alter of the broker's own configs hands every listener that has keystore or truststore files its (unchanged)
values again, so that its SslFactory re-reads files replaced in place; other reconfigurables are left alone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kafka.common.network.listener_name import ListenerName
from kafka.server.config_handler import DynamicBrokerConfig
from kafka.server.kafka_config import KafkaConfig


class _Reconfigurable:
    def __init__(self, configs: frozenset[str], listener: str | None) -> None:
        self._configs = configs
        self._listener = listener
        self.reconfigured: list[dict[str, Any]] = []

    def listener_name(self) -> ListenerName | None:
        return ListenerName(self._listener) if self._listener is not None else None

    def reconfigurable_configs(self) -> frozenset[str]:
        return self._configs

    def validate_reconfiguration(self, configs: dict[str, Any]) -> None:
        pass

    def reconfigure(self, configs: dict[str, Any]) -> None:
        self.reconfigured.append(configs)


def test_listeners_with_store_files_are_reconfigured_with_unchanged_values(tmp_path: Path) -> None:
    config = KafkaConfig(
        {
            "zookeeper.connect": "localhost:2181",
            "broker.id": "0",
            "log.dirs": str(tmp_path),
            "listeners": "PLAINTEXT://127.0.0.1:0,SSL://127.0.0.1:0",
            "listener.security.protocol.map": "PLAINTEXT:PLAINTEXT,SSL:SSL",
            "listener.name.ssl.ssl.keystore.location": "/keystore.p12",
        },
        False,
    )
    dynamic = DynamicBrokerConfig(config)
    ssl_listener = _Reconfigurable(frozenset({"ssl.keystore.location", "ssl.keystore.password"}), "SSL")
    not_a_listener = _Reconfigurable(frozenset({"ssl.keystore.location"}), None)
    no_files = _Reconfigurable(frozenset({"max.connections"}), "SSL")
    for r in (ssl_listener, not_a_listener, no_files):
        dynamic.add_reconfigurable(r)
    same = {"listener.name.ssl.ssl.keystore.location": "/keystore.p12"}
    dynamic.validate(same, True)
    assert ssl_listener.reconfigured == []  # nothing changed: validation alone reconfigures nothing
    dynamic.reload_updated_files_without_config_change(same)
    assert len(ssl_listener.reconfigured) == 1
    assert ssl_listener.reconfigured[0]["ssl.keystore.location"] == "/keystore.p12"
    assert not_a_listener.reconfigured == [] and no_files.reconfigured == []
    # The stored configs did not change: the notification from ZooKeeper that follows reconfigures nothing more.
    dynamic.update_broker_config(0, same)
    assert len(ssl_listener.reconfigured) == 1
