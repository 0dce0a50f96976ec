"""What a session needs on the broker before it is replayed, and tidying up after it.

A small blocking client over the protocol layer (one connection, one request at a time) deletes the
session's topics and groups if a previous run left them, creates the topics the manifest names with their
partitions and configs, waits until every partition has a leader, and makes sure the group coordinator is
ready (the first FindCoordinator creates __consumer_offsets, which must not happen inside the replay). It
also reads the broker's configs to say which of the manifest's broker overrides the broker does not run
with: a running broker cannot be restarted with them from here.

Not a port of a Kafka class.
"""

from __future__ import annotations

import socket
import struct
from dataclasses import dataclass
from typing import Any

from kafka.common.message import (
    ApiVersionsRequestData,
    CreateTopicsRequestData,
    DeleteGroupsRequestData,
    DeleteTopicsRequestData,
    DescribeConfigsRequestData,
    FindCoordinatorRequestData,
    MetadataRequestData,
    RequestHeaderData,
    ResponseHeaderData,
)
from kafka.common.message.api_message_type import ApiMessageType
from kafka.common.protocol.message import ByteBufferAccessor
from kafka.common.protocol.send_builder import SendBuilder
from kafka.common.utils.time import Time
from kafka.tools.conformance.frames import SIZE_PREFIX
from kafka.tools.conformance.manifest import Manifest, TopicSetup

CLIENT_ID = "kafka-traffic-replay-setup"

_NONE = 0
_UNKNOWN_TOPIC_OR_PARTITION = 3
_LEADER_NOT_AVAILABLE = 5
_COORDINATOR_NOT_AVAILABLE = 15
_TOPIC_ALREADY_EXISTS = 36
_COORDINATOR_RETRIABLE = (14, 15, 16)  # COORDINATOR_LOAD_IN_PROGRESS, COORDINATOR_NOT_AVAILABLE, NOT_COORDINATOR
_GROUP_ID_NOT_FOUND = 69
_RESOURCE_BROKER = 4

# The versions the set-up speaks, each lowered to what the broker offers.
_PREFERRED = {
    ApiMessageType.METADATA: 9,
    ApiMessageType.CREATE_TOPICS: 5,
    ApiMessageType.DELETE_TOPICS: 4,
    ApiMessageType.DELETE_GROUPS: 2,
    ApiMessageType.FIND_COORDINATOR: 2,
    ApiMessageType.DESCRIBE_CONFIGS: 1,
}


class SetupError(Exception):
    """The broker did not do what the session needs."""


class KafkaConnection:
    """One blocking connection that sends a request and reads its response."""

    def __init__(self, host: str, port: int, timeout_s: float = 30.0) -> None:
        self._sock = socket.create_connection((host, port), timeout=timeout_s)
        self._correlation_id = 0
        self._versions: dict[int, tuple[int, int]] = {}
        response = self.send(ApiMessageType.API_VERSIONS, 0, ApiVersionsRequestData())
        if response.error_code != _NONE:
            raise SetupError(f"ApiVersions failed with error {response.error_code}")
        self._versions = {k.api_key: (k.min_version, k.max_version) for k in response.api_keys}

    def close(self) -> None:
        self._sock.close()

    def __enter__(self) -> KafkaConnection:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def version(self, api: ApiMessageType) -> int:
        low, high = self._versions.get(api.api_key, (0, -1))
        want = min(_PREFERRED.get(api, high), high, api.highest_supported_version)
        if want < low:
            raise SetupError(f"the broker does not offer a usable {api.message_name} version ({low}-{high})")
        return want

    def send(self, api: ApiMessageType, version: int, body: Any) -> Any:
        self._correlation_id += 1
        header = RequestHeaderData(
            request_api_key=api.api_key,
            request_api_version=version,
            correlation_id=self._correlation_id,
            client_id=CLIENT_ID,
        )
        builder = SendBuilder()
        header.write_to(builder, api.request_header_version(version))
        body.write_to(builder, version)
        payload = builder.to_bytes()
        self._sock.sendall(SIZE_PREFIX.pack(len(payload)) + payload)
        (size,) = struct.unpack(">i", self._read(4))
        accessor = ByteBufferAccessor(memoryview(self._read(size)))
        response_header = ResponseHeaderData().read(accessor, api.response_header_version(version))
        if response_header.correlation_id != self._correlation_id:
            raise SetupError(f"correlation id {response_header.correlation_id} != {self._correlation_id}")
        return api.new_response().read(accessor, version)

    def _read(self, n: int) -> bytes:
        out = bytearray()
        while len(out) < n:
            chunk = self._sock.recv(n - len(out))
            if not chunk:
                raise SetupError("the broker closed the connection")
            out += chunk
        return bytes(out)


