"""The shipped configs of the three-broker development cluster (`make run-cluster`): config/server-1.properties and
config/server-2.properties, beside config/server.properties, as in Kafka's quickstart."""

from __future__ import annotations

from pathlib import Path

import pytest

from kafka.cluster.end_point import EndPoint
from kafka.common.network.listener_name import ListenerName
from kafka.common.security.auth.security_protocol import SecurityProtocol
from kafka.common.utils.utils import load_props
from kafka.server.kafka_config import KafkaConfig

CONFIG_DIR = Path(__file__).resolve().parents[4] / "config"
PER_BROKER_KEYS = {"broker.id", "listeners", "log.dirs", "metrics.prometheus.port"}


def _comments(path: Path) -> list[str]:
    return [line for line in path.read_text().splitlines() if line.startswith("#")]


@pytest.mark.parametrize(
    ("name", "broker_id", "port", "log_dir", "metrics_port"),
    [
        ("server.properties", 0, 9092, "/tmp/kafka-logs", 7071),
        ("server-1.properties", 1, 9093, "/tmp/kafka-logs-1", 7072),
        ("server-2.properties", 2, 9094, "/tmp/kafka-logs-2", 7073),
    ],
)
def test_cluster_broker_configs_differ_only_in_id_port_and_log_dir(
    name: str, broker_id: int, port: int, log_dir: str, metrics_port: int
) -> None:
    """Each broker's file builds a valid KafkaConfig with its own id, ports and log dir; every other setting, and
    the comments, are those of server.properties."""
    props = load_props(str(CONFIG_DIR / name))
    config = KafkaConfig.from_props(props, do_log=False)
    assert config.broker_id == broker_id
    assert config.listeners == [EndPoint("localhost", port, ListenerName("PLAINTEXT"), SecurityProtocol.PLAINTEXT)]
    assert config.log_dirs == [log_dir]
    assert config.metrics_prometheus_port == metrics_port
    assert config.unused() == set()
    base = load_props(str(CONFIG_DIR / "server.properties"))
    assert set(props) == set(base)
    assert {k: v for k, v in props.items() if k not in PER_BROKER_KEYS} == {
        k: v for k, v in base.items() if k not in PER_BROKER_KEYS
    }
    base_comments = _comments(CONFIG_DIR / "server.properties")
    comments = _comments(CONFIG_DIR / name)
    assert [c for c in comments if c in base_comments] == base_comments
