"""Tests of kafka.clients.metadata (from Kafka's MetadataTest): when updates are due (expiry, requested, backoff after
failures), leader epochs (stale metadata rejected, out-of-band epochs, topic re-creation), request versions and
partial updates, topic errors handed to the caller, merging of partial updates, and leadership updates."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from kafka.clients import common_client_configs
from kafka.clients.metadata import LeaderIdAndEpoch, Metadata, MetadataRequestAndVersion
from kafka.clients.metadata_snapshot import MetadataSnapshot
from kafka.common.cluster import Cluster
from kafka.common.cluster_resource import ClusterResource
from kafka.common.cluster_resource_listener import ClusterResourceListener
from kafka.common.errors import InvalidTopicException, TopicAuthorizationException
from kafka.common.internals.cluster_resource_listeners import ClusterResourceListeners
from kafka.common.internals.topic import Topic
from kafka.common.message import MetadataResponseData
from kafka.common.node import Node
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.protocol.types import ZERO_UUID, Uuid
from kafka.common.requests.metadata_request import MetadataRequestBuilder
from kafka.common.requests.metadata_response import MetadataResponse
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.log_context import LogContext
from kafka.common.utils.time import MockTime
from tests.unit.kafka.common.requests.request_test_utils import (
    metadata_response,
    metadata_update_with,
    metadata_update_with_ids,
)

PartitionMetadata = MetadataResponse.PartitionMetadata

REFRESH_BACKOFF_MS = 100
REFRESH_BACKOFF_MAX_MS = 1000
METADATA_EXPIRE_MS = 1000
JITTER = common_client_configs.RETRY_BACKOFF_JITTER


def _metadata(cls: type[Metadata] = Metadata, listeners: ClusterResourceListeners | None = None) -> Metadata:
    return cls(
        REFRESH_BACKOFF_MS,
        REFRESH_BACKOFF_MAX_MS,
        METADATA_EXPIRE_MS,
        LogContext(),
        listeners or ClusterResourceListeners(),
    )


def _empty_metadata_response() -> MetadataResponse:
    return metadata_response([], None, -1, [])


def _constant(epoch: int) -> Callable[[TopicPartition], int | None]:
    return lambda _: epoch


def _retaining(topics: Callable[[], set[str]]) -> Metadata:
    class Retaining(Metadata):
        def retain_topic(self, topic: str, is_internal: bool, now_ms: int) -> bool:
            return topic in topics()

    return _metadata(Retaining)


def test_metadata_update_after_close() -> None:
    """A closed Metadata refuses updates."""
    metadata = _metadata()
    metadata.close()
    with pytest.raises(RuntimeError, match="Update requested after metadata close"):
        metadata.update_with_current_request_version(_empty_metadata_response(), False, 1000)


@pytest.mark.parametrize(
    ("refresh_backoff_ms", "metadata_expire_ms"), [(100, 1000), (1000, 100), (0, 0), (0, 100), (100, 0)]
)
def test_time_to_next_update(refresh_backoff_ms: int, metadata_expire_ms: int) -> None:
    """After an update the next is due at expiry (or after the backoff, if longer); a request makes it due after
    the backoff."""
    now = 10000
    larger = max(refresh_backoff_ms, metadata_expire_ms)
    # A constant backoff (maximum = base).
    metadata = Metadata(
        refresh_backoff_ms, refresh_backoff_ms, metadata_expire_ms, LogContext(), ClusterResourceListeners()
    )
    assert metadata.time_to_next_update(now) == 0
    metadata.update_with_current_request_version(_empty_metadata_response(), False, now)
    assert metadata.time_to_next_update(now) == larger
    metadata.request_update(True)
    assert metadata.time_to_next_update(now) == refresh_backoff_ms
    metadata.update_with_current_request_version(_empty_metadata_response(), False, now)
    assert metadata.time_to_next_update(now) == larger
    now += larger
    assert metadata.time_to_next_update(now) == 0
    assert metadata.time_to_next_update(now + 1) == 0


def test_update_metadata_allowed_immediately_after_bootstrap() -> None:
    """Right after bootstrap an update is due and allowed."""
    time = MockTime()
    metadata = _metadata()
    metadata.bootstrap([("localhost", 9002)])
    assert metadata.time_to_allow_update(time.milliseconds()) == 0
    assert metadata.time_to_next_update(time.milliseconds()) == 0


def test_time_to_next_update_retry_backoff() -> None:
    """A failed update backs off (with jitter), even when an update is requested."""
    metadata = _metadata()
    now = 10000
    metadata.failed_update(now)
    tolerance = REFRESH_BACKOFF_MS * 2 * JITTER
    assert metadata.time_to_next_update(now) == pytest.approx(REFRESH_BACKOFF_MS, abs=tolerance)
    metadata.request_update(True)
    assert metadata.time_to_next_update(now) == pytest.approx(REFRESH_BACKOFF_MS, abs=tolerance)
    now += REFRESH_BACKOFF_MS + int(REFRESH_BACKOFF_MS * (1 + JITTER))
    assert metadata.time_to_next_update(now) == 0
    assert metadata.time_to_next_update(now + 1) == 0


def test_ignore_leader_epoch_in_older_metadata_response() -> None:
    """Before Metadata v9 leader epochs are not reliable and are dropped; from v9 they are kept."""
    metadata = _metadata()
    tp = TopicPartition("topic", 0)
    data = MetadataResponseData(cluster_id="clusterId", controller_id=0)
    data.topics.append(
        MetadataResponseData.MetadataResponseTopic(
            name=tp.topic,
            error_code=0,
            is_internal=False,
            partitions=[
                MetadataResponseData.MetadataResponsePartition(
                    partition_index=0, leader_id=5, leader_epoch=10, replica_nodes=[1, 2, 3], isr_nodes=[1, 2, 3]
                )
            ],
        )
    )
    for version in range(ApiKeys.METADATA.oldest_version, ApiKeys.METADATA.latest_version() + 1):
        response = MetadataResponse.parse(data.write(version), version)
        assert response.has_reliable_leader_epochs() == (version >= 9)
        metadata.update_with_current_request_version(response, False, 100)
        current = metadata.partition_metadata_if_current(tp)
        assert current is not None
        assert current.leader_epoch == (10 if version >= 9 else None)


def _one_partition(leader_epoch: int, isr: list[int]) -> MetadataResponse:
    data = MetadataResponseData(cluster_id="clusterId", controller_id=0)
    data.topics.append(
        MetadataResponseData.MetadataResponseTopic(
            name="topic",
            error_code=0,
            is_internal=False,
            partitions=[
                MetadataResponseData.MetadataResponsePartition(
                    partition_index=0, leader_id=1, leader_epoch=leader_epoch, replica_nodes=[1, 2, 3], isr_nodes=isr
                )
            ],
        )
    )
    return MetadataResponse(data, ApiKeys.METADATA.latest_version())


def test_stale_metadata() -> None:
    """Partition metadata with an older leader epoch does not replace what is known."""
    metadata = _metadata()
    tp = TopicPartition("topic", 0)
    metadata.update_with_current_request_version(_one_partition(10, [1, 2, 3]), False, 100)
    metadata.update_with_current_request_version(_one_partition(9, [1, 2]), False, 101)
    assert metadata.last_seen_leader_epoch(tp) == 10
    current = metadata.partition_metadata_if_current(tp)
    assert current is not None
    assert current.in_sync_replica_ids == (1, 2, 3) and current.leader_epoch == 10


def test_failed_update() -> None:
    """A failed update backs off without moving the last successful update."""
    metadata = _metadata()
    metadata.update_with_current_request_version(_empty_metadata_response(), False, 100)
    assert metadata.time_to_next_update(1000) == 100
    metadata.failed_update(1100)
    tolerance = REFRESH_BACKOFF_MS * 2 * JITTER
    assert metadata.time_to_next_update(1100) == pytest.approx(100, abs=tolerance)
    assert metadata.last_successful_update() == 100
    metadata.update_with_current_request_version(_empty_metadata_response(), False, 100)
    assert metadata.time_to_next_update(1000) == pytest.approx(100, abs=tolerance)


class _MockClusterResourceListener(ClusterResourceListener):
    def __init__(self) -> None:
        self.updates: list[ClusterResource] = []

    def on_update(self, cluster_resource: ClusterResource) -> None:
        self.updates.append(cluster_resource)


def test_cluster_listener_gets_notified_of_update() -> None:
    """Cluster resource listeners hear of real updates, not of the bootstrap cluster."""
    listener = _MockClusterResourceListener()
    listeners = ClusterResourceListeners()
    listeners.maybe_add(listener)
    listeners.maybe_add(object())  # not a listener: ignored
    metadata = _metadata(listeners=listeners)
    metadata.bootstrap([("www.example.com", 9002)])
    assert listener.updates == []
    metadata.update_with_current_request_version(
        metadata_update_with(1, {"topic": 1, "topic1": 1}, "dummy"), False, 100
    )
    assert listener.updates == [ClusterResource("dummy")]


def test_request_update() -> None:
    """Only a newer out-of-band epoch asks for an update; every update clears the request."""
    metadata = _metadata()
    assert not metadata.update_requested()
    epochs = [42, 42, 41, 41, 42, 43, 43, 42, 41, 44]
    update_result = [True, False, False, False, False, True, False, False, False, True]
    tp = TopicPartition("topic", 0)
    metadata.update_with_current_request_version(
        metadata_update_with(1, {"topic": 1}, "dummy", epoch_supplier=lambda _: 0), False, 10
    )
    for epoch, expected in zip(epochs, update_result):
        metadata.update_last_seen_epoch_if_newer(tp, epoch)
        assert metadata.update_requested() == expected
        metadata.update_with_current_request_version(_empty_metadata_response(), False, 0)
        assert not metadata.update_requested()


def test_update_last_epoch() -> None:
    """The last seen epoch only moves forward, from metadata or from elsewhere."""
    metadata = _metadata()
    tp = TopicPartition("topic-1", 0)
    metadata.update_with_current_request_version(_empty_metadata_response(), False, 0)
    # No epoch known: nothing to compare with.
    for epoch in (0, 1, 2):
        assert not metadata.update_last_seen_epoch_if_newer(tp, epoch)
    assert metadata.last_seen_leader_epoch(tp) is None

    def update(epoch: int, now: int) -> None:
        response = metadata_update_with(1, {"topic-1": 1}, "dummy", epoch_supplier=lambda _: epoch)
        metadata.update_with_current_request_version(response, False, now)

    update(10, 1)
    assert metadata.last_seen_leader_epoch(tp) == 10
    assert not metadata.update_last_seen_epoch_if_newer(tp, 1)
    assert not metadata.update_last_seen_epoch_if_newer(tp, 10)
    assert metadata.last_seen_leader_epoch(tp) == 10
    assert metadata.update_last_seen_epoch_if_newer(tp, 12)
    assert metadata.last_seen_leader_epoch(tp) == 12
    update(12, 2)
    assert metadata.last_seen_leader_epoch(tp) == 12
    update(11, 3)  # older: ignored
    assert metadata.last_seen_leader_epoch(tp) == 12
    update(13, 4)
    assert metadata.last_seen_leader_epoch(tp) == 13


def test_invalid_leader_epoch_is_refused() -> None:
    """A negative epoch from elsewhere is a caller error."""
    with pytest.raises(ValueError, match="Invalid leader epoch -1"):
        _metadata().update_last_seen_epoch_if_newer(TopicPartition("t", 0), -1)


def test_epoch_update_after_topic_deletion() -> None:
    """A deleted topic keeps its last epoch; re-created with a new id, its lower epoch is taken."""
    metadata = _metadata()
    tp = TopicPartition("topic-1", 0)
    metadata.update_with_current_request_version(_empty_metadata_response(), False, 0)
    ids = {"topic-1": Uuid.random_uuid()}
    metadata.update_with_current_request_version(
        metadata_update_with_ids(1, {"topic-1": 1}, ids, lambda _: 10, "dummy"), False, 1
    )
    assert metadata.last_seen_leader_epoch(tp) == 10
    deleted = metadata_update_with(1, {}, "dummy", topic_errors={"topic-1": Errors.UNKNOWN_TOPIC_OR_PARTITION})
    metadata.update_with_current_request_version(deleted, False, 1)
    assert metadata.last_seen_leader_epoch(tp) == 10
    new_ids = {"topic-1": Uuid.random_uuid()}
    metadata.update_with_current_request_version(
        metadata_update_with_ids(1, {"topic-1": 1}, new_ids, lambda _: 5, "dummy"), False, 1
    )
    assert metadata.last_seen_leader_epoch(tp) == 5


def test_epoch_update_on_changed_topic_ids() -> None:
    """A new topic id resets the epoch even to a lower one; the same id needs a newer epoch."""
    metadata = _metadata()
    tp = TopicPartition("topic-1", 0)
    ids = {"topic-1": Uuid.random_uuid()}
    metadata.update_with_current_request_version(_empty_metadata_response(), False, 0)
    metadata.update_with_current_request_version(
        metadata_update_with(1, {"topic-1": 1}, "dummy", epoch_supplier=lambda _: 100), False, 1
    )
    assert metadata.last_seen_leader_epoch(tp) == 100
    for epoch, topic_ids, expected in [
        (10, ids, 10),  # the old id was unknown: take the new one's epoch
        (10, ids, 10),
        (12, ids, 12),
        (3, {"topic-1": Uuid.random_uuid()}, 3),
        (20, {"topic-1": Uuid.random_uuid()}, 20),
    ]:
        response = metadata_update_with_ids(1, {"topic-1": 1}, topic_ids, _constant(epoch), "dummy")
        metadata.update_with_current_request_version(response, False, 2)
        assert metadata.last_seen_leader_epoch(tp) == expected


def test_reject_old_metadata() -> None:
    """An older epoch never replaces partition metadata, not even after the partition left the metadata."""
    metadata = _metadata()
    tp = TopicPartition("topic-1", 0)
    counts = {"topic-1": 1}

    def empty_isr(
        error: Errors,
        partition: TopicPartition,
        leader: int | None,
        epoch: int | None,
        replicas: tuple[int, ...],
        isr: tuple[int, ...],
        offline: tuple[int, ...],
    ) -> PartitionMetadata:
        return PartitionMetadata(error, partition, leader, epoch, replicas, (), offline)

    metadata.update_with_current_request_version(_empty_metadata_response(), False, 0)
    metadata.update_with_current_request_version(
        metadata_update_with(1, counts, "dummy", epoch_supplier=lambda _: 100), False, 10
    )
    assert metadata.fetch().partition(tp) is not None and metadata.last_seen_leader_epoch(tp) == 100

    metadata.update_with_current_request_version(
        metadata_update_with(1, counts, "dummy", epoch_supplier=lambda _: 99, partition_supplier=empty_isr), False, 20
    )
    partition = metadata.fetch().partition(tp)
    assert partition is not None and len(partition.in_sync_replicas) == 1
    assert metadata.last_seen_leader_epoch(tp) == 100

    metadata.update_with_current_request_version(
        metadata_update_with(1, counts, "dummy", epoch_supplier=lambda _: 100, partition_supplier=empty_isr), False, 20
    )
    partition = metadata.fetch().partition(tp)
    assert partition is not None and len(partition.in_sync_replicas) == 0
    assert metadata.last_seen_leader_epoch(tp) == 100

    metadata.update_with_current_request_version(metadata_update_with(1, {}, "dummy"), False, 20)
    assert metadata.fetch().partition(tp) is None
    assert metadata.last_seen_leader_epoch(tp) == 100

    metadata.update_with_current_request_version(
        metadata_update_with(1, counts, "dummy", epoch_supplier=lambda _: 99), False, 10
    )
    assert metadata.fetch().partition(tp) is None
    assert metadata.last_seen_leader_epoch(tp) == 100


def test_out_of_band_epoch_update() -> None:
    """A newer epoch seen elsewhere makes the cached partition metadata stale until metadata catches up."""
    metadata = _metadata()
    tp = TopicPartition("topic-1", 0)
    counts = {"topic-1": 5}
    metadata.update_with_current_request_version(_empty_metadata_response(), False, 0)
    assert not metadata.update_last_seen_epoch_if_newer(tp, 99)
    response = metadata_update_with(1, counts, "dummy", epoch_supplier=lambda _: 100)
    metadata.update_with_current_request_version(response, False, 10)
    assert metadata.fetch().partition(tp) is not None and metadata.last_seen_leader_epoch(tp) == 100

    assert metadata.update_last_seen_epoch_if_newer(tp, 101)
    assert metadata.fetch().partition(tp) is not None
    assert metadata.fetch().partition_count_for_topic("topic-1") == 5
    assert metadata.partition_metadata_if_current(tp) is None
    assert metadata.last_seen_leader_epoch(tp) == 101

    metadata.update_with_current_request_version(response, False, 20)  # epoch 100: rejected
    assert metadata.partition_metadata_if_current(tp) is None
    assert metadata.last_seen_leader_epoch(tp) == 101

    metadata.update_with_current_request_version(
        metadata_update_with(1, counts, "dummy", epoch_supplier=lambda _: 101), False, 30
    )
    assert metadata.fetch().partition_count_for_topic("topic-1") == 5
    assert metadata.partition_metadata_if_current(tp) is not None
    assert metadata.last_seen_leader_epoch(tp) == 101


def test_no_epoch() -> None:
    """Metadata without epochs still works, and an out-of-band epoch does not invent one."""
    metadata = _metadata()
    metadata.update_with_current_request_version(_empty_metadata_response(), False, 0)
    metadata.update_with_current_request_version(metadata_update_with(1, {"topic-1": 1}, "dummy"), False, 10)
    tp = TopicPartition("topic-1", 0)
    assert metadata.last_seen_leader_epoch(tp) is None
    current = metadata.partition_metadata_if_current(tp)
    assert current is not None and current.partition == 0 and current.leader_id == 0
    metadata.update_last_seen_epoch_if_newer(tp, 10)
    current = metadata.partition_metadata_if_current(tp)
    assert current is not None and current.leader_epoch is None


def test_cluster_copy() -> None:
    """The Cluster of an update has its id, nodes, topics by kind and partitions; the sentinels match Cluster's."""
    metadata = _metadata()
    counts = {"topic1": 2, "topic2": 3, Topic.GROUP_METADATA_TOPIC_NAME: 3}
    errors = {"topic3": Errors.INVALID_TOPIC_EXCEPTION, "topic4": Errors.TOPIC_AUTHORIZATION_FAILED}
    metadata.update_with_current_request_version(
        metadata_update_with(4, counts, "dummy", topic_errors=errors), False, 0
    )
    cluster = metadata.fetch()
    assert cluster.cluster_resource.cluster_id == "dummy"
    assert len(cluster.nodes) == 4
    assert cluster.invalid_topics == {"topic3"}
    assert cluster.unauthorized_topics == {"topic4"}
    assert len(cluster.topics) == 3
    assert cluster.internal_topics == {Topic.GROUP_METADATA_TOPIC_NAME}
    assert len(cluster.partitions_for_topic("topic1")) == 2
    assert len(cluster.partitions_for_topic("topic2")) == 3
    assert MetadataSnapshot.bootstrap([("localhost", 0)]).cluster() == Cluster.bootstrap([("localhost", 0)])
    assert MetadataSnapshot.empty().cluster() == Cluster.empty()


