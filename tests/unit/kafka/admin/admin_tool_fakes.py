"""A fake Admin for the tests of the admin command-line tools: it answers from tables a test fills in, with the
admin client's own result and future classes, records what it is asked to change, and fails where a test says."""

from __future__ import annotations

import io
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from kafka.clients.admin.alter_client_quotas_result import AlterClientQuotasResult
from kafka.clients.admin.alter_config_op import AlterConfigOp, OpType
from kafka.clients.admin.alter_configs_result import AlterConfigsResult
from kafka.clients.admin.alter_partition_reassignments_result import AlterPartitionReassignmentsResult
from kafka.clients.admin.config import Config
from kafka.clients.admin.config_entry import ConfigEntry, ConfigSource, ConfigSynonym
from kafka.clients.admin.create_partitions_result import CreatePartitionsResult
from kafka.clients.admin.create_topics_result import CreateTopicsResult, TopicMetadataAndConfig
from kafka.clients.admin.delete_records_result import DeleteRecordsResult
from kafka.clients.admin.delete_topics_result import DeleteTopicsResult
from kafka.clients.admin.deleted_records import DeletedRecords
from kafka.clients.admin.describe_client_quotas_result import DescribeClientQuotasResult
from kafka.clients.admin.describe_cluster_result import DescribeClusterResult
from kafka.clients.admin.describe_configs_result import DescribeConfigsResult
from kafka.clients.admin.describe_log_dirs_result import DescribeLogDirsResult
from kafka.clients.admin.describe_replica_log_dirs_result import DescribeReplicaLogDirsResult, ReplicaLogDirInfo
from kafka.clients.admin.describe_topics_result import DescribeTopicsResult
from kafka.clients.admin.elect_leaders_result import ElectLeadersResult
from kafka.clients.admin.list_partition_reassignments_result import ListPartitionReassignmentsResult
from kafka.clients.admin.list_topics_result import ListTopicsResult
from kafka.clients.admin.log_dir_description import LogDirDescription
from kafka.clients.admin.new_partition_reassignment import NewPartitionReassignment
from kafka.clients.admin.partition_reassignment import PartitionReassignment
from kafka.clients.admin.topic_description import TopicDescription
from kafka.clients.admin.topic_listing import TopicListing
from kafka.common.config.config_resource import ConfigResource
from kafka.common.errors import (
    ElectionNotNeededException,
    NoReassignmentInProgressException,
    TimeoutException,
    TopicExistsException,
    UnknownTopicOrPartitionException,
)
from kafka.common.internals.topic import Topic
from kafka.common.kafka_future import KafkaFuture, KafkaFutureImpl
from kafka.common.node import Node
from kafka.common.protocol.types import Uuid
from kafka.common.quota import ClientQuotaAlteration, ClientQuotaEntity, ClientQuotaFilter
from kafka.common.topic_partition import TopicPartition
from kafka.common.topic_partition_info import TopicPartitionInfo

BOOTSTRAP = ["--bootstrap-server", "localhost:9092"]
NODES = [Node(0, "localhost", 9092), Node(1, "localhost", 9093), Node(2, "localhost", 9094)]


def done(value: Any) -> KafkaFuture[Any]:
    return KafkaFuture.completed_future(value)


def failed(exception: BaseException) -> KafkaFuture[Any]:
    future: KafkaFutureImpl[Any] = KafkaFutureImpl()
    future.complete_exceptionally(exception)
    return future


@dataclass
class FakePartition:
    leader: int | None
    replicas: list[int]
    isr: list[int]


@dataclass
class FakeTopic:
    partitions: list[FakePartition]
    configs: dict[str, str] = field(default_factory=dict)  # overrides, DYNAMIC_TOPIC_CONFIG
    topic_id: Uuid = field(default_factory=Uuid.random_uuid)


