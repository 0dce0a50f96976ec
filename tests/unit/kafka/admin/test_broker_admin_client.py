"""Tests of the blocking admin client against a scripted fake broker: version negotiation, the requests each
operation sends, the retries Kafka's admin client makes (coordinator loading, moved, leader changed) and the
failures it reports, after Kafka's KafkaAdminClientTest for the consumer-group operations."""

from __future__ import annotations

import logging
import re
import socket
import struct
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from kafka.admin.broker_admin_client import (
    BrokerAdminClient,
    ConsumerGroupState,
    ExecutionException,
    IllegalArgumentException,
    OffsetAndMetadata,
    OffsetSpec,
    deserialize_assignment,
    java_to_string,
)
from kafka.common.config.config_exception import ConfigException
from kafka.common.errors import (
    GroupAuthorizationException,
    KafkaException,
    TimeoutException,
    UnknownTopicOrPartitionException,
    UnsupportedVersionException,
)
from kafka.common.message import (
    ApiMessageType,
    ApiVersionsResponseData,
    ConsumerProtocolAssignmentData,
    DeleteGroupsResponseData,
    DescribeGroupsResponseData,
    FindCoordinatorResponseData,
    ListGroupsResponseData,
    ListOffsetsResponseData,
    MetadataResponseData,
    OffsetCommitResponseData,
    OffsetDeleteResponseData,
    OffsetFetchResponseData,
    RequestHeaderData,
    ResponseHeaderData,
)
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.protocol.message import ByteBufferAccessor
from kafka.common.protocol.types import SchemaException
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.time import MockTime

Handler = Callable[[Any, int], Any]