def test_request_version() -> None:
    """A topic added while a request is in flight keeps an update requested after that request's response."""
    time = MockTime()
    metadata = _metadata()
    metadata.request_update(True)
    rv = metadata.new_metadata_request_and_version(time.milliseconds())
    metadata.update(rv.request_version, metadata_update_with(1, {"topic": 1}), False, time.milliseconds())
    assert not metadata.update_requested()
    metadata.request_update_for_new_topics()
    rv = metadata.new_metadata_request_and_version(time.milliseconds())
    metadata.request_update_for_new_topics()
    metadata.update(rv.request_version, metadata_update_with(1, {"topic": 1}), True, time.milliseconds())
    assert metadata.update_requested()
    rv = metadata.new_metadata_request_and_version(time.milliseconds())
    metadata.update(rv.request_version, metadata_update_with(1, {"topic": 1}), True, time.milliseconds())
    assert not metadata.update_requested()


def test_partial_metadata_update() -> None:
    """New topics alone give a partial update; a requested full update or expired metadata a full one."""

    class Partial(Metadata):
        def new_metadata_request_builder_for_new_topics(self) -> MetadataRequestBuilder | None:
            return self.new_metadata_request_builder()

    time = MockTime()
    metadata = _metadata(Partial)
    assert not metadata.update_requested()

    def update(rv: MetadataRequestAndVersion, topic: str, partial: bool, now: int) -> None:
        metadata.update(rv.request_version, metadata_update_with(1, {topic: 1}), partial, now)

    metadata.request_update(True)
    rv = metadata.new_metadata_request_and_version(time.milliseconds())
    assert not rv.is_partial_update
    update(rv, "topic", False, time.milliseconds())
    assert not metadata.update_requested()

    metadata.request_update_for_new_topics()
    rv = metadata.new_metadata_request_and_version(time.milliseconds())
    assert rv.is_partial_update
    update(rv, "topic", True, time.milliseconds())
    assert not metadata.update_requested()

    metadata.request_update(True)
    metadata.request_update_for_new_topics()
    rv = metadata.new_metadata_request_and_version(time.milliseconds())
    assert not rv.is_partial_update
    update(rv, "topic", False, time.milliseconds())
    assert not metadata.update_requested()

    metadata.request_update_for_new_topics()
    refresh_time_ms = time.milliseconds() + metadata.metadata_expire_ms()
    rv = metadata.new_metadata_request_and_version(refresh_time_ms)
    assert not rv.is_partial_update
    update(rv, "topic", True, refresh_time_ms)
    assert not metadata.update_requested()

    metadata.request_update_for_new_topics()
    rv = metadata.new_metadata_request_and_version(time.milliseconds())
    assert rv.is_partial_update
    metadata.request_update_for_new_topics()
    overlapping = metadata.new_metadata_request_and_version(time.milliseconds())
    assert overlapping.is_partial_update
    assert metadata.update_requested()
    update(rv, "topic-1", True, time.milliseconds())
    assert metadata.update_requested()
    update(overlapping, "topic-2", True, time.milliseconds())
    assert not metadata.update_requested()


