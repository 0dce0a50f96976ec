"""The client-side request builders the admin client needs: ports of the `Builder` classes nested in Java's
clients/src/main/java/org/apache/kafka/common/requests/{CreateTopics,DeleteTopics,AlterConfigs,
IncrementalAlterConfigs,ElectLeaders,ListGroups,ListOffsets,OffsetCommit,OffsetFetch}Request.java (Kafka 3.7).

Each builder makes the request at the version the NetworkClient negotiated, and raises
UnsupportedVersionException (or the NoBatched... subclasses) where the version cannot carry what is asked,
as Java's do, so that the admin client can downgrade or fail the call with Java's message.

# PORT: in Java these are nested in the request classes; here they live beside the admin client because the
request modules of kafka.common.requests belong to the broker side of this port. Builders that add nothing to
wrapping the data (DescribeGroups, DeleteGroups, OffsetDelete, ...) are DataBuilder instances.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from kafka.common.config.config_resource import ConfigResource
from kafka.common.election_type import ElectionType
from kafka.common.errors import UnsupportedVersionException
from kafka.common.isolation_level import IsolationLevel
from kafka.common.message import (
    AlterConfigsRequestData,
    DeleteTopicsRequestData,
    ElectLeadersRequestData,
    IncrementalAlterConfigsRequestData,
    ListOffsetsRequestData,
    OffsetFetchRequestData,
)
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.requests.abstract_request import Builder
from kafka.common.requests.alter_configs_request import AlterConfigsRequest
from kafka.common.requests.create_topics_request import NO_NUM_PARTITIONS, NO_REPLICATION_FACTOR, CreateTopicsRequest
from kafka.common.requests.delete_topics_request import DeleteTopicsRequest
from kafka.common.requests.elect_leaders_request import ElectLeadersRequest
from kafka.common.requests.incremental_alter_configs_request import IncrementalAlterConfigsRequest
from kafka.common.requests.list_groups_request import ListGroupsRequest
from kafka.common.requests.list_offsets_request import CONSUMER_REPLICA_ID, ListOffsetsRequest
from kafka.common.requests.offset_commit_request import OffsetCommitRequest
from kafka.common.requests.offset_fetch_request import NoBatchedOffsetFetchRequestException, OffsetFetchRequest
from kafka.common.topic_partition import TopicPartition

if TYPE_CHECKING:
    from kafka.clients.admin.alter_config_op import AlterConfigOp
    from kafka.clients.admin.config import Config

__all__ = [
    "AlterConfigsRequestBuilder",
    "CreateTopicsRequestBuilder",
    "DeleteTopicsRequestBuilder",
    "ElectLeadersRequestBuilder",
    "IncrementalAlterConfigsRequestBuilder",
    "ListGroupsRequestBuilder",
    "ListOffsetsRequestBuilder",
    "OffsetCommitRequestBuilder",
    "OffsetFetchRequestBuilder",
]

_log = logging.getLogger("org.apache.kafka.common.requests.OffsetFetchRequest")


class CreateTopicsRequestBuilder(Builder[CreateTopicsRequest]):
    def __init__(self, data: Any) -> None:
        super().__init__(ApiKeys.CREATE_TOPICS)
        self.data = data

    def _build(self, version: int) -> CreateTopicsRequest:
        if self.data.validate_only and version == 0:
            raise UnsupportedVersionException("validateOnly is not supported in version 0 of CreateTopicsRequest")
        topics_with_defaults = [
            t.name
            for t in self.data.topics
            if len(t.assignments) == 0
            and (t.num_partitions == NO_NUM_PARTITIONS or t.replication_factor == NO_REPLICATION_FACTOR)
        ]
        if topics_with_defaults and version < 4:
            raise UnsupportedVersionException(
                "Creating topics with default partitions/replication factor are only supported in CreateTopicRequest "
                "version 4+. The following topics need values for partitions and replicas: "
                f"[{', '.join(topics_with_defaults)}]"
            )
        return CreateTopicsRequest(self.data, version)

    def __str__(self) -> str:
        return repr(self.data)


class DeleteTopicsRequestBuilder(Builder[DeleteTopicsRequest]):
    def __init__(self, data: Any) -> None:
        super().__init__(ApiKeys.DELETE_TOPICS)
        self.data = data

    def _build(self, version: int) -> DeleteTopicsRequest:
        if version >= 6 and len(self.data.topic_names) > 0:
            self.data.topics = [DeleteTopicsRequestData.DeleteTopicState(name=t) for t in self.data.topic_names]
        return DeleteTopicsRequest(self.data, version)

    def __str__(self) -> str:
        return repr(self.data)


class AlterConfigsRequestBuilder(Builder[AlterConfigsRequest]):
    def __init__(self, configs: Mapping[ConfigResource, Config], validate_only: bool) -> None:
        super().__init__(ApiKeys.ALTER_CONFIGS)
        self.data = AlterConfigsRequestData(validate_only=validate_only)
        for resource, config in configs.items():
            entry = AlterConfigsRequestData.AlterConfigsResource(
                resource_name=resource.name, resource_type=resource.type.id
            )
            for x in config.entries:
                entry.configs.append(AlterConfigsRequestData.AlterableConfig(name=x.name, value=x.value))
            self.data.resources.append(entry)

    def _build(self, version: int) -> AlterConfigsRequest:
        return AlterConfigsRequest(self.data, version)

    def __str__(self) -> str:
        return repr(self.data)


class IncrementalAlterConfigsRequestBuilder(Builder[IncrementalAlterConfigsRequest]):
    def __init__(
        self,
        resources: Iterable[ConfigResource],
        configs: Mapping[ConfigResource, Iterable[AlterConfigOp]],
        validate_only: bool,
    ) -> None:
        super().__init__(ApiKeys.INCREMENTAL_ALTER_CONFIGS)
        self.data = IncrementalAlterConfigsRequestData(validate_only=validate_only)
        for resource in resources:
            alterable = IncrementalAlterConfigsRequestData.AlterConfigsResource(
                resource_type=resource.type.id, resource_name=resource.name
            )
            for op in configs[resource]:
                alterable.configs.append(
                    IncrementalAlterConfigsRequestData.AlterableConfig(
                        name=op.config_entry.name, value=op.config_entry.value, config_operation=op.op_type.id
                    )
                )
            self.data.resources.append(alterable)

    def _build(self, version: int) -> IncrementalAlterConfigsRequest:
        return IncrementalAlterConfigsRequest(self.data, version)

    def __str__(self) -> str:
        return repr(self.data)


class ElectLeadersRequestBuilder(Builder[ElectLeadersRequest]):
    def __init__(
        self, election_type: ElectionType, topic_partitions: Iterable[TopicPartition] | None, timeout_ms: int
    ) -> None:
        super().__init__(ApiKeys.ELECT_LEADERS)
        self.election_type = election_type
        self.topic_partitions = None if topic_partitions is None else list(topic_partitions)
        self.timeout_ms = timeout_ms

    def _build(self, version: int) -> ElectLeadersRequest:
        if self.election_type is not ElectionType.PREFERRED and version == 0:
            raise UnsupportedVersionException("API Version 0 only supports PREFERRED election type")
        data = ElectLeadersRequestData(timeout_ms=self.timeout_ms)
        if self.topic_partitions is not None:
            for tp in self.topic_partitions:
                tps = data.topic_partitions.find(tp.topic)
                if tps is None:
                    tps = ElectLeadersRequestData.TopicPartitions(topic=tp.topic)
                    data.topic_partitions.append(tps)
                tps.partitions.append(tp.partition)
        else:
            data.topic_partitions = None
        data.election_type = self.election_type.value
        return ElectLeadersRequest(data, version)

    def __str__(self) -> str:
        partitions = "null" if self.topic_partitions is None else f"({', '.join(map(str, self.topic_partitions))})"
        return (
            f"ElectLeadersRequest(electionType={self.election_type.name}, topicPartitions={partitions}, "
            f"timeoutMs={self.timeout_ms})"
        )


class ListGroupsRequestBuilder(Builder[ListGroupsRequest]):
    def __init__(self, data: Any) -> None:
        super().__init__(ApiKeys.LIST_GROUPS)
        self.data = data

    def _build(self, version: int) -> ListGroupsRequest:
        if len(self.data.states_filter) > 0 and version < 4:
            raise UnsupportedVersionException(
                f"The broker only supports ListGroups v{version}, but we need v4 or newer to request groups by states."
            )
        return ListGroupsRequest(self.data, version)

    def __str__(self) -> str:
        return repr(self.data)


class ListOffsetsRequestBuilder(Builder[ListOffsetsRequest]):
    """Java's ListOffsetsRequest.Builder; build it with `for_consumer`."""

    def __init__(
        self, oldest_allowed_version: int, latest_allowed_version: int, replica_id: int, isolation_level: IsolationLevel
    ) -> None:
        super().__init__(ApiKeys.LIST_OFFSETS, oldest_allowed_version, latest_allowed_version)
        self.data = ListOffsetsRequestData(isolation_level=int(isolation_level), replica_id=replica_id)

    @classmethod
    def for_consumer(
        cls, require_timestamp: bool, isolation_level: IsolationLevel, require_max_timestamp: bool
    ) -> ListOffsetsRequestBuilder:
        """The oldest version is the first that carries what is asked: max timestamp v7, read_committed v2,
        timestamps v1."""
        min_version = 0
        if require_max_timestamp:
            min_version = 7
        elif isolation_level is IsolationLevel.READ_COMMITTED:
            min_version = 2
        elif require_timestamp:
            min_version = 1
        return cls(min_version, ApiKeys.LIST_OFFSETS.latest_version(), CONSUMER_REPLICA_ID, isolation_level)

    def set_target_times(self, topics: Sequence[Any]) -> ListOffsetsRequestBuilder:
        self.data.topics = list(topics)
        return self

    def _build(self, version: int) -> ListOffsetsRequest:
        return ListOffsetsRequest(self.data, version)

    def __str__(self) -> str:
        return repr(self.data)


