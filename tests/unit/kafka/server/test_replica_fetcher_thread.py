"""Tests of kafka.server.replica_fetcher_thread, after Kafka's ReplicaFetcherThreadTest: the request versions chosen
by inter.broker.protocol.version, and the follower's fetch (replica id, replica.fetch.* configs, leader epochs,
fetch session) built for a partition, sent through a BlockingSend that records what it is given."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from kafka.clients.client_response import ClientResponse
from kafka.cluster.broker import BrokerEndPoint
from kafka.common.requests.abstract_request import Builder
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.log_context import LogContext
from kafka.common.utils.time import MockTime
from kafka.server.abstract_fetcher_manager import FailedPartitions, InitialFetchState
from kafka.server.abstract_fetcher_thread import Fetching, Truncating
from kafka.server.kafka_config import ApiVersion, KafkaConfig
from kafka.server.replica_fetcher_blocking_send import BlockingSend, ReplicaFetcherBlockingSend
from kafka.server.replica_fetcher_thread import (
    ReplicaFetcherThread,
    fetch_request_version,
    list_offset_request_version,
    offset_for_leader_epoch_request_version,
)

TP = TopicPartition("t", 0)
LEADER = BrokerEndPoint(1, "localhost", 9093)


class RecordingSend(BlockingSend):
    def __init__(self) -> None:
        self.sent: list[Builder[Any]] = []
        self.closed = False

    def send_request(self, request_builder: Builder[Any]) -> ClientResponse:
        self.sent.append(request_builder)
        raise OSError("no leader in this test")

    def initiate_close(self) -> None:
        self.closed = True

    def close(self) -> None:
        self.closed = True


class StubLog:
    def __init__(self, log_start_offset: int, log_end_offset: int, latest_epoch: int | None) -> None:
        self.log_start_offset = log_start_offset
        self.log_end_offset = log_end_offset
        self._latest_epoch = latest_epoch

    def latest_epoch(self) -> int | None:
        return self._latest_epoch


class StubReplicaManager:
    broker_topic_stats = None

    def __init__(self, log: StubLog) -> None:
        self.log = log

    def local_log_or_exception(self, tp: TopicPartition) -> StubLog:
        return self.log


def make_config(**overrides: str) -> KafkaConfig:
    props = {"zookeeper.connect": "localhost:2181", "broker.id": "0", "log.dirs": "/tmp/unused-fetcher-test"}
    props.update(overrides)
    return KafkaConfig(props)


def make_thread(config: KafkaConfig, log: StubLog, send: BlockingSend) -> ReplicaFetcherThread:
    return ReplicaFetcherThread(
        "ReplicaFetcherThread-0-1",
        0,
        LEADER,
        config,
        FailedPartitions(),
        StubReplicaManager(log),  # type: ignore[arg-type]
        None,
        MockTime(),
        None,
        send,
    )


@pytest.mark.parametrize(
    ("ibp", "versions"),
    [
        ("2.8", (12, 4, 6)),
        ("2.7-IV1", (12, 3, 5)),
        ("2.7-IV0", (11, 3, 5)),
        ("2.3", (11, 3, 5)),
        ("2.1", (10, 2, 4)),
        ("2.0", (8, 1, 3)),
        ("1.1", (7, 0, 2)),
        ("0.11.0", (5, 0, 2)),
        ("0.10.2", (3, 0, 1)),
        ("0.9.0", (1, 0, 0)),
    ],
)
def test_request_versions_follow_the_inter_broker_protocol(ibp: str, versions: tuple[int, int, int]) -> None:
    """Fetch, OffsetsForLeaderEpoch and ListOffsets versions are Kafka 2.8's for each inter.broker.protocol.version."""
    version = ApiVersion.apply(ibp)
    assert (
        fetch_request_version(version),
        offset_for_leader_epoch_request_version(version),
        list_offset_request_version(version),
    ) == versions