class FakeBroker:
    """A one-node broker on a local port that answers each API with a test's handler (a function of the request
    data and version, or a list of them used in turn) and records every request it receives."""

    def __init__(self, api_versions: dict[ApiKeys, tuple[int, int]] | None = None) -> None:
        self.api_versions = api_versions or {
            k: (k.oldest_version, k.latest_version(False))
            for k in (
                ApiKeys.API_VERSIONS,
                ApiKeys.METADATA,
                ApiKeys.FIND_COORDINATOR,
                ApiKeys.LIST_GROUPS,
                ApiKeys.DESCRIBE_GROUPS,
                ApiKeys.DELETE_GROUPS,
                ApiKeys.OFFSET_FETCH,
                ApiKeys.OFFSET_COMMIT,
                ApiKeys.OFFSET_DELETE,
                ApiKeys.LIST_OFFSETS,
            )
        }
        self.handlers: dict[ApiKeys, Handler | list[Handler]] = {}
        self.requests: list[tuple[ApiKeys, int, Any]] = []
        self.refuse_api_versions_above: int | None = None
        self._sock = socket.socket()
        self._sock.bind(("127.0.0.1", 0))
        self._sock.listen()
        self._sock.settimeout(0.1)
        self.port = self._sock.getsockname()[1]
        self._closed = threading.Event()
        self._connections: list[socket.socket] = []
        self._threads = [threading.Thread(target=self._accept, name="fake-broker-accept", daemon=True)]
        self._threads[0].start()

    @property
    def bootstrap(self) -> str:
        return f"127.0.0.1:{self.port}"

    def metadata(self, topics: dict[str, int] | None = None) -> Handler:
        """A Metadata handler describing this one broker as node 0, leader of every partition of `topics`."""

        def handle(request: Any, version: int) -> Any:
            response = MetadataResponseData(cluster_id="fake", controller_id=0)
            response.brokers.append(
                MetadataResponseData.MetadataResponseBroker(node_id=0, host="127.0.0.1", port=self.port)
            )
            for name in [t.name for t in request.topics or []]:
                topic = MetadataResponseData.MetadataResponseTopic(name=name)
                if topics is None or name not in topics:
                    topic.error_code = Errors.UNKNOWN_TOPIC_OR_PARTITION.code
                else:
                    for p in range(topics[name]):
                        topic.partitions.append(
                            MetadataResponseData.MetadataResponsePartition(
                                partition_index=p, leader_id=0, replica_nodes=[0], isr_nodes=[0]
                            )
                        )
                response.topics.append(topic)
            return response

        return handle

    def coordinator(self, *errors: Errors) -> list[Handler]:
        """FindCoordinator answers: each given error once, then this broker."""
        answers: list[Handler] = [
            lambda r, v, e=e: FindCoordinatorResponseData(error_code=e.code, node_id=-1, host="", port=-1)
            for e in errors
        ]
        answers.append(lambda r, v: FindCoordinatorResponseData(node_id=0, host="127.0.0.1", port=self.port))
        return answers

    def sent(self, api_key: ApiKeys) -> list[tuple[int, Any]]:
        return [(v, d) for k, v, d in self.requests if k is api_key]

    def close(self) -> None:
        self._closed.set()
        self._sock.close()
        for c in self._connections:
            try:
                c.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            c.close()
        for t in self._threads:
            t.join(timeout=5)

    def _accept(self) -> None:
        while not self._closed.is_set():
            try:
                conn, _ = self._sock.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            conn.settimeout(None)
            self._connections.append(conn)
            t = threading.Thread(target=self._serve, args=(conn,), name="fake-broker-conn", daemon=True)
            t.start()
            self._threads.append(t)

    @staticmethod
    def _read(conn: socket.socket, n: int) -> bytes | None:
        data = bytearray()
        while len(data) < n:
            chunk = conn.recv(n - len(data))
            if not chunk:
                return None
            data += chunk
        return bytes(data)

    def _serve(self, conn: socket.socket) -> None:
        try:
            while True:
                size = self._read(conn, 4)
                frame = None if size is None else self._read(conn, struct.unpack(">i", size)[0])
                if frame is None:
                    return
                conn.sendall(self._answer(frame))
        except OSError:
            return

    def _answer(self, frame: bytes) -> bytes:
        api_key, version = struct.unpack_from(">hh", frame)
        key = ApiKeys.for_id(api_key)
        message_type = ApiMessageType.from_api_key(api_key)
        accessor = ByteBufferAccessor(frame)
        header = RequestHeaderData().read(accessor, message_type.request_header_version(version))
        request = message_type.request_class().read(accessor, version)
        self.requests.append((key, version, request))
        if key is ApiKeys.API_VERSIONS:
            body = ApiVersionsResponseData()
            for k, (lo, hi) in self.api_versions.items():
                body.api_keys.append(ApiVersionsResponseData.ApiVersion(api_key=k.id, min_version=lo, max_version=hi))
            if self.refuse_api_versions_above is not None and version > self.refuse_api_versions_above:
                body.error_code = Errors.UNSUPPORTED_VERSION.code
                version = 0  # a broker answers a version it does not know in the v0 layout
        else:
            handler = self.handlers[key]
            if isinstance(handler, list):
                handler = handler.pop(0) if len(handler) > 1 else handler[0]
            body = handler(request, version)
        response = ResponseHeaderData(correlation_id=header.correlation_id).write(
            message_type.response_header_version(version)
        ) + body.write(version)
        return struct.pack(">i", len(response)) + response


@pytest.fixture
def broker() -> Iterator[FakeBroker]:
    b = FakeBroker()
    yield b
    b.close()


@pytest.fixture
def admin(broker: FakeBroker) -> Iterator[BrokerAdminClient]:
    client = BrokerAdminClient.create({"bootstrap.servers": broker.bootstrap, "retry.backoff.ms": "10"})
    yield client
    client.close()


def assignment_bytes(version: int, partitions: dict[str, list[int]]) -> bytes:
    data = ConsumerProtocolAssignmentData()
    for topic, ps in partitions.items():
        data.assigned_partitions.append(ConsumerProtocolAssignmentData.TopicPartition(topic=topic, partitions=ps))
    return struct.pack(">h", version) + data.write(min(version, 3))


def described_group(group_id: str, state: str, protocol_type: str = "consumer", **kwargs: Any) -> Any:
    return DescribeGroupsResponseData.DescribedGroup(
        group_id=group_id, group_state=state, protocol_type=protocol_type, protocol_data="range", **kwargs
    )


# ---- versions and connections ------------------------------------------------------------------------------------


