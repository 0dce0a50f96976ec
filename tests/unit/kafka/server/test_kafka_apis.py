"""Tests of the group and offset APIs of kafka.server.kafka_apis, after Kafka's KafkaApisTest: each request is
serialized, parsed as the broker parses it, handled against a fake GroupCoordinator, and the response read back
from the bytes the broker would send."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from kafka.common.message import (
    DeleteGroupsRequestData,
    DescribeGroupsRequestData,
    FindCoordinatorRequestData,
    HeartbeatRequestData,
    JoinGroupRequestData,
    JoinGroupResponseData,
    LeaveGroupRequestData,
    ListenerType,
    ListGroupsRequestData,
    OffsetCommitRequestData,
    OffsetDeleteRequestData,
    OffsetFetchRequestData,
    StopReplicaRequestData,
    SyncGroupRequestData,
    UpdateMetadataRequestData,
)
from kafka.common.network.client_information import ClientInformation
from kafka.common.network.listener_name import ListenerName
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.protocol.message import ByteBufferAccessor
from kafka.common.requests.abstract_request import request_class
from kafka.common.requests.abstract_response import AbstractResponse
from kafka.common.requests.offset_fetch_response import PartitionData
from kafka.common.requests.request_context import RequestContext
from kafka.common.requests.request_header import RequestHeader
from kafka.common.requests.update_metadata_request import UpdateMetadataRequestBuilder
from kafka.common.security.auth.kafka_principal import KafkaPrincipal
from kafka.common.security.auth.security_protocol import SecurityProtocol
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.time import MockTime
from kafka.coordinator.group.group_metadata import GroupOverview, GroupSummary, JoinGroupResult, SyncGroupResult
from kafka.coordinator.group.member_metadata import MemberSummary
from kafka.coordinator.group.offset_and_metadata import OffsetAndMetadata
from kafka.network.request_channel import Request, SendResponse
from kafka.server.api_version_manager import ApiVersionManager
from kafka.server.kafka_apis import KafkaApis
from kafka.server.kafka_config import KafkaConfig
from kafka.server.metadata_cache import ZkMetadataCache
from kafka.server.request_handler_helper import on_leadership_change

PLAINTEXT = ListenerName("PLAINTEXT")
OFFSETS = "__consumer_offsets"
NO_AUTHORIZED_OPERATIONS = -(2**31)


# ---- fakes ------------------------------------------------------------------------------------------


class RecordingChannel:
    """Stands for the RequestChannel: keeps what KafkaApis sends."""

    def __init__(self) -> None:
        self.responses: list[Any] = []
        self.closed: list[Any] = []

    def send_response(self, response: Any) -> None:
        self.responses.append(response)

    def close_connection(self, request: Any, error_counts: Any) -> None:
        self.closed.append(request)


@dataclass
class LeaveMember:
    member_id: str
    group_instance_id: str | None
    error: Errors


@dataclass
class LeaveResult:
    top_level_error: Errors
    member_responses: list[LeaveMember]


@dataclass
class RecordingCoordinator:
    """What the group and transaction coordinator fakes share: every call recorded in `calls`, and the leadership
    changes of their internal topic's partitions."""

    calls: list[tuple[str, tuple[Any, ...]]] = field(default_factory=list)

    def on_election(self, partition: int, epoch: int) -> None:
        self.calls.append(("election", (partition, epoch)))

    def on_resignation(self, partition: int, epoch: int | None) -> None:
        self.calls.append(("resignation", (partition, epoch)))


@dataclass
class FakeGroupCoordinator(RecordingCoordinator):
    """Records every call; answers with what the test put in its fields."""

    join_result: Any = None
    sync_result: Any = None
    heartbeat_error: Errors = Errors.NONE
    leave_result: Any = None
    commit_error: Errors = Errors.NONE
    fetch_results: dict[str, tuple[Errors, dict[TopicPartition, PartitionData]]] = field(default_factory=dict)
    describe_results: dict[str, tuple[Errors, GroupSummary]] = field(default_factory=dict)
    list_result: tuple[Errors, list[GroupOverview]] = (Errors.NONE, [])
    delete_offsets_result: tuple[Errors, dict[TopicPartition, Errors]] = (Errors.NONE, {})

    def partition_for(self, group_id: str) -> int:
        return 1

    def handle_join_group(self, *args: Any) -> None:
        # The last two arguments: the response callback, and whether the request allows skipping the assignment.
        self.calls.append(("join", args[:-2]))
        self.join_support_skipping_assignment = args[-1]
        args[-2](self.join_result)

    def handle_sync_group(self, *args: Any) -> None:
        self.calls.append(("sync", args[:-1]))
        args[-1](self.sync_result)

    def handle_heartbeat(self, *args: Any) -> None:
        self.calls.append(("heartbeat", args[:-1]))
        args[-1](self.heartbeat_error)

    def handle_leave_group(self, group_id: str, members: list[Any], callback: Callable[[Any], None]) -> None:
        self.calls.append(("leave", (group_id, [(m.member_id, m.group_instance_id) for m in members])))
        callback(self.leave_result)

    def handle_commit_offsets(self, *args: Any) -> None:
        self.calls.append(("commit", args[:-1]))
        offsets = args[-2]
        args[-1]({tp: self.commit_error for tp in offsets})

    def handle_fetch_offsets(
        self, group_id: str, require_stable: bool, partitions: list[TopicPartition] | None = None
    ) -> tuple[Errors, dict[TopicPartition, PartitionData]]:
        self.calls.append(("fetch", (group_id, require_stable, partitions)))
        return self.fetch_results.get(group_id, (Errors.NONE, {}))

    def handle_describe_group(self, group_id: str) -> tuple[Errors, GroupSummary]:
        return self.describe_results.get(group_id, (Errors.NONE, GroupSummary("Dead", "", "", [])))

    def handle_list_groups(self, states: set[str]) -> tuple[Errors, list[GroupOverview]]:
        self.calls.append(("list", (states,)))
        return self.list_result

    def handle_delete_groups(self, group_ids: set[str]) -> dict[str, Errors]:
        self.calls.append(("delete_groups", (group_ids,)))
        return {g: Errors.GROUP_ID_NOT_FOUND if g == "missing" else Errors.NONE for g in sorted(group_ids)}

    def handle_delete_offsets(
        self, group_id: str, partitions: list[TopicPartition]
    ) -> tuple[Errors, dict[TopicPartition, Errors]]:
        self.calls.append(("delete_offsets", (group_id, partitions)))
        return self.delete_offsets_result

    def handle_deleted_partitions(self, partitions: list[TopicPartition]) -> None:
        self.calls.append(("deleted_partitions", (partitions,)))


