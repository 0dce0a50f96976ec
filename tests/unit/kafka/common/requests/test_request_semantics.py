"""Per-API behaviour beyond error responses: accessors, builders and the version rules Java applies."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from kafka.common.errors import (
    CoordinatorNotAvailableException,
    InvalidConfigurationException,
    NoReassignmentInProgressException,
    UnsupportedVersionException,
)
from kafka.common.isolation_level import IsolationLevel
from kafka.common.message import (
    FetchResponseData,
    FindCoordinatorRequestData,
    JoinGroupResponseData,
    MetadataRequestData,
    OffsetFetchRequestData,
)
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.protocol.types import ZERO_UUID, Uuid
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.abstract_response import AbstractResponse
from kafka.common.requests.api_error import ApiError
from kafka.common.requests.fetch_request import FetchRequest
from kafka.common.requests.fetch_response import FetchResponse
from kafka.common.requests.find_coordinator_request import (
    FindCoordinatorRequestBuilder,
    NoBatchedFindCoordinatorsException,
)
from kafka.common.requests.join_group_request import JoinGroupRequest
from kafka.common.requests.join_group_response import JoinGroupResponse
from kafka.common.requests.metadata_request import MetadataRequest, MetadataRequestBuilder
from kafka.common.requests.offset_fetch_request import OffsetFetchRequest
from kafka.common.requests.offset_fetch_response import OffsetFetchResponse
from kafka.common.requests.produce_request import ProduceRequest
from kafka.common.topic_id_partition import TopicIdPartition

from .request_fixtures import filled_request


def test_api_error_message_rules() -> None:
    """The message is dropped when it is the error's default one and always for UNKNOWN_SERVER_ERROR."""
    assert ApiError.from_throwable(NoReassignmentInProgressException("custom")).message == "custom"
    default = Errors.COORDINATOR_NOT_AVAILABLE.message
    assert ApiError.from_throwable(CoordinatorNotAvailableException(default)).message is None
    assert ApiError.from_throwable(CoordinatorNotAvailableException()).message is None
    assert ApiError.from_throwable(RuntimeError("secret detail")) == ApiError(Errors.UNKNOWN_SERVER_ERROR, None)
    assert ApiError(Errors.NOT_CONTROLLER).message == Errors.NOT_CONTROLLER.message


def test_produce_request_accessors_and_records_stay_in_the_frame() -> None:
    """ProduceRequest exposes acks, timeout and transactional id; parsed records are views into the frame."""
    from kafka.common.record.memory_records import MemoryRecords

    data = filled_request(ApiKeys.PRODUCE, 9)
    data.transactional_id = "txn"
    data.topic_data[0].partition_data[0].records = MemoryRecords.readable_records(memoryview(b"\x00" * 70))
    frame = data.write(9)
    request = AbstractRequest.parse_request(ApiKeys.PRODUCE, 9, frame).request
    assert isinstance(request, ProduceRequest)
    assert (request.acks, request.timeout, request.transactional_id) == (1, 1, "txn")
    records = request.data.topic_data[0].partition_data[0].records
    assert records.buffer().obj is frame
    assert request.partition_sizes() == {(data.topic_data[0].name, 1): 70}
    request.clear_partition_records()
    assert request.partition_sizes() == {(data.topic_data[0].name, 1): 70}
    with pytest.raises(RuntimeError):
        _ = request.data
    assert ProduceRequest.required_magic_for_version(2) == 1
    assert ProduceRequest.for_magic(1, data).latest_allowed_version == 2


def test_fetch_request_accessors() -> None:
    """FetchRequest reads replica id from ReplicaState from v15, and partitions by name before v13."""
    data = filled_request(ApiKeys.FETCH, 12)
    request = FetchRequest(data, 12)
    assert request.isolation_level() is IsolationLevel.READ_COMMITTED
    assert (request.max_wait(), request.min_bytes(), request.replica_id()) == (1, 1, 1)
    assert request.is_from_follower()
    (key,) = request.fetch_data({})
    assert key.topic == data.topics[0].topic
    v15 = FetchRequest(filled_request(ApiKeys.FETCH, 15), 15)
    assert v15.replica_id() == 1
    topic_id = v15.data.topics[0].topic_id
    (key15,) = v15.fetch_data({topic_id: "named"})
    assert key15 == TopicIdPartition.of(topic_id, 1, "named")
    assert FetchRequest.describe_replica_id(-3) == "future local replica"


