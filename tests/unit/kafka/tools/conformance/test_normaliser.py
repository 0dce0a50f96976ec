"""Normalisation by field kind: identities become symbols, timestamps and texts placeholders, offsets relative to
the partition's base; everything else is kept."""

from __future__ import annotations

from kafka.common.message import (
    FetchResponseData,
    JoinGroupResponseData,
    ListOffsetsResponseData,
    MetadataResponseData,
    ProduceResponseData,
)
from kafka.common.message.spec import FieldSpec, Versions
from kafka.common.record.compression_type import CompressionType
from kafka.common.record.memory_records import MemoryRecords
from kafka.common.record.simple_record import SimpleRecord
from kafka.tools.conformance.field_kinds import Kind, classify
from kafka.tools.conformance.message_tree import KeyedList, Symbol, plain
from kafka.tools.conformance.normaliser import Normaliser

M = MetadataResponseData


def _metadata(broker_id: int, host: str, topics: list[str]) -> MetadataResponseData:
    return M(
        brokers=M.MetadataResponseBrokerCollection([M.MetadataResponseBroker(node_id=broker_id, host=host, port=9092)]),
        cluster_id="abc",
        controller_id=broker_id,
        topics=M.MetadataResponseTopicCollection(
            M.MetadataResponseTopic(
                name=name,
                partitions=[
                    M.MetadataResponsePartition(
                        partition_index=0, leader_id=broker_id, replica_nodes=[broker_id], isr_nodes=[broker_id]
                    )
                ],
            )
            for name in topics
        ),
    )


def test_kinds_come_from_the_definitions() -> None:
    """Names, types and entity types decide the kind; an unrelated field has none."""
    any_versions = Versions(0, 0x7FFF)
    assert (
        classify("MetadataResponse", FieldSpec("LeaderId", "int32", any_versions, entity_type="brokerId"))
        is Kind.BROKER_ID
    )
    assert classify("FetchResponse", FieldSpec("HighWatermark", "int64", any_versions)) is Kind.OFFSET
    assert classify("FetchRequest", FieldSpec("SessionEpoch", "int32", any_versions)) is None
    assert classify("FetchRequest", FieldSpec("CurrentLeaderEpoch", "int32", any_versions)) is Kind.LEADER_EPOCH
    assert classify("JoinGroupResponse", FieldSpec("Leader", "string", any_versions)) is Kind.MEMBER_ID
    assert classify("ProduceResponse", FieldSpec("LogAppendTimeMs", "int64", any_versions)) is Kind.TIMESTAMP
    assert classify("ProduceResponse", FieldSpec("ErrorCode", "int16", any_versions)) is None


def test_metadata_identities_become_symbols_numbered_by_appearance() -> None:
    """Broker ids, hosts, ports and the cluster id are replaced consistently; error codes and names stay."""
    tree = Normaliser().response(3, 9, _metadata(1001, "10.0.0.7", ["t"]))
    assert tree["brokers"] == [
        {"node_id": Symbol("broker_id", 1), "host": Symbol("host", 1), "port": Symbol("port", 1), "rack": None}
    ]
    assert tree["controller_id"] == Symbol("broker_id", 1) and tree["cluster_id"] == Symbol("cluster_id", 1)
    partition = tree["topics"][0]["partitions"][0]
    assert partition["leader_id"] == Symbol("broker_id", 1) and partition["error_code"] == 0
    assert tree["throttle_time_ms"] == "<throttle>" and tree["topics"][0]["name"] == "t"
    assert isinstance(tree["topics"], KeyedList) and tree["topics"].keys == ("name",)


