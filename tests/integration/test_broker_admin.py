"""Topic and config administration through confluent-kafka's AdminClient against a broker started with
bin/kafka-server-start.sh, and a start-up failure that names its cause and exits 1."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import confluent_kafka as ck
import pytest
from confluent_kafka.admin import (
    AdminClient,
    AlterConfigOpType,
    ConfigEntry,
    ConfigResource,
    NewPartitions,
    NewTopic,
)

from tests.integration.broker import ROOT, BrokerProcess
from tests.utils import wait_until_true

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def broker(zookeeper, tmp_path_factory: pytest.TempPathFactory) -> Iterator[BrokerProcess]:  # type: ignore[no-untyped-def]
    work = Path(tmp_path_factory.mktemp("admin"))
    b = BrokerProcess(work, zookeeper.connect_string + "/admin-" + work.name, overrides={"no.such.broker.key": "x"})
    b.start()
    yield b
    assert b.stop() == 0, b.console_tail()


@pytest.fixture
def admin(broker: BrokerProcess) -> AdminClient:
    return AdminClient({"bootstrap.servers": broker.bootstrap})


def test_unknown_broker_key_is_logged_as_unused(broker: BrokerProcess) -> None:
    """A key the broker does not know is reported in Kafka's words and does not stop it."""
    assert "The configuration 'no.such.broker.key' was supplied but isn't a known config." in broker.console_tail(10**7)


def test_describe_and_alter_topic_configs(admin: AdminClient) -> None:
    """A topic created with an override shows it as a topic config; an incremental alter changes it and a
    describe afterwards shows the new value, with defaults reported as defaults."""
    admin.create_topics([NewTopic("configured", 1, 1, config={"retention.ms": "3600000"})])["configured"].result(30)
    resource = ConfigResource(ConfigResource.Type.TOPIC, "configured")
    described = admin.describe_configs([resource])[resource].result(30)
    assert described["retention.ms"].value == "3600000"
    assert not described["retention.ms"].is_default
    assert described["cleanup.policy"].is_default
    # Set in config/server.properties (log.segment.bytes): a static broker config, not a default.
    assert not described["segment.bytes"].is_default
    change = ConfigResource(
        ConfigResource.Type.TOPIC,
        "configured",
        incremental_configs=[ConfigEntry("retention.ms", "7200000", incremental_operation=AlterConfigOpType.SET)],
    )
    admin.incremental_alter_configs([change])[change].result(30)

    def changed() -> bool:
        return admin.describe_configs([resource])[resource].result(30)["retention.ms"].value == "7200000"

    wait_until_true(changed, "the altered retention.ms to show", 30)


def test_unknown_topic_config_is_refused(admin: AdminClient) -> None:
    """Creating a topic with a config Kafka does not know fails with INVALID_CONFIG."""
    future = admin.create_topics([NewTopic("badconfig", 1, 1, config={"no.such.config": "1"})])["badconfig"]
    with pytest.raises(ck.KafkaException) as info:
        future.result(30)
    assert info.value.args[0].code() == ck.KafkaError.INVALID_CONFIG


def test_create_partitions_and_describe_cluster(admin: AdminClient, broker: BrokerProcess) -> None:
    """Adding partitions shows in metadata; describe_cluster names this broker as the controller."""
    admin.create_topics([NewTopic("growing", 1, 1)])["growing"].result(30)
    admin.create_partitions([NewPartitions("growing", 4)])["growing"].result(30)
    wait_until_true(lambda: len(admin.list_topics(timeout=10).topics["growing"].partitions) == 4, "4 partitions", 30)
    cluster = admin.describe_cluster().result(30)
    assert cluster.controller.id == 0
    assert [n.port for n in cluster.nodes] == [broker.port]


def test_delete_records_moves_the_log_start(admin: AdminClient, broker: BrokerProcess) -> None:
    """Deleting records before offset 5 makes the low watermark 5."""
    admin.create_topics([NewTopic("trimmed", 1, 1)])["trimmed"].result(30)
    producer = ck.Producer({"bootstrap.servers": broker.bootstrap})
    for i in range(10):
        producer.produce("trimmed", value=f"{i}".encode(), partition=0)
    assert producer.flush(30) == 0
    tp = ck.TopicPartition("trimmed", 0, 5)
    result = admin.delete_records([tp])[tp].result(30)
    assert result.low_watermark == 5
    consumer = ck.Consumer({"bootstrap.servers": broker.bootstrap, "group.id": "unused", "enable.auto.commit": False})
    try:
        assert consumer.get_watermark_offsets(ck.TopicPartition("trimmed", 0), timeout=10) == (5, 10)
    finally:
        consumer.close()


def test_invalid_config_value_stops_startup(zookeeper, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """An invalid value stops start-up with a line naming the key and the value, and exit code 1."""
    done = subprocess.run(  # the timeout makes a broker that does not exit fail the test
        [
            str(ROOT / "bin" / "kafka-server-start.sh"),
            str(ROOT / "config" / "server.properties"),
            "--override",
            "num.io.threads=many",
            "--override",
            f"zookeeper.connect={zookeeper.connect_string}/invalid",
            "--override",
            f"log.dirs={tmp_path / 'logs'}",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": "/usr/bin:/bin", "LOG_DIR": str(tmp_path / "applogs")},
    )
    assert done.returncode == 1
    output = done.stdout + done.stderr
    assert "num.io.threads" in output and "many" in output
    assert "FATAL" in output