def test_invalid_topic_error() -> None:
    """An invalid topic is raised once to the caller, and forgotten after a clean update."""
    metadata = _metadata()
    invalid = "topic dfsa"
    response = metadata_update_with(1, {}, "clusterId", topic_errors={invalid: Errors.INVALID_TOPIC_EXCEPTION})
    metadata.update_with_current_request_version(response, False, 0)
    with pytest.raises(InvalidTopicException) as e:
        metadata.maybe_throw_any_exception()
    assert e.value.invalid_topics == {invalid}
    metadata.maybe_throw_any_exception()  # raised once only
    metadata.update_with_current_request_version(response, False, 0)
    metadata.update_with_current_request_version(_empty_metadata_response(), False, 0)
    metadata.maybe_throw_any_exception()


def test_topic_authorization_error() -> None:
    """An unauthorized topic is raised once as TopicAuthorizationException naming it."""
    metadata = _metadata()
    response = metadata_update_with(1, {}, "clusterId", topic_errors={"foo": Errors.TOPIC_AUTHORIZATION_FAILED})
    metadata.update_with_current_request_version(response, False, 0)
    with pytest.raises(TopicAuthorizationException, match=r"Not authorized to access topics: \[foo\]") as e:
        metadata.maybe_throw_any_exception()
    assert e.value.unauthorized_topics == {"foo"}
    metadata.maybe_throw_any_exception()
    metadata.update_with_current_request_version(response, False, 0)
    metadata.update_with_current_request_version(_empty_metadata_response(), False, 0)
    metadata.maybe_throw_any_exception()