class FakeZkClient:
    """The old consumers' offsets of /consumers/{group}/offsets, in a dict."""

    def __init__(self) -> None:
        self.offsets: dict[tuple[str, TopicPartition], int] = {}

    def set_or_create_consumer_offset(self, group: str, tp: TopicPartition, offset: int) -> None:
        self.offsets[(group, tp)] = offset

    def get_consumer_offset(self, group: str, tp: TopicPartition) -> int | None:
        return self.offsets.get((group, tp))


class FakeAutoTopicCreationManager:
    def __init__(self) -> None:
        self.created: list[set[str]] = []

    def create_topics(self, topics: Any, quota: Any, context: Any = None) -> list[Any]:
        self.created.append(set(topics))
        return []


class FakeReplicaManager:
    def __init__(self, metadata_cache: ZkMetadataCache) -> None:
        self.metadata_cache = metadata_cache
        self.stop_result: dict[TopicPartition, Errors] = {}
        self.replica_fetcher_manager = self
        self.leadership_changes: list[tuple[list[Any], list[Any]]] = []

    def try_complete_actions(self) -> None:
        pass

    def stop_replicas(self, *args: Any) -> tuple[dict[TopicPartition, Errors], Errors]:
        return self.stop_result, Errors.NONE

    def shutdown_idle_fetcher_threads(self) -> None:
        pass

    def maybe_update_metadata_cache(self, correlation_id: int, request: Any) -> list[TopicPartition]:
        return self.metadata_cache.update_metadata(correlation_id, request)


class FakeAdminManager:
    has_delayed_topic_operations = False


@dataclass
class FakePartition:
    topic: str
    partition_id: int
    leader_epoch: int

    def get_leader_epoch(self) -> int:
        return self.leader_epoch


@dataclass
class Harness:
    apis: KafkaApis
    channel: RecordingChannel
    coordinator: FakeGroupCoordinator
    zk_client: FakeZkClient
    auto_topic_creation: FakeAutoTopicCreationManager
    replica_manager: FakeReplicaManager
    metadata_cache: ZkMetadataCache
    time: MockTime

    def handle(self, api_key: ApiKeys, version: int, data: Any) -> Any:
        """Sends `data` as a v`version` request through KafkaApis and returns the parsed response."""
        request = _request(api_key, version, data)
        before = len(self.channel.responses)
        self.apis.handle(request)
        assert len(self.channel.responses) == before + 1, "no response was sent"
        response = self.channel.responses[-1]
        assert isinstance(response, SendResponse)
        frame = b"".join(bytes(part) for part in response.response_send)
        return AbstractResponse.parse_response(ByteBufferAccessor(memoryview(frame[4:])), request.header)


def _request(api_key: ApiKeys, version: int, data: Any) -> Request:
    body = request_class(api_key)(data, version)
    header = RequestHeader.of(api_key, version, "test-client", 7)
    payload = bytearray(body.serialize_with_header(header))
    buffer = ByteBufferAccessor(memoryview(payload))
    parsed_header = RequestHeader.parse(buffer)
    context = RequestContext(
        parsed_header,
        "127.0.0.1:9092-127.0.0.1:50000-0",
        "127.0.0.1",
        KafkaPrincipal.ANONYMOUS,
        "PLAINTEXT",
        "PLAINTEXT",
        ClientInformation.EMPTY,
        False,
    )
    return Request(0, context, 0, None, buffer, None, MockTime())


def _metadata_update(topics: dict[str, int], leader: int = 0) -> Any:
    broker = UpdateMetadataRequestData.UpdateMetadataBroker(
        id=0,
        endpoints=[
            UpdateMetadataRequestData.UpdateMetadataEndpoint(
                host="broker0", port=9092, listener="PLAINTEXT", security_protocol=SecurityProtocol.PLAINTEXT.id
            )
        ],
    )
    states = [
        UpdateMetadataRequestData.UpdateMetadataPartitionState(
            topic_name=topic,
            partition_index=p,
            controller_epoch=1,
            leader=leader,
            leader_epoch=3,
            isr=[0],
            zk_version=1,
            replicas=[0],
            offline_replicas=[],
        )
        for topic, count in topics.items()
        for p in range(count)
    ]
    return UpdateMetadataRequestBuilder(8, 0, 1, 0, states, [broker], {}).build()