def test_describe_retries_coordinator_errors_and_decodes_assignments(
    broker: FakeBroker, admin: BrokerAdminClient
) -> None:
    """FindCoordinator is retried while the coordinator is not available; NOT_COORDINATOR looks it up again; the
    members' assignments are decoded; requests go at most at Kafka 2.8's versions."""
    broker.handlers[ApiKeys.FIND_COORDINATOR] = broker.coordinator(
        Errors.COORDINATOR_NOT_AVAILABLE, Errors.COORDINATOR_LOAD_IN_PROGRESS
    )
    member = DescribeGroupsResponseData.DescribedGroupMember(
        member_id="m-1",
        group_instance_id="static-1",
        client_id="c",
        client_host="/10.0.0.1",
        member_assignment=assignment_bytes(5, {"t": [1, 0], "u": [3]}),
    )
    broker.handlers[ApiKeys.DESCRIBE_GROUPS] = [
        lambda r, v: DescribeGroupsResponseData(
            groups=[described_group("g", "", error_code=Errors.NOT_COORDINATOR.code)]
        ),
        lambda r, v: DescribeGroupsResponseData(groups=[described_group("g", "Stable", members=[member])]),
    ]
    description = admin.describe_consumer_groups(["g"], timeout_ms=10_000)["g"].get()
    assert description.state is ConsumerGroupState.STABLE
    assert description.partition_assignor == "range"
    assert (description.coordinator.host, description.coordinator.port) == ("127.0.0.1", broker.port)
    (m,) = description.members
    assert (m.consumer_id, m.group_instance_id, m.client_id, m.host) == ("m-1", "static-1", "c", "/10.0.0.1")
    assert m.assignment.topic_partitions == (TopicPartition("t", 1), TopicPartition("t", 0), TopicPartition("u", 3))
    assert [v for v, _ in broker.sent(ApiKeys.FIND_COORDINATOR)] == [3, 3, 3, 3]
    assert [d.key for _, d in broker.sent(ApiKeys.FIND_COORDINATOR)] == ["g"] * 4
    assert [v for v, _ in broker.sent(ApiKeys.DESCRIBE_GROUPS)] == [5, 5]
    assert [v for v, _ in broker.sent(ApiKeys.API_VERSIONS)] == [3]


def test_api_versions_steps_down_when_refused(broker: FakeBroker, admin: BrokerAdminClient) -> None:
    """A broker that refuses ApiVersions v3 is asked again at the newest version it announced."""
    broker.api_versions[ApiKeys.API_VERSIONS] = (0, 2)
    broker.refuse_api_versions_above = 2
    broker.handlers[ApiKeys.METADATA] = broker.metadata()
    cluster = admin.describe_cluster(timeout_ms=5000)
    assert [n.id for n in cluster.nodes] == [0]
    assert cluster.cluster_id == "fake"
    assert [v for v, _ in broker.sent(ApiKeys.API_VERSIONS)] == [3, 2]


def test_versions_follow_what_the_broker_supports(broker: FakeBroker, admin: BrokerAdminClient) -> None:
    """A broker with older versions gets those; one without an API gets UnsupportedVersionException."""
    broker.api_versions[ApiKeys.DESCRIBE_GROUPS] = (0, 1)
    del broker.api_versions[ApiKeys.DELETE_GROUPS]
    broker.handlers[ApiKeys.FIND_COORDINATOR] = broker.coordinator()
    broker.handlers[ApiKeys.DESCRIBE_GROUPS] = lambda r, v: DescribeGroupsResponseData(
        groups=[described_group("g", "Empty")]
    )
    assert admin.describe_consumer_groups(["g"])["g"].get().state is ConsumerGroupState.EMPTY
    assert [v for v, _ in broker.sent(ApiKeys.DESCRIBE_GROUPS)] == [1]
    failure = admin.delete_consumer_groups(["g"])["g"].exception()
    assert isinstance(failure, UnsupportedVersionException)
    assert str(failure) == "The broker does not support DELETE_GROUPS"