def test_metadata_topic_errors() -> None:
    """maybe_throw_exception_for_topic raises only that topic's error, and clears them all."""
    metadata = _metadata()
    errors = {
        "invalidTopic": Errors.INVALID_TOPIC_EXCEPTION,
        "sensitiveTopic1": Errors.TOPIC_AUTHORIZATION_FAILED,
        "sensitiveTopic2": Errors.TOPIC_AUTHORIZATION_FAILED,
    }
    response = metadata_update_with(1, {}, "clusterId", topic_errors=errors)
    cases: list[tuple[str, type[Exception], str]] = [
        ("sensitiveTopic1", TopicAuthorizationException, "unauthorized_topics"),
        ("sensitiveTopic2", TopicAuthorizationException, "unauthorized_topics"),
        ("invalidTopic", InvalidTopicException, "invalid_topics"),
    ]
    for topic, exc, attr in cases:
        metadata.update_with_current_request_version(response, False, 0)
        with pytest.raises(exc) as e:
            metadata.maybe_throw_exception_for_topic(topic)
        assert getattr(e.value, attr) == {topic}
        metadata.maybe_throw_any_exception()
    metadata.update_with_current_request_version(response, False, 0)
    metadata.maybe_throw_exception_for_topic("anotherTopic")
    metadata.maybe_throw_any_exception()