def _harness(topics: dict[str, int] | None = None, **config: str) -> Harness:
    props = {"zookeeper.connect": "localhost:2181", "broker.id": "0", **config}
    kafka_config = KafkaConfig.from_props(props, do_log=False)
    channel = RecordingChannel()
    coordinator = FakeGroupCoordinator()
    zk_client = FakeZkClient()
    auto = FakeAutoTopicCreationManager()
    cache = ZkMetadataCache(0)
    cache.update_metadata(1, _metadata_update(topics if topics is not None else {"t": 2}))
    replica_manager = FakeReplicaManager(cache)
    time = MockTime()
    apis = KafkaApis(
        request_channel=channel,  # type: ignore[arg-type]
        replica_manager=replica_manager,  # type: ignore[arg-type]  # a fake
        group_coordinator=coordinator,
        txn_coordinator=None,  # type: ignore[arg-type]  # the transaction tests set their own
        admin_manager=FakeAdminManager(),  # type: ignore[arg-type]  # a fake
        controller=None,  # type: ignore[arg-type]  # no tested handler uses it
        zk_client=zk_client,  # type: ignore[arg-type]  # a fake
        broker_id=0,
        config=kafka_config,
        metadata_cache=cache,
        fetch_manager=None,  # type: ignore[arg-type]  # no tested handler uses it
        broker_topic_stats=None,
        cluster_id="cluster",
        time=time,
        api_version_manager=ApiVersionManager(ListenerType.ZK_BROKER, KafkaApis.HANDLED_APIS),
        auto_topic_creation_manager=auto,  # type: ignore[arg-type]  # a fake, without start and shutdown
        config_helper=None,  # type: ignore[arg-type]  # no tested handler uses it
        broker_epoch_supplier=lambda: 10,
    )
    return Harness(apis, channel, coordinator, zk_client, auto, replica_manager, cache, time)


# ---- FindCoordinator ------------------------------------------------------------------------------


@pytest.mark.parametrize("version", [0, 1, 2, 3])
def test_find_coordinator_creates_the_offsets_topic_when_missing(version: int) -> None:
    """Without __consumer_offsets the answer is COORDINATOR_NOT_AVAILABLE and the topic is auto-created."""
    h = _harness()
    response = h.handle(ApiKeys.FIND_COORDINATOR, version, FindCoordinatorRequestData(key="g"))
    assert response.data.error_code == Errors.COORDINATOR_NOT_AVAILABLE.code
    assert (response.data.node_id, response.data.host, response.data.port) == (-1, "", -1)
    assert h.auto_topic_creation.created == [{OFFSETS}]


def test_find_coordinator_answers_the_leader_of_the_groups_partition() -> None:
    """With the offsets topic led by broker 0, v1 answers broker 0's endpoint and Java's message "NONE"."""
    h = _harness({"t": 1, OFFSETS: 3})
    response = h.handle(ApiKeys.FIND_COORDINATOR, 1, FindCoordinatorRequestData(key="g"))
    assert response.data.error_code == Errors.NONE.code
    assert response.data.error_message == "NONE"
    assert (response.data.node_id, response.data.host, response.data.port) == (0, "broker0", 9092)
    assert h.auto_topic_creation.created == []


def test_find_coordinator_without_leader_is_not_available() -> None:
    """A group partition without a live leader gives COORDINATOR_NOT_AVAILABLE."""
    h = _harness({OFFSETS: 3})
    h.metadata_cache.update_metadata(2, _metadata_update({OFFSETS: 3}, leader=5))
    response = h.handle(ApiKeys.FIND_COORDINATOR, 2, FindCoordinatorRequestData(key="g"))
    assert response.data.error_code == Errors.COORDINATOR_NOT_AVAILABLE.code


def test_find_coordinator_v4_answers_every_key() -> None:
    """v4 answers each group key (transactional ids: test_kafka_apis_transactions)."""
    h = _harness({OFFSETS: 3})
    groups = h.handle(ApiKeys.FIND_COORDINATOR, 4, FindCoordinatorRequestData(key_type=0, coordinator_keys=["a", "b"]))
    assert [(c.key, c.error_code, c.node_id, c.port) for c in groups.data.coordinators] == [
        ("a", 0, 0, 9092),
        ("b", 0, 0, 9092),
    ]


def test_find_coordinator_unknown_key_type_is_invalid_request() -> None:
    """An unknown coordinator type is INVALID_REQUEST, for every key of a v4 request."""
    h = _harness({OFFSETS: 3})
    response = h.handle(ApiKeys.FIND_COORDINATOR, 4, FindCoordinatorRequestData(key_type=7, coordinator_keys=["a"]))
    assert [c.error_code for c in response.data.coordinators] == [Errors.INVALID_REQUEST.code]
    old = h.handle(ApiKeys.FIND_COORDINATOR, 3, FindCoordinatorRequestData(key_type=7, key="a"))
    assert old.data.error_code == Errors.INVALID_REQUEST.code


# ---- JoinGroup, SyncGroup, Heartbeat, LeaveGroup ---------------------------------------------------


def _join_data(group_instance_id: str | None = None) -> Any:
    return JoinGroupRequestData(
        group_id="g",
        session_timeout_ms=10_000,
        rebalance_timeout_ms=20_000,
        member_id="",
        group_instance_id=group_instance_id,
        protocol_type="consumer",
        protocols=JoinGroupRequestData.JoinGroupRequestProtocolCollection(
            [JoinGroupRequestData.JoinGroupRequestProtocol(name="range", metadata=b"m")]
        ),
    )


def test_a_request_answered_later_ends_its_local_time_when_its_handler_returns() -> None:
    """As Kafka's handle: a request whose response comes later (here a join the group holds) has its local
    completion time set when the handler returns, so the wait for its response counts as RemoteTime."""
    h = _harness()
    held: list[Any] = []
    h.coordinator.handle_join_group = lambda *args: held.append(args[-2])  # type: ignore[method-assign]
    request = _request(ApiKeys.JOIN_GROUP, 5, _join_data())
    h.time.sleep(5)
    h.apis.handle(request)
    assert h.channel.responses == [] and len(held) == 1
    assert request.api_local_complete_time_nanos == h.time.nanoseconds()