def test_fetch_error_response_v13_has_no_partitions() -> None:
    """From v13 a fetch error is only the top-level error code; before, every partition repeats it."""
    v12 = FetchRequest(filled_request(ApiKeys.FETCH, 12), 12).get_error_response(RuntimeError())
    v13 = FetchRequest(filled_request(ApiKeys.FETCH, 13), 13).get_error_response(RuntimeError())
    assert v12.error_counts() == {Errors.UNKNOWN_SERVER_ERROR: 2}
    assert v13.error_counts() == {Errors.UNKNOWN_SERVER_ERROR: 1}
    assert v12.data.responses[0].partitions[0].high_watermark == -1


def test_fetch_response_of_groups_consecutive_partitions() -> None:
    """FetchResponse.of keeps partition order, grouping only consecutive partitions of a topic."""
    parts = {
        TopicIdPartition.of(ZERO_UUID, 0, "a"): FetchResponseData.PartitionData(),
        TopicIdPartition.of(ZERO_UUID, 1, "a"): FetchResponseData.PartitionData(),
        TopicIdPartition.of(ZERO_UUID, 0, "b"): FetchResponseData.PartitionData(),
    }
    response = FetchResponse.of(Errors.NONE, 0, 7, parts)
    assert [(t.topic, [p.partition_index for p in t.partitions]) for t in response.data.responses] == [
        ("a", [0, 1]),
        ("b", [0]),
    ]
    assert response.session_id() == 7
    assert FetchResponse.size_of(12, parts.items()) == 4 + len(response.serialize(12))


def test_metadata_all_topics() -> None:
    """A null topic list asks for all topics, and so does an empty one at v0 only."""
    assert MetadataRequest(MetadataRequestData(topics=None), 1).is_all_topics()
    assert MetadataRequest(MetadataRequestData(topics=[]), 0).is_all_topics()
    assert not MetadataRequest(MetadataRequestData(topics=[]), 1).is_all_topics()
    assert MetadataRequest(MetadataRequestData(topics=[]), 1).topics() == []
    with pytest.raises(UnsupportedVersionException):
        MetadataRequestBuilder(["t"], allow_auto_topic_creation=False).build(3)
    assert MetadataRequestBuilder(["t"]).build(12).topics() == ["t"]


def test_metadata_error_response_names_topics_by_id() -> None:
    """A topic asked for by id only is answered with an empty name and its id."""
    data = MetadataRequestData(topics=MetadataRequest.convert_topic_ids_to_metadata_request_topic([Uuid(3, 4)]))
    response = MetadataRequest(data, 12).get_error_response(RuntimeError())
    topic = response.data.topics[0]
    assert (topic.name, topic.topic_id) == ("", Uuid(3, 4))


def test_offset_fetch_error_response_per_version() -> None:
    """The error goes into every partition at v0-1 (where a parsed response still finds the group error), at the
    top at v2-7 and per group from v8."""
    v1 = OffsetFetchRequest(filled_request(ApiKeys.OFFSET_FETCH, 1), 1)
    response = v1.get_error_response(CoordinatorNotAvailableException())
    assert response.error_counts() == {Errors.COORDINATOR_NOT_AVAILABLE: 2}
    parsed = AbstractResponse.parse_response(ApiKeys.OFFSET_FETCH, response.serialize(1), 1)
    assert isinstance(parsed, OffsetFetchResponse)
    assert parsed.error() is Errors.COORDINATOR_NOT_AVAILABLE
    v3 = OffsetFetchRequest(filled_request(ApiKeys.OFFSET_FETCH, 3), 3).get_error_response(RuntimeError())
    assert len(v3.data.topics) == 0
    assert v3.error_counts() == {Errors.UNKNOWN_SERVER_ERROR: 1}
    data = OffsetFetchRequestData()
    data.groups = [OffsetFetchRequestData.OffsetFetchRequestGroup(group_id=g, topics=None) for g in ("g1", "g2")]
    v8 = OffsetFetchRequest(data, 8).get_error_response(RuntimeError())
    assert v8.group_level_error("g2") is Errors.UNKNOWN_SERVER_ERROR
    assert v8.error_counts() == {Errors.UNKNOWN_SERVER_ERROR: 2}


def test_join_group_protocol_name_nullability() -> None:
    """The protocol name is "" below v7 and null from v7 when unknown."""
    assert JoinGroupResponse(JoinGroupResponseData(protocol_name=None), 6).data.protocol_name == ""
    assert JoinGroupResponse(JoinGroupResponseData(protocol_name=""), 7).data.protocol_name is None
    request = JoinGroupRequest(filled_request(ApiKeys.JOIN_GROUP, 0), 0)
    assert request.data.rebalance_timeout_ms == request.data.session_timeout_ms
    assert request.get_error_response(RuntimeError()).data.protocol_name == ""
    with pytest.raises(InvalidConfigurationException, match="Group instance id is invalid"):
        JoinGroupRequest.validate_group_instance_id("bad id")
    JoinGroupRequest.validate_group_instance_id("ok-id_1.2")


