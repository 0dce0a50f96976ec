"""DelegationTokenManager (Kafka 2.8's DelegationTokenManagerTest, over an in-memory ZooKeeper): create, renew,
expire and describe with Kafka's errors, the znode JSON, the expiry sweep, and a second broker's cache following
the change notifications."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json

import pytest

from kafka.common.protocol.errors import Errors
from kafka.common.security.auth.kafka_principal import KafkaPrincipal
from kafka.common.security.scram.internals.scram_formatter import ScramFormatter
from kafka.common.security.scram.internals.scram_mechanism import ScramMechanism
from kafka.common.security.token.delegation import DelegationToken, TokenInformation
from kafka.common.security.token.delegation.internals.delegation_token_cache import DelegationTokenCache
from kafka.common.utils.time import MockTime
from kafka.server.delegation_token_manager import (
    CreateTokenResult,
    DelegationTokenManager,
    _TokenChangedNotificationHandler,
)
from kafka.server.kafka_config import KafkaConfig
from kafka.zk.zk_data import DelegationTokenInfoZNode, DelegationTokensZNode

SECRET = "master-secret"
OWNER = KafkaPrincipal("User", "owner")
RENEWER = KafkaPrincipal("User", "renewer1")
OTHER = KafkaPrincipal("User", "other")
MAX_LIFE_MS = 7 * 24 * 3600 * 1000
RENEW_MS = 24 * 3600 * 1000


class FakeZkClient:
    """The token znodes of KafkaZkClient, kept in a dict (the JSON as Kafka writes it), and the notifications."""

    def __init__(self) -> None:
        self.nodes: dict[str, bytes] = {}
        self.notifications: list[str] = []

    def create_delegation_token_paths(self) -> None:
        pass

    def get_children(self, path: str) -> list[str]:
        assert path == DelegationTokensZNode.path
        return [p.rsplit("/", 1)[1] for p in self.nodes]

    def set_or_create_delegation_token(self, token: DelegationToken) -> None:
        self.nodes[DelegationTokenInfoZNode.path(token.token_info().token_id)] = DelegationTokenInfoZNode.encode(token)

    def get_delegation_token_info(self, token_id: str) -> TokenInformation | None:
        data = self.nodes.get(DelegationTokenInfoZNode.path(token_id))
        return None if data is None else DelegationTokenInfoZNode.decode(data)

    def delete_delegation_token(self, token_id: str) -> bool:
        return self.nodes.pop(DelegationTokenInfoZNode.path(token_id), None) is not None

    def create_token_change_notification(self, token_id: str) -> None:
        self.notifications.append(token_id)


def _config(**extra: str) -> KafkaConfig:
    props = {"zookeeper.connect": "localhost:2181", "broker.id": "0", **extra}
    return KafkaConfig.from_props(props, do_log=False)


def _manager(
    zk: FakeZkClient, time: MockTime, secret: str | None = SECRET
) -> tuple[DelegationTokenManager, DelegationTokenCache]:
    config = _config(**({"delegation.token.secret.key": secret} if secret else {}))
    cache = DelegationTokenCache(ScramMechanism.mechanism_names())
    # The manager is used without startup(): the ZooKeeper notification listener needs a real ZooKeeper (the
    # integration tests cover it); the notifications are handed to the handler directly below.
    return DelegationTokenManager(config, cache, time, zk), cache  # type: ignore[arg-type]


def _create(manager: DelegationTokenManager, renewers: list[KafkaPrincipal], max_life: int = -1) -> CreateTokenResult:
    results: list[CreateTokenResult] = []
    manager.create_token(OWNER, OWNER, renewers, max_life, results.append)
    assert len(results) == 1
    return results[0]


def _call(fn: object, *args: object) -> tuple[Errors, int]:
    out: list[tuple[Errors, int]] = []
    fn(*args, lambda e, ts: out.append((e, ts)))  # type: ignore[operator]
    return out[0]


@pytest.fixture
def env() -> tuple[FakeZkClient, MockTime]:
    return FakeZkClient(), MockTime()


def test_create_token_hmac_is_hmac_sha512_of_the_id_and_is_stored_as_kafka_json(
    env: tuple[FakeZkClient, MockTime],
) -> None:
    """A new token's HMAC is HMAC-SHA512(secret, id); ZooKeeper holds Kafka's JSON; the cache has its SCRAM
    credentials made from the base64 HMAC."""
    zk, time = env
    manager, cache = _manager(zk, time)
    now = time.milliseconds()
    result = _create(manager, [RENEWER])
    assert result.error is Errors.NONE
    assert result.hmac == hmac.new(SECRET.encode(), result.token_id.encode(), hashlib.sha512).digest()
    assert (result.issue_timestamp, result.expiry_timestamp, result.max_timestamp) == (
        now,
        now + RENEW_MS,
        now + MAX_LIFE_MS,
    )
    stored = json.loads(zk.nodes[DelegationTokenInfoZNode.path(result.token_id)])
    assert stored == {
        "version": 3,
        "owner": "User%3Aowner",
        "tokenRequester": "User%3Aowner",
        "renewers": ["User%3Arenewer1"],
        "issueTimestamp": now,
        "maxTimestamp": now + MAX_LIFE_MS,
        "expiryTimestamp": now + RENEW_MS,
        "tokenId": result.token_id,
    }
    assert zk.notifications == [result.token_id]
    assert cache.owner(result.token_id) == "owner"
    password = base64.b64encode(result.hmac).decode()
    for mechanism in ScramMechanism:
        credential = cache.credential(mechanism.mechanism_name, result.token_id)
        assert credential is not None
        formatter = ScramFormatter(mechanism)
        salted = formatter.hi(formatter.normalize(password), credential.salt, credential.iterations)
        assert formatter.stored_key(formatter.client_key(salted)) == credential.stored_key


def test_max_lifetime_is_capped_by_the_broker_config(env: tuple[FakeZkClient, MockTime]) -> None:
    zk, time = env
    manager, _ = _manager(zk, time)
    now = time.milliseconds()
    short = _create(manager, [], max_life=60_000)
    assert (short.max_timestamp, short.expiry_timestamp) == (now + 60_000, now + 60_000)
    long = _create(manager, [], max_life=10 * MAX_LIFE_MS)
    assert long.max_timestamp == now + MAX_LIFE_MS


def test_token_auth_disabled_without_a_secret(env: tuple[FakeZkClient, MockTime]) -> None:
    """Without delegation.token.secret.key every call answers DELEGATION_TOKEN_AUTH_DISABLED and ZooKeeper is
    untouched."""
    zk, time = env
    manager, _ = _manager(zk, time, secret=None)
    assert _create(manager, []).error is Errors.DELEGATION_TOKEN_AUTH_DISABLED
    assert _call(manager.renew_token, OWNER, b"x", -1) == (Errors.DELEGATION_TOKEN_AUTH_DISABLED, -1)
    assert _call(manager.expire_token, OWNER, b"x", -1) == (Errors.DELEGATION_TOKEN_AUTH_DISABLED, -1)
    assert zk.nodes == {} and zk.notifications == []


def test_renew_by_owner_and_renewer_and_errors(env: tuple[FakeZkClient, MockTime]) -> None:
    zk, time = env
    manager, cache = _manager(zk, time)
    token = _create(manager, [RENEWER], max_life=3 * RENEW_MS)
    time.sleep(1000)
    assert _call(manager.renew_token, OTHER, token.hmac, -1) == (Errors.DELEGATION_TOKEN_OWNER_MISMATCH, -1)
    assert _call(manager.renew_token, OWNER, b"not-a-token", -1) == (Errors.DELEGATION_TOKEN_NOT_FOUND, -1)
    error, expiry = _call(manager.renew_token, RENEWER, token.hmac, 2 * RENEW_MS)
    assert (error, expiry) == (Errors.NONE, time.milliseconds() + 2 * RENEW_MS)
    info = cache.token(token.token_id)
    assert info is not None and info.expiry_timestamp == expiry
    assert json.loads(zk.nodes[DelegationTokenInfoZNode.path(token.token_id)])["expiryTimestamp"] == expiry
    # Never past the maximum timestamp.
    error, expiry = _call(manager.renew_token, OWNER, token.hmac, 10 * RENEW_MS)
    assert (error, expiry) == (Errors.NONE, token.max_timestamp)
    time.sleep(3 * RENEW_MS)
    assert _call(manager.renew_token, OWNER, token.hmac, -1) == (Errors.DELEGATION_TOKEN_EXPIRED, -1)


def test_expire_now_removes_the_token_and_later_sets_the_expiry(env: tuple[FakeZkClient, MockTime]) -> None:
    zk, time = env
    manager, cache = _manager(zk, time)
    first = _create(manager, [RENEWER])
    second = _create(manager, [])
    assert _call(manager.expire_token, RENEWER, second.hmac, -1) == (Errors.DELEGATION_TOKEN_OWNER_MISMATCH, -1)
    error, expiry = _call(manager.expire_token, OWNER, second.hmac, 5000)
    assert (error, expiry) == (Errors.NONE, time.milliseconds() + 5000)
    assert _call(manager.expire_token, RENEWER, first.hmac, -1) == (Errors.NONE, time.milliseconds())
    assert cache.token(first.token_id) is None
    assert cache.credential("SCRAM-SHA-256", first.token_id) is None
    assert cache.token_for_hmac(base64.b64encode(first.hmac).decode()) is None
    assert DelegationTokenInfoZNode.path(first.token_id) not in zk.nodes
    assert _call(manager.expire_token, OWNER, first.hmac, -1) == (Errors.DELEGATION_TOKEN_NOT_FOUND, -1)
    # The controller's delete-expired-tokens sweep removes the second once its expiry has passed.
    manager.expire_tokens()
    assert cache.token(second.token_id) is not None
    time.sleep(5001)
    manager.expire_tokens()
    assert cache.token(second.token_id) is None
    assert zk.nodes == {}


def test_describe_filter(env: tuple[FakeZkClient, MockTime]) -> None:
    """Owners, requesters and renewers see their tokens; others need Describe on the token or DescribeTokens on
    its owner; an owners list keeps only their tokens."""
    zk, time = env
    manager, _ = _manager(zk, time)
    token = _create(manager, [RENEWER])
    info = manager.get_token(token.token_id)
    assert info is not None and info.hmac() == token.hmac

    def visible(requester: KafkaPrincipal, owners: list[KafkaPrincipal] | None, by_token: bool, by_owner: bool) -> bool:
        return bool(
            manager.get_tokens(
                lambda t: DelegationTokenManager.filter_token(
                    requester, owners, t, lambda _id: by_token, lambda _owner: by_owner
                )
            )
        )

    assert visible(OWNER, None, False, False)
    assert visible(RENEWER, None, False, False)
    assert not visible(OTHER, None, False, False)
    assert visible(OTHER, None, True, False)
    assert visible(OTHER, None, False, True)
    assert not visible(OWNER, [OTHER], True, True)
    assert visible(OTHER, [RENEWER], True, False)


def test_second_broker_follows_the_change_notifications(env: tuple[FakeZkClient, MockTime]) -> None:
    """Another broker's cache learns a new token, its renewal and its removal from the notifications."""
    zk, time = env
    manager, _ = _manager(zk, time)
    other, other_cache = _manager(zk, time)
    handler = _TokenChangedNotificationHandler(other)
    token = _create(manager, [])
    assert other_cache.token(token.token_id) is None
    handler.process_notification(token.token_id.encode())
    assert other_cache.owner(token.token_id) == "owner"
    assert other_cache.credential("SCRAM-SHA-512", token.token_id) is not None
    error, expiry = _call(manager.renew_token, OWNER, token.hmac, 1000)
    assert error is Errors.NONE
    handler.process_notification(token.token_id.encode())
    renewed = other_cache.token(token.token_id)
    assert renewed is not None and renewed.expiry_timestamp == expiry
    # The second broker can now serve renewals itself (it knows the HMAC).
    assert _call(other.renew_token, OWNER, token.hmac, 2000)[0] is Errors.NONE
    assert _call(manager.expire_token, OWNER, token.hmac, -1)[0] is Errors.NONE
    handler.process_notification(token.token_id.encode())
    assert other_cache.token(token.token_id) is None
    assert other_cache.credential("SCRAM-SHA-512", token.token_id) is None


def test_znode_json_of_a_2_8_broker_is_read_with_the_owner_as_requester() -> None:
    data = (
        b'{"version":1,"owner":"User%3Aalice","renewers":["User%3Abob"],"issueTimestamp":1,'
        b'"maxTimestamp":3,"expiryTimestamp":2,"tokenId":"abc"}'
    )
    info = DelegationTokenManager.from_bytes(data)
    assert info is not None
    assert (info.token_id, info.owner, info.token_requester, info.renewers) == (
        "abc",
        KafkaPrincipal("User", "alice"),
        KafkaPrincipal("User", "alice"),
        [KafkaPrincipal("User", "bob")],
    )
    assert (info.issue_timestamp, info.max_timestamp, info.expiry_timestamp) == (1, 3, 2)
    assert DelegationTokenManager.from_bytes(b"") is None
    with pytest.raises(ValueError):
        DelegationTokenManager.from_bytes(data.replace(b'"version":1', b'"version":9'))