@pytest.mark.parametrize(
    ("version", "instance_id", "require_known"), [(3, None, False), (4, None, True), (5, "i", False), (9, None, True)]
)
def test_join_group_passes_the_request_to_the_coordinator(
    version: int, instance_id: str | None, require_known: bool
) -> None:
    """JoinGroup asks for a known member id from v4 for dynamic members only, with the client's id and
    "/address" as the host; v0's rebalance timeout is its session timeout; v9 allows skipping the assignment."""
    h = _harness()
    h.coordinator.join_result = JoinGroupResult.of_error("m-1", Errors.MEMBER_ID_REQUIRED)
    response = h.handle(ApiKeys.JOIN_GROUP, version, _join_data(instance_id if version >= 5 else None))
    assert response.data.error_code == Errors.MEMBER_ID_REQUIRED.code
    assert response.data.member_id == "m-1"
    name, args = h.coordinator.calls[0]
    assert name == "join"
    assert args == (
        "g",
        "",
        instance_id,
        require_known,
        "test-client",
        "/127.0.0.1",
        20_000,
        10_000,
        "consumer",
        [("range", b"m")],
    )
    assert h.coordinator.join_support_skipping_assignment == (version >= 9)


def test_join_group_v0_rebalance_timeout_is_the_session_timeout() -> None:
    """A v0 request carries no rebalance timeout: the coordinator gets the session timeout in its place."""
    h = _harness()
    h.coordinator.join_result = JoinGroupResult.of_error("", Errors.NONE)
    h.handle(ApiKeys.JOIN_GROUP, 0, _join_data())
    assert h.coordinator.calls[0][1][6] == 10_000


def test_join_group_response_members_and_protocol_name_by_version() -> None:
    """The leader gets every member; an unknown protocol name is "" before v7 and null from v7."""
    h = _harness()
    member = JoinGroupResponseData.JoinGroupResponseMember(member_id="m-1", metadata=b"meta")
    h.coordinator.join_result = JoinGroupResult([member], "m-1", 1, "consumer", "range", "m-1", Errors.NONE)
    response = h.handle(ApiKeys.JOIN_GROUP, 7, _join_data())
    assert (response.data.generation_id, response.data.protocol_type, response.data.protocol_name) == (
        1,
        "consumer",
        "range",
    )
    assert [(m.member_id, m.metadata) for m in response.data.members] == [("m-1", b"meta")]
    h.coordinator.join_result = JoinGroupResult.of_error("x", Errors.UNKNOWN_MEMBER_ID)
    assert h.handle(ApiKeys.JOIN_GROUP, 6, _join_data()).data.protocol_name == ""
    assert h.handle(ApiKeys.JOIN_GROUP, 7, _join_data()).data.protocol_name is None
    assert h.handle(ApiKeys.JOIN_GROUP, 9, _join_data()).data.skip_assignment is False


def test_join_group_members_carry_group_instance_ids() -> None:
    """A static member's group instance id reaches the leader in JoinGroup v5+."""
    h = _harness()
    member = JoinGroupResponseData.JoinGroupResponseMember(member_id="a", group_instance_id="i", metadata=b"x")
    h.coordinator.join_result = JoinGroupResult([member], "a", 2, "consumer", "range", "a", Errors.NONE)
    response = h.handle(ApiKeys.JOIN_GROUP, 5, _join_data("i"))
    assert [(m.member_id, m.group_instance_id, m.metadata) for m in response.data.members] == [("a", "i", b"x")]


def test_static_membership_is_refused_below_ibp_2_3() -> None:
    """With inter.broker.protocol.version 2.2 a group instance id gets UNSUPPORTED_VERSION without reaching
    the coordinator, in JoinGroup, SyncGroup, Heartbeat and OffsetCommit."""
    h = _harness(topics=None, **{"inter.broker.protocol.version": "2.2"})
    assert h.handle(ApiKeys.JOIN_GROUP, 5, _join_data("i")).data.error_code == Errors.UNSUPPORTED_VERSION.code
    sync = SyncGroupRequestData(group_id="g", generation_id=1, member_id="m", group_instance_id="i")
    assert h.handle(ApiKeys.SYNC_GROUP, 3, sync).data.error_code == Errors.UNSUPPORTED_VERSION.code
    heartbeat = HeartbeatRequestData(group_id="g", generation_id=1, member_id="m", group_instance_id="i")
    assert h.handle(ApiKeys.HEARTBEAT, 3, heartbeat).data.error_code == Errors.UNSUPPORTED_VERSION.code
    commit = _commit_data({"t": [0]}, group_instance_id="i")
    response = h.handle(ApiKeys.OFFSET_COMMIT, 7, commit)
    assert [p.error_code for t in response.data.topics for p in t.partitions] == [Errors.UNSUPPORTED_VERSION.code]
    assert h.coordinator.calls == []


def test_sync_group_v5_requires_protocol_type_and_name() -> None:
    """A v5 SyncGroup without protocol type or name is INCONSISTENT_GROUP_PROTOCOL, not passed on."""
    h = _harness()
    data = SyncGroupRequestData(group_id="g", generation_id=1, member_id="m", protocol_type="consumer")
    assert h.handle(ApiKeys.SYNC_GROUP, 5, data).data.error_code == Errors.INCONSISTENT_GROUP_PROTOCOL.code
    assert h.coordinator.calls == []