@dataclass
class FakeAdmin:
    """Topics, brokers and configs as the tests set them; `calls` records each change asked for."""

    topics: dict[str, FakeTopic] = field(default_factory=dict)
    nodes: list[Node] = field(default_factory=lambda: list(NODES))
    # broker configs by resource name ("" for the cluster default), each (name, value, source)
    broker_configs: dict[str, list[tuple[str, str | None, ConfigSource]]] = field(default_factory=dict)
    topic_defaults: dict[str, str] = field(
        default_factory=lambda: {"cleanup.policy": "delete", "min.insync.replicas": "1"}
    )
    low_watermarks: dict[TopicPartition, int | BaseException] = field(default_factory=dict)
    election_results: dict[TopicPartition, BaseException | None] | BaseException = field(default_factory=dict)
    reassignments: dict[TopicPartition, PartitionReassignment] = field(default_factory=dict)
    log_dirs: dict[int, dict[str, LogDirDescription]] = field(default_factory=dict)
    reassignments_error: BaseException | None = None
    reassignment_errors: dict[TopicPartition, BaseException] = field(default_factory=dict)
    create_error: BaseException | None = None
    quotas: dict[ClientQuotaEntity, dict[str, float]] = field(default_factory=dict)
    calls: list[tuple[str, Any]] = field(default_factory=list)
    props: dict[str, str] = field(default_factory=dict)
    closed: bool = False

    # -- the factory the tools take ------------------------------------------------------------------------------

    def factory(self, props: dict[str, str]) -> FakeAdmin:
        self.props = dict(props)
        return self

    def close(self, timeout_ms: int | None = None) -> None:
        self.closed = True

    # -- topics ----------------------------------------------------------------------------------------------------

    def add_topic(self, name: str, *partitions: tuple[int | None, list[int], list[int]], **configs: str) -> None:
        self.topics[name] = FakeTopic(
            [FakePartition(*p) for p in partitions], {k.replace("_", "."): v for k, v in configs.items()}
        )

    def list_topics(self, options: Any = None) -> ListTopicsResult:
        internal = options is not None and options.should_list_internal()
        listings = {
            name: TopicListing(name, t.topic_id, Topic.is_internal(name))
            for name, t in self.topics.items()
            if internal or not Topic.is_internal(name)
        }
        return ListTopicsResult(done(listings))

    def _description(self, name: str) -> TopicDescription:
        topic = self.topics[name]
        by_id = {n.id: n for n in self.nodes}

        def node(i: int) -> Node:
            return by_id.get(i, Node(i, "", -1))

        partitions = [
            TopicPartitionInfo(
                i,
                None if p.leader is None else node(p.leader),
                [node(r) for r in p.replicas],
                [node(r) for r in p.isr],
            )
            for i, p in enumerate(topic.partitions)
        ]
        return TopicDescription(name, Topic.is_internal(name), partitions, None, topic.topic_id)

    def describe_topics(self, topics: Collection[str], options: Any = None) -> DescribeTopicsResult:
        self.calls.append(("describe_topics", list(topics)))
        futures = {
            t: done(self._description(t))
            if t in self.topics
            else failed(UnknownTopicOrPartitionException("This server does not host this topic-partition."))
            for t in topics
        }
        return DescribeTopicsResult.of_topic_names(futures)

    def create_topics(self, new_topics: Collection[Any], options: Any = None) -> CreateTopicsResult:
        futures: dict[str, KafkaFuture[TopicMetadataAndConfig]] = {}
        for new_topic in new_topics:
            self.calls.append(("create_topics", new_topic))
            if self.create_error is not None:
                futures[new_topic.name] = failed(self.create_error)
            elif new_topic.name in self.topics:
                futures[new_topic.name] = failed(TopicExistsException(f"Topic '{new_topic.name}' already exists."))
            else:
                assignments = new_topic.replicas_assignments
                if assignments is None:
                    count = 1 if new_topic.num_partitions == -1 else new_topic.num_partitions
                    rf = 1 if new_topic.replication_factor == -1 else new_topic.replication_factor
                    assignments = {p: [(p + r) % len(self.nodes) for r in range(rf)] for p in range(count)}
                self.topics[new_topic.name] = FakeTopic(
                    [FakePartition(r[0], list(r), list(r)) for _, r in sorted(assignments.items())],
                    dict(new_topic.configs() or {}),
                )
                futures[new_topic.name] = done(TopicMetadataAndConfig(self.topics[new_topic.name].topic_id))
        return CreateTopicsResult(futures)

    def create_partitions(self, new_partitions: Mapping[str, Any], options: Any = None) -> CreatePartitionsResult:
        self.calls.append(("create_partitions", dict(new_partitions)))
        return CreatePartitionsResult({t: done(None) for t in new_partitions})

    def delete_topics(self, topics: Collection[str], options: Any = None) -> DeleteTopicsResult:
        self.calls.append(("delete_topics", list(topics)))
        for t in topics:
            self.topics.pop(t, None)
        return DeleteTopicsResult.of_topic_names({t: done(None) for t in topics})

    def list_partition_reassignments(
        self, partitions: Collection[TopicPartition] | None = None, options: Any = None
    ) -> ListPartitionReassignmentsResult:
        self.calls.append(("list_partition_reassignments", None if partitions is None else list(partitions)))
        if isinstance(self.reassignments_error, BaseException):
            return ListPartitionReassignmentsResult(failed(self.reassignments_error))
        found = {tp: r for tp, r in self.reassignments.items() if partitions is None or tp in set(partitions)}
        return ListPartitionReassignmentsResult(done(found))

    def alter_partition_reassignments(
        self, reassignments: Mapping[TopicPartition, NewPartitionReassignment | None], options: Any = None
    ) -> AlterPartitionReassignmentsResult:
        """Starts (as in progress: the target plus the current replicas) or cancels reassignments of existing
        partitions; `reassignment_errors` fails the partitions a test names."""
        self.calls.append(("alter_partition_reassignments", dict(reassignments)))
        futures: dict[TopicPartition, KafkaFuture[None]] = {}
        for tp, target in reassignments.items():
            error = self.reassignment_errors.get(tp)
            topic = self.topics.get(tp.topic)
            if error is None and (topic is None or tp.partition >= len(topic.partitions)):
                error = UnknownTopicOrPartitionException("The partition does not exist.")
            if error is None and target is None and tp not in self.reassignments:
                error = NoReassignmentInProgressException("No reassignment in progress")
            if error is not None:
                futures[tp] = failed(error)
                continue
            assert topic is not None
            if target is None:
                del self.reassignments[tp]
            else:
                current = topic.partitions[tp.partition].replicas
                replicas = list(dict.fromkeys([*target.target_replicas, *current]))
                adding = tuple(r for r in replicas if r not in current)
                removing = tuple(r for r in replicas if r not in target.target_replicas)
                self.reassignments[tp] = PartitionReassignment(tuple(replicas), adding, removing)
            futures[tp] = done(None)
        return AlterPartitionReassignmentsResult(futures)

    def describe_log_dirs(self, brokers: Collection[int], options: Any = None) -> DescribeLogDirsResult:
        """The log dirs a test set per broker; a broker not in the cluster fails its future."""
        self.calls.append(("describe_log_dirs", list(brokers)))
        ids = {n.id for n in self.nodes}
        return DescribeLogDirsResult(
            {
                b: done(dict(self.log_dirs.get(b, {})))
                if b in ids
                else failed(TimeoutException("Timed out waiting for a node assignment. Call: describeLogDirs"))
                for b in brokers
            }
        )

    def describe_replica_log_dirs(self, replicas: Collection[Any], options: Any = None) -> Any:
        """No replica moves: every replica asked for is in its broker's only log directory."""
        self.calls.append(("describe_replica_log_dirs", list(replicas)))
        return DescribeReplicaLogDirsResult(
            {r: done(ReplicaLogDirInfo(current_replica_log_dir="/data")) for r in replicas}
        )

    # -- cluster and configs --------------------------------------------------------------------------------------

    def describe_cluster(self, options: Any = None) -> DescribeClusterResult:
        return DescribeClusterResult(done(list(self.nodes)), done(self.nodes[0]), done("cluster"), done(None))

    def _topic_config(self, name: str) -> Config:
        overrides = self.topics[name].configs
        entries = []
        for key, value in {**self.topic_defaults, **overrides}.items():
            synonyms = []
            if key in overrides:
                synonyms.append(ConfigSynonym(key, overrides[key], ConfigSource.DYNAMIC_TOPIC_CONFIG))
            if key in self.topic_defaults:
                synonyms.append(ConfigSynonym(f"log.{key}", self.topic_defaults[key], ConfigSource.DEFAULT_CONFIG))
            source = ConfigSource.DYNAMIC_TOPIC_CONFIG if key in overrides else ConfigSource.DEFAULT_CONFIG
            entries.append(ConfigEntry(key, value, source, synonyms=synonyms))
        return Config(entries)

    def describe_configs(self, resources: Collection[ConfigResource], options: Any = None) -> DescribeConfigsResult:
        self.calls.append(("describe_configs", (list(resources), options)))
        futures: dict[ConfigResource, KafkaFuture[Config]] = {}
        for resource in resources:
            if resource.type is ConfigResource.Type.TOPIC:
                if resource.name in self.topics:
                    futures[resource] = done(self._topic_config(resource.name))
                else:
                    futures[resource] = failed(UnknownTopicOrPartitionException(""))
            else:
                entries = [
                    ConfigEntry(n, v, s, is_sensitive=v is None, synonyms=[ConfigSynonym(n, v, s)])
                    for n, v, s in self.broker_configs.get(resource.name, [])
                ]
                futures[resource] = done(Config(entries))
        return DescribeConfigsResult(futures)

    def incremental_alter_configs(
        self, configs: Mapping[ConfigResource, Collection[AlterConfigOp]], options: Any = None
    ) -> AlterConfigsResult:
        self.calls.append(("incremental_alter_configs", {r: list(ops) for r, ops in configs.items()}))
        for resource, ops in configs.items():
            if resource.type is ConfigResource.Type.TOPIC:
                for op in ops:
                    if op.op_type is OpType.SET:
                        self.topics[resource.name].configs[op.config_entry.name] = op.config_entry.value or ""
                    elif op.op_type is OpType.DELETE:
                        self.topics[resource.name].configs.pop(op.config_entry.name, None)
        return AlterConfigsResult({r: done(None) for r in configs})

    def alter_configs(self, configs: Mapping[ConfigResource, Config], options: Any = None) -> AlterConfigsResult:
        self.calls.append(("alter_configs", dict(configs)))
        return AlterConfigsResult({r: done(None) for r in configs})

    def describe_client_quotas(
        self, quota_filter: ClientQuotaFilter, options: Any = None
    ) -> DescribeClientQuotasResult:
        """The stored quotas whose entity matches every component (and, strict, has no other entity type)."""
        self.calls.append(("describe_client_quotas", quota_filter))

        def matches(entity: ClientQuotaEntity) -> bool:
            entries = entity.entries()
            for component in quota_filter.components():
                if component.entity_type() not in entries:
                    return False
                if not component.matches_any() and entries[component.entity_type()] != component.match():
                    return False
            types = {c.entity_type() for c in quota_filter.components()}
            return not quota_filter.strict() or set(entries) == types

        found = {e: dict(v) for e, v in self.quotas.items() if matches(e)}
        return DescribeClientQuotasResult(done(found))

    def alter_client_quotas(
        self, entries: Collection[ClientQuotaAlteration], options: Any = None
    ) -> AlterClientQuotasResult:
        """Applies the ops to the stored quotas (a None value removes the key)."""
        self.calls.append(("alter_client_quotas", list(entries)))
        for entry in entries:
            values = self.quotas.setdefault(entry.entity(), {})
            for op in entry.ops():
                value = op.value()
                if value is None:
                    values.pop(op.key(), None)
                else:
                    values[op.key()] = value
            if not values:
                del self.quotas[entry.entity()]
        return AlterClientQuotasResult({entry.entity(): done(None) for entry in entries})

    # -- records and leaders ---------------------------------------------------------------------------------------

    def delete_records(
        self, records_to_delete: Mapping[TopicPartition, Any], options: Any = None
    ) -> DeleteRecordsResult:
        self.calls.append(("delete_records", dict(records_to_delete)))
        futures: dict[TopicPartition, KafkaFuture[DeletedRecords]] = {}
        for tp, records in records_to_delete.items():
            outcome = self.low_watermarks.get(tp, records.offset)
            futures[tp] = failed(outcome) if isinstance(outcome, BaseException) else done(DeletedRecords(outcome))
        return DeleteRecordsResult(futures)

    def elect_leaders(
        self, election_type: Any, partitions: Iterable[TopicPartition] | None, options: Any = None
    ) -> Any:
        self.calls.append(("elect_leaders", (election_type, None if partitions is None else set(partitions))))
        if isinstance(self.election_results, BaseException):
            return ElectLeadersResult(failed(self.election_results))
        results = dict(self.election_results)
        if partitions is not None:
            for tp in partitions:
                results.setdefault(tp, ElectionNotNeededException("Leader election not needed for topic partition."))
        return ElectLeadersResult(done(results))


def run_tool(run_command: Any, args: list[str], admin: FakeAdmin | None = None, **kwargs: Any) -> tuple[int, str, str]:
    """Runs a tool in-process with the fake admin; returns (status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    if admin is not None:
        kwargs["admin_factory"] = admin.factory
    status = run_command(args, out, err, **kwargs)
    return status, out.getvalue(), err.getvalue()