def test_fatal_error_is_raised_once() -> None:
    """A fatal error set by the network layer is raised ahead of topic errors, once."""
    metadata = _metadata()
    metadata.fatal_error(TopicAuthorizationException("fatal"))
    with pytest.raises(TopicAuthorizationException, match="fatal"):
        metadata.maybe_throw_any_exception()
    metadata.maybe_throw_any_exception()
    metadata.fatal_error(InvalidTopicException("again"))
    with pytest.raises(InvalidTopicException, match="again"):
        metadata.maybe_throw_fatal_exception()
    metadata.maybe_throw_fatal_exception()


def test_node_if_offline() -> None:
    """node_if_online excludes replicas listed offline."""
    metadata = _metadata()

    def offline_node1(
        error: Errors, tp: TopicPartition, leader: int | None, epoch: int | None, *rest: object
    ) -> PartitionMetadata:
        return PartitionMetadata(error, tp, 0, epoch, (0,), (), (1,))

    response = metadata_update_with(
        2, {"topic-1": 1}, "dummy", epoch_supplier=lambda _: 99, partition_supplier=offline_node1
    )
    metadata.update_with_current_request_version(_empty_metadata_response(), False, 0)
    metadata.update_with_current_request_version(response, False, 10)
    tp = TopicPartition("topic-1", 0)
    node = metadata.fetch().node_if_online(tp, 0)
    assert node is not None and node.id == 0
    assert metadata.fetch().node_if_online(tp, 1) is None
    assert metadata.fetch().node_by_id(0) == Node(0, "localhost", 1969)
    assert metadata.fetch().node_by_id(1) == Node(1, "localhost", 1970)
    assert metadata.fetch().node_if_online(TopicPartition("topic-1", 1), 0) is None  # no such partition


