"""Tests of FetchSessionHandler (kafka.clients.fetch_session_handler), after Java's FetchSessionHandlerTest:
sessionless fetches, incremental sessions adding/changing/removing partitions, session errors, and responses that
do not match the request."""

from __future__ import annotations

from typing import Any

import pytest

from kafka.clients.fetch_session_handler import FetchRequestData, FetchSessionHandler
from kafka.common.message import FetchResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.protocol.types import ZERO_UUID, Uuid
from kafka.common.requests.fetch_metadata import INITIAL_EPOCH, INVALID_SESSION_ID
from kafka.common.requests.fetch_request import PartitionData
from kafka.common.requests.fetch_response import FetchResponse
from kafka.common.topic_id_partition import TopicIdPartition
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.log_context import LogContext

# v12 has no topic ids; the latest version uses them.
VERSIONS = [12, ApiKeys.FETCH.latest_version()]
FOO0, FOO1, BAR0 = TopicPartition("foo", 0), TopicPartition("foo", 1), TopicPartition("bar", 0)


class _Ids:
    """Topic ids for versions that use them, ZERO_UUID before."""

    def __init__(self, version: int) -> None:
        self.version = version
        self.ids: dict[str, Uuid] = {}

    def __call__(self, topic: str) -> Uuid:
        if self.version < 13:
            return ZERO_UUID
        return self.ids.setdefault(topic, Uuid.random_uuid())


def _req(topic_id: Uuid, offset: int, log_start: int, max_bytes: int) -> PartitionData:
    return PartitionData(topic_id, offset, log_start, max_bytes, None)


def _resp(entries: list[tuple[TopicPartition, Uuid, int, int]]) -> dict[TopicIdPartition, Any]:
    """(partition, topic id, high watermark, last stable offset) → response partition data."""
    return {
        TopicIdPartition(topic_id, tp): FetchResponseData.PartitionData(
            error_code=Errors.NONE.code, high_watermark=hw, last_stable_offset=lso, log_start_offset=0
        )
        for tp, topic_id, hw, lso in entries
    }


def _offsets(data: Any) -> dict[TopicPartition, tuple[int, int, int]]:
    return {tp: (p.fetch_offset, p.log_start_offset, p.max_bytes) for tp, p in data.items()}


def _build(handler: FetchSessionHandler, parts: dict[TopicPartition, PartitionData]) -> FetchRequestData:
    builder = handler.new_builder()
    for tp, data in parts.items():
        builder.add(tp, data)
    return builder.build()


@pytest.mark.parametrize("version", VERSIONS)
def test_sessionless(version: int) -> None:
    """Without a session id from the broker, every request is full and carries every partition."""
    ids = _Ids(version)
    handler = FetchSessionHandler(LogContext(), 1)
    data = _build(handler, {FOO0: _req(ids("foo"), 0, 100, 200), FOO1: _req(ids("foo"), 10, 110, 210)})
    expected = {FOO0: (0, 100, 200), FOO1: (10, 110, 210)}
    assert _offsets(data.to_send()) == expected == _offsets(data.session_partitions())
    assert (data.metadata().session_id, data.metadata().epoch) == (INVALID_SESSION_ID, INITIAL_EPOCH)
    response = FetchResponse.of(
        Errors.NONE, 0, INVALID_SESSION_ID, _resp([(FOO0, ids("foo"), 0, 0), (FOO1, ids("foo"), 0, 0)])
    )
    assert handler.handle_response(response, version)
    data2 = _build(handler, {FOO0: _req(ids("foo"), 0, 100, 200)})
    assert (data2.metadata().session_id, data2.metadata().epoch) == (INVALID_SESSION_ID, INITIAL_EPOCH)
    assert _offsets(data2.to_send()) == {FOO0: (0, 100, 200)} == _offsets(data2.session_partitions())


@pytest.mark.parametrize("version", VERSIONS)
def test_incrementals(version: int) -> None:
    """Once the broker opens session 123, requests send only added or changed partitions; a session epoch error
    makes the next request full again, in the same session."""
    ids = _Ids(version)
    handler = FetchSessionHandler(LogContext(), 1)
    foo, bar = ids("foo"), ids("bar")
    data = _build(handler, {FOO0: _req(foo, 0, 100, 200), FOO1: _req(foo, 10, 110, 210)})
    assert data.metadata().session_id == INVALID_SESSION_ID and data.metadata().epoch == INITIAL_EPOCH
    assert handler.handle_response(
        FetchResponse.of(Errors.NONE, 0, 123, _resp([(FOO0, foo, 10, 20), (FOO1, foo, 10, 20)])), version
    )
    assert handler.session_id() == 123

    # adds bar-0 and changes foo-1
    data2 = _build(
        handler, {FOO0: _req(foo, 0, 100, 200), FOO1: _req(foo, 10, 120, 210), BAR0: _req(bar, 20, 200, 200)}
    )
    assert not data2.metadata().is_full()
    assert data2.metadata().session_id == 123 and data2.metadata().epoch == 1
    assert _offsets(data2.session_partitions()) == {FOO0: (0, 100, 200), FOO1: (10, 120, 210), BAR0: (20, 200, 200)}
    assert _offsets(data2.to_send()) == {BAR0: (20, 200, 200), FOO1: (10, 120, 210)}
    assert handler.handle_response(FetchResponse.of(Errors.NONE, 0, 123, _resp([(FOO1, foo, 20, 20)])), version)

    # an invalid epoch: the data is unusable and the next request starts the session over
    assert not handler.handle_response(
        FetchResponse.of(Errors.INVALID_FETCH_SESSION_EPOCH, 0, INVALID_SESSION_ID, {}), version
    )
    data4 = _build(
        handler, {FOO0: _req(foo, 0, 100, 200), FOO1: _req(foo, 10, 120, 210), BAR0: _req(bar, 20, 200, 200)}
    )
    assert data4.metadata().is_full()
    assert data4.metadata().session_id == 123 and data4.metadata().epoch == INITIAL_EPOCH
    assert (
        _offsets(data4.to_send())
        == _offsets(data4.session_partitions())
        == {
            FOO0: (0, 100, 200),
            FOO1: (10, 120, 210),
            BAR0: (20, 200, 200),
        }
    )