def test_sync_group_passes_assignments_and_returns_the_members() -> None:
    """The leader's assignments reach the coordinator by member id; the member's own comes back with the
    protocol type and name (v5)."""
    h = _harness()
    h.coordinator.sync_result = SyncGroupResult("consumer", "range", b"assigned", Errors.NONE)
    data = SyncGroupRequestData(
        group_id="g",
        generation_id=3,
        member_id="a",
        protocol_type="consumer",
        protocol_name="range",
        assignments=[
            SyncGroupRequestData.SyncGroupRequestAssignment(member_id="a", assignment=b"1"),
            SyncGroupRequestData.SyncGroupRequestAssignment(member_id="b", assignment=b"2"),
        ],
    )
    response = h.handle(ApiKeys.SYNC_GROUP, 5, data)
    assert (response.data.assignment, response.data.protocol_type, response.data.protocol_name) == (
        b"assigned",
        "consumer",
        "range",
    )
    assert h.coordinator.calls == [("sync", ("g", 3, "a", "consumer", "range", None, {"a": b"1", "b": b"2"}))]


def test_heartbeat_answers_the_coordinators_error() -> None:
    """Heartbeat hands group, member, instance id and generation over and answers the coordinator's error."""
    h = _harness()
    h.coordinator.heartbeat_error = Errors.REBALANCE_IN_PROGRESS
    data = HeartbeatRequestData(group_id="g", generation_id=4, member_id="m")
    assert h.handle(ApiKeys.HEARTBEAT, 4, data).data.error_code == Errors.REBALANCE_IN_PROGRESS.code
    assert h.coordinator.calls == [("heartbeat", ("g", "m", None, 4))]


def test_leave_group_single_member_before_v3_and_batched_from_v3() -> None:
    """v0-2 leave with the one member id and answer its error at the top; v3+ answer per member."""
    h = _harness()
    h.coordinator.leave_result = LeaveResult(Errors.NONE, [LeaveMember("m", None, Errors.UNKNOWN_MEMBER_ID)])
    old = h.handle(ApiKeys.LEAVE_GROUP, 1, LeaveGroupRequestData(group_id="g", member_id="m"))
    assert old.data.error_code == Errors.UNKNOWN_MEMBER_ID.code
    assert h.coordinator.calls[-1] == ("leave", ("g", [("m", None)]))

    h.coordinator.leave_result = LeaveResult(
        Errors.NONE, [LeaveMember("a", None, Errors.NONE), LeaveMember("", "i", Errors.UNKNOWN_MEMBER_ID)]
    )
    members = [
        LeaveGroupRequestData.MemberIdentity(member_id="a"),
        LeaveGroupRequestData.MemberIdentity(member_id="", group_instance_id="i"),
    ]
    batched = h.handle(ApiKeys.LEAVE_GROUP, 5, LeaveGroupRequestData(group_id="g", members=members))
    assert batched.data.error_code == Errors.NONE.code
    assert [(m.member_id, m.group_instance_id, m.error_code) for m in batched.data.members] == [
        ("a", None, 0),
        ("", "i", Errors.UNKNOWN_MEMBER_ID.code),
    ]
    assert h.coordinator.calls[-1] == ("leave", ("g", [("a", None), ("", "i")]))


# ---- DescribeGroups, ListGroups, DeleteGroups ------------------------------------------------------


def test_describe_groups_members_and_authorized_operations() -> None:
    """Members are described field by field; v3+ give the group's operations only when asked for."""
    h = _harness()
    member = MemberSummary("m", "i", "client", "/10.0.0.1", b"meta", b"assign")
    h.coordinator.describe_results["g"] = (Errors.NONE, GroupSummary("Stable", "consumer", "range", [member]))
    h.coordinator.describe_results["bad"] = (Errors.NOT_COORDINATOR, GroupSummary("", "", "", []))
    asked = h.handle(
        ApiKeys.DESCRIBE_GROUPS, 5, DescribeGroupsRequestData(groups=["g", "bad"], include_authorized_operations=True)
    )
    g, bad = asked.data.groups
    assert (g.group_id, g.group_state, g.protocol_type, g.protocol_data) == ("g", "Stable", "consumer", "range")
    assert [(m.member_id, m.group_instance_id, m.client_id, m.client_host) for m in g.members] == [
        ("m", "i", "client", "/10.0.0.1")
    ]
    assert (g.members[0].member_metadata, g.members[0].member_assignment) == (b"meta", b"assign")
    assert g.authorized_operations == (1 << 3) | (1 << 6) | (1 << 8) == 328  # READ, DELETE, DESCRIBE
    assert (bad.error_code, bad.authorized_operations) == (Errors.NOT_COORDINATOR.code, NO_AUTHORIZED_OPERATIONS)
    not_asked = h.handle(ApiKeys.DESCRIBE_GROUPS, 3, DescribeGroupsRequestData(groups=["g"]))
    assert not_asked.data.groups[0].authorized_operations == NO_AUTHORIZED_OPERATIONS
    assert h.handle(ApiKeys.DESCRIBE_GROUPS, 0, DescribeGroupsRequestData(groups=["g"])).data.groups[0].members


def test_list_groups_states_filter() -> None:
    """v4's states filter reaches the coordinator as a set; earlier versions ask for every group."""
    h = _harness()
    h.coordinator.list_result = (Errors.NONE, [GroupOverview("g", "consumer", "Empty")])
    response = h.handle(ApiKeys.LIST_GROUPS, 4, ListGroupsRequestData(states_filter=["Empty", "Stable"]))
    assert [(g.group_id, g.protocol_type, g.group_state) for g in response.data.groups] == [("g", "consumer", "Empty")]
    assert h.coordinator.calls[-1] == ("list", ({"Empty", "Stable"},))
    old = h.handle(ApiKeys.LIST_GROUPS, 0, ListGroupsRequestData())
    assert [g.group_id for g in old.data.groups] == ["g"]
    assert h.coordinator.calls[-1] == ("list", (set(),))


