"""A tiny broker stand-in for controller tests: a TCP server that decodes the controller's requests with
kafka.common.requests, records them and answers LeaderAndIsr, UpdateMetadata and StopReplica (successfully,
unless told otherwise)."""

from __future__ import annotations

import itertools
import socket
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from kafka.common.message import LeaderAndIsrResponseData, StopReplicaResponseData, UpdateMetadataResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.protocol.message import ByteBufferAccessor
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.abstract_response import AbstractResponse
from kafka.common.requests.leader_and_isr_response import LeaderAndIsrResponse
from kafka.common.requests.request_header import RequestHeader
from kafka.common.requests.stop_replica_response import StopReplicaResponse
from kafka.common.requests.update_metadata_response import UpdateMetadataResponse
from tests.utils import wait_until_true

_ids = itertools.count()


@dataclass
class ReceivedRequest:
    header: RequestHeader
    request: Any  # the AbstractRequest subclass

    @property
    def api_key(self) -> ApiKeys:
        return self.header.api_key


class FakeBroker:
    """Listens on 127.0.0.1 (port 0 by default). `partition_error` may give a per-partition error code for
    LeaderAndIsr/StopReplica answers; `drop_first_requests` closes the connection instead of answering the first
    N requests (to exercise the controller's reconnects)."""

    def __init__(
        self,
        broker_id: int,
        partition_error: Callable[[str, int], Errors] | None = None,
        drop_first_requests: int = 0,
    ) -> None:
        self.broker_id = broker_id
        self.partition_error = partition_error or (lambda _topic, _partition: Errors.NONE)
        self._drops_left = drop_first_requests
        self.requests: list[ReceivedRequest] = []
        self.connections = 0
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._server.bind(("127.0.0.1", 0))
        self._server.listen(16)
        self._server.settimeout(0.1)
        self.port: int = self._server.getsockname()[1]
        self._threads: list[threading.Thread] = []
        n = next(_ids)
        self._acceptor = threading.Thread(target=self._accept_loop, name=f"fake-broker-{n}-acceptor", daemon=True)

    def start(self) -> FakeBroker:
        self._acceptor.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._acceptor.is_alive():
            self._acceptor.join(5)
        for t in self._threads:
            t.join(5)
        self._server.close()

    def __enter__(self) -> FakeBroker:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- what was received --------------------------------------------------------------------------------------

    def received(self, api_key: ApiKeys) -> list[ReceivedRequest]:
        with self._lock:
            return [r for r in self.requests if r.api_key is api_key]

    def wait_for(
        self, api_key: ApiKeys, predicate: Callable[[Any], bool] = lambda _r: True, timeout: float = 15
    ) -> Any:
        """Waits for a request of `api_key` matching `predicate` and returns it."""
        found: list[Any] = []

        def check() -> bool:
            for r in self.received(api_key):
                if predicate(r.request):
                    found.append(r.request)
                    return True
            return False

        wait_until_true(check, f"{api_key.name} request on fake broker {self.broker_id}", timeout=timeout)
        return found[0]

    # -- serving ------------------------------------------------------------------------------------------------

    def _accept_loop(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self._server.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            with self._lock:
                self.connections += 1
            t = threading.Thread(target=self._serve, args=(conn,), name=f"{self._acceptor.name}-conn", daemon=True)
            self._threads.append(t)
            t.start()

    def _read_exactly(self, conn: socket.socket, n: int) -> bytes | None:
        buf = bytearray()
        while len(buf) < n:
            if self._stop.is_set():
                return None
            try:
                chunk = conn.recv(n - len(buf))
            except TimeoutError:
                continue
            except OSError:
                return None
            if not chunk:
                return None
            buf += chunk
        return bytes(buf)

    def _serve(self, conn: socket.socket) -> None:
        conn.settimeout(0.1)
        try:
            while not self._stop.is_set():
                size_bytes = self._read_exactly(conn, 4)
                if size_bytes is None:
                    return
                frame = self._read_exactly(conn, int.from_bytes(size_bytes, "big"))
                if frame is None:
                    return
                accessor = ByteBufferAccessor(frame)
                header = RequestHeader.parse(accessor)
                request = AbstractRequest.parse_request(header.api_key, header.api_version, accessor).request
                with self._lock:
                    drop = self._drops_left > 0
                    if drop:
                        self._drops_left -= 1
                    else:
                        self.requests.append(ReceivedRequest(header, request))
                if drop:
                    return
                response = self._response_for(header, request)
                payload = response.serialize_with_header(header.to_response_header(), header.api_version, True)
                conn.sendall(payload)
        finally:
            conn.close()

    def _response_for(self, header: RequestHeader, request: Any) -> AbstractResponse:
        version = header.api_version
        if header.api_key is ApiKeys.LEADER_AND_ISR:
            data = LeaderAndIsrResponseData(error_code=0)
            if version < 5:
                data.partition_errors = [
                    LeaderAndIsrResponseData.LeaderAndIsrPartitionError(
                        topic_name=p.topic_name,
                        partition_index=p.partition_index,
                        error_code=self.partition_error(p.topic_name, p.partition_index).code,
                    )
                    for p in request.partition_states()
                ]
            else:
                data.topics = [
                    LeaderAndIsrResponseData.LeaderAndIsrTopicError(
                        topic_id=t.topic_id,
                        partition_errors=[
                            LeaderAndIsrResponseData.LeaderAndIsrPartitionError(
                                partition_index=p.partition_index,
                                error_code=self.partition_error(t.topic_name, p.partition_index).code,
                            )
                            for p in t.partition_states
                        ],
                    )
                    for t in request.data.topic_states
                ]
            return LeaderAndIsrResponse(data, version)
        if header.api_key is ApiKeys.UPDATE_METADATA:
            return UpdateMetadataResponse(UpdateMetadataResponseData(error_code=0))
        if header.api_key is ApiKeys.STOP_REPLICA:
            data = StopReplicaResponseData(error_code=0)
            data.partition_errors = [
                StopReplicaResponseData.StopReplicaPartitionError(
                    topic_name=t.topic_name,
                    partition_index=p.partition_index,
                    error_code=self.partition_error(t.topic_name, p.partition_index).code,
                )
                for t in request.topic_states()
                for p in t.partition_states
            ]
            return StopReplicaResponse(data)
        raise AssertionError(f"unexpected request {header.api_key}")