def test_leader_metadata_inconsistent_with_broker_metadata() -> None:
    """A stale response whose leader is offline does not bring the stale leader back."""
    metadata = _metadata()
    tp = TopicPartition("topic", 0)
    nodes = [Node(0, "localhost", 9092), Node(1, "localhost", 9093), Node(2, "localhost", 9094)]

    def response(epoch: int, leader: int, isr: list[int], offline: list[int], brokers: list[Node]) -> MetadataResponse:
        data = MetadataResponseData()
        data.topics.append(
            MetadataResponseData.MetadataResponseTopic(
                name="topic",
                error_code=0,
                is_internal=False,
                partitions=[
                    MetadataResponseData.MetadataResponsePartition(
                        partition_index=0,
                        leader_epoch=epoch,
                        leader_id=leader,
                        replica_nodes=[0, 1, 2],
                        isr_nodes=isr,
                        offline_replicas=offline,
                    )
                ],
            )
        )
        for n in brokers:
            data.brokers.append(MetadataResponseData.MetadataResponseBroker(node_id=n.id, host=n.host, port=n.port))
        return MetadataResponse(data, ApiKeys.METADATA.latest_version())

    metadata.update_with_current_request_version(response(10, 0, [0, 1, 2], [], nodes), False, 10)
    metadata.update_with_current_request_version(response(8, 1, [1, 2], [0], nodes[1:]), False, 20)
    assert metadata.fetch().leader_for(tp) is None
    assert metadata.last_seen_leader_epoch(tp) == 10
    assert metadata.current_leader(tp).leader is None


