"""Client quotas end to end against our broker: kafka-configs.sh --alter/--describe for clients, users and
<user, client-id> pairs (named and default), our admin client's describeClientQuotas/alterClientQuotas, and the
quota configs as stored in ZooKeeper (`/config/clients/...`, `/config/users/...`) with their change notifications.
confluent-kafka has no client quota API, so ZooKeeper is read directly with kazoo."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from kazoo.client import KazooClient

from kafka.clients.admin.admin import Admin
from kafka.clients.admin.alter_client_quotas_options import AlterClientQuotasOptions
from kafka.common.errors import InvalidRequestException, UnsupportedVersionException
from kafka.common.kafka_future import ExecutionException, KafkaFuture
from kafka.common.quota import ClientQuotaAlteration, ClientQuotaEntity, ClientQuotaFilter, ClientQuotaFilterComponent
from tests.integration.broker import BrokerProcess

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
WAIT_MS = 30_000


@pytest.fixture(scope="module")
def broker(zookeeper: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[BrokerProcess]:
    work = Path(tmp_path_factory.mktemp("broker"))
    b = BrokerProcess(work, zookeeper.connect_string + "/quotas-" + work.name)
    b.start()
    yield b
    assert b.stop() == 0, b.console_tail()


@pytest.fixture
def admin(broker: BrokerProcess) -> Iterator[Admin]:
    client = Admin.create({"bootstrap.servers": broker.bootstrap, "client.id": "quota-test"})
    yield client
    client.close(30_000)


@pytest.fixture(scope="module")
def zk(broker: BrokerProcess) -> Iterator[KazooClient]:
    client = KazooClient(hosts=broker.zk_connect, timeout=10.0)
    client.start(timeout=10.0)
    yield client
    client.stop()
    client.close()


def configs(broker: BrokerProcess, *args: str) -> tuple[int, str, str]:
    done = subprocess.run(
        [str(ROOT / "bin" / "kafka-configs.sh"), "--bootstrap-server", broker.bootstrap, *args],
        capture_output=True,
        text=True,
        timeout=90,
    )
    assert "Traceback" not in done.stderr, done.stderr
    return done.returncode, done.stdout, done.stderr


def zk_config(zk: KazooClient, path: str) -> dict[str, str] | None:
    """The `config` map of /config/<path>, None when the znode does not exist."""
    if zk.exists("/config/" + path) is None:
        return None
    data, _ = zk.get("/config/" + path)
    config: dict[str, str] = json.loads(data)["config"]
    return config


def notified_entities(zk: KazooClient) -> list[str]:
    """The entity paths of the config change notifications (in sequence order)."""
    entities = []
    for child in sorted(zk.get_children("/config/changes")):
        data, _ = zk.get("/config/changes/" + child)
        entities.append(json.loads(data)["entity_path"])
    return entities


def cause(future: KafkaFuture[Any]) -> BaseException:
    with pytest.raises(ExecutionException) as info:
        future.get(WAIT_MS)
    return info.value.cause


def test_tool_alters_and_describes_client_quotas(broker: BrokerProcess, zk: KazooClient, admin: Admin) -> None:
    """kafka-configs.sh stores a client's quotas in /config/clients/<id> (LONG rates as integers, doubles as
    Java prints them), notifies the brokers, and describes them back in Kafka 2.8's line."""
    status, out, err = configs(
        broker,
        "--alter",
        "--entity-type",
        "clients",
        "--entity-name",
        "app 1",
        "--add-config",
        "producer_byte_rate=1024,request_percentage=12.5",
    )
    assert (status, out, err) == (0, "Completed updating config for client app 1.\n", "")
    assert zk_config(zk, "clients/app%201") == {"producer_byte_rate": "1024", "request_percentage": "12.5"}
    assert "clients/app%201" in notified_entities(zk)

    status, out, _ = configs(broker, "--describe", "--entity-type", "clients", "--entity-name", "app 1")
    assert status == 0
    assert out.startswith("Quota configs for client-id 'app 1' are ")
    assert sorted(out.strip().split(" are ")[1].split(", ")) == ["producer_byte_rate=1024.0", "request_percentage=12.5"]

    entities = (
        admin.describe_client_quotas(
            ClientQuotaFilter.contains_only(
                [ClientQuotaFilterComponent.of_entity(ClientQuotaEntity.CLIENT_ID, "app 1")]
            )
        )
        .entities()
        .get(WAIT_MS)
    )
    assert entities == {
        ClientQuotaEntity({"client-id": "app 1"}): {"producer_byte_rate": 1024.0, "request_percentage": 12.5}
    }

    # Deleting one key leaves the other in ZooKeeper.
    status, _, _ = configs(broker, "--alter", "--client", "app 1", "--delete-config", "producer_byte_rate")
    assert status == 0
    assert zk_config(zk, "clients/app%201") == {"request_percentage": "12.5"}


