"""The clients' NetworkClient (with its Selector, Metadata and DefaultMetadataUpdater) against a broker started with
bin/kafka-server-start.sh: ApiVersions negotiation on connect, metadata refresh, a CreateTopics, Produce and Fetch
round trip, a request timeout against a socket that never answers, and reconnecting after the broker restarts."""

from __future__ import annotations

import socket
import subprocess
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from kafka.clients.api_versions import ApiVersions
from kafka.clients.client_response import ClientResponse
from kafka.clients.manual_metadata_updater import ManualMetadataUpdater
from kafka.clients.metadata import Metadata
from kafka.clients.network_client import NetworkClient
from kafka.common.internals.cluster_resource_listeners import ClusterResourceListeners
from kafka.common.message import CreateTopicsRequestData, FetchRequestData, ProduceRequestData
from kafka.common.network.selector import Selector
from kafka.common.node import Node
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.record.compression_type import CompressionType
from kafka.common.record.memory_records import MemoryRecords
from kafka.common.record.simple_record import SimpleRecord
from kafka.common.requests.abstract_request import DataBuilder
from kafka.common.requests.create_topics_request import CreateTopicsRequest
from kafka.common.requests.fetch_request import FetchRequest
from kafka.common.requests.metadata_request import MetadataRequestBuilder
from kafka.common.requests.produce_request import ProduceRequest
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.log_context import LogContext
from kafka.common.utils.time import Time
from tests.bench.broker_bench import tansu_binary
from tests.integration.broker import ROOT, BrokerProcess
from tests.integration.zookeeper import ZooKeeperServer, free_port
from tests.utils import wait_until_true

pytestmark = pytest.mark.integration

TIME = Time.SYSTEM


