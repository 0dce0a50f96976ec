"""The group and offset APIs of a real broker, driven at the protocol level with our own request and response
classes over a socket: FindCoordinator (v0-4, batched), the membership protocol (JoinGroup, SyncGroup, Heartbeat,
LeaveGroup), offsets at every version (v0 in ZooKeeper), group administration, the errors Kafka gives bad input,
and one confluent-kafka consumer group end to end."""

from __future__ import annotations

import itertools
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import confluent_kafka as ck
import pytest
from confluent_kafka.admin import AdminClient, NewTopic
from kazoo.client import KazooClient

from kafka.common.message import (
    DeleteGroupsRequestData,
    DescribeGroupsRequestData,
    FindCoordinatorRequestData,
    HeartbeatRequestData,
    JoinGroupRequestData,
    LeaveGroupRequestData,
    ListGroupsRequestData,
    MetadataRequestData,
    OffsetCommitRequestData,
    OffsetDeleteRequestData,
    OffsetFetchRequestData,
    SyncGroupRequestData,
)
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_request import request_class
from kafka.common.requests.request_header import RequestHeader
from tests.integration.broker import BrokerProcess
from tests.unit.kafka.network.socket_server_support import Client
from tests.utils import wait_until_true

pytestmark = pytest.mark.integration

TOPIC = "orders"
OFFSETS = "__consumer_offsets"
PARTITIONS = 3
SESSION_TIMEOUT_MS = 10_000
REBALANCE_TIMEOUT_MS = 30_000
ALL_OPERATIONS = 328  # READ, DELETE and DESCRIBE: what a broker without an authorizer allows on a group
OMITTED_OPERATIONS = -(2**31)


# ---- the broker and a protocol-level client ---------------------------------------------------------


def _start_broker(zookeeper: Any, work: Path) -> BrokerProcess:
    broker = BrokerProcess(
        work,
        zookeeper.connect_string + "/groups-" + work.name,
        # Few offsets partitions: each is created, led and loaded by this one broker.
        overrides={"offsets.topic.num.partitions": "4"},
    )
    broker.start()
    return broker


@pytest.fixture(scope="module")
def broker(zookeeper, tmp_path_factory: pytest.TempPathFactory) -> Iterator[BrokerProcess]:  # type: ignore[no-untyped-def]
    b = _start_broker(zookeeper, Path(tmp_path_factory.mktemp("groups")))
    try:
        admin = AdminClient({"bootstrap.servers": b.bootstrap})
        admin.create_topics([NewTopic(TOPIC, PARTITIONS, 1)], operation_timeout=30)[TOPIC].result(30)
        with ProtocolClient(b) as client:
            wait_until_true(
                lambda: client.find_coordinator("any").error_code == Errors.NONE.code,
                "the group coordinator became available",
                timeout=60,
            )
        yield b
    finally:
        assert b.stop() == 0, b.console_tail()