def test_default_and_user_client_quotas(broker: BrokerProcess, zk: KazooClient) -> None:
    """The default client id lives at /config/clients/<default>, a <user, client-id> pair under the user's
    znode; the tool describes both with Kafka's wording."""
    status, out, _ = configs(
        broker, "--alter", "--entity-type", "clients", "--entity-default", "--add-config", "consumer_byte_rate=2048"
    )
    assert (status, out) == (0, "Completed updating default config for clients in the cluster.\n")
    assert zk_config(zk, "clients/<default>") == {"consumer_byte_rate": "2048"}
    status, out, _ = configs(broker, "--describe", "--entity-type", "clients", "--entity-default")
    assert (status, out) == (0, "Quota configs for the default client-id are consumer_byte_rate=2048.0\n")

    pair = ["--entity-type", "users", "--entity-name", "alice", "--entity-type", "clients", "--entity-name", "c1"]
    status, _, err = configs(broker, "--alter", *pair, "--add-config", "controller_mutation_rate=10")
    assert status == 0, err
    assert zk_config(zk, "users/alice/clients/c1") == {"controller_mutation_rate": "10.0"}
    assert "users/alice/clients/c1" in notified_entities(zk)
    status, out, _ = configs(broker, "--describe", *pair)
    assert (status, out) == (
        0,
        "Quota configs for user-principal 'alice', client-id 'c1' are controller_mutation_rate=10.0\n",
    )

    status, _, err = configs(
        broker, "--alter", "--entity-type", "users", "--entity-default", "--add-config", "producer_byte_rate=100"
    )
    assert status == 0, err
    assert zk_config(zk, "users/<default>") == {"producer_byte_rate": "100"}
    status, out, _ = configs(broker, "--describe", "--entity-type", "users", "--entity-default")
    assert (status, out) == (0, "Quota configs for the default user-principal are producer_byte_rate=100.0\n")


def test_admin_client_validate_only_and_removal(admin: Admin, zk: KazooClient) -> None:
    """validate_only checks without writing; a None value removes the key (and the config stays a znode)."""
    entity = ClientQuotaEntity({ClientQuotaEntity.CLIENT_ID: "validate-me"})
    set_op = ClientQuotaAlteration(entity, [ClientQuotaAlteration.Op("producer_byte_rate", 4096.0)])
    admin.alter_client_quotas([set_op], AlterClientQuotasOptions().validate_only(True)).all().get(WAIT_MS)
    assert zk_config(zk, "clients/validate-me") is None

    admin.alter_client_quotas([set_op]).all().get(WAIT_MS)
    assert zk_config(zk, "clients/validate-me") == {"producer_byte_rate": "4096"}

    remove = ClientQuotaAlteration(entity, [ClientQuotaAlteration.Op("producer_byte_rate", None)])
    admin.alter_client_quotas([remove]).all().get(WAIT_MS)
    assert zk_config(zk, "clients/validate-me") == {}
    found = admin.describe_client_quotas(ClientQuotaFilter.all()).entities().get(WAIT_MS)
    assert entity not in found


def test_bad_alterations_give_kafka_errors(admin: Admin, zk: KazooClient) -> None:
    """Unknown keys, non-integral byte rates, unknown entity types and IP mixed with a client id are
    INVALID_REQUEST with Kafka's messages, per entity; nothing is written."""
    cases = [
        (ClientQuotaEntity({"client-id": "bad1"}), "foo", 1.0, "Invalid configuration key foo"),
        (
            ClientQuotaEntity({"client-id": "bad2"}),
            "producer_byte_rate",
            1.5,
            "Configuration producer_byte_rate must be a LONG value",
        ),
        (ClientQuotaEntity({"widget": "w"}), "producer_byte_rate", 1.0, "Unhandled client quota entity type: widget"),
        (
            ClientQuotaEntity({"client-id": "bad3", "ip": "127.0.0.1"}),
            "producer_byte_rate",
            1.0,
            "Invalid quota entity combination, IP entity should not be used with user/client ID entity.",
        ),
        (ClientQuotaEntity({"client-id": ""}), "producer_byte_rate", 1.0, "Empty client-id not supported"),
    ]
    alterations = [ClientQuotaAlteration(e, [ClientQuotaAlteration.Op(k, v)]) for e, k, v, _ in cases]
    futures = admin.alter_client_quotas(alterations).values()
    for entity, _, _, message in cases:
        error = cause(futures[entity])
        assert isinstance(error, InvalidRequestException)
        assert str(error) == message
    for name in ("bad1", "bad2", "bad3"):
        assert zk_config(zk, "clients/" + name) is None


def test_bad_filters_give_kafka_errors(admin: Admin) -> None:
    """A custom entity type is UNSUPPORTED_VERSION, a duplicate component INVALID_REQUEST, with Kafka's messages."""
    error = cause(
        admin.describe_client_quotas(
            ClientQuotaFilter.contains([ClientQuotaFilterComponent.of_entity_type("widget")])
        ).entities()
    )
    assert isinstance(error, UnsupportedVersionException)
    assert str(error) == "Custom entity type 'widget' not supported"
    duplicate = [
        ClientQuotaFilterComponent.of_entity_type("user"),
        ClientQuotaFilterComponent.of_default_entity("user"),
    ]
    error = cause(admin.describe_client_quotas(ClientQuotaFilter.contains(duplicate)).entities())
    assert isinstance(error, InvalidRequestException)
    assert str(error) == "Duplicate user filter component entity type"


def test_tool_refuses_non_quota_keys(broker: BrokerProcess) -> None:
    """The tool's own check: only quota configs for clients, with Kafka's line."""
    status, _, err = configs(broker, "--alter", "--client", "c9", "--add-config", "foo=1")
    assert (status, err) == (
        1,
        "Only quota configs can be added for 'clients' using --bootstrap-server. Unexpected config names: Set(foo)\n",
    )
