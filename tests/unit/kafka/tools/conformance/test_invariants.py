"""Broker invariants: correlation ids and order per connection, the response header version, nothing outside the
version (exact reading and writing back, no unknown tagged field), every request answered but acks=0 produce."""

from __future__ import annotations

from kafka.common.message import (
    ApiMessageType,
    ApiVersionsRequestData,
    ApiVersionsResponseData,
    MetadataRequestData,
    MetadataResponseData,
    ProduceRequestData,
    ProduceResponseData,
)
from kafka.tools.conformance.frames import parse_request
from kafka.tools.conformance.invariants import ConnectionChecker, check_response
from tests.unit.kafka.tools.conformance.helpers import request_frame, response_frame

META = ApiMessageType.METADATA


def _checker(*requests: tuple[ApiMessageType, int, int, object]) -> ConnectionChecker:
    checker = ConnectionChecker(0)
    for api, version, cid, body in requests:
        checker.request_sent(parse_request(request_frame(api, version, cid, body)))
    return checker


def test_a_right_response_breaks_nothing() -> None:
    """A Metadata v9 response with a v1 header, read and written back exactly, has no violation."""
    checker = _checker((META, 9, 1, MetadataRequestData()))
    entry, decoded, violations = checker.response_received(
        response_frame(META, 9, 1, MetadataResponseData(cluster_id="c"))
    )
    assert violations == [] and entry is not None and decoded is not None and decoded.body.cluster_id == "c"
    assert checker.finish() == []


def test_api_versions_answers_with_header_v0_at_every_version() -> None:
    """An ApiVersions v3 response with a v1 header (a tagged-field byte) is named as the wrong header version."""
    body = ApiVersionsResponseData(error_code=0)
    assert check_response(response_frame(ApiMessageType.API_VERSIONS, 3, 1, body), 18, 3)[1] == []
    _, problems = check_response(response_frame(ApiMessageType.API_VERSIONS, 3, 1, body, header_version=1), 18, 3)
    assert problems == [("header-version", "response header v1 where ApiVersions v3 calls for v0")]
    _, problems = check_response(response_frame(META, 9, 1, MetadataResponseData(), header_version=0), 3, 9)
    assert problems == [("header-version", "response header v0 where Metadata v9 calls for v1")]


def test_bytes_after_the_body_are_an_encoding_violation() -> None:
    """A response with bytes its version does not have is reported with how many."""
    frame = response_frame(META, 4, 1, MetadataResponseData()) + b"\x00\x00"
    _, problems = check_response(frame, 3, 4)
    assert problems == [("encoding", "2 bytes left after the v4 body")]


def test_a_tagged_field_of_a_later_version_is_outside_the_version() -> None:
    """Produce v10's CurrentLeader tag in an answer to Produce v9 is a tagged field v9 does not have."""
    P = ProduceResponseData
    body = P(
        responses=P.TopicProduceResponseCollection(
            [
                P.TopicProduceResponse(
                    name="t",
                    partition_responses=[
                        P.PartitionProduceResponse(
                            index=0, current_leader=P.LeaderIdAndEpoch(leader_id=1, leader_epoch=2)
                        )
                    ],
                )
            ]
        )
    )
    frame = response_frame(ApiMessageType.PRODUCE, 10, 1, body)
    decoded, problems = check_response(frame, 0, 9)
    assert decoded is not None
    assert problems == [
        (
            "unknown-tagged-field",
            "tagged field 0 in responses[0].partition_responses[0] is not in the v9 definition of ProduceResponse",
        )
    ]


def test_out_of_order_and_unknown_correlation_ids() -> None:
    """Answering the second request first breaks the order; an id no request has is reported as such."""
    checker = _checker((META, 4, 1, MetadataRequestData()), (META, 4, 2, MetadataRequestData()))
    _, _, violations = checker.response_received(response_frame(META, 4, 2, MetadataResponseData()))
    assert [(v.rule, v.correlation_id, v.detail) for v in violations] == [
        ("order", 2, "answered before the earlier requests [1] of the connection")
    ]
    entry, _, violations = checker.response_received(response_frame(META, 4, 9, MetadataResponseData()))
    assert entry is None and [(v.rule, v.detail) for v in violations] == [
        ("correlation-id", "answers no request waiting on this connection (waiting: [1])")
    ]


def test_acks_zero_produce_must_not_be_answered_and_others_must() -> None:
    """A response to acks=0 is a violation; a request left unanswered is one at the end."""
    checker = _checker(
        (ApiMessageType.PRODUCE, 9, 1, ProduceRequestData(acks=0)),
        (ApiMessageType.API_VERSIONS, 3, 2, ApiVersionsRequestData()),
    )
    _, _, violations = checker.response_received(response_frame(ApiMessageType.PRODUCE, 9, 1, ProduceResponseData()))
    assert [v.detail for v in violations] == ["a response to a Produce with acks=0, which a broker must not answer"]
    assert [str(v) for v in checker.finish()] == ["conn 0, correlation id 2: unanswered: no response to ApiVersions v3"]