class ProtocolClient(Client):
    """One connection to the broker; `call` sends a request of any API and version and parses the answer."""

    def __init__(self, broker: BrokerProcess, timeout: float = 40.0) -> None:
        super().__init__(broker.port, timeout)
        self._correlation_ids = itertools.count(1)

    def __enter__(self) -> ProtocolClient:
        return self

    def send(self, api_key: ApiKeys, version: int, data: Any) -> RequestHeader:
        header = RequestHeader.of(api_key, version, "group-apis-test", next(self._correlation_ids))
        self.sock.sendall(request_class(api_key)(data, version).serialize_with_header(header, size_prefix=True))
        return header

    def call(self, api_key: ApiKeys, version: int, data: Any) -> Any:
        """The response data of a v`version` request."""
        return self.receive(self.send(api_key, version, data)).data

    def find_coordinator(self, group_id: str, version: int = 3) -> Any:
        return self.call(ApiKeys.FIND_COORDINATOR, version, FindCoordinatorRequestData(key=group_id))

    def join(
        self,
        version: int,
        group_id: str,
        member_id: str = "",
        group_instance_id: str | None = None,
        protocol_type: str = "consumer",
        metadata: bytes = b"subscription",
    ) -> Any:
        return self.call(
            ApiKeys.JOIN_GROUP, version, _join_data(group_id, member_id, group_instance_id, protocol_type, metadata)
        )

    def commit(self, version: int, group_id: str, offsets: dict[tuple[str, int], int], **fields: Any) -> dict[Any, int]:
        """Commits `offsets`; answers the error code per (topic, partition)."""
        metadata = fields.pop("metadata", "md")
        by_topic: dict[str, list[Any]] = {}
        for (topic, partition), offset in offsets.items():
            by_topic.setdefault(topic, []).append(
                OffsetCommitRequestData.OffsetCommitRequestPartition(
                    partition_index=partition, committed_offset=offset, committed_metadata=metadata
                )
            )
        data = OffsetCommitRequestData(
            group_id=group_id,
            topics=[
                OffsetCommitRequestData.OffsetCommitRequestTopic(name=t, partitions=p) for t, p in by_topic.items()
            ],
            **fields,
        )
        response = self.call(ApiKeys.OFFSET_COMMIT, version, data)
        return {(t.name, p.partition_index): p.error_code for t in response.topics for p in t.partitions}

    def fetch(
        self, version: int, group_id: str, partitions: list[tuple[str, int]] | None
    ) -> tuple[int, dict[Any, Any]]:
        """The top-level error (0 before v2) and (offset, metadata, error) per partition of one group (v0-7)."""
        topics = None
        if partitions is not None:
            by_topic: dict[str, list[int]] = {}
            for topic, partition in partitions:
                by_topic.setdefault(topic, []).append(partition)
            topics = [
                OffsetFetchRequestData.OffsetFetchRequestTopic(name=t, partition_indexes=p) for t, p in by_topic.items()
            ]
        response = self.call(ApiKeys.OFFSET_FETCH, version, OffsetFetchRequestData(group_id=group_id, topics=topics))
        return response.error_code, {
            (t.name, p.partition_index): (p.committed_offset, p.metadata, p.error_code)
            for t in response.topics
            for p in t.partitions
        }


def _join_data(
    group_id: str, member_id: str, group_instance_id: str | None, protocol_type: str, metadata: bytes
) -> Any:
    return JoinGroupRequestData(
        group_id=group_id,
        session_timeout_ms=SESSION_TIMEOUT_MS,
        rebalance_timeout_ms=REBALANCE_TIMEOUT_MS,
        member_id=member_id,
        group_instance_id=group_instance_id,
        protocol_type=protocol_type,
        protocols=JoinGroupRequestData.JoinGroupRequestProtocolCollection(
            [JoinGroupRequestData.JoinGroupRequestProtocol(name="range", metadata=metadata)]
        ),
    )


def _group() -> str:
    return "group-" + uuid.uuid4().hex[:8]


def _sync(
    client: ProtocolClient, version: int, group_id: str, generation: int, member_id: str, assignments: dict[str, bytes]
) -> Any:
    data = SyncGroupRequestData(
        group_id=group_id,
        generation_id=generation,
        member_id=member_id,
        protocol_type="consumer",
        protocol_name="range",
        assignments=[
            SyncGroupRequestData.SyncGroupRequestAssignment(member_id=m, assignment=a) for m, a in assignments.items()
        ],
    )
    return client.call(ApiKeys.SYNC_GROUP, version, data)


def _heartbeat(client: ProtocolClient, group_id: str, generation: int, member_id: str, version: int = 4) -> int:
    data = HeartbeatRequestData(group_id=group_id, generation_id=generation, member_id=member_id)
    return int(client.call(ApiKeys.HEARTBEAT, version, data).error_code)


def _stable_member(client: ProtocolClient, group_id: str) -> tuple[str, int]:
    """Joins `group_id` alone (v5 member id handshake), syncs an assignment; answers (member id, generation)."""
    required = client.join(5, group_id)
    assert required.error_code == Errors.MEMBER_ID_REQUIRED.code
    joined = client.join(5, group_id, required.member_id)
    assert joined.error_code == Errors.NONE.code
    synced = _sync(client, 5, group_id, joined.generation_id, joined.member_id, {joined.member_id: b"assignment"})
    assert synced.error_code == Errors.NONE.code
    return joined.member_id, joined.generation_id


