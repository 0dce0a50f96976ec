"""Tests of kafka.server.metadata_cache, after Kafka's MetadataCacheTest."""

from __future__ import annotations

from typing import Any

from kafka.cluster.broker import Node
from kafka.common.message import UpdateMetadataRequestData
from kafka.common.network.listener_name import ListenerName
from kafka.common.protocol.errors import Errors
from kafka.common.protocol.types import ZERO_UUID, Uuid
from kafka.common.requests.update_metadata_request import UpdateMetadataRequest, UpdateMetadataRequestBuilder
from kafka.common.security.auth.security_protocol import SecurityProtocol
from kafka.common.topic_partition import TopicPartition
from kafka.server.metadata_cache import LEADER_DURING_DELETE, MetadataCache, ZkMetadataCache

PLAINTEXT = ListenerName("PLAINTEXT")
EXTERNAL = ListenerName("EXTERNAL")
TOPIC_ID = Uuid(12, 34)


def _broker(broker_id: int, listeners: list[ListenerName], rack: str | None = None) -> Any:
    endpoints = [
        UpdateMetadataRequestData.UpdateMetadataEndpoint(
            host=f"host{broker_id}", port=9092 + i, listener=ln.value, security_protocol=SecurityProtocol.PLAINTEXT.id
        )
        for i, ln in enumerate(listeners)
    ]
    return UpdateMetadataRequestData.UpdateMetadataBroker(id=broker_id, endpoints=endpoints, rack=rack)


def _state(topic: str, partition: int, leader: int, replicas: list[int], isr: list[int], epoch: int = 0) -> Any:
    return UpdateMetadataRequestData.UpdateMetadataPartitionState(
        topic_name=topic,
        partition_index=partition,
        controller_epoch=1,
        leader=leader,
        leader_epoch=epoch,
        isr=isr,
        zk_version=3,
        replicas=replicas,
        offline_replicas=[],
    )


def _request(
    states: list[Any], brokers: list[Any], controller_id: int = 2, topic_ids: dict[str, Uuid] | None = None
) -> UpdateMetadataRequest:
    return UpdateMetadataRequestBuilder(8, controller_id, 1, 0, states, brokers, topic_ids or {}).build()


def test_get_topic_metadata_for_non_existing_topics_is_empty() -> None:
    """Topics the controller never described give no metadata and are reported as non-existing."""
    cache = MetadataCache.zk_metadata_cache(1)
    cache.update_metadata(1, _request([], [_broker(0, [PLAINTEXT])]))
    assert cache.get_topic_metadata({"missing"}, PLAINTEXT) == []
    assert cache.get_non_existing_topics({"missing"}) == {"missing"}
    assert not cache.contains("missing")


def test_get_topic_metadata_per_listener_with_topic_ids() -> None:
    """Each listener sees its own endpoints; leader, epoch, replicas, ISR and topic id come from the request."""
    cache = ZkMetadataCache(0)
    brokers = [_broker(b, [PLAINTEXT, EXTERNAL], rack=f"r{b}") for b in (0, 1, 2)]
    states = [_state("t", 0, 0, [0, 1], [0, 1], epoch=5), _state("t", 1, 1, [1, 2], [1], epoch=7)]
    assert cache.update_metadata(1, _request(states, brokers, topic_ids={"t": TOPIC_ID})) == []

    topics = cache.get_topic_metadata({"t"}, EXTERNAL)
    assert len(topics) == 1
    topic = topics[0]
    assert (topic.name, topic.error_code, topic.topic_id, topic.is_internal) == ("t", 0, TOPIC_ID, False)
    by_partition = {p.partition_index: p for p in topic.partitions}
    assert (by_partition[0].leader_id, by_partition[0].leader_epoch, by_partition[0].replica_nodes) == (0, 5, [0, 1])
    assert (by_partition[1].leader_id, by_partition[1].leader_epoch, by_partition[1].isr_nodes) == (1, 7, [1])
    assert cache.get_alive_broker_node(1, EXTERNAL) == Node(1, "host1", 9093, "r1")
    assert cache.get_partition_leader_endpoint("t", 1, PLAINTEXT) == Node(1, "host1", 9092, "r1")
    assert cache.get_topic_id("t") == TOPIC_ID
    assert cache.get_topic_name(TOPIC_ID) == "t"
    assert cache.get_topic_partitions("t") == {TopicPartition("t", 0), TopicPartition("t", 1)}
    assert cache.num_partitions("t") == 2
    assert cache.get_controller_id() == 2
    assert cache.contains(TopicPartition("t", 1)) and not cache.contains(TopicPartition("t", 2))


