"""Tests of ZkAdminManager.describe_client_quotas / alter_client_quotas, after Kafka's ClientQuotasRequestTest:
storage paths and value formats in ZooKeeper (an in-memory stand-in), filters (exact, default, any, strict),
validate_only, removal, and Kafka's errors for bad entities, keys and values."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from kafka.common.errors import InvalidRequestException, UnsupportedVersionException
from kafka.common.protocol.errors import Errors
from kafka.common.quota import ClientQuotaAlteration, ClientQuotaEntity, ClientQuotaFilter, ClientQuotaFilterComponent
from tests.unit.kafka.server.test_zk_admin_manager import Env, FakeZkClient


class QuotaZkClient(FakeZkClient):
    """Adds the listing of entities with a config (children of a config path)."""

    def get_all_entities_with_config(self, entity_type: str) -> list[str]:
        root, _, rest = entity_type.partition("/")
        prefix = rest + "/" if rest else ""
        names = []
        for t, name in self.configs:
            if t == root and name.startswith(prefix) and "/" not in name[len(prefix) :]:
                names.append(name[len(prefix) :])
        return names


@pytest.fixture
def env() -> Iterator[Env]:
    e = Env()
    e.zk.__class__ = QuotaZkClient
    yield e
    e.manager.shutdown()


def alter(env: Env, entity: dict[str, str | None], validate_only: bool = False, **ops: float | None) -> tuple:
    quota_entity = ClientQuotaEntity(entity)
    alteration = ClientQuotaAlteration(quota_entity, [ClientQuotaAlteration.Op(k, v) for k, v in ops.items()])
    result = env.manager.alter_client_quotas([alteration], validate_only)[quota_entity]
    return result.error, result.message


def test_alter_stores_client_quotas_with_kafka_value_formats(env: Env) -> None:
    """LONG quotas are stored as integers, DOUBLE ones as Java prints doubles; names are sanitized; a change
    notification names the entity."""
    assert alter(env, {"client-id": "app 1"}, producer_byte_rate=1024.0, request_percentage=12.5) == (
        Errors.NONE,
        None,
    )
    assert env.zk.configs[("clients", "app%201")] == {"producer_byte_rate": "1024", "request_percentage": "12.5"}
    assert env.zk.notifications == ["clients/app%201"]


def test_alter_paths_for_users_pairs_and_defaults(env: Env) -> None:
    """Users, <user, client-id> pairs and the default entities land at Kafka's paths."""
    alter(env, {"user": None}, consumer_byte_rate=1.0)
    alter(env, {"user": "alice", "client-id": None}, consumer_byte_rate=2.0)
    alter(env, {"client-id": None}, controller_mutation_rate=3.0e7)
    assert env.zk.configs[("users", "<default>")] == {"consumer_byte_rate": "1"}
    assert env.zk.configs[("users", "alice/clients/<default>")] == {"consumer_byte_rate": "2"}
    assert env.zk.configs[("clients", "<default>")] == {"controller_mutation_rate": "3.0E7"}


def test_validate_only_writes_nothing(env: Env) -> None:
    """validate_only answers NONE without touching ZooKeeper."""
    assert alter(env, {"client-id": "c"}, validate_only=True, producer_byte_rate=5.0) == (Errors.NONE, None)
    assert ("clients", "c") not in env.zk.configs
    assert env.zk.notifications == []


def test_removal_deletes_the_key(env: Env) -> None:
    """A None value removes the key and leaves the others."""
    alter(env, {"client-id": "c"}, producer_byte_rate=5.0, consumer_byte_rate=6.0)
    alter(env, {"client-id": "c"}, producer_byte_rate=None)
    assert env.zk.configs[("clients", "c")] == {"consumer_byte_rate": "6"}


@pytest.mark.parametrize(
    ("entity", "ops", "message"),
    [
        ({}, {"producer_byte_rate": 1.0}, "Invalid empty client quota entity"),
        ({"widget": "w"}, {"producer_byte_rate": 1.0}, "Unhandled client quota entity type: widget"),
        ({"client-id": ""}, {"producer_byte_rate": 1.0}, "Empty client-id not supported"),
        ({"client-id": "c"}, {"foo": 1.0}, "Invalid configuration key foo"),
        ({"client-id": "c"}, {"producer_byte_rate": 1.5}, "Configuration producer_byte_rate must be a LONG value"),
        (
            {"user": "u", "ip": "127.0.0.1"},
            {"producer_byte_rate": 1.0},
            "Invalid quota entity combination, IP entity should not be used with user/client ID entity.",
        ),
        (
            {"ip": "127.0.0.1"},
            {"connection_creation_rate": 1.5},
            "Configuration connection_creation_rate must be a INT value",
        ),
    ],
)
def test_bad_alterations_are_invalid_request(
    env: Env, entity: dict[str, str | None], ops: dict[str, float], message: str
) -> None:
    """Bad entities, keys and non-integral values of integer quotas are INVALID_REQUEST with Kafka's messages."""
    assert alter(env, entity, validate_only=False, **ops) == (Errors.INVALID_REQUEST, message)
    assert env.zk.notifications == []


