"""ApiKeys lists what a ZooKeeper-mode 3.7 broker serves, and Errors every error code of 3.7."""

from __future__ import annotations

import pytest

from kafka.common import errors as e
from kafka.common.message import ApiMessageType, ListenerType
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors

ZK_KEYS = [*range(0, 52), 56, 57, 58, 60, 61, 65, 66, 67, 68, 69]


def test_api_keys_are_the_62_zk_broker_keys() -> None:
    """ApiKeys holds exactly the keys whose definitions list zkBroker (the README of the spec folder)."""
    assert sorted(k.id for k in ApiKeys) == ZK_KEYS
    assert len(ApiKeys) == 62
    for m in ApiMessageType:
        assert ApiKeys.has_id(m.api_key) == m.in_scope(ListenerType.ZK_BROKER)


@pytest.mark.parametrize(
    ("key", "oldest", "latest", "flexible_from"),
    [
        (ApiKeys.PRODUCE, 0, 10, 9),
        (ApiKeys.FETCH, 0, 16, 12),
        (ApiKeys.METADATA, 0, 12, 9),
        (ApiKeys.API_VERSIONS, 0, 3, 3),
        (ApiKeys.OFFSET_DELETE, 0, 0, None),
        (ApiKeys.SASL_HANDSHAKE, 0, 1, None),
        (ApiKeys.ALTER_PARTITION, 0, 3, 0),
    ],
)
def test_versions(key: ApiKeys, oldest: int, latest: int, flexible_from: int | None) -> None:
    """Oldest, latest and flexible versions are those of Kafka 3.7."""
    assert key.oldest_version == oldest
    assert key.latest_version() == latest
    if flexible_from is None:
        assert key.flexible_versions.empty
    else:
        assert key.flexible_versions.lowest == flexible_from


def test_unstable_latest_version_is_hidden() -> None:
    """ConsumerGroupDescribe's only version is unstable: not valid unless unstable versions are enabled."""
    assert not ApiKeys.CONSUMER_GROUP_DESCRIBE.has_valid_version()
    assert ApiKeys.CONSUMER_GROUP_DESCRIBE.has_valid_version(enable_unstable_last_version=True)
    assert ApiKeys.PRODUCE.has_valid_version()
    assert ApiKeys.CONSUMER_GROUP_DESCRIBE.latest_version() == 0
    assert ApiKeys.CONSUMER_GROUP_DESCRIBE.latest_version(False) == -1
    assert not ApiKeys.CONSUMER_GROUP_DESCRIBE.is_version_enabled(0, False)
    assert ApiKeys.API_VERSIONS.is_version_enabled(9, False)
    assert ApiKeys.PRODUCE.is_version_deprecated(0) and not ApiKeys.PRODUCE.is_version_deprecated(7)


def test_header_versions() -> None:
    """Flexible versions use request header v2 / response header v1; ApiVersions answers with header v0."""
    assert ApiKeys.PRODUCE.request_header_version(8) == 1
    assert ApiKeys.PRODUCE.request_header_version(9) == 2
    assert ApiKeys.PRODUCE.response_header_version(9) == 1
    assert ApiKeys.API_VERSIONS.response_header_version(3) == 0
    assert ApiKeys.CONTROLLED_SHUTDOWN.request_header_version(0) == 0


def test_cluster_actions() -> None:
    """Controller-to-broker APIs are cluster actions, client APIs are not."""
    assert ApiKeys.LEADER_AND_ISR.cluster_action and ApiKeys.UPDATE_METADATA.cluster_action
    assert not ApiKeys.PRODUCE.cluster_action
    assert ApiKeys.CREATE_TOPICS.forwardable
    assert ApiKeys.for_id(0) is ApiKeys.PRODUCE
    with pytest.raises(ValueError):
        ApiKeys.for_id(52)


def test_errors_table() -> None:
    """Every error code of 3.7 (-1 .. 119) is there with its name and class; retriable ones are retriable."""
    assert sorted(err.code for err in Errors) == list(range(-1, 120))
    assert Errors.for_code(3) is Errors.UNKNOWN_TOPIC_OR_PARTITION
    assert Errors.UNKNOWN_TOPIC_OR_PARTITION.retriable
    assert Errors.NOT_LEADER_OR_FOLLOWER.retriable
    assert not Errors.TOPIC_AUTHORIZATION_FAILED.retriable
    assert not Errors.NONE.retriable and Errors.NONE.exception() is None
    assert Errors.for_code(10_000) is Errors.UNKNOWN_SERVER_ERROR
    assert Errors.UNSUPPORTED_VERSION.code == 35
    assert Errors.CORRUPT_MESSAGE.exception_class is e.CorruptRecordException


def test_errors_for_exception() -> None:
    """An exception maps to its error through its class hierarchy; anything else is UNKNOWN_SERVER_ERROR."""
    for err in Errors:
        exc = err.exception("x")
        if exc is None:
            continue
        assert isinstance(exc, err.exception_class)  # type: ignore[arg-type]
        assert str(exc) == "x"
        assert Errors.for_exception(exc).exception_class is err.exception_class
    assert Errors.for_exception(RuntimeError("boom")) is Errors.UNKNOWN_SERVER_ERROR
    assert Errors.for_exception(e.NotLeaderOrFollowerException()) is Errors.NOT_LEADER_OR_FOLLOWER
    assert Errors.REQUEST_TIMED_OUT.message == "The request timed out."


def test_is_version_enabled_is_the_version_range_of_each_key() -> None:
    """is_version_enabled (its bounds kept per key after the first call) answers as the spec's range: oldest to
    latest, the unstable last version only when enabled; ApiVersions serves every version."""
    for key in ApiKeys:
        for version in range(-1, key.latest_version(True) + 3):
            for unstable in (True, False):
                expected = key is ApiKeys.API_VERSIONS or (
                    key.oldest_version <= version <= key.latest_version(unstable)
                )
                assert key.is_version_enabled(version, unstable) is expected, (key, version, unstable)
