"""KafkaApis' Fetch, what it hands the ReplicaManager and what it records, after the fetch cases of Kafka's
KafkaApisTest: the client metadata of Fetch v11+ (KIP-392), the leader replication quota for a follower's fetch
and the unbounded one for a consumer's, the size of a follower response's throttled partitions recorded against
the leader quota (sizeOfThrottledPartitions), and the preferred read replica carried to the consumer."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from kafka.common.message import FetchRequestData
from kafka.common.metrics.metrics import Metrics
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.protocol.types import ZERO_UUID
from kafka.common.record.compression_type import CompressionType
from kafka.common.record.memory_records import MemoryRecords
from kafka.common.record.simple_record import SimpleRecord
from kafka.common.replica.client_metadata import ClientMetadata
from kafka.common.requests.fetch_response import FetchResponse
from kafka.common.security.auth.kafka_principal import KafkaPrincipal
from kafka.common.topic_id_partition import TopicIdPartition
from kafka.common.topic_partition import TopicPartition
from kafka.server.client_quota_manager import ClientQuotaManager, ClientQuotaManagerConfig
from kafka.server.client_request_quota_manager import ClientRequestQuotaManager
from kafka.server.controller_mutation_quota_manager import ControllerMutationQuotaManager
from kafka.server.fetch_session import FetchManager, FetchSessionCache
from kafka.server.quota_factory import UNBOUNDED_QUOTA, QuotaManagers
from kafka.server.replica_manager import FetchPartitionData
from kafka.server.replication_quota_manager import QuotaType
from tests.unit.kafka.server.test_kafka_apis import Harness, _harness
from tests.unit.kafka.server.test_replica_manager_fetch_from_follower import RecordingQuota

T0 = TopicPartition("t", 0)
T1 = TopicPartition("t", 1)


def _records(*values: bytes) -> MemoryRecords:
    built = MemoryRecords.with_records(CompressionType.NONE, *(SimpleRecord(0, b"k", v) for v in values))
    return MemoryRecords.readable_records(bytearray(built.buffer()))


class FetchingReplicaManager:
    """Answers every fetch at once with the records the test gave for each partition; keeps what it was asked."""

    def __init__(self, records: dict[TopicPartition, MemoryRecords], preferred: int | None = None) -> None:
        self.records = records
        self.preferred = preferred
        self.calls: list[dict[str, Any]] = []

    def is_adding_replica(self, tp: TopicPartition, replica_id: int) -> bool:
        return False

    def fetch_messages(
        self,
        timeout: int,
        replica_id: int,
        fetch_min_bytes: int,
        fetch_max_bytes: int,
        hard_max_bytes_limit: bool,
        fetch_infos: Any,
        quota: Any,
        response_callback: Any,
        isolation_level: Any,
        client_metadata: ClientMetadata | None,
    ) -> None:
        self.calls.append({"replica_id": replica_id, "quota": quota, "client_metadata": client_metadata})
        response_callback(
            [
                (
                    tp,
                    FetchPartitionData(
                        Errors.NONE,
                        10,
                        0,
                        self.records.get(tp, MemoryRecords.EMPTY),
                        None,
                        10,
                        None,
                        self.preferred,
                        False,
                    ),
                )
                for tp, _ in fetch_infos
            ]
        )

    def get_log_config(self, tp: TopicPartition) -> None:
        return None

    def try_complete_actions(self) -> None:
        pass


_made_quota_managers: list[QuotaManagers] = []


@pytest.fixture(autouse=True)
def _shutdown_quota_managers() -> Iterator[None]:
    """Stops the ThrottledChannelReaper threads of the client quota managers a test made."""
    yield
    while _made_quota_managers:
        _made_quota_managers.pop().shutdown()


def _fetch_harness(replica_manager: FetchingReplicaManager) -> tuple[Harness, RecordingQuota]:
    h = _harness({"t": 2})
    leader_quota = RecordingQuota({T0}, exceeded=False)
    h.apis.replica_manager = replica_manager  # type: ignore[assignment]
    h.apis.fetch_manager = FetchManager(h.time, FetchSessionCache(1000, 120_000))
    metrics = Metrics(time=h.time)
    config = ClientQuotaManagerConfig()
    h.apis.quotas = QuotaManagers(
        ClientQuotaManager(config, metrics, QuotaType.FETCH, h.time),
        ClientQuotaManager(config, metrics, QuotaType.PRODUCE, h.time),
        ClientRequestQuotaManager(config, metrics, h.time),
        ControllerMutationQuotaManager(config, metrics, h.time),
        leader_quota,  # type: ignore[arg-type]
        RecordingQuota(set(), False),  # type: ignore[arg-type]
        RecordingQuota(set(), False),  # type: ignore[arg-type]
    )
    _made_quota_managers.append(h.apis.quotas)
    return h, leader_quota


def _fetch(replica_id: int, rack_id: str = "", session_epoch: int = -1) -> FetchRequestData:
    return FetchRequestData(
        replica_id=replica_id,
        max_wait_ms=0,
        min_bytes=0,
        session_epoch=session_epoch,
        rack_id=rack_id,
        topics=[
            FetchRequestData.FetchTopic(
                topic="t",
                partitions=[
                    FetchRequestData.FetchPartition(partition=p, fetch_offset=0, partition_max_bytes=1 << 20)
                    for p in (0, 1)
                ],
            )
        ],
    )


@pytest.mark.parametrize("version", [11, 12])
def test_consumer_fetch_v11_carries_client_metadata_and_no_replication_quota(version: int) -> None:
    """A consumer's Fetch v11+ reaches the ReplicaManager with its rack, client id, address, principal and
    listener, under the unbounded quota; nothing is recorded against the leader quota."""
    rm = FetchingReplicaManager({T0: _records(b"a")})
    h, leader_quota = _fetch_harness(rm)
    response = h.handle(ApiKeys.FETCH, version, _fetch(-1, rack_id="rack-b"))
    assert response.data.error_code == 0
    [call] = rm.calls
    assert call["quota"] is UNBOUNDED_QUOTA
    assert call["client_metadata"] == ClientMetadata(
        "rack-b", "test-client", "127.0.0.1", KafkaPrincipal.ANONYMOUS, "PLAINTEXT"
    )
    assert leader_quota.recorded == []


def test_consumer_fetch_before_v11_has_no_client_metadata() -> None:
    """Fetch v10 and older carry no rack: the consumer reads from the leader only."""
    rm = FetchingReplicaManager({T0: _records(b"a")})
    h, _ = _fetch_harness(rm)
    h.handle(ApiKeys.FETCH, 10, _fetch(-1))
    [call] = rm.calls
    assert call["client_metadata"] is None and call["quota"] is UNBOUNDED_QUOTA


def test_preferred_read_replica_reaches_the_consumer() -> None:
    """The preferred read replica the ReplicaManager names is in the v11 response; -1 when there is none."""
    h, _ = _fetch_harness(FetchingReplicaManager({}, preferred=2))
    response = h.handle(ApiKeys.FETCH, 11, _fetch(-1, rack_id="rack-c"))
    assert [p.preferred_read_replica for t in response.data.responses for p in t.partitions] == [2, 2]
    h, _ = _fetch_harness(FetchingReplicaManager({}))
    response = h.handle(ApiKeys.FETCH, 11, _fetch(-1, rack_id="rack-c"))
    assert [p.preferred_read_replica for t in response.data.responses for p in t.partitions] == [-1, -1]


@pytest.mark.parametrize("version", [9, 12])
def test_follower_fetch_uses_the_leader_quota_and_records_its_throttled_partitions(version: int) -> None:
    """A follower's fetch is read under quotas.leader, and the size of a response holding only the throttled
    partition (t-0, not t-1) is recorded against it, on the v10+ direct path and the converting one alike."""
    records = {T0: _records(b"a", b"b"), T1: _records(b"c" * 100)}
    rm = FetchingReplicaManager(records)
    h, leader_quota = _fetch_harness(rm)
    response = h.handle(ApiKeys.FETCH, version, _fetch(1))
    assert response.data.error_code == 0
    [call] = rm.calls
    assert call["quota"] is leader_quota and call["replica_id"] == 1
    sizes = {p.partition_index: FetchResponse.records_size(p) for t in response.data.responses for p in t.partitions}
    assert sizes == {0: records[T0].size_in_bytes(), 1: records[T1].size_in_bytes()}
    [recorded] = leader_quota.recorded
    [partition_0] = [p for t in response.data.responses for p in t.partitions if p.partition_index == 0]
    assert recorded == FetchResponse.size_of(version, [(TopicIdPartition.of(ZERO_UUID, 0, "t"), partition_0)])
    assert records[T0].size_in_bytes() < recorded < records[T0].size_in_bytes() + records[T1].size_in_bytes()


def test_follower_fetch_with_no_throttled_partition_records_only_the_response_overhead() -> None:
    """Without throttled partitions in the response, what is recorded is the size of an empty response, as
    Kafka's sizeOfThrottledPartitions gives."""
    rm = FetchingReplicaManager({T1: _records(b"c" * 100)})
    h, leader_quota = _fetch_harness(rm)
    leader_quota.throttled = set()
    h.handle(ApiKeys.FETCH, 12, _fetch(1))
    assert leader_quota.recorded == [FetchResponse.size_of(12, [])]