def test_unreachable_broker_times_out_waiting_for_a_node() -> None:
    """With nothing listening, the call fails at its deadline with Java's node-assignment timeout."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    time = MockTime()
    client = BrokerAdminClient.create({"bootstrap.servers": f"127.0.0.1:{port}"}, time)
    try:
        failure = client.describe_consumer_groups(["g"], timeout_ms=1000)["g"].exception()
        assert isinstance(failure, TimeoutException)
        assert str(failure) == "Timed out waiting for a node assignment. Call: findCoordinator"
        with pytest.raises(ExecutionException) as listed:
            client.list_consumer_groups(timeout_ms=500)
        assert str(listed.value) == "org.apache.kafka.common.KafkaException: Failed to find brokers to send ListGroups"
    finally:
        client.close()


def test_coordinator_never_available_times_out_after_attempts(broker: FakeBroker) -> None:
    """A coordinator that stays unavailable fails the call at the deadline with Java's Call(...) timeout text."""
    broker.handlers[ApiKeys.FIND_COORDINATOR] = [
        lambda r, v: FindCoordinatorResponseData(error_code=Errors.COORDINATOR_NOT_AVAILABLE.code, node_id=-1)
    ]
    time = MockTime()
    client = BrokerAdminClient.create({"bootstrap.servers": broker.bootstrap}, time)
    try:
        failure = client.describe_consumer_groups(["g"], timeout_ms=1000)["g"].exception()
    finally:
        client.close()
    assert isinstance(failure, TimeoutException)
    assert re.fullmatch(
        r"Call\(callName=findCoordinator, deadlineMs=\d+, tries=(\d+), nextAllowedTryMs=\d+\) timed out at \d+ "
        r"after \1 attempt\(s\)",
        str(failure),
    ), str(failure)
    assert len(broker.sent(ApiKeys.FIND_COORDINATOR)) == 10  # one try per 100 ms of backoff within 1000 ms


def test_coordinator_that_keeps_moving_times_out(broker: FakeBroker) -> None:
    """A coordinator that answers NOT_COORDINATOR every time is looked up again until the deadline, then the call
    fails with a timeout instead of looping."""
    broker.handlers[ApiKeys.FIND_COORDINATOR] = broker.coordinator()
    broker.handlers[ApiKeys.DESCRIBE_GROUPS] = lambda r, v: DescribeGroupsResponseData(
        groups=[described_group("g", "", error_code=Errors.NOT_COORDINATOR.code)]
    )
    client = BrokerAdminClient.create({"bootstrap.servers": broker.bootstrap}, MockTime())
    try:
        failure = client.describe_consumer_groups(["g"], timeout_ms=500)["g"].exception()
    finally:
        client.close()
    assert isinstance(failure, TimeoutException)
    assert str(failure).startswith("Call(callName=describeConsumerGroups, ")
    assert len(broker.sent(ApiKeys.DESCRIBE_GROUPS)) == 6  # at 0, 100, ... 500 ms of the mock clock


# ---- the operations ------------------------------------------------------------------------------------------------


def test_list_consumer_groups_filters_by_state_and_protocol(broker: FakeBroker, admin: BrokerAdminClient) -> None:
    """ListGroups goes to every broker with the state filter; groups of other protocols are left out."""
    broker.handlers[ApiKeys.METADATA] = broker.metadata()
    broker.handlers[ApiKeys.LIST_GROUPS] = lambda r, v: ListGroupsResponseData(
        groups=[
            ListGroupsResponseData.ListedGroup(group_id="a", protocol_type="consumer", group_state="Stable"),
            ListGroupsResponseData.ListedGroup(group_id="b", protocol_type="", group_state="Empty"),
            ListGroupsResponseData.ListedGroup(group_id="c", protocol_type="connect", group_state="Stable"),
        ]
    )
    listings = admin.list_consumer_groups([ConsumerGroupState.STABLE, ConsumerGroupState.EMPTY], timeout_ms=5000)
    assert [(x.group_id, x.is_simple_consumer_group, x.state) for x in listings] == [
        ("a", False, ConsumerGroupState.STABLE),
        ("b", True, ConsumerGroupState.EMPTY),
    ]
    ((version, request),) = broker.sent(ApiKeys.LIST_GROUPS)
    assert (version, list(request.states_filter)) == (4, ["Stable", "Empty"])


def test_list_by_state_needs_list_groups_v4(broker: FakeBroker, admin: BrokerAdminClient) -> None:
    """Asking for states from a broker without ListGroups v4 fails as Java's client does."""
    broker.api_versions[ApiKeys.LIST_GROUPS] = (0, 3)
    broker.handlers[ApiKeys.METADATA] = broker.metadata()
    with pytest.raises(ExecutionException) as failure:
        admin.list_consumer_groups([ConsumerGroupState.STABLE])
    assert isinstance(failure.value.cause, UnsupportedVersionException)
    assert "we need v4 or newer to request groups by states" in str(failure.value)


