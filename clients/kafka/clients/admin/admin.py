"""Port of clients/src/main/java/org/apache/kafka/clients/admin/Admin.java (Kafka 3.7).

The administrative client API: topics, partitions, configs, consumer groups, offsets, records, leaders, log
directories, partition reassignments, client quotas, transactions and producers. Every call returns at once with
a result object of futures; KafkaAdminClient runs the calls on its own thread. `Admin.create(props)` makes one.

# PORT: Java's overloads without options become an optional `options` argument. The calls this port does not
implement yet (features, quorum, client metrics and telemetry, member removal,
replica log dir moves, fenceProducers) raise UnsupportedOperationException rather than pretend.
"""

from __future__ import annotations

import abc
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NoReturn

if TYPE_CHECKING:
    from kafka.clients.admin.abort_transaction_options import AbortTransactionOptions
    from kafka.clients.admin.abort_transaction_result import AbortTransactionResult
    from kafka.clients.admin.abort_transaction_spec import AbortTransactionSpec
    from kafka.clients.admin.alter_client_quotas_options import AlterClientQuotasOptions
    from kafka.clients.admin.alter_client_quotas_result import AlterClientQuotasResult
    from kafka.clients.admin.alter_config_op import AlterConfigOp
    from kafka.clients.admin.alter_configs_options import AlterConfigsOptions
    from kafka.clients.admin.alter_configs_result import AlterConfigsResult
    from kafka.clients.admin.alter_consumer_group_offsets_options import AlterConsumerGroupOffsetsOptions
    from kafka.clients.admin.alter_consumer_group_offsets_result import AlterConsumerGroupOffsetsResult
    from kafka.clients.admin.alter_partition_reassignments_options import AlterPartitionReassignmentsOptions
    from kafka.clients.admin.alter_partition_reassignments_result import AlterPartitionReassignmentsResult
    from kafka.clients.admin.alter_replica_log_dirs_options import AlterReplicaLogDirsOptions
    from kafka.clients.admin.alter_replica_log_dirs_result import AlterReplicaLogDirsResult
    from kafka.clients.admin.alter_user_scram_credentials_options import AlterUserScramCredentialsOptions
    from kafka.clients.admin.alter_user_scram_credentials_result import AlterUserScramCredentialsResult
    from kafka.clients.admin.config import Config
    from kafka.clients.admin.create_acls_options import CreateAclsOptions
    from kafka.clients.admin.create_acls_result import CreateAclsResult
    from kafka.clients.admin.create_delegation_token_options import CreateDelegationTokenOptions
    from kafka.clients.admin.create_delegation_token_result import CreateDelegationTokenResult
    from kafka.clients.admin.create_partitions_options import CreatePartitionsOptions
    from kafka.clients.admin.create_partitions_result import CreatePartitionsResult
    from kafka.clients.admin.create_topics_options import CreateTopicsOptions
    from kafka.clients.admin.create_topics_result import CreateTopicsResult
    from kafka.clients.admin.delete_acls_options import DeleteAclsOptions
    from kafka.clients.admin.delete_acls_result import DeleteAclsResult
    from kafka.clients.admin.delete_consumer_group_offsets_options import DeleteConsumerGroupOffsetsOptions
    from kafka.clients.admin.delete_consumer_group_offsets_result import DeleteConsumerGroupOffsetsResult
    from kafka.clients.admin.delete_consumer_groups_options import DeleteConsumerGroupsOptions
    from kafka.clients.admin.delete_consumer_groups_result import DeleteConsumerGroupsResult
    from kafka.clients.admin.delete_records_options import DeleteRecordsOptions
    from kafka.clients.admin.delete_records_result import DeleteRecordsResult
    from kafka.clients.admin.delete_topics_options import DeleteTopicsOptions
    from kafka.clients.admin.delete_topics_result import DeleteTopicsResult
    from kafka.clients.admin.describe_acls_options import DescribeAclsOptions
    from kafka.clients.admin.describe_acls_result import DescribeAclsResult
    from kafka.clients.admin.describe_client_quotas_options import DescribeClientQuotasOptions
    from kafka.clients.admin.describe_client_quotas_result import DescribeClientQuotasResult
    from kafka.clients.admin.describe_cluster_options import DescribeClusterOptions
    from kafka.clients.admin.describe_cluster_result import DescribeClusterResult
    from kafka.clients.admin.describe_configs_options import DescribeConfigsOptions
    from kafka.clients.admin.describe_configs_result import DescribeConfigsResult
    from kafka.clients.admin.describe_consumer_groups_options import DescribeConsumerGroupsOptions
    from kafka.clients.admin.describe_consumer_groups_result import DescribeConsumerGroupsResult
    from kafka.clients.admin.describe_delegation_token_options import DescribeDelegationTokenOptions
    from kafka.clients.admin.describe_delegation_token_result import DescribeDelegationTokenResult
    from kafka.clients.admin.describe_log_dirs_options import DescribeLogDirsOptions
    from kafka.clients.admin.describe_log_dirs_result import DescribeLogDirsResult
    from kafka.clients.admin.describe_producers_options import DescribeProducersOptions
    from kafka.clients.admin.describe_producers_result import DescribeProducersResult
    from kafka.clients.admin.describe_replica_log_dirs_options import DescribeReplicaLogDirsOptions
    from kafka.clients.admin.describe_replica_log_dirs_result import DescribeReplicaLogDirsResult
    from kafka.clients.admin.describe_topics_options import DescribeTopicsOptions
    from kafka.clients.admin.describe_topics_result import DescribeTopicsResult
    from kafka.clients.admin.describe_transactions_options import DescribeTransactionsOptions
    from kafka.clients.admin.describe_transactions_result import DescribeTransactionsResult
    from kafka.clients.admin.describe_user_scram_credentials_options import DescribeUserScramCredentialsOptions
    from kafka.clients.admin.describe_user_scram_credentials_result import DescribeUserScramCredentialsResult
    from kafka.clients.admin.elect_leaders_options import ElectLeadersOptions
    from kafka.clients.admin.elect_leaders_result import ElectLeadersResult
    from kafka.clients.admin.expire_delegation_token_options import ExpireDelegationTokenOptions
    from kafka.clients.admin.expire_delegation_token_result import ExpireDelegationTokenResult
    from kafka.clients.admin.list_consumer_group_offsets_options import ListConsumerGroupOffsetsOptions
    from kafka.clients.admin.list_consumer_group_offsets_result import ListConsumerGroupOffsetsResult
    from kafka.clients.admin.list_consumer_group_offsets_spec import ListConsumerGroupOffsetsSpec
    from kafka.clients.admin.list_consumer_groups_options import ListConsumerGroupsOptions
    from kafka.clients.admin.list_consumer_groups_result import ListConsumerGroupsResult
    from kafka.clients.admin.list_offsets_options import ListOffsetsOptions
    from kafka.clients.admin.list_offsets_result import ListOffsetsResult
    from kafka.clients.admin.list_partition_reassignments_options import ListPartitionReassignmentsOptions
    from kafka.clients.admin.list_partition_reassignments_result import ListPartitionReassignmentsResult
    from kafka.clients.admin.list_topics_options import ListTopicsOptions
    from kafka.clients.admin.list_topics_result import ListTopicsResult
    from kafka.clients.admin.list_transactions_options import ListTransactionsOptions
    from kafka.clients.admin.list_transactions_result import ListTransactionsResult
    from kafka.clients.admin.new_partition_reassignment import NewPartitionReassignment
    from kafka.clients.admin.new_partitions import NewPartitions
    from kafka.clients.admin.new_topic import NewTopic
    from kafka.clients.admin.offset_spec import OffsetSpec
    from kafka.clients.admin.records_to_delete import RecordsToDelete
    from kafka.clients.admin.renew_delegation_token_options import RenewDelegationTokenOptions
    from kafka.clients.admin.renew_delegation_token_result import RenewDelegationTokenResult
    from kafka.clients.admin.user_scram_credential_alteration import UserScramCredentialAlteration
    from kafka.clients.consumer.offset_and_metadata import OffsetAndMetadata
    from kafka.common.acl.acl_binding import AclBinding
    from kafka.common.acl.acl_binding_filter import AclBindingFilter
    from kafka.common.config.config_resource import ConfigResource
    from kafka.common.election_type import ElectionType
    from kafka.common.metric import Metric
    from kafka.common.metric_name import MetricName
    from kafka.common.quota.client_quota_alteration import ClientQuotaAlteration
    from kafka.common.quota.client_quota_filter import ClientQuotaFilter
    from kafka.common.topic_collection import TopicCollection
    from kafka.common.topic_partition import TopicPartition
    from kafka.common.topic_partition_replica import TopicPartitionReplica

