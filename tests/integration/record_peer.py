"""A minimal single-partition stand-in broker, built on our protocol layer, for record compatibility tests.

It answers just enough of ApiVersions, Metadata, Produce, ListOffsets and Fetch for librdkafka to produce
to it and consume from it, keeps the record batches it is sent exactly as they arrived, and serves
whatever batches a test puts in. It is test scaffolding for issue 2's record proof, not the broker: the
real one (issue 4) replaces it in later tests.
"""

from __future__ import annotations

import socket
import struct
import threading
import time
from typing import Any

from kafka.common.message import (
    ApiMessageType,
    ApiVersionsResponseData,
    FetchResponseData,
    FindCoordinatorResponseData,
    ListOffsetsResponseData,
    MetadataResponseData,
    ProduceResponseData,
    RequestHeaderData,
    ResponseHeaderData,
)
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.message import ByteBufferAccessor
from kafka.common.record.memory_records import MemoryRecords

# The versions this stand-in answers: a range librdkafka 2.x uses, non-flexible and flexible alike.
SERVED = {
    ApiKeys.API_VERSIONS: (0, 3),
    ApiKeys.METADATA: (1, 9),
    ApiKeys.PRODUCE: (3, 9),
    ApiKeys.LIST_OFFSETS: (1, 6),
    ApiKeys.FETCH: (4, 12),
    # librdkafka takes FindCoordinator's presence as the sign that a broker reads lz4.
    ApiKeys.FIND_COORDINATOR: (0, 2),
}


