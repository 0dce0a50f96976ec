"""Requests rewritten from replayed responses: member ids and generations, producer ids inside batches, offsets moved
to the replay's base, fetch sessions; a request nothing applies to goes out as recorded."""

from __future__ import annotations

from kafka.common.message import (
    ApiMessageType,
    FetchRequestData,
    FetchResponseData,
    InitProducerIdResponseData,
    JoinGroupResponseData,
    MetadataRequestData,
    ProduceRequestData,
    ProduceResponseData,
    SyncGroupRequestData,
)
from kafka.common.record.compression_type import CompressionType
from kafka.common.record.memory_records import MemoryRecords
from kafka.common.record.simple_record import SimpleRecord
from kafka.tools.conformance.decoder import decode_request, decode_response
from kafka.tools.conformance.rewriter import RequestRewriter
from tests.unit.kafka.tools.conformance.helpers import request_frame, response_frame


def _learn(rewriter: RequestRewriter, api: ApiMessageType, version: int, recorded: object, replayed: object) -> None:
    rewriter.learn(
        decode_response(response_frame(api, version, 1, recorded), api.api_key, version),
        decode_response(response_frame(api, version, 1, replayed), api.api_key, version),
    )


def test_member_id_and_generation_come_from_the_replayed_join() -> None:
    """SyncGroup goes out with the member id and generation the replay's JoinGroup gave, in every place they occur."""
    rewriter = RequestRewriter()
    _learn(
        rewriter,
        ApiMessageType.JOIN_GROUP,
        7,
        JoinGroupResponseData(generation_id=1, member_id="rec-1", leader="rec-1", protocol_name="range"),
        JoinGroupResponseData(generation_id=3, member_id="rep-9", leader="rep-9", protocol_name="range"),
    )
    S = SyncGroupRequestData
    recorded = request_frame(
        ApiMessageType.SYNC_GROUP,
        5,
        2,
        S(group_id="g", generation_id=1, member_id="rec-1", assignments=[S.SyncGroupRequestAssignment("rec-1", b"a")]),
    )
    frame, changes = rewriter.rewrite(recorded)
    body = decode_request(frame).body
    assert (body.member_id, body.generation_id, body.assignments[0].member_id) == ("rep-9", 3, "rep-9")
    assert body.assignments[0].assignment == b"a" and body.group_id == "g"
    assert changes == ["generation_id: 1 -> 3", "member_id: rec-1 -> rep-9", "assignments[0].member_id: rec-1 -> rep-9"]


def test_producer_id_and_epoch_are_patched_into_the_batches() -> None:
    """An idempotent batch recorded with producer 0 epoch 0 goes out with the replay's producer id and epoch and a CRC
    that matches them."""
    rewriter = RequestRewriter()
    _learn(
        rewriter,
        ApiMessageType.INIT_PRODUCER_ID,
        4,
        InitProducerIdResponseData(producer_id=0, producer_epoch=0),
        InitProducerIdResponseData(producer_id=4000, producer_epoch=2),
    )
    records = MemoryRecords.with_records(
        CompressionType.NONE, SimpleRecord(1, b"k", b"v"), producer_id=0, producer_epoch=0, base_sequence=0
    )
    P = ProduceRequestData
    recorded = request_frame(
        ApiMessageType.PRODUCE,
        9,
        3,
        P(
            acks=-1,
            timeout_ms=1000,
            topic_data=P.TopicProduceDataCollection(
                [P.TopicProduceData(name="t", partition_data=[P.PartitionProduceData(index=0, records=records)])]
            ),
        ),
    )
    frame, changes = rewriter.rewrite(recorded)
    batch = next(iter(decode_request(frame).body.topic_data[0].partition_data[0].records.batches()))
    assert (batch.producer_id(), batch.producer_epoch(), batch.base_sequence()) == (4000, 2, 0)
    assert batch.is_valid()
    assert changes == ["topic_data[0].partition_data[0].records: producer ids and epochs of the batches"]


def _produce(base: int) -> ProduceResponseData:
    P = ProduceResponseData
    return P(
        responses=P.TopicProduceResponseCollection(
            [
                P.TopicProduceResponse(
                    name="t", partition_responses=[P.PartitionProduceResponse(index=0, base_offset=base)]
                )
            ]
        )
    )


def test_fetch_offsets_and_session_move_to_the_replay() -> None:
    """A fetch recorded at offset 105 of a partition whose recorded base was 100 asks the replay for its base + 5, in
    the fetch session the replay's broker opened."""
    rewriter = RequestRewriter()
    _learn(rewriter, ApiMessageType.PRODUCE, 9, _produce(100), _produce(0))
    _learn(rewriter, ApiMessageType.FETCH, 11, FetchResponseData(session_id=77), FetchResponseData(session_id=12345))
    F = FetchRequestData
    recorded = request_frame(
        ApiMessageType.FETCH,
        11,
        4,
        F(
            session_id=77,
            session_epoch=1,
            topics=[
                F.FetchTopic(
                    topic="t", partitions=[F.FetchPartition(partition=0, fetch_offset=105, log_start_offset=-1)]
                )
            ],
        ),
    )
    frame, _ = rewriter.rewrite(recorded)
    body = decode_request(frame).body
    assert body.session_id == 12345 and body.session_epoch == 1
    assert body.topics[0].partitions[0].fetch_offset == 5 and body.topics[0].partitions[0].log_start_offset == -1


def test_a_request_nothing_applies_to_goes_out_as_recorded() -> None:
    """Without anything learned, and for bytes that are not a request, the recorded frame is sent unchanged."""
    rewriter = RequestRewriter()
    recorded = request_frame(ApiMessageType.METADATA, 9, 1, MetadataRequestData(topics=None))
    assert rewriter.rewrite(recorded) == (recorded, [])
    assert rewriter.rewrite(b"\x7f\x7f") == (b"\x7f\x7f", [])