# ---- FindCoordinator ------------------------------------------------------------------------------


def test_find_coordinator_creates_the_offsets_topic(zookeeper, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """On a fresh cluster the first FindCoordinator is told COORDINATOR_NOT_AVAILABLE and makes the broker create
    __consumer_offsets with offsets.topic.num.partitions partitions, an internal topic in Metadata; then this
    broker is the coordinator."""
    broker = _start_broker(zookeeper, tmp_path)
    try:
        with ProtocolClient(broker) as client:
            first = client.find_coordinator("g", version=0)
            assert (first.error_code, first.node_id) == (Errors.COORDINATOR_NOT_AVAILABLE.code, -1)
            wait_until_true(
                lambda: client.find_coordinator("g").error_code == Errors.NONE.code, "coordinator available", timeout=60
            )
            metadata = client.call(
                ApiKeys.METADATA,
                1,
                MetadataRequestData(topics=[MetadataRequestData.MetadataRequestTopic(name=OFFSETS)]),
            )
        assert [(t.name, t.error_code, t.is_internal, len(t.partitions)) for t in metadata.topics] == [
            (OFFSETS, 0, True, 4)
        ]
        zk = KazooClient(hosts=broker.zk_connect, timeout=10.0)
        zk.start(timeout=10.0)
        try:
            assert sorted(zk.get_children(f"/brokers/topics/{OFFSETS}/partitions")) == ["0", "1", "2", "3"]
        finally:
            zk.stop()
            zk.close()
    finally:
        assert broker.stop() == 0, broker.console_tail()


@pytest.mark.parametrize("version", [0, 1, 2, 3])
def test_find_coordinator_answers_this_broker(broker: BrokerProcess, version: int) -> None:
    """v0-3 name this broker (id 0, its host and port); v1+ with the message "NONE" as Kafka's."""
    with ProtocolClient(broker) as client:
        response = client.find_coordinator(_group(), version)
    assert (response.error_code, response.node_id, response.host, response.port) == (0, 0, "127.0.0.1", broker.port)
    if version >= 1:
        assert response.error_message == "NONE"


def test_find_coordinator_v4_batched_keys(broker: BrokerProcess) -> None:
    """v4 answers every group key of one request; transactional ids have no coordinator on this broker."""
    with ProtocolClient(broker) as client:
        groups = client.call(
            ApiKeys.FIND_COORDINATOR, 4, FindCoordinatorRequestData(key_type=0, coordinator_keys=["a", "b", "c"])
        )
        txn = client.call(ApiKeys.FIND_COORDINATOR, 4, FindCoordinatorRequestData(key_type=1, coordinator_keys=["t"]))
    assert [(c.key, c.error_code, c.node_id, c.port) for c in groups.coordinators] == [
        (key, 0, 0, broker.port) for key in ("a", "b", "c")
    ]
    assert [(c.key, c.error_code) for c in txn.coordinators] == [("t", Errors.COORDINATOR_NOT_AVAILABLE.code)]


# ---- membership ------------------------------------------------------------------------------------


def test_join_group_v0_single_member_becomes_leader(broker: BrokerProcess) -> None:
    """A v0 member joins without the member id handshake and leads generation 1 alone, seeing its own metadata."""
    group = _group()
    with ProtocolClient(broker) as client:
        joined = client.join(0, group, metadata=b"v0-subscription")
    assert joined.error_code == Errors.NONE.code
    assert joined.generation_id == 1
    assert joined.leader == joined.member_id != ""
    assert joined.protocol_name == "range"
    assert [(m.member_id, m.metadata) for m in joined.members] == [(joined.member_id, b"v0-subscription")]


@pytest.mark.parametrize("version", [4, 5, 6, 7, 8, 9])
def test_join_group_v4_requires_a_member_id_then_syncs(broker: BrokerProcess, version: int) -> None:
    """From v4 a new member is sent back with MEMBER_ID_REQUIRED and a member id; rejoining with it makes it
    leader, and SyncGroup returns the assignment bytes exactly as the leader sent them."""
    group = _group()
    with ProtocolClient(broker) as client:
        required = client.join(version, group)
        assert required.error_code == Errors.MEMBER_ID_REQUIRED.code
        assert required.member_id.startswith("group-apis-test-")
        joined = client.join(version, group, required.member_id)
        assert (joined.error_code, joined.leader, joined.member_id) == (0, required.member_id, required.member_id)
        if version >= 7:
            assert joined.protocol_type == "consumer"
        if version >= 9:
            assert joined.skip_assignment is False
        assignment = bytes(range(256)) * 4
        synced = _sync(
            client, min(version, 5), group, joined.generation_id, joined.member_id, {joined.member_id: assignment}
        )
        assert synced.error_code == Errors.NONE.code
        assert synced.assignment == assignment
        if version >= 5:
            assert (synced.protocol_type, synced.protocol_name) == ("consumer", "range")
        assert _heartbeat(client, group, joined.generation_id, joined.member_id) == Errors.NONE.code


def test_heartbeat_errors(broker: BrokerProcess) -> None:
    """Heartbeats of an unknown member, a stale generation or an unknown group get Kafka's errors."""
    group = _group()
    with ProtocolClient(broker) as client:
        member_id, generation = _stable_member(client, group)
        assert _heartbeat(client, group, generation, member_id, version=0) == Errors.NONE.code
        assert _heartbeat(client, group, generation, "stranger") == Errors.UNKNOWN_MEMBER_ID.code
        assert _heartbeat(client, group, generation + 5, member_id) == Errors.ILLEGAL_GENERATION.code
        assert _heartbeat(client, _group(), 1, member_id) == Errors.UNKNOWN_MEMBER_ID.code
        assert _heartbeat(client, "", 1, member_id) == Errors.INVALID_GROUP_ID.code


def test_join_and_sync_refuse_inconsistent_input(broker: BrokerProcess) -> None:
    """A join with another protocol type than the group's, a v5 sync without protocol name, a sync of a stale
    generation and a join with an empty group id are refused with Kafka's errors."""
    group = _group()
    with ProtocolClient(broker) as client:
        member_id, generation = _stable_member(client, group)
        other = client.join(5, group, protocol_type="connect")
        assert other.error_code == Errors.INCONSISTENT_GROUP_PROTOCOL.code
        unnamed = client.call(
            ApiKeys.SYNC_GROUP,
            5,
            SyncGroupRequestData(
                group_id=group, generation_id=generation, member_id=member_id, protocol_type="consumer"
            ),
        )
        assert unnamed.error_code == Errors.INCONSISTENT_GROUP_PROTOCOL.code
        stale = _sync(client, 3, group, generation + 1, member_id, {})
        assert stale.error_code == Errors.ILLEGAL_GENERATION.code
        assert client.join(5, "").error_code == Errors.INVALID_GROUP_ID.code


def test_two_static_members_leave_in_one_batch(broker: BrokerProcess) -> None:
    """Two static members share a generation (the second join waits for the first to rejoin); LeaveGroup v3+
    removes both in one request and answers UNKNOWN_MEMBER_ID for a stranger named beside them."""
    group = _group()
    with ProtocolClient(broker) as first, ProtocolClient(broker) as second:
        a = first.join(5, group, group_instance_id="instance-a")
        assert (a.error_code, a.generation_id) == (0, 1)
        pending = second.send(ApiKeys.JOIN_GROUP, 5, _join_data(group, "", "instance-b", "consumer", b"b"))
        # The two connections are served by different threads: rejoin only once b's join has started the
        # rebalance (a rejoin that came first would find the group Stable and get generation 1 back).
        wait_until_true(
            lambda: (
                first.call(ApiKeys.DESCRIBE_GROUPS, 0, DescribeGroupsRequestData(groups=[group])).groups[0].group_state
                == "PreparingRebalance"
            ),
            "b's join to start a rebalance",
        )
        rejoined = first.join(5, group, a.member_id, group_instance_id="instance-a")
        b = second.receive(pending).data
        assert (rejoined.error_code, b.error_code) == (0, 0)
        assert rejoined.generation_id == b.generation_id == 2
        assert sorted(m.group_instance_id for m in rejoined.members) == ["instance-a", "instance-b"]

        members = [
            LeaveGroupRequestData.MemberIdentity(member_id=a.member_id, group_instance_id="instance-a"),
            LeaveGroupRequestData.MemberIdentity(member_id=b.member_id, group_instance_id="instance-b"),
            LeaveGroupRequestData.MemberIdentity(member_id="stranger"),
        ]
        left = first.call(ApiKeys.LEAVE_GROUP, 4, LeaveGroupRequestData(group_id=group, members=members))
    assert left.error_code == Errors.NONE.code
    assert [(m.member_id, m.group_instance_id, m.error_code) for m in left.members] == [
        (a.member_id, "instance-a", 0),
        (b.member_id, "instance-b", 0),
        ("stranger", None, Errors.UNKNOWN_MEMBER_ID.code),
    ]


def test_leave_group_v0_single_member(broker: BrokerProcess) -> None:
    """LeaveGroup v0 removes the one member named, and then the group is Empty."""
    group = _group()
    with ProtocolClient(broker) as client:
        member_id, _ = _stable_member(client, group)
        left = client.call(ApiKeys.LEAVE_GROUP, 0, LeaveGroupRequestData(group_id=group, member_id=member_id))
        assert left.error_code == Errors.NONE.code
        again = client.call(ApiKeys.LEAVE_GROUP, 2, LeaveGroupRequestData(group_id=group, member_id=member_id))
        assert again.error_code == Errors.UNKNOWN_MEMBER_ID.code
        described = client.call(ApiKeys.DESCRIBE_GROUPS, 0, DescribeGroupsRequestData(groups=[group]))
    assert described.groups[0].group_state == "Empty"


# ---- group administration --------------------------------------------------------------------------


def test_describe_and_list_groups(broker: BrokerProcess) -> None:
    """DescribeGroups shows a Stable group's member as Kafka does (client id, "/127.0.0.1", metadata, assignment,
    operations when asked); ListGroups filters by state from v4."""
    group = _group()
    with ProtocolClient(broker) as client:
        member_id, _ = _stable_member(client, group)
        described = client.call(
            ApiKeys.DESCRIBE_GROUPS,
            5,
            DescribeGroupsRequestData(groups=[group, "never-seen"], include_authorized_operations=True),
        )
        stable, unknown = described.groups
        assert (stable.error_code, stable.group_state, stable.protocol_type, stable.protocol_data) == (
            0,
            "Stable",
            "consumer",
            "range",
        )
        assert [
            (m.member_id, m.client_id, m.client_host, m.member_metadata, m.member_assignment) for m in stable.members
        ] == [(member_id, "group-apis-test", "/127.0.0.1", b"subscription", b"assignment")]
        assert stable.authorized_operations == ALL_OPERATIONS
        assert (unknown.error_code, unknown.group_state, unknown.members) == (0, "Dead", [])
        plain = client.call(ApiKeys.DESCRIBE_GROUPS, 3, DescribeGroupsRequestData(groups=[group]))
        assert plain.groups[0].authorized_operations == OMITTED_OPERATIONS

        def listed(version: int, states: list[str] | None) -> dict[str, Any]:
            response = client.call(ApiKeys.LIST_GROUPS, version, ListGroupsRequestData(states_filter=states or []))
            assert response.error_code == Errors.NONE.code
            return {g.group_id: g for g in response.groups}

        assert group in listed(4, ["Stable"])
        assert listed(4, ["Stable"])[group].group_state == "Stable"
        assert group not in listed(4, ["Empty"])
        assert listed(0, None)[group].protocol_type == "consumer"


def test_delete_groups(broker: BrokerProcess) -> None:
    """A group with members is NON_EMPTY_GROUP, an unknown one GROUP_ID_NOT_FOUND; once empty it is deleted with
    its offsets."""
    group = _group()
    with ProtocolClient(broker) as client:
        member_id, generation = _stable_member(client, group)
        commit = client.commit(
            8, group, {(TOPIC, 0): 12}, generation_id_or_member_epoch=generation, member_id=member_id
        )
        assert commit == {(TOPIC, 0): 0}
        response = client.call(ApiKeys.DELETE_GROUPS, 2, DeleteGroupsRequestData(groups_names=[group, "nobody-here"]))
        assert {r.group_id: r.error_code for r in response.results} == {
            group: Errors.NON_EMPTY_GROUP.code,
            "nobody-here": Errors.GROUP_ID_NOT_FOUND.code,
        }
        client.call(ApiKeys.LEAVE_GROUP, 1, LeaveGroupRequestData(group_id=group, member_id=member_id))
        deleted = client.call(ApiKeys.DELETE_GROUPS, 0, DeleteGroupsRequestData(groups_names=[group]))
        assert [(r.group_id, r.error_code) for r in deleted.results] == [(group, 0)]
        _, offsets = client.fetch(5, group, [(TOPIC, 0)])
    assert offsets[(TOPIC, 0)][0] == -1


def test_offset_delete(broker: BrokerProcess) -> None:
    """OffsetDelete removes an empty group's offsets of one partition and leaves the others; unknown topics are
    UNKNOWN_TOPIC_OR_PARTITION and an unknown group GROUP_ID_NOT_FOUND."""
    group = _group()
    with ProtocolClient(broker) as client:
        assert client.commit(2, group, {(TOPIC, 0): 5, (TOPIC, 1): 6}) == {(TOPIC, 0): 0, (TOPIC, 1): 0}
        data = OffsetDeleteRequestData(group_id=group)
        data.topics.append(
            OffsetDeleteRequestData.OffsetDeleteRequestTopic(
                name=TOPIC, partitions=[OffsetDeleteRequestData.OffsetDeleteRequestPartition(partition_index=0)]
            )
        )
        data.topics.append(
            OffsetDeleteRequestData.OffsetDeleteRequestTopic(
                name="no-such-topic",
                partitions=[OffsetDeleteRequestData.OffsetDeleteRequestPartition(partition_index=0)],
            )
        )
        response = client.call(ApiKeys.OFFSET_DELETE, 0, data)
        assert response.error_code == Errors.NONE.code
        assert {(t.name, p.partition_index): p.error_code for t in response.topics for p in t.partitions} == {
            (TOPIC, 0): 0,
            ("no-such-topic", 0): Errors.UNKNOWN_TOPIC_OR_PARTITION.code,
        }
        _, offsets = client.fetch(3, group, [(TOPIC, 0), (TOPIC, 1)])
        assert (offsets[(TOPIC, 0)][0], offsets[(TOPIC, 1)][0]) == (-1, 6)
        data.group_id = _group()
        assert client.call(ApiKeys.OFFSET_DELETE, 0, data).error_code == Errors.GROUP_ID_NOT_FOUND.code


# ---- offsets ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("version", range(1, 10))
def test_offset_commit_and_fetch_round_trip(broker: BrokerProcess, version: int) -> None:
    """At every version from 1 a standalone commit (generation -1) is read back with its metadata by an
    OffsetFetch of the same version (v7 for v8-9, whose fetch layout is per group and tested below)."""
    group = _group()
    fetch_version = version if version <= 7 else 7
    with ProtocolClient(broker) as client:
        errors = client.commit(version, group, {(TOPIC, 0): 42, (TOPIC, 2): 7}, metadata=f"meta-v{version}")
        assert errors == {(TOPIC, 0): 0, (TOPIC, 2): 0}
        error, offsets = client.fetch(fetch_version, group, [(TOPIC, 0), (TOPIC, 1), (TOPIC, 2)])
    assert error == 0
    assert offsets == {
        (TOPIC, 0): (42, f"meta-v{version}", 0),
        (TOPIC, 1): (-1, "", 0),
        (TOPIC, 2): (7, f"meta-v{version}", 0),
    }


def test_offset_fetch_all_partitions_and_several_groups(broker: BrokerProcess) -> None:
    """v2+ fetch every committed partition when the topic list is null; v8-9 answer several groups at once."""
    one, two = _group(), _group()
    with ProtocolClient(broker) as client:
        client.commit(5, one, {(TOPIC, 0): 1, (TOPIC, 1): 2})
        client.commit(5, two, {(TOPIC, 2): 3})
        _, everything = client.fetch(2, one, None)
        assert {tp: o for tp, (o, _, _) in everything.items()} == {(TOPIC, 0): 1, (TOPIC, 1): 2}
        for version in (8, 9):
            data = OffsetFetchRequestData(
                groups=[
                    OffsetFetchRequestData.OffsetFetchRequestGroup(group_id=one, topics=None),
                    OffsetFetchRequestData.OffsetFetchRequestGroup(
                        group_id=two,
                        topics=[OffsetFetchRequestData.OffsetFetchRequestTopics(name=TOPIC, partition_indexes=[2])],
                    ),
                    OffsetFetchRequestData.OffsetFetchRequestGroup(group_id="", topics=None),
                ],
                require_stable=True,
            )
            response = client.call(ApiKeys.OFFSET_FETCH, version, data)
            by_group = {
                g.group_id: (
                    g.error_code,
                    {(t.name, p.partition_index): p.committed_offset for t in g.topics for p in t.partitions},
                )
                for g in response.groups
            }
            assert by_group == {one: (0, {(TOPIC, 0): 1, (TOPIC, 1): 2}), two: (0, {(TOPIC, 2): 3}), "": (0, {})}


def test_offset_commit_v0_is_stored_in_zookeeper(broker: BrokerProcess) -> None:
    """v0 commits go to /consumers/{group}/offsets/{topic}/{partition} in ZooKeeper and v0 fetches read them
    back; the coordinator's offsets (v1+) are a separate store."""
    group = _group()
    with ProtocolClient(broker) as client:
        assert client.commit(0, group, {(TOPIC, 1): 99}) == {(TOPIC, 1): 0}
        _, v0 = client.fetch(0, group, [(TOPIC, 1), (TOPIC, 0)])
        assert v0[(TOPIC, 1)] == (99, "", 0)
        assert v0[(TOPIC, 0)] == (-1, "", Errors.UNKNOWN_TOPIC_OR_PARTITION.code)
        _, v1 = client.fetch(1, group, [(TOPIC, 1)])
        assert v1[(TOPIC, 1)][0] == -1
    zk = KazooClient(hosts=broker.zk_connect, timeout=10.0)
    zk.start(timeout=10.0)
    try:
        data, _ = zk.get(f"/consumers/{group}/offsets/{TOPIC}/1")
    finally:
        zk.stop()
        zk.close()
    assert data == b"99"


@pytest.mark.parametrize("version", [0, 2, 8])
def test_offset_commit_refuses_oversized_metadata_and_unknown_topics(broker: BrokerProcess, version: int) -> None:
    """Metadata over offsets.metadata.max.bytes (4096) is OFFSET_METADATA_TOO_LARGE; unknown topics and
    partitions are UNKNOWN_TOPIC_OR_PARTITION; the rest of the request is committed."""
    group = _group()
    with ProtocolClient(broker) as client:
        big = client.commit(version, group, {(TOPIC, 0): 1}, metadata="m" * 5000)
        assert big == {(TOPIC, 0): Errors.OFFSET_METADATA_TOO_LARGE.code}
        mixed = client.commit(version, group, {(TOPIC, 0): 3, (TOPIC, 77): 1, ("no-such-topic", 0): 1})
    unknown = Errors.UNKNOWN_TOPIC_OR_PARTITION.code
    assert mixed == {(TOPIC, 0): 0, (TOPIC, 77): unknown, ("no-such-topic", 0): unknown}


def test_offset_commit_by_strangers_and_stale_generations(broker: BrokerProcess) -> None:
    """In a group under management, a commit by an unknown member is UNKNOWN_MEMBER_ID and one of a past
    generation ILLEGAL_GENERATION; the member's own commit succeeds."""
    group = _group()
    with ProtocolClient(broker) as client:
        member_id, generation = _stable_member(client, group)
        stranger = client.commit(8, group, {(TOPIC, 0): 1}, generation_id_or_member_epoch=generation, member_id="x")
        assert stranger == {(TOPIC, 0): Errors.UNKNOWN_MEMBER_ID.code}
        stale = client.commit(
            8, group, {(TOPIC, 0): 1}, generation_id_or_member_epoch=generation - 1, member_id=member_id
        )
        assert stale == {(TOPIC, 0): Errors.ILLEGAL_GENERATION.code}
        own = client.commit(8, group, {(TOPIC, 0): 1}, generation_id_or_member_epoch=generation, member_id=member_id)
        assert own == {(TOPIC, 0): 0}


def test_ten_kilobyte_group_id(broker: BrokerProcess) -> None:
    """A 10 KB group id is a group id like any other: found, committed to, read back and described."""
    group = "g" * 10_240
    with ProtocolClient(broker) as client:
        assert client.find_coordinator(group).error_code == Errors.NONE.code
        assert client.commit(3, group, {(TOPIC, 0): 8}) == {(TOPIC, 0): 0}
        _, offsets = client.fetch(3, group, [(TOPIC, 0)])
        described = client.call(ApiKeys.DESCRIBE_GROUPS, 1, DescribeGroupsRequestData(groups=[group]))
    assert offsets[(TOPIC, 0)][0] == 8
    assert (described.groups[0].group_id, described.groups[0].group_state) == (group, "Empty")


# ---- a real client ---------------------------------------------------------------------------------


def test_confluent_kafka_consumer_group(broker: BrokerProcess) -> None:
    """A confluent-kafka consumer subscribes, consumes every record, commits and closes; the committed offsets
    are what OffsetFetch then returns and the group is left Empty."""
    topic = "smoke-" + uuid.uuid4().hex[:8]
    admin = AdminClient({"bootstrap.servers": broker.bootstrap})
    admin.create_topics([NewTopic(topic, 2, 1)], operation_timeout=30)[topic].result(30)
    producer = ck.Producer({"bootstrap.servers": broker.bootstrap})
    for i in range(20):
        producer.produce(topic, value=f"record-{i}".encode(), partition=i % 2)
    assert producer.flush(30) == 0

    group = _group()
    consumer = ck.Consumer(
        {
            "bootstrap.servers": broker.bootstrap,
            "group.id": group,
            "auto.offset.reset": "earliest",
            "enable.auto.commit": False,
            "session.timeout.ms": 10_000,
        }
    )
    received: list[bytes] = []
    try:
        consumer.subscribe([topic])
        wait_until_true(
            lambda: _poll_into(consumer, received) and len(received) >= 20, "consumed every record", timeout=60
        )
        consumer.commit(asynchronous=False)
        committed = consumer.committed([ck.TopicPartition(topic, 0), ck.TopicPartition(topic, 1)], timeout=30)
        assert sorted(tp.offset for tp in committed) == [10, 10]
    finally:
        consumer.close()
    assert sorted(received) == sorted(f"record-{i}".encode() for i in range(20))
    with ProtocolClient(broker) as client:
        _, offsets = client.fetch(6, group, [(topic, 0), (topic, 1)])
        assert [offsets[(topic, p)][0] for p in (0, 1)] == [10, 10]
        wait_until_true(
            lambda: (
                client.call(ApiKeys.DESCRIBE_GROUPS, 2, DescribeGroupsRequestData(groups=[group])).groups[0].group_state
                == "Empty"
            ),
            "the closed consumer left the group",
        )


def _poll_into(consumer: Any, received: list[bytes]) -> bool:
    message = consumer.poll(0.5)
    if message is not None and message.error() is None:
        received.append(message.value())
    return True