class RecordPeer:
    def __init__(self, topic: str) -> None:
        self.topic = topic
        self.produced: list[bytes] = []  # raw record sets of each Produce, as sent
        self.served: list[bytes] = []  # record sets to hand out on Fetch, already with offsets
        self.next_offset = 0
        self._lock = threading.Lock()
        self._sock = socket.socket()
        self._sock.bind(("127.0.0.1", 0))
        self._sock.listen()
        self.port = self._sock.getsockname()[1]
        self._closed = False
        self._threads: list[threading.Thread] = []
        self._conns: list[socket.socket] = []
        t = threading.Thread(target=self._accept, name="record-peer-acceptor", daemon=True)
        t.start()
        self._threads.append(t)

    @property
    def bootstrap(self) -> str:
        return f"127.0.0.1:{self.port}"

    def serve(self, records: bytes, count: int) -> None:
        """Adds a record set (whose offsets start at next_offset) for consumers to fetch."""
        with self._lock:
            self.served.append(records)
            self.next_offset += count

    def close(self) -> None:
        self._closed = True
        self._sock.close()
        for c in self._conns:
            try:
                c.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            c.close()
        for t in self._threads:
            t.join(timeout=5)

    def _accept(self) -> None:
        self._sock.settimeout(0.1)  # so that close() is noticed
        while not self._closed:
            try:
                conn, _ = self._sock.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            conn.settimeout(None)
            self._conns.append(conn)
            t = threading.Thread(target=self._serve_conn, args=(conn,), name="record-peer-conn", daemon=True)
            t.start()
            self._threads.append(t)

    @staticmethod
    def _recv_exact(conn: socket.socket, n: int) -> bytes | None:
        buf = bytearray()
        while len(buf) < n:
            chunk = conn.recv(n - len(buf))
            if not chunk:
                return None
            buf += chunk
        return bytes(buf)

    def _serve_conn(self, conn: socket.socket) -> None:
        try:
            while True:
                size = self._recv_exact(conn, 4)
                if size is None:
                    return
                frame = self._recv_exact(conn, struct.unpack(">i", size)[0])
                if frame is None:
                    return
                reply = self._handle(frame)
                if reply is not None:
                    conn.sendall(struct.pack(">i", len(reply)) + reply)
        except OSError:
            return

    def _handle(self, frame: bytes) -> bytes | None:
        api_key, version = struct.unpack_from(">hh", frame)
        key = ApiKeys.for_id(api_key)
        mt = ApiMessageType.from_api_key(api_key)
        acc = ByteBufferAccessor(frame)
        header = RequestHeaderData().read(acc, mt.request_header_version(version))
        lo, hi = SERVED.get(key, (0, -1))
        if key is ApiKeys.API_VERSIONS and not lo <= version <= hi:
            body: Any = self._api_versions(None, error=35)
            return ResponseHeaderData(correlation_id=header.correlation_id).write(0) + body.write(0)
        request = mt.request_class().read(acc, version)
        body = getattr(self, "_" + key.name.lower())(request)
        if body is None:
            return None
        hv = mt.response_header_version(version)
        return ResponseHeaderData(correlation_id=header.correlation_id).write(hv) + body.write(version)

    def _api_versions(self, request: Any, error: int = 0) -> Any:
        resp = ApiVersionsResponseData(error_code=error)
        for k, (lo, hi) in SERVED.items():
            resp.api_keys.append(ApiVersionsResponseData.ApiVersion(api_key=k.id, min_version=lo, max_version=hi))
        return resp

    def _metadata(self, request: Any) -> Any:
        resp = MetadataResponseData(cluster_id="record-peer", controller_id=0)
        resp.brokers.append(MetadataResponseData.MetadataResponseBroker(node_id=0, host="127.0.0.1", port=self.port))
        topic = MetadataResponseData.MetadataResponseTopic(name=self.topic)
        topic.partitions.append(
            MetadataResponseData.MetadataResponsePartition(
                partition_index=0, leader_id=0, replica_nodes=[0], isr_nodes=[0]
            )
        )
        resp.topics.append(topic)
        return resp

    def _find_coordinator(self, request: Any) -> Any:
        return FindCoordinatorResponseData(node_id=0, host="127.0.0.1", port=self.port)

    def _produce(self, request: Any) -> Any:
        resp = ProduceResponseData()
        for t in request.topic_data:
            tr = ProduceResponseData.TopicProduceResponse(name=t.name)
            for p in t.partition_data:
                raw = bytes(p.records.buffer())
                with self._lock:
                    self.produced.append(raw)
                    base = self.next_offset
                    count = sum(b.last_offset_delta() + 1 if b.magic() == 2 else 1 for b in p.records.batches())
                    self.next_offset += count
                tr.partition_responses.append(
                    ProduceResponseData.PartitionProduceResponse(index=p.index, base_offset=base)
                )
            resp.responses.append(tr)
        return None if request.acks == 0 else resp

    def _list_offsets(self, request: Any) -> Any:
        resp = ListOffsetsResponseData()
        for t in request.topics:
            tr = ListOffsetsResponseData.ListOffsetsTopicResponse(name=t.name)
            for p in t.partitions:
                offset = 0 if p.timestamp == -2 else self.next_offset
                tr.partitions.append(
                    ListOffsetsResponseData.ListOffsetsPartitionResponse(
                        partition_index=p.partition_index, offset=offset, timestamp=-1, old_style_offsets=[offset]
                    )
                )
            resp.topics.append(tr)
        return resp

    def _fetch(self, request: Any) -> Any:
        resp = FetchResponseData()
        for t in request.topics:
            tr = FetchResponseData.FetchableTopicResponse(topic=t.topic, topic_id=t.topic_id)
            for p in t.partitions:
                with self._lock:
                    data = b"".join(self.served) if p.fetch_offset < self.next_offset else b""
                    hw = self.next_offset
                if not data:  # nothing new: hold the answer a little, as a broker holds it for max_wait
                    time.sleep(min(request.max_wait_ms, 100) / 1000)
                tr.partitions.append(
                    FetchResponseData.PartitionData(
                        partition_index=p.partition,
                        high_watermark=hw,
                        last_stable_offset=hw,
                        log_start_offset=0,
                        records=MemoryRecords.readable_records(data),
                    )
                )
            resp.responses.append(tr)
        return resp