def test_metadata_merge() -> None:
    """Partial updates keep the retained topics of the previous metadata (and their ids) and drop the others."""
    time = MockTime()
    retain: set[str] = set()
    metadata = _retaining(lambda: retain)
    topic_ids = {"oldValidTopic": Uuid.random_uuid(), "keepValidTopic": Uuid.random_uuid()}
    old_errors = {
        "oldInvalidTopic": Errors.INVALID_TOPIC_EXCEPTION,
        "keepInvalidTopic": Errors.INVALID_TOPIC_EXCEPTION,
        "oldUnauthorizedTopic": Errors.TOPIC_AUTHORIZATION_FAILED,
        "keepUnauthorizedTopic": Errors.TOPIC_AUTHORIZATION_FAILED,
    }
    retain |= set(old_errors) | {"oldValidTopic", "keepValidTopic"}
    response = metadata_update_with_ids(
        2, {"oldValidTopic": 2, "keepValidTopic": 3}, topic_ids, lambda _: 100, "oldClusterId", old_errors
    )
    metadata.update_with_current_request_version(response, True, time.milliseconds())
    assert all(metadata.topic_ids().get(t) == topic_ids.get(t) for t in retain)
    cluster = metadata.fetch()
    assert cluster.cluster_resource.cluster_id == "oldClusterId" and len(cluster.nodes) == 2
    assert cluster.invalid_topics == {"oldInvalidTopic", "keepInvalidTopic"}
    assert cluster.unauthorized_topics == {"oldUnauthorizedTopic", "keepUnauthorizedTopic"}
    assert set(cluster.topics) == {"oldValidTopic", "keepValidTopic"}
    assert len(cluster.partitions_for_topic("oldValidTopic")) == 2
    assert len(cluster.partitions_for_topic("keepValidTopic")) == 3
    assert set(cluster.topic_ids) == set(topic_ids.values())

    new_errors = {
        "newInvalidTopic": Errors.INVALID_TOPIC_EXCEPTION,
        "newUnauthorizedTopic": Errors.TOPIC_AUTHORIZATION_FAILED,
    }
    retain.clear()
    retain |= {"keepInvalidTopic", "newInvalidTopic", "keepUnauthorizedTopic", "newUnauthorizedTopic"}
    retain |= {"keepValidTopic", "newValidTopic"}
    topic_ids["newValidTopic"] = Uuid.random_uuid()
    response = metadata_update_with_ids(
        3, {"keepValidTopic": 2, "newValidTopic": 4}, topic_ids, lambda _: 200, "newClusterId", new_errors
    )
    metadata.update_with_current_request_version(response, True, time.milliseconds())
    del topic_ids["oldValidTopic"]
    assert all(metadata.topic_ids().get(t) == topic_ids.get(t) for t in retain)
    assert "oldValidTopic" not in metadata.topic_ids()
    cluster = metadata.fetch()
    assert cluster.cluster_resource.cluster_id == "newClusterId" and len(cluster.nodes) == 3
    assert cluster.invalid_topics == {"keepInvalidTopic", "newInvalidTopic"}
    assert cluster.unauthorized_topics == {"keepUnauthorizedTopic", "newUnauthorizedTopic"}
    assert set(cluster.topics) == {"keepValidTopic", "newValidTopic"}
    assert len(cluster.partitions_for_topic("keepValidTopic")) == 2
    assert len(cluster.partitions_for_topic("newValidTopic")) == 4
    assert set(cluster.topic_ids) == set(topic_ids.values())

    retain.clear()
    response = metadata_update_with_ids(
        3, {"keepValidTopic": 2, "newValidTopic": 4}, topic_ids, lambda _: 300, "newClusterId", new_errors
    )
    metadata.update_with_current_request_version(response, True, time.milliseconds())
    assert not metadata.topic_ids()
    cluster = metadata.fetch()
    assert cluster.invalid_topics == set() and cluster.unauthorized_topics == set()
    assert set(cluster.topics) == set() and not cluster.topic_ids