def test_describe_non_consumer_group_fails(broker: FakeBroker, admin: BrokerAdminClient) -> None:
    """A group of another protocol is refused with Java's IllegalArgumentException text."""
    broker.handlers[ApiKeys.FIND_COORDINATOR] = broker.coordinator()
    broker.handlers[ApiKeys.DESCRIBE_GROUPS] = lambda r, v: DescribeGroupsResponseData(
        groups=[described_group("w", "Stable", protocol_type="connect")]
    )
    failure = admin.describe_consumer_groups(["w"])["w"].exception()
    assert isinstance(failure, IllegalArgumentException)
    assert java_to_string(failure) == "java.lang.IllegalArgumentException: GroupId w is not a consumer group (connect)."


def test_list_consumer_group_offsets(broker: FakeBroker, admin: BrokerAdminClient) -> None:
    """OffsetFetch asks for all partitions at v7; partitions without a committed offset or with an error are left
    out; a group-level error fails the call."""
    topic = OffsetFetchResponseData.OffsetFetchResponseTopic(name="t")
    for index, offset, error in ((0, 5, Errors.NONE), (1, -1, Errors.NONE), (2, 9, Errors.UNSTABLE_OFFSET_COMMIT)):
        topic.partitions.append(
            OffsetFetchResponseData.OffsetFetchResponsePartition(
                partition_index=index,
                committed_offset=offset,
                committed_leader_epoch=3,
                metadata="m",
                error_code=error.code,
            )
        )
    broker.handlers[ApiKeys.FIND_COORDINATOR] = broker.coordinator()
    broker.handlers[ApiKeys.OFFSET_FETCH] = [
        lambda r, v: OffsetFetchResponseData(topics=[topic]),
        lambda r, v: OffsetFetchResponseData(error_code=Errors.GROUP_AUTHORIZATION_FAILED.code),
    ]
    assert admin.list_consumer_group_offsets("g") == {TopicPartition("t", 0): OffsetAndMetadata(5, 3, "m")}
    ((version, request),) = broker.sent(ApiKeys.OFFSET_FETCH)
    assert (version, request.group_id, request.topics) == (7, "g", None)
    with pytest.raises(ExecutionException) as failure:
        admin.list_consumer_group_offsets("g")
    assert isinstance(failure.value.cause, GroupAuthorizationException)


def test_alter_consumer_group_offsets(broker: FakeBroker, admin: BrokerAdminClient) -> None:
    """Offsets are committed as an admin commit (generation -1, no member id); a coordinator that moved is looked
    up again; a partition error fails the call."""

    def commit_response(error: Errors) -> Callable[[Any, int], Any]:
        def handle(request: Any, version: int) -> Any:
            response = OffsetCommitResponseData()
            for t in request.topics:
                rt = OffsetCommitResponseData.OffsetCommitResponseTopic(name=t.name)
                for p in t.partitions:
                    rt.partitions.append(
                        OffsetCommitResponseData.OffsetCommitResponsePartition(
                            partition_index=p.partition_index, error_code=error.code
                        )
                    )
                response.topics.append(rt)
            return response

        return handle

    broker.handlers[ApiKeys.FIND_COORDINATOR] = broker.coordinator()
    broker.handlers[ApiKeys.OFFSET_COMMIT] = [
        commit_response(Errors.NOT_COORDINATOR),
        commit_response(Errors.NONE),
        commit_response(Errors.UNKNOWN_MEMBER_ID),
    ]
    offsets = {TopicPartition("t", 0): OffsetAndMetadata(7), TopicPartition("t", 1): OffsetAndMetadata(9)}
    admin.alter_consumer_group_offsets("g", offsets)
    version, request = broker.sent(ApiKeys.OFFSET_COMMIT)[-1]
    assert version == 8
    assert (request.group_id, request.generation_id_or_member_epoch, request.member_id) == ("g", -1, "")
    assert [
        (p.partition_index, p.committed_offset, p.committed_leader_epoch) for p in request.topics[0].partitions
    ] == [
        (0, 7, -1),
        (1, 9, -1),
    ]
    assert len(broker.sent(ApiKeys.FIND_COORDINATOR)) == 2
    with pytest.raises(ExecutionException) as failure:
        admin.alter_consumer_group_offsets("g", offsets)
    assert str(failure.value).startswith("org.apache.kafka.common.errors.UnknownMemberIdException: ")