@pytest.mark.parametrize("version", VERSIONS)
def test_incremental_partition_removal(version: int) -> None:
    """A partition no longer added to the builder is sent as forgotten; with every partition gone, the request
    closes the session."""
    ids = _Ids(version)
    handler = FetchSessionHandler(LogContext(), 1)
    foo, bar = ids("foo"), ids("bar")
    _build(handler, {FOO0: _req(foo, 0, 100, 200), FOO1: _req(foo, 10, 110, 210), BAR0: _req(bar, 20, 120, 220)})
    assert handler.handle_response(
        FetchResponse.of(Errors.NONE, 0, 123, _resp([(FOO0, foo, 10, 20), (FOO1, foo, 10, 20), (BAR0, bar, 10, 20)])),
        version,
    )
    data2 = _build(handler, {FOO1: _req(foo, 10, 110, 210)})
    assert not data2.metadata().is_full() and data2.metadata().session_id == 123
    assert _offsets(data2.to_send()) == {}
    assert sorted((t.topic, t.partition) for t in data2.to_forget()) == [("bar", 0), ("foo", 0)]
    assert _offsets(data2.session_partitions()) == {FOO1: (10, 110, 210)}
    assert all(isinstance(t, TopicIdPartition) for t in data2.to_forget())

    # the session has no more partitions: the next request closes it and the one after is sessionless
    assert handler.handle_response(FetchResponse.of(Errors.NONE, 0, INVALID_SESSION_ID, {}), version)
    data3 = _build(handler, {})
    assert data3.metadata().session_id == INVALID_SESSION_ID and data3.metadata().epoch == INITIAL_EPOCH


def test_session_id_not_found_starts_over() -> None:
    """FETCH_SESSION_ID_NOT_FOUND makes the next request a new full session."""
    version = ApiKeys.FETCH.latest_version()
    ids = _Ids(version)
    handler = FetchSessionHandler(LogContext(), 1)
    _build(handler, {FOO0: _req(ids("foo"), 0, 100, 200)})
    assert handler.handle_response(FetchResponse.of(Errors.NONE, 0, 123, _resp([(FOO0, ids("foo"), 0, 0)])), version)
    assert not handler.handle_response(
        FetchResponse.of(Errors.FETCH_SESSION_ID_NOT_FOUND, 0, INVALID_SESSION_ID, {}), version
    )
    data = _build(handler, {FOO0: _req(ids("foo"), 0, 100, 200)})
    assert data.metadata().session_id == INVALID_SESSION_ID and data.metadata().epoch == INITIAL_EPOCH


def test_full_response_with_extra_or_missing_partitions_is_rejected() -> None:
    """A full response naming a partition that was not requested, or omitting one that was, is unusable."""
    version = 12
    handler = FetchSessionHandler(LogContext(), 1)
    _build(handler, {FOO0: _req(ZERO_UUID, 0, 100, 200), FOO1: _req(ZERO_UUID, 10, 110, 210)})
    assert not handler.handle_response(FetchResponse.of(Errors.NONE, 0, 123, _resp([(FOO0, ZERO_UUID, 0, 0)])), version)
    handler2 = FetchSessionHandler(LogContext(), 1)
    _build(handler2, {FOO0: _req(ZERO_UUID, 0, 100, 200)})
    assert not handler2.handle_response(
        FetchResponse.of(Errors.NONE, 0, 123, _resp([(FOO0, ZERO_UUID, 0, 0), (BAR0, ZERO_UUID, 0, 0)])),
        version,
    )


def test_incremental_response_with_unknown_partition_is_rejected() -> None:
    """An incremental response may leave partitions out but not name one outside the session."""
    version = 12
    handler = FetchSessionHandler(LogContext(), 1)
    _build(handler, {FOO0: _req(ZERO_UUID, 0, 100, 200), FOO1: _req(ZERO_UUID, 10, 110, 210)})
    assert handler.handle_response(
        FetchResponse.of(Errors.NONE, 0, 123, _resp([(FOO0, ZERO_UUID, 0, 0), (FOO1, ZERO_UUID, 0, 0)])), version
    )
    _build(handler, {FOO0: _req(ZERO_UUID, 1, 100, 200), FOO1: _req(ZERO_UUID, 10, 110, 210)})
    assert handler.handle_response(FetchResponse.of(Errors.NONE, 0, 123, {}), version)
    _build(handler, {FOO0: _req(ZERO_UUID, 2, 100, 200), FOO1: _req(ZERO_UUID, 10, 110, 210)})
    assert not handler.handle_response(FetchResponse.of(Errors.NONE, 0, 123, _resp([(BAR0, ZERO_UUID, 0, 0)])), version)