def test_metadata_merge_on_id_downgrade() -> None:
    """A topic whose id disappears from a partial update keeps its partitions but loses its id."""
    retain = {"validTopic1", "validTopic2"}
    metadata = _retaining(lambda: retain)
    topic_ids = {"validTopic1": Uuid.random_uuid(), "validTopic2": Uuid.random_uuid()}
    counts = {"validTopic1": 2, "validTopic2": 3}
    metadata.update_with_current_request_version(
        metadata_update_with_ids(2, counts, topic_ids, lambda _: 100, "clusterId"), True, 0
    )
    assert dict(metadata.topic_ids()) == topic_ids
    del topic_ids["validTopic1"]
    metadata.update_with_current_request_version(
        metadata_update_with_ids(2, counts, topic_ids, lambda _: 200, "clusterId"), True, 0
    )
    assert dict(metadata.topic_ids()) == topic_ids
    cluster = metadata.fetch()
    assert set(cluster.topics) == {"validTopic1", "validTopic2"}
    assert len(cluster.partitions_for_topic("validTopic1")) == 2
    assert set(cluster.topic_ids) == set(topic_ids.values())
    assert cluster.topic_id("validTopic1") == ZERO_UUID


def test_update_partition_leadership() -> None:
    """Leaders reported by fetch/produce responses (KIP-951) update known partitions when newer and known."""
    metadata = _metadata()
    topic_id = Uuid.random_uuid()
    response = metadata_update_with_ids(2, {"t": 3}, {"t": topic_id}, lambda _: 5, "c")
    metadata.update_with_current_request_version(response, False, 0)
    tp0, tp1, tp2, unknown = (TopicPartition("t", i) for i in range(4))
    new_node = Node(7, "localhost", 9999)
    updated = metadata.update_partition_leadership(
        {
            tp0: _lie(7, 6),
            tp1: _lie(0, 5),  # not newer
            tp2: _lie(9, 8),  # node 9 unknown
            unknown: _lie(0, 8),  # partition unknown
        },
        [new_node],
    )
    assert updated == {tp0}
    assert metadata.current_leader(tp0).leader == new_node and metadata.current_leader(tp0).epoch == 6
    assert metadata.last_seen_leader_epoch(tp0) == 6
    assert metadata.fetch().leader_for(tp1) is not None and metadata.fetch().leader_for(tp1).id == 1  # type: ignore[union-attr]
    assert metadata.topic_ids()["t"] == topic_id
    assert metadata.update_partition_leadership({tp1: _lie(None, 9)}, []) == set()  # incomplete


def _lie(leader_id: int | None, epoch: int | None) -> LeaderIdAndEpoch:
    return LeaderIdAndEpoch(leader_id, epoch)


def test_equivalent_responses_back_off() -> None:
    """Responses that bring nothing new make the next update wait out a backoff growing with their number; asking
    for an update with reset_equivalent_response_backoff clears it."""
    metadata = _metadata()
    response = metadata_update_with(1, {"t": 1}, "c", epoch_supplier=lambda _: 1)
    now = 10_000
    later = now + 150  # past one retry.backoff.ms with jitter
    metadata.update_with_current_request_version(response, False, now)  # a new epoch: progress
    assert metadata.time_to_allow_update(later) == 0
    for _ in range(3):
        metadata.update_with_current_request_version(response, False, now)  # nothing new
    assert metadata.time_to_allow_update(later) > 0  # the third equivalent response: about 400 ms
    metadata.request_update(False)
    assert metadata.time_to_allow_update(later) > 0
    metadata.request_update(True)
    assert metadata.time_to_allow_update(later) == 0