def test_list_offsets_retries_a_moved_leader(broker: FakeBroker, admin: BrokerAdminClient) -> None:
    """ListOffsets goes to each partition's leader at v6 (from v1 on, timestamps); NOT_LEADER_OR_FOLLOWER is retried
    with fresh metadata; an unknown topic fails the call."""

    def offsets(error: Errors) -> Handler:
        def handle(request: Any, version: int) -> Any:
            response = ListOffsetsResponseData()
            for t in request.topics:
                rt = ListOffsetsResponseData.ListOffsetsTopicResponse(name=t.name)
                for p in t.partitions:
                    rt.partitions.append(
                        ListOffsetsResponseData.ListOffsetsPartitionResponse(
                            partition_index=p.partition_index,
                            error_code=error.code,
                            offset=100 + p.partition_index if p.timestamp == -1 else p.partition_index,
                            timestamp=-1,
                            leader_epoch=4,
                        )
                    )
                response.topics.append(rt)
            return response

        return handle

    broker.handlers[ApiKeys.METADATA] = broker.metadata({"t": 2})
    broker.handlers[ApiKeys.LIST_OFFSETS] = [offsets(Errors.NOT_LEADER_OR_FOLLOWER), offsets(Errors.NONE)]
    result = admin.list_offsets(
        {TopicPartition("t", 0): OffsetSpec.latest(), TopicPartition("t", 1): OffsetSpec.earliest()}
    )
    assert {tp: (info.offset, info.leader_epoch) for tp, info in result.items()} == {
        TopicPartition("t", 0): (100, 4),
        TopicPartition("t", 1): (1, 4),
    }
    assert [v for v, _ in broker.sent(ApiKeys.LIST_OFFSETS)] == [6, 6]
    with pytest.raises(ExecutionException) as failure:
        admin.list_offsets({TopicPartition("nope", 0): OffsetSpec.latest()})
    assert isinstance(failure.value.cause, UnknownTopicOrPartitionException)


def test_describe_topics(broker: FakeBroker, admin: BrokerAdminClient) -> None:
    """Metadata for named topics gives their partitions in order; an unknown topic's future fails."""
    broker.handlers[ApiKeys.METADATA] = broker.metadata({"t": 3})
    result = admin.describe_topics(["t", "nope"])
    assert [p.partition for p in result["t"].get().partitions] == [0, 1, 2]
    assert isinstance(result["nope"].exception(), UnknownTopicOrPartitionException)
    (version, request), *_ = broker.sent(ApiKeys.METADATA)
    assert (version, request.allow_auto_topic_creation) == (11, False)


def test_delete_groups_and_offsets(broker: FakeBroker, admin: BrokerAdminClient) -> None:
    """DeleteGroups reports each group's error; OffsetDelete reports the group error or each partition's."""
    broker.handlers[ApiKeys.FIND_COORDINATOR] = broker.coordinator()
    broker.handlers[ApiKeys.DELETE_GROUPS] = lambda r, v: DeleteGroupsResponseData(
        results=[
            DeleteGroupsResponseData.DeletableGroupResult(
                group_id=g, error_code=(Errors.NON_EMPTY_GROUP if g == "busy" else Errors.NONE).code
            )
            for g in r.groups_names
        ]
    )
    result = admin.delete_consumer_groups(["a", "busy"])
    assert result["a"].exception() is None
    assert java_to_string(ExecutionException(result["busy"].exception() or KafkaException())) == (
        "java.util.concurrent.ExecutionException: org.apache.kafka.common.errors.GroupNotEmptyException: "
        "The group is not empty."
    )

    def offset_delete(request: Any, version: int) -> Any:
        response = OffsetDeleteResponseData()
        for t in request.topics:
            rt = OffsetDeleteResponseData.OffsetDeleteResponseTopic(name=t.name)
            for p in t.partitions:
                error = Errors.GROUP_SUBSCRIBED_TO_TOPIC if p.partition_index == 1 else Errors.NONE
                rt.partitions.append(
                    OffsetDeleteResponseData.OffsetDeleteResponsePartition(
                        partition_index=p.partition_index, error_code=error.code
                    )
                )
            response.topics.append(rt)
        return response

    broker.handlers[ApiKeys.OFFSET_DELETE] = [
        offset_delete,
        lambda r, v: OffsetDeleteResponseData(error_code=Errors.GROUP_ID_NOT_FOUND.code),
    ]
    t0, t1 = TopicPartition("t", 0), TopicPartition("t", 1)
    deleted = admin.delete_consumer_group_offsets("g", [t0, t1])
    assert deleted.partition_result(t0).exception() is None
    assert Errors.for_exception(deleted.partition_result(t1).exception() or KafkaException()) is (
        Errors.GROUP_SUBSCRIBED_TO_TOPIC
    )
    assert Errors.for_exception(deleted.all().exception() or KafkaException()) is Errors.GROUP_SUBSCRIBED_TO_TOPIC
    missing = admin.delete_consumer_group_offsets("g", [t0])
    assert (
        Errors.for_exception(missing.partition_result(t0).exception() or KafkaException()) is Errors.GROUP_ID_NOT_FOUND
    )