def test_follower_fetch_carries_replica_id_configs_and_epochs() -> None:
    """The fetch names this broker as replica, uses replica.fetch.wait.max.ms/min.bytes/response.max.bytes and the
    per-partition replica.fetch.max.bytes, the leader epoch, the log start offset and (IBP 2.7+) the last fetched
    epoch, and opens a fetch session."""
    config = make_config(
        **{
            "replica.fetch.max.bytes": "1234",
            "replica.fetch.response.max.bytes": "567890",
            "replica.fetch.min.bytes": "7",
            "replica.fetch.wait.max.ms": "300",
        }
    )
    send = RecordingSend()
    thread = make_thread(config, StubLog(log_start_offset=3, log_end_offset=10, latest_epoch=4), send)
    thread.add_partitions({TP: InitialFetchState(LEADER, 5, 10)})
    state = thread.fetch_state(TP)
    assert state is not None and state.state == Fetching() and state.last_fetched_epoch == 4

    fetch = thread.build_fetch({TP: state}).result
    assert fetch is not None
    request = fetch.fetch_request.build(12)
    data = request.data
    assert (request.replica_id(), data.max_wait_ms, data.min_bytes, data.max_bytes) == (0, 300, 7, 567890)
    [topic] = data.topics
    [p] = topic.partitions
    assert (topic.topic, p.partition, p.fetch_offset, p.log_start_offset, p.partition_max_bytes) == (
        "t",
        0,
        10,
        3,
        1234,
    )
    assert (p.current_leader_epoch, p.last_fetched_epoch) == (5, 4)
    assert (data.session_id, data.session_epoch) == (0, 0)  # a full request that asks for a new session


def test_before_ibp_2_7_a_new_follower_truncates_first_and_sends_no_last_fetched_epoch() -> None:
    """At IBP 2.6 a follower starts in Truncating (OffsetsForLeaderEpoch first), and its fetches carry no last
    fetched epoch."""
    send = RecordingSend()
    thread = make_thread(make_config(**{"inter.broker.protocol.version": "2.6"}), StubLog(0, 10, latest_epoch=4), send)
    thread.add_partitions({TP: InitialFetchState(LEADER, 5, 10)})
    state = thread.fetch_state(TP)
    assert state is not None and state.state == Truncating()
    fetching = type(state)(10, None, 5, None, Fetching(), 4)
    fetch = thread.build_fetch({TP: fetching}).result
    assert fetch is not None
    request = fetch.fetch_request.build(fetch.fetch_request.latest_allowed_version)
    assert request.version == 11
    assert request.data.topics[0].partitions[0].last_fetched_epoch == -1


def test_a_failed_epoch_request_retries_every_partition() -> None:
    """When OffsetsForLeaderEpoch cannot be sent, every partition asked about gets the error (to retry after the
    backoff) instead of the thread failing."""
    send = RecordingSend()
    thread = make_thread(make_config(), StubLog(0, 10, latest_epoch=4), send)
    epoch_data = SimpleNamespace(partition=0, current_leader_epoch=5, leader_epoch=4)
    result = thread.fetch_epoch_end_offsets({TP: epoch_data})
    assert len(send.sent) == 1 and send.sent[0].latest_allowed_version == 4
    assert result[TP].error_code != 0 and result[TP].partition == 0


def test_thread_name_and_shutdown_close_the_leader_endpoint() -> None:
    """The thread is named as Kafka's and shutting it down closes its connection to the leader."""
    send = RecordingSend()
    thread = make_thread(make_config(), StubLog(0, 0, latest_epoch=None), send)
    assert thread.name == "ReplicaFetcherThread-0-1" and not thread.daemon
    thread.start()
    thread.shutdown()
    assert send.closed and not thread.is_alive()


@pytest.mark.parametrize("protocol", ["PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL"])
def test_the_leader_connection_writes_on_send(protocol: str) -> None:
    """The fetcher's selector writes a request in send() on every inter-broker listener; over SASL the Selector
    leaves a connection whose re-authentication (KIP-368) is due to the poll's write (test_selector checks that)."""
    overrides = {"listeners": f"{protocol}://localhost:9092", "security.inter.broker.protocol": protocol}
    if protocol.startswith("SASL"):
        mechanism = "listener.name." + protocol.lower() + ".plain."
        overrides |= {
            "sasl.enabled.mechanisms": "PLAIN",
            "sasl.mechanism.inter.broker.protocol": "PLAIN",
            mechanism + "sasl.jaas.config": "org.apache.kafka.common.security.plain.PlainLoginModule required "
            'username="broker" password="secret" user_broker="secret";',
        }
    send = ReplicaFetcherBlockingSend(
        LEADER, make_config(**overrides), None, MockTime(), 0, "broker-0-fetcher-0", LogContext()
    )
    try:
        assert send._network_client._selector.write_on_send is True  # type: ignore[attr-defined]
    finally:
        send.close()