def test_delete_groups_once_per_group() -> None:
    """A group named twice is deleted once and answered once, with the coordinator's error."""
    h = _harness()
    response = h.handle(ApiKeys.DELETE_GROUPS, 2, DeleteGroupsRequestData(groups_names=["a", "missing", "a"]))
    assert sorted((r.group_id, r.error_code) for r in response.data.results) == [
        ("a", 0),
        ("missing", Errors.GROUP_ID_NOT_FOUND.code),
    ]
    assert h.coordinator.calls == [("delete_groups", ({"a", "missing"},))]


# ---- OffsetCommit, OffsetFetch, OffsetDelete --------------------------------------------------------


def _commit_data(
    partitions: dict[str, list[int]],
    metadata: str | None = "meta",
    group_instance_id: str | None = None,
    retention_time_ms: int = -1,
    commit_timestamp: int = -1,
) -> Any:
    return OffsetCommitRequestData(
        group_id="g",
        generation_id_or_member_epoch=5,
        member_id="m",
        group_instance_id=group_instance_id,
        retention_time_ms=retention_time_ms,
        topics=[
            OffsetCommitRequestData.OffsetCommitRequestTopic(
                name=topic,
                partitions=[
                    OffsetCommitRequestData.OffsetCommitRequestPartition(
                        partition_index=p,
                        committed_offset=100 + p,
                        committed_leader_epoch=2,
                        commit_timestamp=commit_timestamp,
                        committed_metadata=metadata,
                    )
                    for p in indexes
                ],
            )
            for topic, indexes in partitions.items()
        ],
    )


def _commit_errors(response: Any) -> dict[tuple[str, int], int]:
    return {(t.name, p.partition_index): p.error_code for t in response.data.topics for p in t.partitions}


def test_offset_commit_unknown_topics_and_partitions() -> None:
    """Unknown topics and partitions are UNKNOWN_TOPIC_OR_PARTITION; only known ones reach the coordinator,
    with Kafka's OffsetAndMetadata (commit time now, no expiry without a retention time)."""
    h = _harness()
    h.time.sleep(1_000)
    response = h.handle(ApiKeys.OFFSET_COMMIT, 8, _commit_data({"t": [0, 9], "nope": [0]}))
    unknown = Errors.UNKNOWN_TOPIC_OR_PARTITION.code
    assert _commit_errors(response) == {("t", 0): 0, ("t", 9): unknown, ("nope", 0): unknown}
    name, args = h.coordinator.calls[0]
    now = h.time.milliseconds()
    assert (name, args[:4]) == ("commit", ("g", "m", None, 5))
    assert args[4] == {TopicPartition("t", 0): OffsetAndMetadata(100, 2, "meta", now, None)}


def test_offset_commit_retention_and_explicit_timestamp() -> None:
    """v2's retention time sets an expiry of now + retention; v1's commit timestamp is kept as given."""
    h = _harness()
    now = h.time.milliseconds()
    h.handle(ApiKeys.OFFSET_COMMIT, 2, _commit_data({"t": [1]}, metadata=None, retention_time_ms=60_000))
    assert h.coordinator.calls[-1][1][4] == {
        TopicPartition("t", 1): OffsetAndMetadata(101, None, "", now, now + 60_000)
    }
    h.handle(ApiKeys.OFFSET_COMMIT, 1, _commit_data({"t": [1]}, commit_timestamp=42))
    assert h.coordinator.calls[-1][1][4][TopicPartition("t", 1)].commit_timestamp == 42


def test_offset_commit_answers_the_coordinators_errors() -> None:
    """The coordinator's error per partition is what the client gets."""
    h = _harness()
    h.coordinator.commit_error = Errors.ILLEGAL_GENERATION
    response = h.handle(ApiKeys.OFFSET_COMMIT, 9, _commit_data({"t": [0, 1]}))
    assert set(_commit_errors(response).values()) == {Errors.ILLEGAL_GENERATION.code}


def test_offset_commit_v0_goes_to_zookeeper() -> None:
    """v0 offsets are written to ZooKeeper, not the coordinator; oversized metadata is refused per partition."""
    h = _harness()
    response = h.handle(ApiKeys.OFFSET_COMMIT, 0, _commit_data({"t": [0, 1]}))
    assert _commit_errors(response) == {("t", 0): 0, ("t", 1): 0}
    assert h.zk_client.offsets == {("g", TopicPartition("t", 0)): 100, ("g", TopicPartition("t", 1)): 101}
    big = h.handle(ApiKeys.OFFSET_COMMIT, 0, _commit_data({"t": [0]}, metadata="x" * 4097))
    assert _commit_errors(big) == {("t", 0): Errors.OFFSET_METADATA_TOO_LARGE.code}
    assert h.coordinator.calls == []


def test_offset_fetch_v0_reads_zookeeper() -> None:
    """v0 reads ZooKeeper: a stored offset, UNKNOWN_TOPIC_OR_PARTITION for none stored and for unknown topics."""
    h = _harness()
    h.zk_client.offsets[("g", TopicPartition("t", 0))] = 77
    data = OffsetFetchRequestData(
        group_id="g",
        topics=[
            OffsetFetchRequestData.OffsetFetchRequestTopic(name="t", partition_indexes=[0, 1]),
            OffsetFetchRequestData.OffsetFetchRequestTopic(name="nope", partition_indexes=[0]),
        ],
    )
    response = h.handle(ApiKeys.OFFSET_FETCH, 0, data)
    got = {
        (t.name, p.partition_index): (p.committed_offset, p.error_code)
        for t in response.data.topics
        for p in t.partitions
    }
    unknown = Errors.UNKNOWN_TOPIC_OR_PARTITION.code
    assert got == {("t", 0): (77, 0), ("t", 1): (-1, unknown), ("nope", 0): (-1, unknown)}
    assert h.coordinator.calls == []