# ---- configuration and encodings ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("config", "cause"),
    [
        ({"bootstrap.servers": "nohost"}, "Invalid url in bootstrap.servers: nohost"),
        ({}, 'Missing required configuration "bootstrap.servers" which has no default value.'),
        (
            {"bootstrap.servers": "h:1", "security.protocol": "SASL_SSL"},
            "Invalid value SASL_SSL for configuration security.protocol: this admin client connects with PLAINTEXT "
            "only",
        ),
        (
            {"bootstrap.servers": "h:1", "security.protocol": "TLS"},
            "Invalid value TLS for configuration security.protocol: String must be one of: PLAINTEXT, SSL, "
            "SASL_PLAINTEXT, SASL_SSL",
        ),
        (
            {"bootstrap.servers": "h:1", "request.timeout.ms": "soon"},
            "Invalid value soon for configuration request.timeout.ms: Not a number of type INT",
        ),
    ],
)
def test_create_refuses_bad_configuration(config: dict[str, str], cause: str) -> None:
    """Admin.create fails with KafkaException caused by Java's ConfigException text."""
    with pytest.raises(KafkaException, match="Failed to create new KafkaAdminClient") as failure:
        BrokerAdminClient.create(config)
    assert isinstance(failure.value.__cause__, ConfigException)
    assert str(failure.value.__cause__) == cause


def test_unknown_configuration_is_logged(caplog: pytest.LogCaptureFixture) -> None:
    """A key the admin client does not know is logged as Java's AdminClientConfig logs it; client.id is kept."""
    caplog.set_level(logging.WARNING)
    client = BrokerAdminClient.create({"bootstrap.servers": "127.0.0.1:1", "client.id": "ops", "colour": "blue"})
    client.close()
    assert client.client_id == "ops"
    assert [(r.name, r.getMessage()) for r in caplog.records] == [
        (
            "org.apache.kafka.clients.admin.AdminClientConfig",
            "The configuration 'colour' was supplied but isn't a known config.",
        )
    ]


def test_deserialize_assignment_versions() -> None:
    """An assignment of a newer version is read as the newest known one; a negative version is refused."""
    assert deserialize_assignment(assignment_bytes(0, {"t": [2]})) == [TopicPartition("t", 2)]
    assert deserialize_assignment(assignment_bytes(9, {"a": [0, 1]}) + b"future") == [
        TopicPartition("a", 0),
        TopicPartition("a", 1),
    ]
    with pytest.raises(SchemaException, match="Unsupported assignment version: -1"):
        deserialize_assignment(struct.pack(">h", -1))
    with pytest.raises(SchemaException, match="Buffer underflow"):
        deserialize_assignment(struct.pack(">h", 1) + b"\x00\x00\x00\x05")


def test_java_to_string() -> None:
    """Exceptions print with Java's class names."""
    assert java_to_string(TimeoutException("late")) == "org.apache.kafka.common.errors.TimeoutException: late"
    assert java_to_string(KafkaException("x")) == "org.apache.kafka.common.KafkaException: x"
    assert java_to_string(ConfigException("c")) == "org.apache.kafka.common.config.ConfigException: c"
    assert java_to_string(ExecutionException(IllegalArgumentException("bad"))) == (
        "java.util.concurrent.ExecutionException: java.lang.IllegalArgumentException: bad"
    )