@dataclass(slots=True)
class SessionSetup:
    host: str
    port: int
    time: Time
    timeout_ms: int = 60_000

    def _deadline(self) -> int:
        return self.time.milliseconds() + self.timeout_ms

    def _wait(self, what: str, deadline: int) -> None:
        if self.time.milliseconds() >= deadline:
            raise SetupError(f"timed out: {what}")
        self.time.sleep(100)

    def prepare(self, manifest: Manifest) -> list[str]:
        """Makes the broker ready for the session; returns warnings (broker overrides it does not have)."""
        with KafkaConnection(self.host, self.port) as conn:
            self._wait_for_brokers(conn)
            self._wait_for_coordinator(conn)
            self._delete_groups(conn, manifest.groups)
            self._delete_topics(conn, [t.name for t in manifest.topics])
            self._wait_until_creatable(conn, [t.name for t in manifest.topics if not t.create])
            self._create_topics(conn, [t for t in manifest.topics if t.create])
            return self._config_mismatches(conn, manifest.broker_configs)

    def cleanup(self, manifest: Manifest) -> None:
        with KafkaConnection(self.host, self.port) as conn:
            self._delete_groups(conn, manifest.groups)
            self._delete_topics(conn, [t.name for t in manifest.topics])

    def _metadata(self, conn: KafkaConnection, names: list[str]) -> Any:
        version = conn.version(ApiMessageType.METADATA)
        request = MetadataRequestData(
            topics=[MetadataRequestData.MetadataRequestTopic(name=n) for n in names], allow_auto_topic_creation=False
        )
        return conn.send(ApiMessageType.METADATA, version, request)

    def _wait_for_brokers(self, conn: KafkaConnection) -> None:
        """A broker that has just started may not know the live brokers (itself included) yet."""
        deadline = self._deadline()
        while not self._metadata(conn, []).brokers:
            self._wait("the broker to know the live brokers", deadline)

    def _existing(self, conn: KafkaConnection, names: list[str]) -> set[str]:
        if not names:
            return set()
        response = self._metadata(conn, names)
        return {t.name for t in response.topics if t.error_code != _UNKNOWN_TOPIC_OR_PARTITION}

    def _delete_topics(self, conn: KafkaConnection, names: list[str]) -> None:
        present = self._existing(conn, names)
        if not present:
            return
        version = conn.version(ApiMessageType.DELETE_TOPICS)
        conn.send(
            ApiMessageType.DELETE_TOPICS,
            version,
            DeleteTopicsRequestData(topic_names=sorted(present), timeout_ms=30_000),
        )
        deadline = self._deadline()
        while self._existing(conn, sorted(present)):
            self._wait(f"deleting topics {sorted(present)}", deadline)

    def _create_topics(self, conn: KafkaConnection, topics: list[TopicSetup]) -> None:
        if not topics:
            return
        version = conn.version(ApiMessageType.CREATE_TOPICS)
        cls = CreateTopicsRequestData
        deadline = self._deadline()
        pending = list(topics)
        while pending:
            request = cls(
                topics=cls.CreatableTopicCollection(
                    cls.CreatableTopic(
                        name=t.name,
                        num_partitions=t.partitions,
                        replication_factor=t.replication_factor,
                        configs=cls.CreateableTopicConfigCollection(
                            cls.CreateableTopicConfig(name=k, value=v) for k, v in sorted(t.configs.items())
                        ),
                    )
                    for t in pending
                ),
                timeout_ms=30_000,
            )
            response = conn.send(ApiMessageType.CREATE_TOPICS, version, request)
            errors = {r.name: (r.error_code, r.error_message) for r in response.topics}
            retry = []
            for t in pending:
                code, message = errors.get(t.name, (_NONE, None))
                if code == _TOPIC_ALREADY_EXISTS:  # a deletion still finishing
                    retry.append(t)
                elif code != _NONE:
                    raise SetupError(f"creating topic {t.name} failed with error {code}: {message}")
            pending = retry
            if pending:
                self._wait(f"creating topics {[t.name for t in pending]}", deadline)
        names = [t.name for t in topics]
        while not self._all_led(self._metadata(conn, names), {t.name: t.partitions for t in topics}):
            self._wait(f"leaders for {names}", deadline)

    def _wait_until_creatable(self, conn: KafkaConnection, names: list[str]) -> None:
        """Waits until the session could create these topics itself: a deleted topic's name stays taken until the
        controller has finished deleting it (CreateTopics with validate_only says TOPIC_ALREADY_EXISTS)."""
        if not names:
            return
        version = max(conn.version(ApiMessageType.CREATE_TOPICS), 1)
        cls = CreateTopicsRequestData
        deadline = self._deadline()
        while True:
            request = cls(
                topics=cls.CreatableTopicCollection(
                    cls.CreatableTopic(name=n, num_partitions=1, replication_factor=1) for n in names
                ),
                timeout_ms=30_000,
                validate_only=True,
            )
            response = conn.send(ApiMessageType.CREATE_TOPICS, version, request)
            taken = [r.name for r in response.topics if r.error_code == _TOPIC_ALREADY_EXISTS]
            if not taken:
                return
            self._wait(f"the names {taken} to be free", deadline)

    @staticmethod
    def _all_led(metadata: Any, partitions: dict[str, int]) -> bool:
        seen = {t.name: t for t in metadata.topics}
        for name, count in partitions.items():
            topic = seen.get(name)
            if topic is None or topic.error_code != _NONE or len(topic.partitions) != count:
                return False
            if any(p.error_code != _NONE or p.leader_id < 0 for p in topic.partitions):
                return False
        return True

    def _delete_groups(self, conn: KafkaConnection, groups: list[str]) -> None:
        if not groups:
            return
        version = conn.version(ApiMessageType.DELETE_GROUPS)
        deadline = self._deadline()
        pending = sorted(groups)
        while pending:
            response = conn.send(ApiMessageType.DELETE_GROUPS, version, DeleteGroupsRequestData(groups_names=pending))
            retry = []
            for r in response.results:
                if r.error_code in (_NONE, _GROUP_ID_NOT_FOUND):
                    continue
                if r.error_code in _COORDINATOR_RETRIABLE:
                    retry.append(r.group_id)
                else:
                    raise SetupError(f"deleting group {r.group_id} failed with error {r.error_code}")
            pending = retry
            if pending:
                self._wait(f"deleting groups {pending}", deadline)

    def _wait_for_coordinator(self, conn: KafkaConnection) -> None:
        version = conn.version(ApiMessageType.FIND_COORDINATOR)
        deadline = self._deadline()
        while True:
            response = conn.send(
                ApiMessageType.FIND_COORDINATOR, version, FindCoordinatorRequestData(key=CLIENT_ID, key_type=0)
            )
            if response.error_code == _NONE:
                return
            if response.error_code not in _COORDINATOR_RETRIABLE:
                raise SetupError(f"FindCoordinator failed with error {response.error_code}")
            self._wait("the group coordinator", deadline)

    def _config_mismatches(self, conn: KafkaConnection, wanted: dict[str, str]) -> list[str]:
        if not wanted:
            return []
        metadata = self._metadata(conn, [])
        broker_id = str(metadata.controller_id if metadata.controller_id >= 0 else metadata.brokers[0].node_id)
        version = conn.version(ApiMessageType.DESCRIBE_CONFIGS)
        request = DescribeConfigsRequestData(
            resources=[
                DescribeConfigsRequestData.DescribeConfigsResource(
                    resource_type=_RESOURCE_BROKER, resource_name=broker_id, configuration_keys=sorted(wanted)
                )
            ]
        )
        response = conn.send(ApiMessageType.DESCRIBE_CONFIGS, version, request)
        actual: dict[str, str | None] = {}
        for result in response.results:
            for c in result.configs:
                actual[c.name] = c.value
        return [
            f"the manifest wants broker config {k}={v}, the broker has {actual.get(k)!r}"
            for k, v in sorted(wanted.items())
            if actual.get(k) != v
        ]