class OffsetCommitRequestBuilder(Builder[OffsetCommitRequest]):
    def __init__(self, data: Any) -> None:
        super().__init__(ApiKeys.OFFSET_COMMIT)
        self.data = data

    def _build(self, version: int) -> OffsetCommitRequest:
        if self.data.group_instance_id is not None and version < 7:
            raise UnsupportedVersionException(
                f"The broker offset commit protocol version {version} does not support usage of config "
                "group.instance.id."
            )
        return OffsetCommitRequest(self.data, version)

    def __str__(self) -> str:
        return repr(self.data)


class OffsetFetchRequestBuilder(Builder[OffsetFetchRequest]):
    """Java's OffsetFetchRequest.Builder for several groups: the v8+ layout, rewritten to the single-group layout
    of older versions (NoBatchedOffsetFetchRequestException when there are several groups)."""

    def __init__(
        self,
        group_id_to_topic_partitions: Mapping[str, Sequence[TopicPartition] | None],
        require_stable: bool,
        throw_on_fetch_stable_offsets_unsupported: bool,
    ) -> None:
        super().__init__(ApiKeys.OFFSET_FETCH)
        groups = []
        for group_name, tp_list in group_id_to_topic_partitions.items():
            topics: list[Any] | None
            if tp_list is not None:
                by_topic: dict[str, Any] = {}
                for tp in tp_list:
                    topic = by_topic.get(tp.topic)
                    if topic is None:
                        topic = by_topic[tp.topic] = OffsetFetchRequestData.OffsetFetchRequestTopics(name=tp.topic)
                    topic.partition_indexes.append(tp.partition)
                topics = list(by_topic.values())
            else:
                topics = None
            groups.append(OffsetFetchRequestData.OffsetFetchRequestGroup(group_id=group_name, topics=topics))
        self.data = OffsetFetchRequestData(groups=groups, require_stable=require_stable)
        self._throw_on_fetch_stable_offsets_unsupported = throw_on_fetch_stable_offsets_unsupported

    def _build(self, version: int) -> OffsetFetchRequest:
        data = self.data
        if len(data.groups) > 1 and version < 8:
            raise NoBatchedOffsetFetchRequestException(
                f"Broker does not support batching groups for fetch offset request on version {version}"
            )
        if data.require_stable and version < 7:
            if self._throw_on_fetch_stable_offsets_unsupported:
                raise UnsupportedVersionException(
                    f"Broker unexpectedly doesn't support requireStable flag on version {version}"
                )
            _log.debug(
                "Fallback the requireStable flag to false as broker only supports OffsetFetchRequest version %d. "
                "Need v7 or newer to enable this feature",
                version,
            )
            data.require_stable = False
        if version < 8:
            if len(data.groups) > 0:
                group = data.groups[0]
                old_topics = None
                if group.topics is not None:
                    old_topics = [
                        OffsetFetchRequestData.OffsetFetchRequestTopic(
                            name=t.name, partition_indexes=list(t.partition_indexes)
                        )
                        for t in group.topics
                    ]
                normalized = OffsetFetchRequestData(
                    group_id=group.group_id, topics=old_topics, require_stable=data.require_stable
                )
            else:
                normalized = data
            if normalized.topics is None and version < 2:
                raise UnsupportedVersionException(
                    f"The broker only supports OffsetFetchRequest v{version}, but we need v2 or newer to request all "
                    "topic partitions."
                )
            return OffsetFetchRequest(normalized, version)
        return OffsetFetchRequest(data, version)

    def __str__(self) -> str:
        return repr(self.data)