@pytest.mark.parametrize("version", [4, 12])
def test_consumer_and_follower_fetches_mark_the_bytes_they_send(version: int) -> None:
    """A consumer's fetched records count in its topics' and all topics' BytesOutPerSec (the topic's partitions
    added up), a follower's in ReplicationBytesOutPerSec alone; both through the v10+ path and the older one."""
    from kafka.server.kafka_request_handler import BrokerTopicMetrics, BrokerTopicStats

    rm = FetchingReplicaManager({T0: _records(b"a" * 100), T1: _records(b"b" * 300, b"c")})
    h, _ = _fetch_harness(rm)
    stats = BrokerTopicStats()
    h.apis.broker_topic_stats = stats
    expected = _records(b"a" * 100).size_in_bytes() + _records(b"b" * 300, b"c").size_in_bytes()
    replication = stats.all_topics_stats.meter(BrokerTopicMetrics.REPLICATION_BYTES_OUT_PER_SEC)
    before = (stats.topic_stats("t").bytes_out_rate.count, stats.all_topics_stats.bytes_out_rate.count)
    replication_before = replication.count
    h.handle(ApiKeys.FETCH, version, _fetch(-1))
    assert stats.topic_stats("t").bytes_out_rate.count - before[0] == expected
    assert stats.all_topics_stats.bytes_out_rate.count - before[1] == expected
    assert replication.count == replication_before
    h.handle(ApiKeys.FETCH, version, _fetch(1))
    assert replication.count - replication_before == expected
    assert stats.topic_stats("t").bytes_out_rate.count - before[0] == expected
