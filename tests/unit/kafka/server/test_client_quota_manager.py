"""ClientQuotaManager, ClientRequestQuotaManager, ControllerMutationQuotaManager and ThrottledChannel: Kafka's quota
precedence, the throttle times they compute, dynamic updates, and the throttle notices the reaper sends."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from kafka.common.errors import ThrottlingQuotaExceededException
from kafka.common.metrics.metrics import Metrics
from kafka.common.metrics.quota import Quota
from kafka.common.security.auth.kafka_principal import KafkaPrincipal
from kafka.common.utils.time import MockTime
from kafka.network.request_channel import EndThrottlingResponse, Response, Session, StartThrottlingResponse
from kafka.server.client_quota_manager import ClientQuotaManager, ClientQuotaManagerConfig
from kafka.server.client_request_quota_manager import ClientRequestQuotaManager
from kafka.server.controller_mutation_quota_manager import (
    UNBOUNDED_CONTROLLER_MUTATION_QUOTA,
    ControllerMutationQuotaManager,
    PermissiveControllerMutationQuota,
    StrictControllerMutationQuota,
)
from kafka.server.replication_quota_manager import QuotaType
from tests.unit.kafka.network.test_request_channel import make_request
from tests.utils import wait_until_true

CONFIG = ClientQuotaManagerConfig(num_quota_samples=11, quota_window_size_seconds=1)


def session(user: str = "ANONYMOUS") -> Session:
    return Session(KafkaPrincipal(KafkaPrincipal.USER_TYPE, user), "127.0.0.1")


@pytest.fixture
def time() -> MockTime:
    return MockTime()


@pytest.fixture
def metrics(time: MockTime) -> Iterator[Metrics]:
    m = Metrics(time=time)
    yield m
    m.close()


@pytest.fixture
def produce(metrics: Metrics, time: MockTime) -> Iterator[ClientQuotaManager]:
    manager = ClientQuotaManager(CONFIG, metrics, QuotaType.PRODUCE, time, "")
    yield manager
    manager.shutdown()


def test_nothing_is_recorded_or_throttled_without_quotas(produce: ClientQuotaManager, metrics: Metrics) -> None:
    """Without any quota the manager neither throttles nor makes per-client sensors."""
    assert not produce.quotas_enabled
    assert produce.maybe_record_and_get_throttle_time_ms_for(session(), "c", 1e12, 0) == 0
    assert metrics.get_sensor("Produce-:c") is None


def test_client_id_quota_throttles_by_the_time_that_restores_the_rate(
    produce: ClientQuotaManager, time: MockTime
) -> None:
    """A client over its byte rate gets the delay (observed - bound) / bound x window; other clients are free."""
    produce.update_quota(None, "slow", "slow", Quota.upper_bound(1000))
    now = time.milliseconds()
    # Within the first window the rate is measured over the 10 whole windows: 10 s.
    assert produce.maybe_record_and_get_throttle_time_ms_for(session(), "slow", 9_000, now) == 0
    # 21 000 bytes over 10 s: 2100 B/s, 1.1 x over the bound -> 11 s.
    assert produce.maybe_record_and_get_throttle_time_ms_for(session(), "slow", 12_000, now) == 11_000
    assert produce.maybe_record_and_get_throttle_time_ms_for(session(), "other", 1e9, now) == 0


def test_quota_precedence_is_kafkas(produce: ClientQuotaManager) -> None:
    """The most specific quota wins: user+client, user+default client, user, default user+client, default user +
    default client, default user, client, default client."""
    levels = [
        (None, "<default>", 8.0),
        (None, "c", 7.0),
        ("<default>", None, 6.0),
        ("<default>", "<default>", 5.0),
        ("<default>", "c", 4.0),
        ("u", None, 3.0),
        ("u", "<default>", 2.0),
        ("u", "c", 1.0),
    ]
    for user, client, bound in levels:
        produce.update_quota(user, None if client in (None, "<default>") else client, client, Quota.upper_bound(bound))
    for user, client, bound in reversed(levels):
        assert produce.quota("u", "c").bound() == bound
        produce.update_quota(user, None if client in (None, "<default>") else client, client, None)
    assert produce.quota("u", "c").bound() == float(2**63 - 1)


def test_a_user_quota_is_shared_by_the_users_clients(produce: ClientQuotaManager, time: MockTime) -> None:
    """Under a user quota every client id of the user records into one sensor."""
    produce.update_quota("alice", None, None, Quota.upper_bound(1000))
    now = time.milliseconds()
    assert produce.maybe_record_and_get_throttle_time_ms_for(session("alice"), "a", 9_000, now) == 0
    assert produce.maybe_record_and_get_throttle_time_ms_for(session("alice"), "b", 12_000, now) > 0
    assert produce.maybe_record_and_get_throttle_time_ms_for(session("bob"), "b", 12_000, now) == 0


def test_updating_and_removing_a_quota_applies_to_existing_sensors(produce: ClientQuotaManager, time: MockTime) -> None:
    """A changed quota bounds a client at once (its sensor's metric config is replaced); a removed one frees it."""
    produce.update_quota(None, "c", "c", Quota.upper_bound(1_000_000))
    now = time.milliseconds()
    assert produce.maybe_record_and_get_throttle_time_ms_for(session(), "c", 20_000, now) == 0
    produce.update_quota(None, "c", "c", Quota.upper_bound(1000))
    assert produce.maybe_record_and_get_throttle_time_ms_for(session(), "c", 1, now) > 0
    produce.update_quota(None, "c", "c", None)
    assert produce.maybe_record_and_get_throttle_time_ms_for(session(), "c", 1, now) == 0


def test_max_value_in_quota_window(produce: ClientQuotaManager) -> None:
    """What one fetch may take without certain throttling: the quota times the whole windows."""
    assert produce.get_max_value_in_quota_window(session(), "c") == float("inf")
    produce.update_quota(None, "c", "c", Quota.upper_bound(1000))
    assert produce.get_max_value_in_quota_window(session(), "c") == 1000 * 10


def test_throttle_starts_at_once_and_ends_after_the_throttle_time(produce: ClientQuotaManager, time: MockTime) -> None:
    """throttle() tells the Processor at once, and the reaper ends the throttle when its time has passed."""
    produce.update_quota(None, "c", "c", Quota.upper_bound(1000))
    sent: list[Response] = []
    request = make_request(time=time)
    produce.throttle(request, 500, sent.append)
    assert [type(r) for r in sent] == [StartThrottlingResponse]
    time.sleep(499)
    assert len(sent) == 1
    time.sleep(1)
    wait_until_true(lambda: len(sent) == 2, "the throttle ended", timeout=5)
    assert isinstance(sent[1], EndThrottlingResponse) and sent[1].request is request
    produce.throttle(request, 0, sent.append)
    assert len(sent) == 2  # no throttle time, no throttle


def test_request_quota_throttle_is_at_most_one_window(metrics: Metrics, time: MockTime) -> None:
    """request_percentage: a client far over its share is held back at most one quota window."""
    manager = ClientRequestQuotaManager(CONFIG, metrics, time, "")
    try:
        manager.update_quota(None, "c", "c", Quota.upper_bound(1.0))
        request = make_request(time=time)
        request.request_dequeue_time_nanos = time.nanoseconds()
        time.sleep(5_000)  # five seconds of handler time: 500 % of a thread over the 10 s window
        request.api_local_complete_time_nanos = time.nanoseconds()
        client_id = request.header.client_id or ""
        manager.update_quota(None, client_id, client_id, Quota.upper_bound(1.0))
        assert manager.maybe_record_and_get_throttle_time_ms_for_request(request, time.milliseconds()) == 1000
        assert request.record_network_thread_time_callback is not None
    finally:
        manager.shutdown()


def test_controller_mutation_quotas(metrics: Metrics, time: MockTime) -> None:
    """controller_mutation_rate: a strict quota refuses once the bucket is spent and says for how long; a permissive
    one accepts and remembers the throttle time; without a quota the unbounded one is handed out."""
    manager = ControllerMutationQuotaManager(CONFIG, metrics, time, "")
    try:
        assert manager.new_strict_quota_for(session(), "c") is UNBOUNDED_CONTROLLER_MUTATION_QUOTA
        manager.update_quota(None, "c", "c", Quota.upper_bound(10.0))
        strict = manager.new_strict_quota_for(session(), "c")
        assert isinstance(strict, StrictControllerMutationQuota)
        # The bucket holds 11 windows' worth (110 permits) and refills at 10 permits/s.
        strict.record(100)
        strict.record(30)  # accepted while the bucket is not empty: it goes to -20
        assert not strict.is_exceeded
        with pytest.raises(ThrottlingQuotaExceededException) as e:
            strict.record(1)
        assert e.value.throttle_time_ms == 2_000  # 20 permits at 10/s
        assert strict.is_exceeded and strict.throttle_time == 2_000
        time.sleep(500)
        assert strict.throttle_time == 1_500
        permissive = manager.new_permissive_quota_for(session(), "c")
        assert isinstance(permissive, PermissiveControllerMutationQuota)
        permissive.record(5)
        assert not permissive.is_exceeded and permissive.throttle_time > 0
    finally:
        manager.shutdown()