def test_ip_quota_is_stored(env: Env) -> None:
    """An IP's connection rate is an INT config under /config/ips."""
    assert alter(env, {"ip": "127.0.0.1"}, connection_creation_rate=10.0) == (Errors.NONE, None)
    assert env.zk.configs[("ips", "127.0.0.1")] == {"connection_creation_rate": "10"}


def _seed(env: Env) -> None:
    alter(env, {"user": "alice"}, producer_byte_rate=1.0)
    alter(env, {"user": None}, producer_byte_rate=2.0)
    alter(env, {"client-id": "c1"}, producer_byte_rate=3.0)
    alter(env, {"user": "alice", "client-id": "c1"}, producer_byte_rate=4.0)


def describe(env: Env, strict: bool, *components: ClientQuotaFilterComponent) -> dict[ClientQuotaEntity, dict]:
    quota_filter = ClientQuotaFilter.contains_only(components) if strict else ClientQuotaFilter.contains(components)
    return env.manager.describe_client_quotas(quota_filter)


def test_describe_filters(env: Env) -> None:
    """Exact, default and any components, strict or not, select the entities Kafka selects."""
    _seed(env)
    user = ClientQuotaEntity.USER
    client = ClientQuotaEntity.CLIENT_ID
    assert describe(env, True, ClientQuotaFilterComponent.of_entity(user, "alice")) == {
        ClientQuotaEntity({user: "alice"}): {"producer_byte_rate": 1.0}
    }
    assert describe(env, True, ClientQuotaFilterComponent.of_default_entity(user)) == {
        ClientQuotaEntity({user: None}): {"producer_byte_rate": 2.0}
    }
    assert set(describe(env, True, ClientQuotaFilterComponent.of_entity_type(user))) == {
        ClientQuotaEntity({user: "alice"}),
        ClientQuotaEntity({user: None}),
    }
    assert set(describe(env, False, ClientQuotaFilterComponent.of_entity(user, "alice"))) == {
        ClientQuotaEntity({user: "alice"}),
        ClientQuotaEntity({user: "alice", client: "c1"}),
    }
    both = describe(
        env,
        True,
        ClientQuotaFilterComponent.of_entity(user, "alice"),
        ClientQuotaFilterComponent.of_entity(client, "c1"),
    )
    assert both == {ClientQuotaEntity({user: "alice", client: "c1"}): {"producer_byte_rate": 4.0}}
    assert len(env.manager.describe_client_quotas(ClientQuotaFilter.all())) == 4


def test_describe_skips_entities_without_quota_keys(env: Env) -> None:
    """An entity whose config has no quota keys (e.g. only SCRAM credentials) is not described."""
    env.zk.configs[("users", "bob")] = {"SCRAM-SHA-256": "salt=..."}
    assert describe(env, False) == {}


@pytest.mark.parametrize(
    ("components", "exception", "message"),
    [
        (
            [ClientQuotaFilterComponent.of_entity_type("user"), ClientQuotaFilterComponent.of_entity_type("user")],
            InvalidRequestException,
            "Duplicate user filter component entity type",
        ),
        (
            [ClientQuotaFilterComponent.of_entity_type("")],
            InvalidRequestException,
            "Unexpected empty filter component entity type",
        ),
        (
            [ClientQuotaFilterComponent.of_entity_type("widget")],
            UnsupportedVersionException,
            "Custom entity type 'widget' not supported",
        ),
        (
            [ClientQuotaFilterComponent.of_entity_type("user"), ClientQuotaFilterComponent.of_entity_type("ip")],
            InvalidRequestException,
            "Invalid entity filter component combination, IP filter component should not be used with user or "
            "clientId filter component.",
        ),
    ],
)
def test_bad_filters_raise(
    env: Env, components: list[ClientQuotaFilterComponent], exception: type[Exception], message: str
) -> None:
    """Bad filters raise Kafka's exceptions (KafkaApis answers them as the request's error)."""
    with pytest.raises(exception) as info:
        describe(env, False, *components)
    assert str(info.value) == message