__all__ = ["Admin", "UnsupportedOperationException"]


class UnsupportedOperationException(NotImplementedError):
    """Java's java.lang.UnsupportedOperationException: the call exists in Kafka's Admin API but this client does
    not implement it."""


def _unsupported(name: str) -> NoReturn:
    raise UnsupportedOperationException(f"Admin.{name} is not supported by this client yet")


class Admin(abc.ABC):
    """The admin client interface. Use it as a context manager, or close() it."""

    @staticmethod
    def create(props: Mapping[str, Any]) -> Admin:
        """A KafkaAdminClient configured by `props` (AdminClientConfig keys)."""
        from kafka.clients.admin.admin_client_config import AdminClientConfig
        from kafka.clients.admin.kafka_admin_client import KafkaAdminClient

        return KafkaAdminClient.create_internal(AdminClientConfig(props, True), None)

    @abc.abstractmethod
    def close(self, timeout_ms: int | None = None) -> None:
        """Stops taking calls and waits up to `timeout_ms` (None: without limit) for those in progress; the rest
        then fail with a TimeoutException."""

    def __enter__(self) -> Admin:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- topics -----------------------------------------------------------------------------------------------

    @abc.abstractmethod
    def create_topics(
        self, new_topics: Collection[NewTopic], options: CreateTopicsOptions | None = None
    ) -> CreateTopicsResult: ...

    @abc.abstractmethod
    def delete_topics(
        self, topics: Collection[str] | TopicCollection, options: DeleteTopicsOptions | None = None
    ) -> DeleteTopicsResult: ...

    @abc.abstractmethod
    def list_topics(self, options: ListTopicsOptions | None = None) -> ListTopicsResult: ...

    @abc.abstractmethod
    def describe_topics(
        self, topics: Collection[str] | TopicCollection, options: DescribeTopicsOptions | None = None
    ) -> DescribeTopicsResult: ...

    @abc.abstractmethod
    def create_partitions(
        self, new_partitions: Mapping[str, NewPartitions], options: CreatePartitionsOptions | None = None
    ) -> CreatePartitionsResult: ...

    # -- cluster and configs ----------------------------------------------------------------------------------

    @abc.abstractmethod
    def describe_cluster(self, options: DescribeClusterOptions | None = None) -> DescribeClusterResult: ...

    @abc.abstractmethod
    def describe_configs(
        self, resources: Collection[ConfigResource], options: DescribeConfigsOptions | None = None
    ) -> DescribeConfigsResult: ...

    @abc.abstractmethod
    def alter_configs(
        self, configs: Mapping[ConfigResource, Config], options: AlterConfigsOptions | None = None
    ) -> AlterConfigsResult:
        """Deprecated in Java (replaces every config of the resource): use incremental_alter_configs."""

    @abc.abstractmethod
    def incremental_alter_configs(
        self, configs: Mapping[ConfigResource, Collection[AlterConfigOp]], options: AlterConfigsOptions | None = None
    ) -> AlterConfigsResult: ...

    @abc.abstractmethod
    def alter_replica_log_dirs(
        self,
        replica_assignment: Mapping[TopicPartitionReplica, str],
        options: AlterReplicaLogDirsOptions | None = None,
    ) -> AlterReplicaLogDirsResult:
        """Moves each replica to the given (absolute) log directory of its broker. A replica its broker does not
        host yet fails with ReplicaNotAvailableException, and the broker creates it in that directory later."""

    @abc.abstractmethod
    def describe_log_dirs(
        self, brokers: Collection[int], options: DescribeLogDirsOptions | None = None
    ) -> DescribeLogDirsResult: ...

    @abc.abstractmethod
    def describe_replica_log_dirs(
        self, replicas: Collection[TopicPartitionReplica], options: DescribeReplicaLogDirsOptions | None = None
    ) -> DescribeReplicaLogDirsResult: ...

    # -- records, offsets, leaders ------------------------------------------------------------------------------

    @abc.abstractmethod
    def delete_records(
        self, records_to_delete: Mapping[TopicPartition, RecordsToDelete], options: DeleteRecordsOptions | None = None
    ) -> DeleteRecordsResult: ...

    @abc.abstractmethod
    def list_offsets(
        self, topic_partition_offsets: Mapping[TopicPartition, OffsetSpec], options: ListOffsetsOptions | None = None
    ) -> ListOffsetsResult: ...

    @abc.abstractmethod
    def elect_leaders(
        self,
        election_type: ElectionType,
        partitions: Iterable[TopicPartition] | None,
        options: ElectLeadersOptions | None = None,
    ) -> ElectLeadersResult:
        """Elects leaders for `partitions`, or for every partition when None."""

    # -- partition reassignments --------------------------------------------------------------------------------

    @abc.abstractmethod
    def alter_partition_reassignments(
        self,
        reassignments: Mapping[TopicPartition, NewPartitionReassignment | None],
        options: AlterPartitionReassignmentsOptions | None = None,
    ) -> AlterPartitionReassignmentsResult:
        """Starts reassigning each partition to its new replicas, or (None) cancels its ongoing reassignment.
        # PORT: Java's Optional.empty() is None."""

    @abc.abstractmethod
    def list_partition_reassignments(
        self,
        partitions: Collection[TopicPartition] | None = None,
        options: ListPartitionReassignmentsOptions | None = None,
    ) -> ListPartitionReassignmentsResult:
        """The ongoing reassignments of `partitions`, or of every partition when None."""

    # -- consumer groups ----------------------------------------------------------------------------------------

    @abc.abstractmethod
    def describe_consumer_groups(
        self, group_ids: Collection[str], options: DescribeConsumerGroupsOptions | None = None
    ) -> DescribeConsumerGroupsResult: ...

    @abc.abstractmethod
    def list_consumer_groups(self, options: ListConsumerGroupsOptions | None = None) -> ListConsumerGroupsResult: ...

    @abc.abstractmethod
    def list_consumer_group_offsets(
        self,
        group: str | Mapping[str, ListConsumerGroupOffsetsSpec],
        options: ListConsumerGroupOffsetsOptions | None = None,
    ) -> ListConsumerGroupOffsetsResult:
        """The committed offsets of one group (by id; the partitions of `options.topic_partitions()`, or all) or of
        several (a map of group id to ListConsumerGroupOffsetsSpec)."""

    @abc.abstractmethod
    def delete_consumer_groups(
        self, group_ids: Collection[str], options: DeleteConsumerGroupsOptions | None = None
    ) -> DeleteConsumerGroupsResult: ...

    @abc.abstractmethod
    def delete_consumer_group_offsets(
        self,
        group_id: str,
        partitions: Collection[TopicPartition],
        options: DeleteConsumerGroupOffsetsOptions | None = None,
    ) -> DeleteConsumerGroupOffsetsResult: ...

    @abc.abstractmethod
    def alter_consumer_group_offsets(
        self,
        group_id: str,
        offsets: Mapping[TopicPartition, OffsetAndMetadata],
        options: AlterConsumerGroupOffsetsOptions | None = None,
    ) -> AlterConsumerGroupOffsetsResult: ...

    @abc.abstractmethod
    def describe_acls(
        self, acl_filter: AclBindingFilter, options: DescribeAclsOptions | None = None
    ) -> DescribeAclsResult: ...

    @abc.abstractmethod
    def create_acls(
        self, acls: Collection[AclBinding], options: CreateAclsOptions | None = None
    ) -> CreateAclsResult: ...

    @abc.abstractmethod
    def delete_acls(
        self, filters: Collection[AclBindingFilter], options: DeleteAclsOptions | None = None
    ) -> DeleteAclsResult: ...

    @abc.abstractmethod
    def create_delegation_token(
        self, options: CreateDelegationTokenOptions | None = None
    ) -> CreateDelegationTokenResult:
        """A new delegation token for the caller (or the options' owner); its HMAC is the token's password."""

    @abc.abstractmethod
    def renew_delegation_token(
        self, hmac: bytes, options: RenewDelegationTokenOptions | None = None
    ) -> RenewDelegationTokenResult:
        """Moves the expiry of the token with this HMAC (owner or renewer only)."""

    @abc.abstractmethod
    def expire_delegation_token(
        self, hmac: bytes, options: ExpireDelegationTokenOptions | None = None
    ) -> ExpireDelegationTokenResult:
        """Sets the expiry of the token with this HMAC (at once by default, which removes it)."""

    @abc.abstractmethod
    def describe_delegation_token(
        self, options: DescribeDelegationTokenOptions | None = None
    ) -> DescribeDelegationTokenResult:
        """The tokens the caller may see, of the options' owners (all when None)."""

    # -- not implemented by this port yet -----------------------------------------------------------------------

    def remove_members_from_consumer_group(self, *args: Any, **kwargs: Any) -> NoReturn:
        _unsupported("removeMembersFromConsumerGroup")

    @abc.abstractmethod
    def describe_client_quotas(
        self, quota_filter: ClientQuotaFilter, options: DescribeClientQuotasOptions | None = None
    ) -> DescribeClientQuotasResult:
        """The quotas of the entities matching the filter. New in 2.6; brokers before it answer with
        UnsupportedVersionException."""

    @abc.abstractmethod
    def alter_client_quotas(
        self, entries: Collection[ClientQuotaAlteration], options: AlterClientQuotasOptions | None = None
    ) -> AlterClientQuotasResult:
        """Sets or removes quota values of entities, with one future per entity."""

    @abc.abstractmethod
    def describe_user_scram_credentials(
        self, users: Sequence[str] | None = None, options: DescribeUserScramCredentialsOptions | None = None
    ) -> DescribeUserScramCredentialsResult:
        """The SCRAM mechanisms and iterations of `users` (every user with a credential when None or empty)."""

    @abc.abstractmethod
    def alter_user_scram_credentials(
        self,
        alterations: Sequence[UserScramCredentialAlteration],
        options: AlterUserScramCredentialsOptions | None = None,
    ) -> AlterUserScramCredentialsResult:
        """Creates, replaces or deletes SCRAM credentials (the password is sent salted), one future per user."""

    def describe_features(self, *args: Any, **kwargs: Any) -> NoReturn:
        _unsupported("describeFeatures")

    def update_features(self, *args: Any, **kwargs: Any) -> NoReturn:
        _unsupported("updateFeatures")

    def describe_metadata_quorum(self, *args: Any, **kwargs: Any) -> NoReturn:
        _unsupported("describeMetadataQuorum")

    def unregister_broker(self, *args: Any, **kwargs: Any) -> NoReturn:
        _unsupported("unregisterBroker")

    # -- transactions and producers (3.x APIs; brokers before them answer UnsupportedVersionException) ---------

    @abc.abstractmethod
    def describe_producers(
        self, topic_partitions: Collection[TopicPartition], options: DescribeProducersOptions | None = None
    ) -> DescribeProducersResult:
        """The active producers of each partition, from its leader (or from `options.broker_id()`)."""

    @abc.abstractmethod
    def describe_transactions(
        self, transactional_ids: Collection[str], options: DescribeTransactionsOptions | None = None
    ) -> DescribeTransactionsResult:
        """The state of each transactional id, from its transaction coordinator."""

    @abc.abstractmethod
    def abort_transaction(
        self, spec: AbortTransactionSpec, options: AbortTransactionOptions | None = None
    ) -> AbortTransactionResult:
        """Writes an abort marker for the spec's producer on its partition (for a hanging transaction)."""

    @abc.abstractmethod
    def list_transactions(self, options: ListTransactionsOptions | None = None) -> ListTransactionsResult:
        """The transactions every broker coordinates, filtered by `options`."""

    # -- not implemented by this port yet (continued) -----------------------------------------------------------

    def fence_producers(self, *args: Any, **kwargs: Any) -> NoReturn:
        _unsupported("fenceProducers")

    def list_client_metrics_resources(self, *args: Any, **kwargs: Any) -> NoReturn:
        _unsupported("listClientMetricsResources")

    def client_instance_id(self, *args: Any, **kwargs: Any) -> NoReturn:
        _unsupported("clientInstanceId")

    @abc.abstractmethod
    def metrics(self) -> Mapping[MetricName, Metric]:
        """The client's metrics by name."""