def test_find_coordinator_builder_moves_single_key() -> None:
    """A single batched key is sent as Key before v4; several keys need v4."""
    request = FindCoordinatorRequestBuilder(FindCoordinatorRequestData(coordinator_keys=["g"])).build(3)
    assert (request.data.key, list(request.data.coordinator_keys)) == ("g", [])
    with pytest.raises(NoBatchedFindCoordinatorsException):
        FindCoordinatorRequestBuilder(FindCoordinatorRequestData(coordinator_keys=["a", "b"])).build(3)
    old = request.get_error_response(CoordinatorNotAvailableException())
    assert (old.data.node_id, old.data.host, old.data.port) == (-1, "", -1)
    batched = FindCoordinatorRequestBuilder(FindCoordinatorRequestData(key="g")).build(4)
    response = batched.get_error_response(CoordinatorNotAvailableException())
    assert [c.key for c in response.coordinators()] == ["g"]


def _record_sets_for_produce_checks() -> list[object]:
    from kafka.common.record.compression_type import CompressionType
    from kafka.common.record.memory_records import MemoryRecords
    from kafka.common.record.simple_record import SimpleRecord

    def raw(records: MemoryRecords) -> bytes:
        return bytes(records.buffer())

    plain = raw(MemoryRecords.with_records(CompressionType.NONE, SimpleRecord(1, b"k", b"v")))
    legacy = raw(MemoryRecords.with_records(CompressionType.NONE, SimpleRecord(1, b"k", b"v"), magic=1))
    txn = raw(MemoryRecords.with_transactional_records(CompressionType.NONE, 7, 0, 0, SimpleRecord(1, b"k", b"v")))
    zstd = raw(MemoryRecords.with_records(CompressionType.ZSTD, SimpleRecord(1, b"k", b"v" * 50)))
    gzip = raw(MemoryRecords.with_records(CompressionType.GZIP, SimpleRecord(1, b"k", b"v")))
    bad_codec = bytearray(plain)
    bad_codec[22] |= 0x05  # attributes' low byte: codec id 5
    bad_size = bytearray(plain)
    bad_size[8:12] = (10).to_bytes(4, "big")
    small_size = bytearray(plain)
    small_size[8:12] = (40).to_bytes(4, "big")
    magic_3 = bytearray(plain)
    magic_3[16] = 3
    buffers = [plain, legacy, txn, zstd, gzip, plain + plain, txn + plain, plain + txn, plain[:-1], plain + b"\x00",
               plain + b"\x00" * 20, b"", b"\x00" * 11, bytes(bad_codec), bytes(bad_size), bytes(small_size),
               bytes(magic_3), legacy + plain, plain[:40]]  # fmt: skip
    return [MemoryRecords.readable_records(b) for b in buffers] + [None]


def _outcome(call: Callable[[], object]) -> object:
    try:
        return ("ok", call())
    except Exception as e:  # the exception is the outcome compared
        return (type(e), str(e))


def test_produce_record_checks_on_the_batch_header_equal_the_iterating_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    """validate_records and has_transactional_records read one magic-2 batch's header directly; for record sets of
    every shape (one batch plain, transactional or compressed, two batches, legacy, cut short, trailing bytes, bad
    size, codec or magic) and every version they answer, or fail, as the path over the batch iterator does."""
    from kafka.common.message import ProduceRequestData
    from kafka.common.requests import produce_request, request_utils

    def checks() -> list[object]:
        out: list[object] = []
        for records in _record_sets_for_produce_checks():
            for version in range(0, ApiKeys.PRODUCE.latest_version(True) + 1):
                out.append(_outcome(lambda: ProduceRequest.validate_records(version, records)))  # noqa: B023
            data = ProduceRequestData(acks=1, timeout_ms=1000)
            data.topic_data.append(
                ProduceRequestData.TopicProduceData(
                    name="t", partition_data=[ProduceRequestData.PartitionProduceData(index=0, records=records)]
                )
            )
            request = ProduceRequest(data, 8)
            out.append(_outcome(lambda: request_utils.has_transactional_records(request)))  # noqa: B023
        return out

    direct = checks()
    assert any(o == ("ok", True) for o in direct)  # a transactional batch was seen
    monkeypatch.setattr(request_utils, "single_v2_batch_attributes", lambda records: None)
    monkeypatch.setattr(produce_request, "single_v2_batch_attributes", lambda records: None)
    assert checks() == direct