@pytest.fixture(scope="module")
def broker(zookeeper: ZooKeeperServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[BrokerProcess]:
    work = Path(tmp_path_factory.mktemp("broker"))
    b = BrokerProcess(work, zookeeper.connect_string + "/network-client-" + work.name)
    b.start()
    yield b
    assert b.stop() == 0, b.console_tail()


def _metadata(host: str, port: int) -> Metadata:
    metadata = Metadata(100, 1000, 300_000, LogContext(), ClusterResourceListeners())
    metadata.bootstrap([(host, port)])
    return metadata


def _client(
    metadata: Metadata | ManualMetadataUpdater,
    api_versions: ApiVersions | None = None,
    request_timeout_ms: int = 30_000,
    discover_broker_versions: bool = True,
) -> NetworkClient:
    log_context = LogContext("[NetworkClient test] ")
    return NetworkClient(
        Selector(540_000, TIME, log_context),
        metadata,
        "network-client-test",
        5,
        50,
        1000,
        -1,
        -1,
        request_timeout_ms,
        10_000,
        30_000,
        TIME,
        discover_broker_versions,
        api_versions if api_versions is not None else ApiVersions(),
        log_context,
    )


def _poll_until(client: NetworkClient, condition: Callable[[], bool], msg: str, timeout_ms: int = 20_000) -> None:
    deadline = TIME.milliseconds() + timeout_ms
    while not condition():
        now = TIME.milliseconds()
        if now >= deadline:
            raise AssertionError(f"not within {timeout_ms} ms: {msg}")
        client.poll(min(100, deadline - now), now)


def _ready(client: NetworkClient, node: Node) -> None:
    _poll_until(client, lambda: client.ready(node, TIME.milliseconds()), f"node {node} ready")


def _call(client: NetworkClient, node: Node, builder: Any) -> ClientResponse:
    """Sends one request once the node is ready and polls until its response is in."""
    _ready(client, node)
    got: list[ClientResponse] = []
    request = client.new_client_request(node.id_string, builder, TIME.milliseconds(), True, callback=got.append)
    client.send(request, TIME.milliseconds())
    _poll_until(client, lambda: bool(got), f"response to {builder}")
    return got[0]


def _refresh(client: NetworkClient, metadata: Metadata) -> None:
    version = metadata.request_update(True)
    _poll_until(client, lambda: metadata.update_version() > version, "a metadata update")


def test_api_versions_are_negotiated_on_connect(broker: BrokerProcess) -> None:
    """A new connection first exchanges ApiVersions; later requests use the newest version both sides serve."""
    api_versions = ApiVersions()
    metadata = _metadata("127.0.0.1", broker.port)
    with _client(metadata, api_versions) as client:
        bootstrap = metadata.fetch().nodes[0]
        _ready(client, bootstrap)
        versions = api_versions.get(bootstrap.id_string)
        assert versions is not None
        for api in (ApiKeys.METADATA, ApiKeys.PRODUCE, ApiKeys.FETCH):
            broker_range = versions.api_version(api)
            assert broker_range is not None and broker_range.min_version == 0
            assert versions.latest_usable_version(api) == min(broker_range.max_version, api.latest_version())
        response = _call(client, bootstrap, MetadataRequestBuilder.all_topics())
        assert response.request_header.api_version == versions.latest_usable_version(ApiKeys.METADATA)
        assert response.has_response and not response.was_disconnected


def test_metadata_is_fetched_from_the_broker(broker: BrokerProcess) -> None:
    """The DefaultMetadataUpdater replaces the bootstrap node by the broker's registration, controller and id."""
    metadata = _metadata("127.0.0.1", broker.port)
    with _client(metadata) as client:
        assert metadata.fetch().is_bootstrap_configured
        _refresh(client, metadata)
        cluster = metadata.fetch()
        assert not cluster.is_bootstrap_configured
        assert cluster.nodes == (Node(0, "127.0.0.1", broker.port),)
        assert cluster.controller == Node(0, "127.0.0.1", broker.port)
        meta_properties = (broker.log_dir / "meta.properties").read_text()
        assert f"cluster.id={cluster.cluster_resource.cluster_id}" in meta_properties
        assert metadata.time_to_next_update(TIME.milliseconds()) > 0  # refreshed: nothing due now


def _round_trip(client: NetworkClient, metadata: Metadata, topic: str) -> None:
    """CreateTopics, then a Produce of three records with acks=all, and a Fetch returning them at offsets 0-2."""
    _refresh(client, metadata)
    node = metadata.fetch().nodes[0]
    create = CreateTopicsRequestData(timeout_ms=30_000)
    create.topics.append(CreateTopicsRequestData.CreatableTopic(name=topic, num_partitions=2, replication_factor=1))
    created = _call(client, node, DataBuilder(CreateTopicsRequest, create)).response_body
    assert created is not None and created.data.topics[0].error_code == Errors.NONE.code

    # The new topic's leader becomes known through metadata.
    tp = TopicPartition(topic, 1)

    def leader_known() -> bool:
        if metadata.fetch().leader_for(tp) is not None:
            return True
        metadata.request_update(False)
        return False

    _poll_until(client, leader_known, "the new topic's leader in metadata")
    leader = metadata.fetch().leader_for(tp)
    assert leader is not None

    records = MemoryRecords.with_records(
        CompressionType.NONE, *(SimpleRecord(TIME.milliseconds(), b"k", f"v{i}".encode()) for i in range(3))
    )
    produce = ProduceRequestData(acks=-1, timeout_ms=30_000)
    produce.topic_data.append(
        ProduceRequestData.TopicProduceData(
            name=topic, partition_data=[ProduceRequestData.PartitionProduceData(index=1, records=records)]
        )
    )
    produced = _call(client, leader, ProduceRequest.for_current_magic(produce)).response_body
    assert produced is not None
    partition_response = produced.data.responses[0].partition_responses[0]
    assert (partition_response.index, partition_response.error_code, partition_response.base_offset) == (1, 0, 0)

    fetch = FetchRequestData(max_wait_ms=500, min_bytes=1, max_bytes=1 << 20)
    fetch.topics.append(
        FetchRequestData.FetchTopic(
            topic=topic,
            topic_id=metadata.fetch().topic_id(topic),
            partitions=[FetchRequestData.FetchPartition(partition=1, fetch_offset=0, partition_max_bytes=1 << 20)],
        )
    )
    fetched = _call(client, leader, DataBuilder(FetchRequest, fetch)).response_body
    assert fetched is not None
    partition = fetched.data.responses[0].partitions[0]
    assert partition.error_code == Errors.NONE.code and partition.high_watermark == 3
    got = [(r.offset(), bytes(r.value())) for batch in partition.records.batches() for r in batch]
    assert got == [(0, b"v0"), (1, b"v1"), (2, b"v2")]


def test_create_produce_and_fetch_round_trip(broker: BrokerProcess) -> None:
    """CreateTopics, then a Produce of three records with acks=all, and a Fetch returning them at offsets 0-2."""
    metadata = _metadata("127.0.0.1", broker.port)
    with _client(metadata) as client:
        _round_trip(client, metadata, "nc-t")
        assert metadata.fetch().leader_for(TopicPartition("nc-t", 1)) == metadata.fetch().nodes[0]


def test_round_trip_against_tansu(tmp_path: Path) -> None:
    """The same exchange works against another Kafka-protocol broker (Tansu, from the benchmark cache)."""
    binary = tansu_binary(ROOT / ".bench-cache")
    port = free_port()
    url = f"tcp://127.0.0.1:{port}"
    args = [str(binary), "broker", "--listener-url", url, "--advertised-listener-url", url]
    process = subprocess.Popen(
        [*args, "--storage-engine", "memory://tansu/"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        wait_until_true(lambda: _accepts(port), "Tansu to listen", timeout=30)
        api_versions = ApiVersions()
        metadata = _metadata("127.0.0.1", port)
        with _client(metadata, api_versions) as client:
            _round_trip(client, metadata, "nc-tansu")
            versions = api_versions.get(metadata.fetch().nodes[0].id_string)
            assert versions is not None and versions.api_version(ApiKeys.PRODUCE) is not None
    finally:
        process.terminate()
        process.wait(10)


def _accepts(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), 1).close()
        return True
    except OSError:
        return False


class _SilentServer:
    """Accepts connections and reads whatever comes, never answering."""

    def __init__(self) -> None:
        self._server = socket.create_server(("127.0.0.1", 0))
        self._server.settimeout(0.1)
        self.port = self._server.getsockname()[1]
        self.accepted = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="silent-server", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        conns: list[socket.socket] = []
        while not self._stop.is_set():
            try:
                conn, _ = self._server.accept()
            except TimeoutError:
                continue
            except OSError:
                break
            self.accepted += 1
            conns.append(conn)
        for conn in conns:
            conn.close()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(5)
        self._server.close()


def test_request_timeout_disconnects_the_node() -> None:
    """A request unanswered past its timeout completes as disconnected and timed out, and the node is dropped."""
    server = _SilentServer()
    node = Node(0, "127.0.0.1", server.port)
    try:
        with _client(ManualMetadataUpdater([node]), discover_broker_versions=False) as client:
            _ready(client, node)
            got: list[ClientResponse] = []
            request = client.new_client_request(
                node.id_string,
                MetadataRequestBuilder.all_topics(),
                TIME.milliseconds(),
                True,
                request_timeout_ms=300,
                callback=got.append,
            )
            client.send(request, TIME.milliseconds())
            assert client.in_flight_request_count(node.id_string) == 1
            _poll_until(client, lambda: bool(got), "the request to time out", timeout_ms=10_000)
            assert got[0].was_disconnected and got[0].was_timed_out and not got[0].has_response
            assert client.connection_failed(node)
            assert client.in_flight_request_count() == 0
            assert server.accepted == 1
    finally:
        server.close()


def test_reconnects_after_the_broker_restarts(zookeeper: ZooKeeperServer, tmp_path: Path) -> None:
    """After the broker stops, in-flight requests fail as disconnected; once it is back on the same port the client
    reconnects by itself (after its backoff), negotiates versions again and gets metadata."""
    port = free_port()
    b = BrokerProcess(
        tmp_path,
        zookeeper.connect_string + "/network-client-restart-" + tmp_path.name,
        overrides={"listeners": f"PLAINTEXT://127.0.0.1:{port}"},
    )
    b.start()
    api_versions = ApiVersions()
    metadata = _metadata("127.0.0.1", port)
    try:
        with _client(metadata, api_versions) as client:
            _refresh(client, metadata)
            node = metadata.fetch().nodes[0]
            _ready(client, node)
            got: list[ClientResponse] = []
            # A fetch that waits at the broker, so it is still in flight when the broker goes away.
            fetch = FetchRequestData(max_wait_ms=20_000, min_bytes=1 << 20, max_bytes=1 << 20)
            request = client.new_client_request(
                node.id_string, DataBuilder(FetchRequest, fetch), TIME.milliseconds(), True, callback=got.append
            )
            client.send(request, TIME.milliseconds())
            assert b.stop() == 0, b.console_tail()
            _poll_until(client, lambda: bool(got), "the in-flight request to fail")
            assert got[0].was_disconnected and not got[0].was_timed_out
            assert api_versions.get(node.id_string) is None  # forgotten with the connection

            # A fresh console log, so that start() waits for this run's "started" line.
            (tmp_path / "console.log").unlink()
            b.start()
            _refresh(client, metadata)
            _ready(client, node)
            assert api_versions.get(node.id_string) is not None
            response = _call(client, node, MetadataRequestBuilder.all_topics())
            assert response.has_response and not response.was_disconnected
    finally:
        assert b.stop() == 0, b.console_tail()