def test_offset_fetch_from_the_coordinator() -> None:
    """v1+ read the coordinator's offsets, with leader epoch and metadata, for the partitions asked (v7 passes
    require_stable)."""
    h = _harness()
    h.coordinator.fetch_results["g"] = (Errors.NONE, {TopicPartition("t", 0): PartitionData(5, 3, "md", Errors.NONE)})
    data = OffsetFetchRequestData(
        group_id="g",
        topics=[OffsetFetchRequestData.OffsetFetchRequestTopic(name="t", partition_indexes=[0])],
        require_stable=True,
    )
    response = h.handle(ApiKeys.OFFSET_FETCH, 7, data)
    partition = response.data.topics[0].partitions[0]
    assert (partition.committed_offset, partition.committed_leader_epoch, partition.metadata) == (5, 3, "md")
    assert h.coordinator.calls == [("fetch", ("g", True, [TopicPartition("t", 0)]))]


def test_offset_fetch_group_error_by_version() -> None:
    """A group error is in every partition asked for at v1, at the top from v2."""
    h = _harness()
    h.coordinator.fetch_results["g"] = (Errors.NOT_COORDINATOR, {})
    topics = [OffsetFetchRequestData.OffsetFetchRequestTopic(name="t", partition_indexes=[0, 1])]
    v1 = h.handle(ApiKeys.OFFSET_FETCH, 1, OffsetFetchRequestData(group_id="g", topics=topics))
    assert [p.error_code for p in v1.data.topics[0].partitions] == [Errors.NOT_COORDINATOR.code] * 2
    v2 = h.handle(ApiKeys.OFFSET_FETCH, 2, OffsetFetchRequestData(group_id="g", topics=topics))
    assert (v2.data.error_code, list(v2.data.topics)) == (Errors.NOT_COORDINATOR.code, [])


def test_offset_fetch_v8_several_groups() -> None:
    """v8 answers each group on its own: all partitions of one, an error for another."""
    h = _harness()
    h.coordinator.fetch_results["a"] = (Errors.NONE, {TopicPartition("t", 1): PartitionData(9, None, "", Errors.NONE)})
    h.coordinator.fetch_results["b"] = (Errors.COORDINATOR_LOAD_IN_PROGRESS, {})
    data = OffsetFetchRequestData(
        groups=[
            OffsetFetchRequestData.OffsetFetchRequestGroup(group_id="a", topics=None),
            OffsetFetchRequestData.OffsetFetchRequestGroup(
                group_id="b",
                topics=[OffsetFetchRequestData.OffsetFetchRequestTopics(name="t", partition_indexes=[0])],
            ),
        ]
    )
    response = h.handle(ApiKeys.OFFSET_FETCH, 8, data)
    a, b = response.data.groups
    assert (a.group_id, a.error_code) == ("a", 0)
    assert [
        (t.name, p.partition_index, p.committed_offset, p.committed_leader_epoch)
        for t in a.topics
        for p in t.partitions
    ] == [("t", 1, 9, -1)]
    assert (b.group_id, b.error_code) == ("b", Errors.COORDINATOR_LOAD_IN_PROGRESS.code)
    assert h.coordinator.calls == [("fetch", ("a", False, None)), ("fetch", ("b", False, [TopicPartition("t", 0)]))]


def _delete_data(partitions: dict[str, list[int]]) -> Any:
    data = OffsetDeleteRequestData(group_id="g")
    for topic, indexes in partitions.items():
        entry = OffsetDeleteRequestData.OffsetDeleteRequestTopic(name=topic)
        for p in indexes:
            entry.partitions.append(OffsetDeleteRequestData.OffsetDeleteRequestPartition(partition_index=p))
        data.topics.append(entry)
    return data


def test_offset_delete_unknown_partitions_and_group_error() -> None:
    """Unknown partitions are answered here, known ones by the coordinator; a group error replaces them all."""
    h = _harness()
    h.coordinator.delete_offsets_result = (Errors.NONE, {TopicPartition("t", 0): Errors.GROUP_SUBSCRIBED_TO_TOPIC})
    response = h.handle(ApiKeys.OFFSET_DELETE, 0, _delete_data({"t": [0, 5], "nope": [1]}))
    got = {(t.name, p.partition_index): p.error_code for t in response.data.topics for p in t.partitions}
    unknown = Errors.UNKNOWN_TOPIC_OR_PARTITION.code
    assert got == {("t", 0): Errors.GROUP_SUBSCRIBED_TO_TOPIC.code, ("t", 5): unknown, ("nope", 1): unknown}
    assert h.coordinator.calls == [("delete_offsets", ("g", [TopicPartition("t", 0)]))]
    h.coordinator.delete_offsets_result = (Errors.GROUP_ID_NOT_FOUND, {})
    failed = h.handle(ApiKeys.OFFSET_DELETE, 0, _delete_data({"t": [0]}))
    assert (failed.data.error_code, list(failed.data.topics)) == (Errors.GROUP_ID_NOT_FOUND.code, [])


# ---- leadership of the offsets topic ---------------------------------------------------------------


