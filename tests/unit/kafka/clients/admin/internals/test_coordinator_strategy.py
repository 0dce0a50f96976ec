"""Tests of CoordinatorStrategy (Java's CoordinatorStrategyTest): batched and single FindCoordinator requests and
how their answers map, retry or fail each key."""

from __future__ import annotations

import pytest

from kafka.clients.admin.internals.coordinator_key import CoordinatorKey
from kafka.clients.admin.internals.coordinator_strategy import CoordinatorStrategy
from kafka.common.errors import GroupAuthorizationException, UnsupportedVersionException
from kafka.common.message import FindCoordinatorResponseData
from kafka.common.protocol.errors import Errors
from kafka.common.requests.find_coordinator_request import CoordinatorType, NoBatchedFindCoordinatorsException
from kafka.common.requests.find_coordinator_response import FindCoordinatorResponse
from kafka.common.utils.log_context import LogContext


def _strategy() -> CoordinatorStrategy:
    return CoordinatorStrategy(CoordinatorType.GROUP, LogContext())


def test_batched_request_and_scope() -> None:
    """With batching every key shares one scope and one v4+ request; an old broker cannot build it."""
    strategy = _strategy()
    a, b = CoordinatorKey.by_group_id("a"), CoordinatorKey.by_group_id("b")
    assert strategy.lookup_scope(a) is strategy.lookup_scope(b)
    builder = strategy.build_request({a, b})
    assert sorted(builder.build(4).data.coordinator_keys) == ["a", "b"]
    with pytest.raises(NoBatchedFindCoordinatorsException):
        strategy.build_request({a, b}).build(3)


def test_unbatched_request_and_scope() -> None:
    """Without batching each key has its own scope and a single-key request."""
    strategy = _strategy()
    strategy.disable_batch()
    a, b = CoordinatorKey.by_group_id("a"), CoordinatorKey.by_group_id("b")
    assert strategy.lookup_scope(a) != strategy.lookup_scope(b)
    assert strategy.lookup_scope(a) == strategy.lookup_scope(CoordinatorKey.by_group_id("a"))
    request = strategy.build_request({a}).build(3)
    assert (request.data.key, request.data.key_type) == ("a", 0)
    with pytest.raises(ValueError):
        strategy.build_request({a, b})


def test_response_maps_retries_and_fails_keys() -> None:
    """NONE maps a key to its node, COORDINATOR_NOT_AVAILABLE leaves it for another lookup, an authorization error
    fails it."""
    strategy = _strategy()
    keys = {CoordinatorKey.by_group_id(g) for g in ("ok", "later", "denied")}
    strategy.build_request(keys)
    response = FindCoordinatorResponse(
        FindCoordinatorResponseData(
            coordinators=[
                FindCoordinatorResponseData.Coordinator(key="ok", node_id=3, host="h", port=1),
                FindCoordinatorResponseData.Coordinator(
                    key="later", node_id=-1, error_code=Errors.COORDINATOR_NOT_AVAILABLE.code
                ),
                FindCoordinatorResponseData.Coordinator(
                    key="denied", node_id=-1, error_code=Errors.GROUP_AUTHORIZATION_FAILED.code
                ),
            ]
        )
    )
    result = strategy.handle_response(keys, response)
    assert dict(result.mapped_keys) == {CoordinatorKey.by_group_id("ok"): 3}
    (failed,) = result.failed_keys.items()
    assert failed[0] == CoordinatorKey.by_group_id("denied") and isinstance(failed[1], GroupAuthorizationException)


def test_old_response_answers_the_only_key() -> None:
    """A v0-3 response names no key: it answers the single key of its request."""
    strategy = _strategy()
    strategy.disable_batch()
    key = CoordinatorKey.by_group_id("g")
    strategy.build_request({key})
    response = FindCoordinatorResponse(FindCoordinatorResponseData(node_id=2, host="h", port=1))
    assert dict(strategy.handle_response({key}, response).mapped_keys) == {key: 2}


def test_unsupported_version_fails_all_keys_by_default() -> None:
    """An unsupported version fails every key of the lookup unless the strategy handles it."""
    strategy = _strategy()
    key = CoordinatorKey.by_group_id("g")
    exc = UnsupportedVersionException("old")
    assert strategy.handle_unsupported_version_exception(exc, {key}) == {key: exc}