def test_leader_not_available_and_listener_not_found() -> None:
    """A dead leader gives LEADER_NOT_AVAILABLE; a live leader without the listener gives LISTENER_NOT_FOUND only
    when asked for (Metadata v6+), LEADER_NOT_AVAILABLE otherwise."""
    cache = ZkMetadataCache(0)
    brokers = [_broker(0, [PLAINTEXT, EXTERNAL]), _broker(1, [PLAINTEXT])]
    states = [_state("t", 0, 5, [5, 0], [5, 0]), _state("t", 1, 1, [1, 0], [1, 0])]
    cache.update_metadata(1, _request(states, brokers))

    def errors(listener: ListenerName, error_unavailable_listeners: bool) -> dict[int, tuple[int, int]]:
        topic = cache.get_topic_metadata(["t"], listener, error_unavailable_listeners=error_unavailable_listeners)[0]
        return {p.partition_index: (p.error_code, p.leader_id) for p in topic.partitions}

    assert errors(PLAINTEXT, False) == {0: (Errors.LEADER_NOT_AVAILABLE.code, -1), 1: (0, 1)}
    assert errors(EXTERNAL, True) == {
        0: (Errors.LEADER_NOT_AVAILABLE.code, -1),
        1: (Errors.LISTENER_NOT_FOUND.code, -1),
    }
    assert errors(EXTERNAL, False)[1] == (Errors.LEADER_NOT_AVAILABLE.code, -1)
    assert cache.get_partition_leader_endpoint("t", 0, PLAINTEXT) == Node.no_node()


def test_replica_and_isr_not_available_with_error_unavailable_endpoints() -> None:
    """Metadata v0 semantics: replicas without a live endpoint are dropped and the partition says
    REPLICA_NOT_AVAILABLE; later versions list every replica without error."""
    cache = ZkMetadataCache(0)
    cache.update_metadata(1, _request([_state("t", 0, 0, [0, 1], [0, 1])], [_broker(0, [PLAINTEXT])]))

    v0 = cache.get_topic_metadata({"t"}, PLAINTEXT, error_unavailable_endpoints=True)[0].partitions[0]
    assert (v0.error_code, v0.replica_nodes, v0.isr_nodes) == (Errors.REPLICA_NOT_AVAILABLE.code, [0], [0])
    later = cache.get_topic_metadata({"t"}, PLAINTEXT)[0].partitions[0]
    assert (later.error_code, later.replica_nodes, later.isr_nodes) == (0, [0, 1], [0, 1])


def test_partial_update_keeps_other_partitions_and_deletes_on_leader_during_delete() -> None:
    """Updates merge into the previous state; a LeaderDuringDelete state removes the partition (and the topic
    with its id once empty) and is returned as deleted."""
    cache = ZkMetadataCache(0)
    brokers = [_broker(0, [PLAINTEXT])]
    cache.update_metadata(
        1, _request([_state("a", 0, 0, [0], [0]), _state("b", 0, 0, [0], [0])], brokers, topic_ids={"a": TOPIC_ID})
    )
    deleted = cache.update_metadata(2, _request([_state("a", 0, LEADER_DURING_DELETE, [0], [0])], brokers))
    assert deleted == [TopicPartition("a", 0)]
    assert cache.get_all_topics() == {"b"}
    assert cache.get_topic_id("a") == ZERO_UUID
    assert cache.get_topic_name(TOPIC_ID) is None
    assert cache.get_all_partitions() == {TopicPartition("b", 0)}


def test_alive_brokers_snapshot_is_not_mutated_by_a_later_update() -> None:
    """A reader's list of alive brokers stays as it was when a later update swaps the snapshot."""
    cache = ZkMetadataCache(0)
    cache.update_metadata(1, _request([], [_broker(0, [PLAINTEXT]), _broker(1, [PLAINTEXT])]))
    before = cache.get_alive_brokers()
    cache.update_metadata(2, _request([], [_broker(0, [PLAINTEXT])], controller_id=-1))
    assert sorted(b.id for b in before) == [0, 1]
    assert [b.id for b in cache.get_alive_brokers()] == [0]
    assert cache.has_alive_broker(0) and not cache.has_alive_broker(1)
    assert cache.get_controller_id() is None


def test_update_metadata_v0_endpoint_becomes_plaintext_listener() -> None:
    """An UpdateMetadata v0 broker (single host/port) is reachable on the PLAINTEXT listener."""
    data = UpdateMetadataRequestData(
        controller_id=0,
        controller_epoch=1,
        live_brokers=[UpdateMetadataRequestData.UpdateMetadataBroker(id=3, v0_host="h", v0_port=9000)],
        ungrouped_partition_states=[_state("t", 0, 3, [3], [3])],
    )
    cache = ZkMetadataCache(3, cluster_id="cid")
    cache.update_metadata(7, UpdateMetadataRequest(data, 0))
    node = cache.get_alive_broker_node(3, PLAINTEXT)
    assert node is not None and (node.id, node.host, node.port) == (3, "h", 9000)
    assert cache.get_partition_replica_endpoints(TopicPartition("t", 0), PLAINTEXT) == {3: node}
    assert cache.get_cluster_id() == "cid"


def test_knows_controller_and_this_broker_only_after_an_update_naming_both() -> None:
    """The readiness accessor is false on an empty cache and on an update that lacks this broker or a controller,
    and true once an update names the controller and lists this broker among the live ones."""
    cache = ZkMetadataCache(1)
    assert not cache.knows_controller_and_this_broker()
    cache.update_metadata(1, _request([], [_broker(0, [PLAINTEXT])], controller_id=0))
    assert not cache.knows_controller_and_this_broker()
    cache.update_metadata(2, _request([], [_broker(0, [PLAINTEXT]), _broker(1, [PLAINTEXT])], controller_id=-1))
    assert not cache.knows_controller_and_this_broker()
    cache.update_metadata(3, _request([], [_broker(0, [PLAINTEXT]), _broker(1, [PLAINTEXT])], controller_id=0))
    assert cache.knows_controller_and_this_broker()