def test_on_leadership_change_loads_led_and_unloads_followed_offsets_partitions() -> None:
    """Offsets partitions this broker now leads are elected with their leader epoch, followed ones resigned;
    partitions of other topics are ignored."""
    coordinator = FakeGroupCoordinator()
    leaders = [FakePartition(OFFSETS, 3, 7), FakePartition("t", 0, 1)]
    followers = [FakePartition(OFFSETS, 4, 2), FakePartition("__transaction_state", 0, 1)]
    on_leadership_change(coordinator, None, leaders, followers)
    assert coordinator.calls == [("election", (3, 7)), ("resignation", (4, 2))]


def stop_replica_deleting(replica_manager: FakeReplicaManager, topic: str, epoch: int) -> Any:
    """A StopReplica of partitions 0-3 of `topic`: 0 deleted, 1 deleted with the controller's epoch -2, 2 kept,
    3 deleted but failed (KAFKA_STORAGE_ERROR from the replica manager); only 0 and 1 must be unloaded."""
    replica_manager.stop_result = {
        TopicPartition(topic, 0): Errors.NONE,
        TopicPartition(topic, 1): Errors.NONE,
        TopicPartition(topic, 2): Errors.NONE,
        TopicPartition(topic, 3): Errors.KAFKA_STORAGE_ERROR,
    }

    def state(partition: int, leader_epoch: int, delete: bool) -> Any:
        return StopReplicaRequestData.StopReplicaPartitionState(
            partition_index=partition, leader_epoch=leader_epoch, delete_partition=delete
        )

    return StopReplicaRequestData(
        controller_id=0,
        controller_epoch=1,
        broker_epoch=10,
        topic_states=[
            StopReplicaRequestData.StopReplicaTopicState(
                topic_name=topic,
                partition_states=[
                    state(0, epoch, True),
                    state(1, -2, True),
                    state(2, epoch, False),
                    state(3, epoch, True),
                ],
            )
        ],
    )


def test_stop_replica_with_deletion_resigns_offsets_partitions() -> None:
    """A StopReplica that deletes an offsets partition unloads it (epoch None when the controller sent -1 or
    -2); one that keeps the replica, or failed, does not."""
    h = _harness()
    response = h.handle(ApiKeys.STOP_REPLICA, 3, stop_replica_deleting(h.replica_manager, OFFSETS, 5))
    assert response.data.error_code == Errors.NONE.code
    assert h.coordinator.calls == [("resignation", (0, 5)), ("resignation", (1, None))]


def test_update_metadata_tells_the_coordinator_of_deleted_partitions() -> None:
    """Partitions an UpdateMetadata deletes are handed to the coordinator so that their offsets are dropped."""
    h = _harness()
    deleted_state = UpdateMetadataRequestData.UpdateMetadataPartitionState(
        topic_name="t",
        partition_index=0,
        controller_epoch=1,
        leader=-2,
        leader_epoch=4,
        isr=[0],
        zk_version=1,
        replicas=[0],
        offline_replicas=[],
    )
    request = UpdateMetadataRequestBuilder(8, 0, 1, 10, [deleted_state], [], {}).build()
    h.handle(ApiKeys.UPDATE_METADATA, 7, request.data)
    assert h.coordinator.calls == [("deleted_partitions", ([TopicPartition("t", 0)],))]


def test_group_apis_are_advertised() -> None:
    """ApiVersions lists every group API this broker now serves."""
    manager = ApiVersionManager(ListenerType.ZK_BROKER, KafkaApis.HANDLED_APIS)
    for key in (
        ApiKeys.FIND_COORDINATOR,
        ApiKeys.JOIN_GROUP,
        ApiKeys.SYNC_GROUP,
        ApiKeys.HEARTBEAT,
        ApiKeys.LEAVE_GROUP,
        ApiKeys.OFFSET_COMMIT,
        ApiKeys.OFFSET_FETCH,
        ApiKeys.DESCRIBE_GROUPS,
        ApiKeys.LIST_GROUPS,
        ApiKeys.DELETE_GROUPS,
        ApiKeys.OFFSET_DELETE,
    ):
        assert manager.is_api_enabled(key), key
    assert manager.is_version_enabled(ApiKeys.OFFSET_FETCH, 9)
    assert manager.is_version_enabled(ApiKeys.JOIN_GROUP, 9)


@pytest.mark.parametrize("asked", [True, False])
def test_metadata_and_describe_cluster_authorized_operations(asked: bool) -> None:
    """Without an authorizer, Metadata v8+ and DescribeCluster report every operation a topic and the cluster
    support when the client asks, and the 'omitted' value when it does not."""
    from kafka.common.message import DescribeClusterRequestData, MetadataRequestData

    h = _harness()
    h.metadata_cache.update_metadata(1, _metadata_update({"t": 1}))
    metadata = h.handle(
        ApiKeys.METADATA,
        10,
        MetadataRequestData(
            topics=[MetadataRequestData.MetadataRequestTopic(name="t")],
            allow_auto_topic_creation=False,
            include_cluster_authorized_operations=asked,
            include_topic_authorized_operations=asked,
        ),
    )
    cluster = h.handle(
        ApiKeys.DESCRIBE_CLUSTER, 0, DescribeClusterRequestData(include_cluster_authorized_operations=asked)
    )
    omitted = -(2**31)
    # READ, WRITE, CREATE, DELETE, ALTER, DESCRIBE, DESCRIBE_CONFIGS, ALTER_CONFIGS as AclOperation bits.
    assert metadata.data.topics[0].topic_authorized_operations == (3576 if asked else omitted)
    # CREATE, ALTER, DESCRIBE, CLUSTER_ACTION, DESCRIBE_CONFIGS, ALTER_CONFIGS, IDEMPOTENT_WRITE.
    assert metadata.data.cluster_authorized_operations == (8096 if asked else omitted)
    assert cluster.data.cluster_authorized_operations == (8096 if asked else omitted)
