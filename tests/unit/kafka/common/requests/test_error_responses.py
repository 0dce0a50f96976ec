"""Every API at every version answers any exception with an error response that survives the wire."""

from __future__ import annotations

import pytest

from kafka.common.errors import (
    ClusterAuthorizationException,
    NotLeaderOrFollowerException,
    UnknownTopicOrPartitionException,
)
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.abstract_response import AbstractResponse

from .request_fixtures import all_versions, filled_request

CASES = [(k, v) for k in ApiKeys for v in all_versions(k)]

# Where Java's error response has no field for the error at that version, the client sees only NONE.
_ERROR_NOT_ON_WIRE = {(ApiKeys.DESCRIBE_LOG_DIRS, v) for v in (0, 1, 2)}

EXCEPTIONS = [
    (UnknownTopicOrPartitionException("no such topic here"), Errors.UNKNOWN_TOPIC_OR_PARTITION),
    (NotLeaderOrFollowerException(), Errors.NOT_LEADER_OR_FOLLOWER),
    (ClusterAuthorizationException("denied"), Errors.CLUSTER_AUTHORIZATION_FAILED),
    (RuntimeError("boom"), Errors.UNKNOWN_SERVER_ERROR),
]


def _parsed_request(api_key: ApiKeys, version: int) -> AbstractRequest:
    data = filled_request(api_key, version)
    wire = data.write(version)
    parsed = AbstractRequest.parse_request(api_key, version, wire)
    assert parsed.size == len(wire)
    assert type(parsed.request).API_KEY is api_key
    assert parsed.request.serialize() == wire
    return parsed.request


@pytest.mark.parametrize(("api_key", "version"), CASES, ids=[f"{k.name}-v{v}" for k, v in CASES])
def test_error_response_round_trip(api_key: ApiKeys, version: int) -> None:
    """The error response of each exception serialises at the request's version and parses back with the error
    counted, and its counts equal those the request reports for that exception."""
    request = _parsed_request(api_key, version)
    for exc, expected in EXCEPTIONS:
        response = request.get_error_response(exc)
        assert response is not None, f"{api_key.name} v{version} gave no error response"
        assert response.api_key is api_key
        assert request.error_counts(exc) == response.error_counts()
        wire = response.serialize(version)
        parsed = AbstractResponse.parse_response(api_key, wire, version)
        assert type(parsed) is type(response)
        counts = parsed.error_counts()
        if (api_key, version) in _ERROR_NOT_ON_WIRE:
            assert counts == {Errors.NONE: 1}
        else:
            assert counts.get(expected, 0) >= 1, f"{api_key.name} v{version}: {expected} not in {counts}"
        assert parsed.serialize(version) == wire


@pytest.mark.parametrize(("api_key", "version"), CASES, ids=[f"{k.name}-v{v}" for k, v in CASES])
def test_error_response_throttle_time(api_key: ApiKeys, version: int) -> None:
    """A throttle time given to get_error_response reaches the wire wherever Java's error response carries it."""
    request = _parsed_request(api_key, version)
    response = request.get_error_response(123, NotLeaderOrFollowerException())
    assert response is not None
    parsed = AbstractResponse.parse_response(api_key, response.serialize(version), version)
    assert parsed.throttle_time_ms() in (0, 123)
    assert parsed.throttle_time_ms() == response.throttle_time_ms() or not _version_has_throttle(api_key, version)


def _version_has_throttle(api_key: ApiKeys, version: int) -> bool:
    for f in api_key.message_type.response_spec.fields:
        if f.name == "ThrottleTimeMs":
            return f.versions.contains(version)
    return False


# APIs whose Java error response leaves the throttle time out even where the response has the field.
_NO_THROTTLE_IN_ERROR = {
    ApiKeys.FIND_COORDINATOR,
    ApiKeys.INIT_PRODUCER_ID,
    ApiKeys.OFFSET_FOR_LEADER_EPOCH,
    ApiKeys.INCREMENTAL_ALTER_CONFIGS,
    ApiKeys.ALTER_USER_SCRAM_CREDENTIALS,
    ApiKeys.DESCRIBE_CLUSTER,
    ApiKeys.DESCRIBE_PRODUCERS,
}


@pytest.mark.parametrize("api_key", list(ApiKeys), ids=[k.name for k in ApiKeys])
def test_error_response_throttle_at_latest_version(api_key: ApiKeys) -> None:
    """At the latest version every API with a throttle field carries the given throttle time, except the few
    whose Java error response does not set it."""
    version = api_key.latest_version(True)
    request = _parsed_request(api_key, version)
    response = request.get_error_response(77, RuntimeError())
    assert response is not None
    parsed = AbstractResponse.parse_response(api_key, response.serialize(version), version)
    if _version_has_throttle(api_key, version) and api_key not in _NO_THROTTLE_IN_ERROR:
        assert parsed.throttle_time_ms() == 77
    else:
        assert parsed.throttle_time_ms() == 0