def test_two_brokers_with_different_ids_normalise_alike() -> None:
    """The same session answered by broker 0 on localhost and by broker 1001 elsewhere, listing the topics in another
    order, gives equal trees."""
    a = Normaliser().response(3, 9, _metadata(0, "127.0.0.1", ["a", "b"]))
    b = Normaliser().response(3, 9, _metadata(1001, "kafka-1", ["b", "a"]))
    assert plain(a) != plain(b)  # the topics are listed in another order...
    from kafka.tools.conformance.comparer import compare

    assert compare(a, b) == []  # ...which a keyed collection does not care about


def test_sentinels_are_kept() -> None:
    """-1 (no leader), an empty member id and a null message mean something and are compared as they are."""
    body = _metadata(5, "h", ["t"])
    body.topics[0].partitions[0].leader_id = -1
    tree = Normaliser().response(3, 9, body)
    assert tree["topics"][0]["partitions"][0]["leader_id"] == -1
    join = Normaliser().response(11, 7, JoinGroupResponseData(error_code=79, member_id="m-1", leader=""))
    assert join["leader"] == "" and join["member_id"] == Symbol("member_id", 1) and join["generation_id"] == -1


def _produce(base: int) -> ProduceResponseData:
    P = ProduceResponseData
    return P(
        responses=P.TopicProduceResponseCollection(
            [
                P.TopicProduceResponse(
                    name="t",
                    partition_responses=[P.PartitionProduceResponse(index=0, base_offset=base, log_start_offset=0)],
                )
            ]
        )
    )


def test_offsets_are_relative_to_the_first_produce_of_the_partition() -> None:
    """The first Produce response of a partition sets its base: later offsets of the partition, in any message,
    read relative to it; -1 stays."""
    norm = Normaliser()
    assert norm.response(0, 9, _produce(120))["responses"][0]["partition_responses"][0]["base_offset"] == 0
    assert norm.response(0, 9, _produce(125))["responses"][0]["partition_responses"][0]["log_start_offset"] == -120
    L = ListOffsetsResponseData
    listed = L(
        topics=[
            L.ListOffsetsTopicResponse(
                name="t", partitions=[L.ListOffsetsPartitionResponse(partition_index=0, offset=130)]
            )
        ]
    )
    assert norm.response(2, 7, listed)["topics"][0]["partitions"][0]["offset"] == 10
    listed.topics[0].partitions[0].offset = -1
    assert norm.response(2, 7, listed)["topics"][0]["partitions"][0]["offset"] == -1
    assert norm.bases.bases == {("t", 0): 120}


def test_records_are_compared_by_content() -> None:
    """A fetched batch shows its records' keys and values; its offsets are relative, its producer id a symbol and
    its CRC checked rather than compared."""
    records = MemoryRecords.with_records(
        CompressionType.GZIP, SimpleRecord(1000, b"k1", b"v1"), SimpleRecord(1005, None, b"v2")
    )
    F = FetchResponseData
    fetch = F(
        responses=[
            F.FetchableTopicResponse(
                topic="t",
                partitions=[F.PartitionData(partition_index=0, high_watermark=2, records=records)],
            )
        ]
    )
    norm = Normaliser()
    norm.response(0, 9, _produce(0))
    tree = norm.response(1, 11, fetch)
    batch = tree["responses"][0]["partitions"][0]["records"]["batches"][0]
    assert batch["compression"] == "gzip" and batch["crc_valid"] is True and batch["base_offset"] == 0
    assert [(r["key"], r["value"]) for r in batch["records"]] == [(b"k1".hex(), b"v1".hex()), (None, b"v2".hex())]
    assert batch["base_timestamp"] == "<timestamp>"
    assert [r["timestamp_delta"] for r in batch["records"]] == [0, 5]  # create times: the deltas are the client's


def test_without_normalising_values_stay() -> None:
    """Normaliser(normalise=False) keeps every value, for reading a capture."""
    tree = Normaliser(normalise=False).response(3, 9, _metadata(1001, "h", ["t"]))
    assert tree["brokers"][0]["node_id"] == 1001 and tree["cluster_id"] == "abc" and tree["throttle_time_ms"] == 0
