"""Benchmarks of the network layer: SocketServer + RequestChannel + KafkaRequestHandlerPool with Kafka's default
thread counts (3 network threads, 8 request handlers) and an api layer that answers at once.

The client runs in a separate process (as real clients do), so that the figures are the broker's and not a mix of
the broker's and the client's share of one interpreter. Each benchmark round is a batch of requests; `extra_info`
gives the request rate or the MB/s.

- small requests: Heartbeat v4 round trips (about 40-byte request, 10-byte response) on one connection;
- 1 MB FileRecords responses: Fetch round trips whose records part goes out with os.sendfile;
- many connections: as many idle connections as the file-descriptor limit allows (5,000 at most), then a round
  trip from a new client.

Run with `pytest tests/bench/test_socket_server_bench.py --benchmark-enable`.
"""

from __future__ import annotations

import os
import resource
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from kafka.common.message import FetchRequestData, FetchResponseData, HeartbeatRequestData, HeartbeatResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.record.file_records import FileRecords
from kafka.common.requests.fetch_response import FetchResponse
from kafka.common.requests.heartbeat_response import HeartbeatResponse
from kafka.common.requests.request_header import RequestHeader
from kafka.network.request_channel import SendResponse
from kafka.network.socket_server import SocketServer
from tests.unit.kafka.network.socket_server_support import Client, NetworkConfig, RecordingApis, running_server
from tests.utils import wait_until_true

ONE_MB = 1024 * 1024
SMALL_BATCH = 500
FETCH_BATCH = 20

# The client process: one connection; for each line `N` on stdin, N sequential round trips of the frame; then "ok".
CLIENT = r"""
import socket, struct, sys
port, frame = int(sys.argv[1]), bytes.fromhex(sys.argv[2])
sock = socket.create_connection(("127.0.0.1", port))
sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
buf = bytearray(4 << 20)
view = memoryview(buf)
def read(n):
    pos = 0
    while pos < n:
        got = sock.recv_into(view[pos:n])
        if not got:
            raise EOFError
        pos += got
for line in sys.stdin:
    for _ in range(int(line)):
        sock.sendall(frame)
        read(4)
        read(struct.unpack_from(">i", buf)[0])
    sys.stdout.write("ok\n")
    sys.stdout.flush()
"""


def _frame(header: RequestHeader, body: bytes) -> bytes:
    encoded = header.write()
    return (len(encoded) + len(body)).to_bytes(4, "big") + encoded + body


class ClientProcess:
    def __init__(self, port: int, frame: bytes) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", CLIENT, str(port), frame.hex()],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def round_trips(self, n: int) -> None:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(f"{n}\n")
        self.proc.stdin.flush()
        assert self.proc.stdout.readline() == "ok\n"

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(10)


def _answer_at_once(apis: RecordingApis, records: FileRecords | None) -> Callable[[Any], bool]:
    heartbeat = HeartbeatResponse(HeartbeatResponseData())
    channel = apis.request_channel

    def answer(request: Any) -> bool:
        if request.header.api_key is ApiKeys.HEARTBEAT:
            response: Any = heartbeat
        else:
            partition = FetchResponseData.PartitionData(partition_index=0, high_watermark=1, records=records)
            topic = FetchResponseData.FetchableTopicResponse(topic="bench", partitions=[partition])
            response = FetchResponse(FetchResponseData(responses=[topic]))
        channel.send_response(SendResponse(request, request.build_response_send(response)))
        return True

    return answer


@pytest.fixture
def bench_server() -> Iterator[tuple[SocketServer, RecordingApis, int]]:
    with running_server(NetworkConfig(num_network_threads=3), num_io_threads=8) as started:
        yield started


def test_small_request_round_trips(benchmark: Any, bench_server: tuple[SocketServer, RecordingApis, int]) -> None:
    """Round trips of small requests on one connection, one at a time (ops x 500 = requests/s)."""
    _server, apis, port = bench_server
    apis.answer = _answer_at_once(apis, None)
    header = RequestHeader.of(ApiKeys.HEARTBEAT, 4, "bench", 1)
    frame = _frame(header, HeartbeatRequestData(group_id="g", generation_id=1, member_id="m").write(4))
    client = ClientProcess(port, frame)
    try:
        client.round_trips(100)  # warm up
        benchmark.pedantic(client.round_trips, args=(SMALL_BATCH,), rounds=10, iterations=1)
        if benchmark.stats is not None:
            benchmark.extra_info["requests_per_s"] = round(SMALL_BATCH / benchmark.stats.stats.median)
    finally:
        client.close()
    assert apis.count(ApiKeys.HEARTBEAT) >= 100 + SMALL_BATCH


def test_file_records_fetch_responses(
    benchmark: Any, bench_server: tuple[SocketServer, RecordingApis, int], tmp_path: Path
) -> None:
    """Fetch round trips whose 1 MB of records goes out with sendfile (ops x 20 MB = MB/s)."""
    _server, apis, port = bench_server
    log_file = tmp_path / "00000000000000000000.log"
    log_file.write_bytes(os.urandom(ONE_MB))
    records = FileRecords.open(log_file, mutable=False, file_already_exists=True)
    apis.answer = _answer_at_once(apis, records)
    header = RequestHeader.of(ApiKeys.FETCH, 12, "bench", 1)
    frame = _frame(header, FetchRequestData(replica_id=-1, max_wait_ms=0, min_bytes=1).write(12))
    client = ClientProcess(port, frame)
    try:
        client.round_trips(2)
        benchmark.pedantic(client.round_trips, args=(FETCH_BATCH,), rounds=5, iterations=1)
        if benchmark.stats is not None:
            benchmark.extra_info["MB_per_s"] = round(FETCH_BATCH / benchmark.stats.stats.median, 1)
    finally:
        client.close()
        records.close()
    assert apis.count(ApiKeys.FETCH) >= 2 + FETCH_BATCH


def test_many_connections(benchmark: Any, bench_server: tuple[SocketServer, RecordingApis, int]) -> None:
    """Opens as many idle connections as the descriptor limit allows (at most 5,000: two descriptors each, both
    ends being in this process), then serves a new client; records how many and how long they took to open."""
    server, _apis, port = bench_server
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = min(5000, (soft - 200) // 2)
    sockets: list[socket.socket] = []

    def open_all() -> None:
        while len(sockets) < target:
            sockets.append(socket.create_connection(("127.0.0.1", port), timeout=10))

    try:
        start = time.perf_counter()
        benchmark.pedantic(open_all, rounds=1, iterations=1)
        wait_until_true(lambda: server.connection_count("127.0.0.1") >= target, "every connection to be accepted")
        accepted = time.perf_counter() - start
        with Client(port) as client:
            t0 = time.perf_counter()
            assert client.round_trip(1).data.error_code == 0
            benchmark.extra_info["new_client_round_trip_ms"] = round((time.perf_counter() - t0) * 1000, 2)
        benchmark.extra_info["connections"] = target
        benchmark.extra_info["nofile_soft_limit"] = soft
        benchmark.extra_info["seconds_to_accept_all"] = round(accepted, 2)
    finally:
        for sock in sockets:
            sock.close()
