"""Port of core/src/main/scala/kafka/server/ZkAdminManager.scala (Kafka 2.8).

The admin requests a ZooKeeper-mode broker carries out itself, by writing to ZooKeeper:

- CreateTopics (`create_topics`): resolves partitions and replication factor (-1 = the broker's num.partitions and
  default.replication.factor) or takes the manual assignment, validates name, assignment and configs, writes
  `/config/topics/<topic>` and `/brokers/topics/<topic>`, then waits (DelayedCreatePartitions) until the metadata
  cache shows a leader for every new partition;
- DeleteTopics (`delete_topics`): marks `/admin/delete_topics/<topic>`, then waits (DelayedDeleteTopics) until the
  metadata cache no longer has the topic;
- CreatePartitions (`create_partitions`): grows a topic's assignment, then waits like CreateTopics;
- AlterConfigs / IncrementalAlterConfigs (`alter_configs`, `incremental_alter_configs`): replace or edit (SET,
  DELETE, APPEND, SUBTRACT) the overrides of a topic (`/config/topics/<topic>`) or the dynamic configs of this
  broker or of all brokers (`/config/brokers/<id>`, `/config/brokers/<default>`), each followed by a change
  notification that every broker's DynamicConfigManager acts on; IncrementalAlterConfigs also sets this broker's
  logger levels (BROKER_LOGGER);
- DescribeClientQuotas / AlterClientQuotas (`describe_client_quotas`, `alter_client_quotas`): read and write the
  quota configs of users, client ids, <user, client id> pairs and IPs (`/config/users/<user>`,
  `/config/clients/<client-id>`, `/config/users/<user>/clients/<client-id>`, `/config/ips/<ip>`, names
  sanitized, `<default>` for the default entity), each write followed by a change notification that the quota
  managers act on;
- DescribeUserScramCredentials / AlterUserScramCredentials (`describe_user_scram_credentials`,
  `alter_user_scram_credentials`): the SCRAM credentials in `/config/users/<user>`.

Waiting operations sit in the `topic` purgatory (thread `ExpirationReaper-<id>-topic`); KafkaApis calls
`try_complete_delayed_topic_operations(topic)` for each topic of an UpdateMetadata request.

Locking: the manager has no lock of its own. A delayed operation checks the metadata cache (a lock-free snapshot)
under its own lock; dynamic broker config validation takes DynamicBrokerConfig's lock alone.

Errors are answered per topic or resource, as Kafka does: ApiExceptions with their own error and message, a
ConfigException as INVALID_CONFIG (CreateTopics) or INVALID_REQUEST with "Invalid config value for resource ..."
(the alter requests), anything else as UNKNOWN_SERVER_ERROR.

# PORT: not ported yet: the create-topic and alter-config policies (create.topic.policy.class.name,
# alter.config.policy.class.name; a configured policy is reported and not applied).
# ControllerMutationQuota (ControllerMutationQuotaManager.scala) is a Protocol here; None means unlimited.
# IncrementalAlterConfigs takes the request's AlterableConfig entries (name, config_operation, value) where Kafka
# first turns them into the admin client's AlterConfigOp; `OpType` carries AlterConfigOp.OpType's ids.
# AdminZkClient.changeBrokerConfig is not ported yet; `_change_broker_config` does its work with KafkaZkClient.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from kafka.admin.admin_utils import AdminOperationException, BrokerMetadata, assign_replicas_to_brokers
from kafka.common.config.config_def import ConfigDef, ConfigKey, Type
from kafka.common.config.config_exception import ConfigException, java_str
from kafka.common.config.config_resource import ConfigResource
from kafka.common.config.internals.quota_configs import QuotaConfigs
from kafka.common.errors import (
    ApiException,
    InvalidConfigurationException,
    InvalidPartitionsException,
    InvalidReplicaAssignmentException,
    InvalidRequestException,
    ReassignmentInProgressException,
    ThrottlingQuotaExceededException,
    TopicExistsException,
    UnknownTopicOrPartitionException,
    UnsupportedVersionException,
)
from kafka.common.message import CreateTopicsResponseData
from kafka.common.protocol.errors import Errors
from kafka.common.protocol.types import ZERO_UUID
from kafka.common.quota.client_quota_alteration import ClientQuotaAlteration
from kafka.common.quota.client_quota_entity import ClientQuotaEntity
from kafka.common.quota.client_quota_filter import ClientQuotaFilter
from kafka.common.quota.client_quota_filter_component import ClientQuotaFilterComponent, _AnyMatch
from kafka.common.requests.api_error import ApiError, exception_message
from kafka.common.requests.create_topics_request import NO_NUM_PARTITIONS, NO_REPLICATION_FACTOR
from kafka.common.utils.sanitizer import desanitize, sanitize
from kafka.log.log_config import LogConfig
from kafka.server.config_handler import DynamicConfig, dynamic_config_of
from kafka.server.config_helper import ConfigHelper, Log4jController, ZkConfigRepository, resource_name_to_broker_id
from kafka.server.delayed_create_partitions import CreatePartitionsMetadata, DelayedCreatePartitions
from kafka.server.delayed_delete_topics import DelayedDeleteTopics, DeleteTopicMetadata
from kafka.server.delayed_operation import DelayedOperation, DelayedOperationPurgatory
from kafka.server.delayed_operation_key import TopicKey
from kafka.server.kafka_config import KafkaConfig
from kafka.utils.logging import Logging
from kafka.zk.admin_zk_client import AdminZkClient, TopicAlreadyMarkedForDeletionException, is_valid_ip_entity
from kafka.zk.zk_data import ConfigEntityName, ConfigType

if TYPE_CHECKING:
    from kafka.server.metadata_cache import MetadataCache
    from kafka.zk.kafka_zk_client import KafkaZkClient

__all__ = ["ControllerMutationQuota", "OpType", "ZkAdminManager"]


class ControllerMutationQuota(Protocol):
    """Kafka's ControllerMutationQuota: records the partitions a request creates or deletes, raising
    ThrottlingQuotaExceededException when the client's quota is exceeded."""

    def record(self, permits: float) -> None: ...


class OpType(enum.IntEnum):
    """AlterConfigOp.OpType: the operation of an IncrementalAlterConfigs entry, by wire id."""

    SET = 0
    DELETE = 1
    APPEND = 2
    SUBTRACT = 3


class ZkAdminManager(Logging):
    """See the module docstring. Threads: the `topic` purgatory's reaper and timer; everything else runs on the
    request handler threads that call in."""

    logger_name = "kafka.server.ZkAdminManager"

    def __init__(
        self, config: KafkaConfig, metrics: Any, metadata_cache: MetadataCache, zk_client: KafkaZkClient
    ) -> None:
        self.config = config
        self.metrics = metrics
        self.metadata_cache = metadata_cache
        self.zk_client = zk_client
        self.log_ident = f"[Admin Manager on Broker {config.broker_id}]: "
        self._topic_purgatory: DelayedOperationPurgatory[DelayedOperation] = DelayedOperationPurgatory(
            "topic", broker_id=config.broker_id
        )
        self._admin_zk_client = AdminZkClient(zk_client)
        self.config_helper = ConfigHelper(metadata_cache, config, ZkConfigRepository(self._admin_zk_client))
        for prop, value in (
            (KafkaConfig.CREATE_TOPIC_POLICY_CLASS_NAME_PROP, config.create_topic_policy_class_name),
            (KafkaConfig.ALTER_CONFIG_POLICY_CLASS_NAME_PROP, config.alter_config_policy_class_name),
        ):
            if value is not None:
                self.warn(f"{prop}={value} is configured, but policies are not supported by this broker; ignored")
        self._default_num_partitions = config.num_partitions
        self._default_replication_factor = config.default_replication_factor

    @property
    def has_delayed_topic_operations(self) -> bool:
        return self._topic_purgatory.num_delayed != 0

    def try_complete_delayed_topic_operations(self, topic: str) -> None:
        """Re-checks the create/delete operations waiting on `topic` (its metadata changed)."""
        key = TopicKey(topic)
        completed = self._topic_purgatory.check_and_complete(key)
        self.debug(f"Request key {key.key_label} unblocked {completed} topic requests.")

    # ---- CreateTopics -----------------------------------------------------------------------------

    def _maybe_populate_metadata_and_configs(
        self,
        metadata_and_configs: Mapping[str, Any],
        topic_name: str,
        configs: Mapping[str, str],
        assignments: Mapping[int, Sequence[int]],
    ) -> None:
        """Fills in the CreateTopics v5+ result (configs, partition count, replication factor) if the caller asked
        for it for this topic."""
        result = metadata_and_configs.get(topic_name)
        if result is None:
            return
        log_config = LogConfig.from_props(LogConfig.extract_log_config_map(self.config), configs)
        topic_configs = []
        for k, v in log_config.values().items():
            entry = self.config_helper.create_topic_config_entry(log_config, configs, False, False, k, v)
            topic_configs.append(
                CreateTopicsResponseData.CreatableTopicConfigs(
                    name=k,
                    value=entry.value,
                    is_sensitive=entry.is_sensitive,
                    read_only=entry.read_only,
                    config_source=entry.config_source,
                )
            )
        result.configs = topic_configs
        result.num_partitions = len(assignments)
        result.replication_factor = len(assignments[0])

    def _populate_ids(self, metadata_and_configs: Mapping[str, Any], topic_name: str) -> None:
        result = metadata_and_configs.get(topic_name)
        if result is not None:
            result.topic_id = self.zk_client.get_topic_ids_for_topics([result.name]).get(result.name, ZERO_UUID)

    def create_topics(
        self,
        timeout: int,
        validate_only: bool,
        to_create: Mapping[str, Any],
        include_configs_and_metadata: Mapping[str, Any],
        controller_mutation_quota: ControllerMutationQuota | None,
        response_callback: Callable[[dict[str, ApiError]], None],
    ) -> None:
        """Creates the topics (CreateTopicsRequestData.CreatableTopic by name) and calls `response_callback` with
        each topic's ApiError once they have leaders, failed, or `timeout` ms passed.

        `include_configs_and_metadata` maps names to the CreatableTopicResults to fill in with configs, partition
        count, replication factor and topic id (CreateTopics v5+, for topics the client may describe)."""
        # 1. Validate each topic and write it to ZooKeeper.
        brokers = [BrokerMetadata(b.id, b.rack) for b in self.metadata_cache.get_alive_brokers()]
        metadata = [
            self._create_topic(topic, brokers, validate_only, include_configs_and_metadata, controller_mutation_quota)
            for topic in to_create.values()
        ]

        # 2. Nothing to wait for: answer now.
        if timeout <= 0 or validate_only or not any(m.error.is_(Errors.NONE) for m in metadata):
            results: dict[str, ApiError] = {}
            for create_topic_metadata in metadata:
                if create_topic_metadata.error.is_success() and not validate_only:
                    results[create_topic_metadata.topic] = ApiError(Errors.REQUEST_TIMED_OUT, None)
                else:
                    results[create_topic_metadata.topic] = create_topic_metadata.error
            response_callback(results)
        else:
            # 3. Wait for the leaders, unless they are there already.
            delayed_create = DelayedCreatePartitions(timeout, metadata, self, response_callback)
            delayed_create_keys = [TopicKey(topic.name) for topic in to_create.values()]
            self._topic_purgatory.try_complete_else_watch(delayed_create, delayed_create_keys)

    def _create_topic(
        self,
        topic: Any,
        brokers: Sequence[BrokerMetadata],
        validate_only: bool,
        include_configs_and_metadata: Mapping[str, Any],
        controller_mutation_quota: ControllerMutationQuota | None,
    ) -> CreatePartitionsMetadata:
        try:
            if self.metadata_cache.contains(topic.name):
                raise TopicExistsException(f"Topic '{topic.name}' already exists.")

            null_configs = [c.name for c in topic.configs if c.value is None]
            if null_configs:
                raise InvalidRequestException(f"Null value not supported for topic configs : {','.join(null_configs)}")

            if (topic.num_partitions != NO_NUM_PARTITIONS or topic.replication_factor != NO_REPLICATION_FACTOR) and len(
                topic.assignments
            ) > 0:
                raise InvalidRequestException(
                    "Both numPartitions or replicationFactor and replicasAssignments were set. "
                    "Both cannot be used at the same time."
                )

            resolved_num_partitions = (
                self._default_num_partitions if topic.num_partitions == NO_NUM_PARTITIONS else topic.num_partitions
            )
            resolved_replication_factor = (
                self._default_replication_factor
                if topic.replication_factor == NO_REPLICATION_FACTOR
                else topic.replication_factor
            )

            assignments: dict[int, list[int]]
            if len(topic.assignments) == 0:
                assignments = assign_replicas_to_brokers(brokers, resolved_num_partitions, resolved_replication_factor)
            else:
                # As in Kafka (and TopicCommand), unknown brokers in a manual assignment are not rejected here.
                assignments = {a.partition_index: list(a.broker_ids) for a in topic.assignments}
            self.trace(f"Assignments for topic {topic} are {assignments} ")

            configs = {entry.name: entry.value for entry in topic.configs}
            self._admin_zk_client.validate_topic_create(topic.name, assignments, configs)

            # Filled in before the write: the values only matter if the creation succeeds.
            self._maybe_populate_metadata_and_configs(include_configs_and_metadata, topic.name, configs, assignments)

            if validate_only:
                return CreatePartitionsMetadata.of(topic.name, assignments.keys())
            if controller_mutation_quota is not None:
                controller_mutation_quota.record(len(assignments))
            self._admin_zk_client.create_topic_with_assignment(
                topic.name, configs, assignments, validate=False, uses_topic_id=self.config.uses_topic_id
            )
            self._populate_ids(include_configs_and_metadata, topic.name)
            return CreatePartitionsMetadata.of(topic.name, assignments.keys())
        except TopicExistsException as e:
            self.debug(f"Topic creation failed since topic '{topic.name}' already exists.", e)
            return CreatePartitionsMetadata.of_error(topic.name, e)
        except ThrottlingQuotaExceededException as e:
            self.debug(f"Topic creation not allowed because quota is violated. {e}")
            return CreatePartitionsMetadata.of_error(topic.name, e)
        except ApiException as e:
            self.info(f"Error processing create topic request {topic}", e)
            return CreatePartitionsMetadata.of_error(topic.name, e)
        except ConfigException as e:
            self.info(f"Error processing create topic request {topic}", e)
            return CreatePartitionsMetadata.of_error(topic.name, InvalidConfigurationException(exception_message(e)))
        except Exception as e:
            self.error(f"Error processing create topic request {topic}", e)
            return CreatePartitionsMetadata.of_error(topic.name, e)

    # ---- DeleteTopics -----------------------------------------------------------------------------

    def delete_topics(
        self,
        timeout: int,
        topics: Iterable[str],
        controller_mutation_quota: ControllerMutationQuota | None,
        response_callback: Callable[[dict[str, Errors]], None],
    ) -> None:
        """Marks the topics for deletion and calls `response_callback` with each topic's error once they are gone
        from the metadata cache, failed, or `timeout` ms passed."""
        # 1. Mark each topic for deletion.
        metadata: list[DeleteTopicMetadata] = []
        for topic in dict.fromkeys(topics):
            try:
                if controller_mutation_quota is not None:
                    controller_mutation_quota.record(float(self.metadata_cache.num_partitions(topic) or 0))
                self._admin_zk_client.delete_topic(topic)
                metadata.append(DeleteTopicMetadata(topic, Errors.NONE))
            except TopicAlreadyMarkedForDeletionException:
                # Already on its way out: wait for it like the first request did.
                metadata.append(DeleteTopicMetadata(topic, Errors.NONE))
            except ThrottlingQuotaExceededException as e:
                self.debug(f"Topic deletion not allowed because quota is violated. {e}")
                metadata.append(DeleteTopicMetadata.of_exception(topic, e))
            except Exception as e:
                self.error(f"Error processing delete topic request for topic {topic}", e)
                metadata.append(DeleteTopicMetadata.of_exception(topic, e))

        # 2. Nothing to wait for: answer now.
        if timeout <= 0 or not any(m.error is Errors.NONE for m in metadata):
            results: dict[str, Errors] = {}
            for m in metadata:
                # Marked topics cannot be gone already: they time out at once.
                results[m.topic] = Errors.REQUEST_TIMED_OUT if m.error is Errors.NONE else m.error
            response_callback(results)
        else:
            # 3. Wait until the topics are gone, unless they are already.
            delayed_delete = DelayedDeleteTopics(timeout, metadata, self, response_callback)
            delayed_delete_keys = [TopicKey(m.topic) for m in metadata]
            self._topic_purgatory.try_complete_else_watch(delayed_delete, delayed_delete_keys)

    # ---- CreatePartitions -------------------------------------------------------------------------

    def create_partitions(
        self,
        timeout: int,
        new_partitions: Sequence[Any],
        validate_only: bool,
        controller_mutation_quota: ControllerMutationQuota | None,
        callback: Callable[[dict[str, ApiError]], None],
    ) -> None:
        """Grows topics (CreatePartitionsRequestData.CreatePartitionsTopic) to their new partition count and calls
        `callback` with each topic's ApiError once the new partitions have leaders, failed, or `timeout` ms
        passed."""
        all_brokers = self._admin_zk_client.get_broker_metadatas()
        all_broker_ids = {b.id for b in all_brokers}

        # 1. Validate and write each topic's new assignment.
        metadata: list[CreatePartitionsMetadata] = []
        for new_partition in new_partitions:
            topic = new_partition.name
            try:
                existing_assignment = {}
                full_assignment = self.zk_client.get_full_replica_assignment_for_topics([topic])
                for topic_partition, assignment in full_assignment.items():
                    if assignment.is_being_reassigned:
                        # Adding partitions during a reassignment could race with the controller's handling of it.
                        raise ReassignmentInProgressException(
                            f"A partition reassignment is in progress for the topic '{topic}'."
                        )
                    existing_assignment[topic_partition.partition] = assignment
                if not existing_assignment:
                    raise UnknownTopicOrPartitionException(f"The topic '{topic}' does not exist.")

                old_num_partitions = len(existing_assignment)
                new_num_partitions = new_partition.count
                num_partitions_increment = new_num_partitions - old_num_partitions
                if num_partitions_increment < 0:
                    raise InvalidPartitionsException(
                        f"Topic currently has {old_num_partitions} partitions, which is higher than the requested "
                        f"{new_num_partitions}."
                    )
                if num_partitions_increment == 0:
                    raise InvalidPartitionsException(f"Topic already has {old_num_partitions} partitions.")

                new_partitions_assignment: dict[int, list[int]] | None = None
                if new_partition.assignments is not None:
                    assignments = [list(a.broker_ids) for a in new_partition.assignments]
                    unknown_brokers = {b for replicas in assignments for b in replicas} - all_broker_ids
                    if unknown_brokers:
                        raise InvalidReplicaAssignmentException(
                            f"Unknown broker(s) in replica assignment: {', '.join(map(str, sorted(unknown_brokers)))}."
                        )
                    if len(assignments) != num_partitions_increment:
                        raise InvalidReplicaAssignmentException(
                            f"Increasing the number of partitions by {num_partitions_increment} "
                            f"but {len(assignments)} assignments provided."
                        )
                    new_partitions_assignment = {
                        len(existing_assignment) + index: replicas for index, replicas in enumerate(assignments)
                    }

                assignment_for_new_partitions = self._admin_zk_client.create_new_partitions_assignment(
                    topic, existing_assignment, all_brokers, new_partition.count, new_partitions_assignment
                )
                if validate_only:
                    metadata.append(
                        CreatePartitionsMetadata.of(topic, {**existing_assignment, **assignment_for_new_partitions})
                    )
                else:
                    if controller_mutation_quota is not None:
                        controller_mutation_quota.record(num_partitions_increment)
                    updated_replica_assignment = self._admin_zk_client.create_partitions_with_assignment(
                        topic, existing_assignment, assignment_for_new_partitions
                    )
                    metadata.append(CreatePartitionsMetadata.of(topic, updated_replica_assignment))
            except AdminOperationException as e:
                metadata.append(CreatePartitionsMetadata.of_error(topic, e))
            except ThrottlingQuotaExceededException as e:
                self.debug(f"Partition(s) creation not allowed because quota is violated. {e}")
                metadata.append(CreatePartitionsMetadata.of_error(topic, e))
            except ApiException as e:
                metadata.append(CreatePartitionsMetadata.of_error(topic, e))

        # 2. Nothing to wait for: answer now.
        if timeout <= 0 or validate_only or not any(m.error.is_(Errors.NONE) for m in metadata):
            results: dict[str, ApiError] = {}
            for create_partition_metadata in metadata:
                if create_partition_metadata.error.is_success() and not validate_only:
                    results[create_partition_metadata.topic] = ApiError(Errors.REQUEST_TIMED_OUT, None)
                else:
                    results[create_partition_metadata.topic] = create_partition_metadata.error
            callback(results)
        else:
            # 3. Wait for the leaders of the new partitions.
            delayed_create = DelayedCreatePartitions(timeout, metadata, self, callback)
            delayed_create_keys = [TopicKey(p.name) for p in new_partitions]
            self._topic_purgatory.try_complete_else_watch(delayed_create, delayed_create_keys)

    # ---- AlterConfigs -----------------------------------------------------------------------------

    def alter_configs(
        self, configs: Mapping[ConfigResource, Mapping[str, str | None]], validate_only: bool
    ) -> dict[ConfigResource, ApiError]:
        """Replaces the whole config of each resource (AlterConfigs: entry name -> value); the error of each."""
        results: dict[ConfigResource, ApiError] = {}
        for resource, config in configs.items():
            try:
                null_updates = [name for name, value in config.items() if value is None]
                if null_updates:
                    raise InvalidRequestException(f"Null value not supported for : {','.join(null_updates)}")
                config_props = {name: value for name, value in config.items() if value is not None}
                if resource.type is ConfigResource.Type.TOPIC:
                    self._alter_topic_configs(resource, validate_only, config_props)
                elif resource.type is ConfigResource.Type.BROKER:
                    self._alter_broker_configs(resource, validate_only, config_props)
                else:
                    raise InvalidRequestException(
                        "AlterConfigs is only supported for topics and brokers, but resource type is "
                        f"{resource.type.name}"
                    )
                results[resource] = ApiError.NONE
            except (ConfigException, ValueError) as e:
                message = f"Invalid config value for resource {resource}: {exception_message(e)}"
                self.info(message)
                results[resource] = ApiError.from_throwable(InvalidRequestException(message))
            except Exception as e:
                loggable = {name: value for name, value in config.items() if value is not None}
                message = (
                    f"Error processing alter configs request for resource {resource}, config "
                    f"{self._to_loggable_props(resource, loggable)}"
                )
                if isinstance(e, ApiException):
                    self.info(message, e)
                else:
                    self.error(message, e)
                results[resource] = ApiError.from_throwable(e)
        return results

    def _alter_topic_configs(
        self, resource: ConfigResource, validate_only: bool, config_props: Mapping[str, str]
    ) -> None:
        topic = resource.name
        if not self.metadata_cache.contains(topic):
            raise UnknownTopicOrPartitionException(f"The topic '{topic}' does not exist.")
        self._admin_zk_client.validate_topic_config(topic, config_props)
        if not validate_only:
            self.info(
                f"Updating topic {topic} with new configuration : {self._to_loggable_props(resource, config_props)}"
            )
            self._admin_zk_client.change_topic_config(topic, config_props)

    def _alter_broker_configs(
        self, resource: ConfigResource, validate_only: bool, config_props: Mapping[str, str]
    ) -> None:
        broker_id = self._get_broker_id(resource)
        per_broker_config = broker_id is not None
        dynamic_config = dynamic_config_of(self.config)
        dynamic_config.validate(config_props, per_broker_config)
        if not validate_only:
            if per_broker_config:
                dynamic_config.reload_updated_files_without_config_change(config_props)
            loggable = self._to_loggable_props(resource, config_props)
            if per_broker_config:
                self.info(f"Updating broker {broker_id} with new configuration : {loggable}")
            else:
                self.info(f"Updating brokers with new configuration : {loggable}")
            self._change_broker_config(broker_id, dynamic_config.to_persistent_props(config_props, per_broker_config))

    def _change_broker_config(self, broker_id: int | None, configs: Mapping[str, str]) -> None:
        """AdminZkClient.changeBrokerConfig: validates, writes /config/brokers/<id or <default>> and notifies."""
        DynamicConfig.Broker.validate(configs)
        entity_name = ConfigEntityName.DEFAULT if broker_id is None else str(broker_id)
        self.zk_client.set_or_create_entity_configs(ConfigType.BROKER, entity_name, configs)
        self.zk_client.create_config_change_notification(f"{ConfigType.BROKER}/{entity_name}")

    @staticmethod
    def _to_loggable_props(resource: ConfigResource, config_props: Mapping[str, str]) -> str:
        return ",".join(
            f"{key} -> {KafkaConfig.loggable_value(resource.type, key, value)}" for key, value in config_props.items()
        )

    def _get_broker_id(self, resource: ConfigResource) -> int | None:
        """None for the cluster default (empty name); this broker's id; InvalidRequestException otherwise."""
        if not resource.name:
            return None
        broker_id = resource_name_to_broker_id(resource.name)
        if broker_id != self.config.broker_id:
            raise InvalidRequestException(
                f"Unexpected broker id, expected {self.config.broker_id}, but received {resource.name}"
            )
        return broker_id

    # ---- IncrementalAlterConfigs ------------------------------------------------------------------

    def incremental_alter_configs(
        self, configs: Mapping[ConfigResource, Sequence[Any]], validate_only: bool
    ) -> dict[ConfigResource, ApiError]:
        """Applies each resource's operations (IncrementalAlterConfigsRequestData.AlterableConfig: name,
        config_operation, value) to its current config; the error of each."""
        results: dict[ConfigResource, ApiError] = {}
        for resource, alter_config_ops in configs.items():
            try:
                ops = [_AlterConfigOp.of(entry) for entry in alter_config_ops]
                names = [op.name for op in ops]
                duplicate_keys = sorted({n for n in names if names.count(n) > 1})
                if duplicate_keys:
                    raise InvalidRequestException(f"Error due to duplicate config keys : {','.join(duplicate_keys)}")
                null_updates = [
                    f"{op.op_type.name}:{op.name}" for op in ops if op.value is None and op.op_type is not OpType.DELETE
                ]
                if null_updates:
                    raise InvalidRequestException(f"Null value not supported for : {','.join(null_updates)}")

                if resource.type is ConfigResource.Type.TOPIC:
                    config_props = self._admin_zk_client.fetch_entity_config(ConfigType.TOPIC, resource.name)
                    self._prepare_incremental_configs(ops, config_props, LogConfig.config_keys())
                    self._alter_topic_configs(resource, validate_only, config_props)
                elif resource.type is ConfigResource.Type.BROKER:
                    broker_id = self._get_broker_id(resource)
                    per_broker_config = broker_id is not None
                    entity_name = str(broker_id) if broker_id is not None else ConfigEntityName.DEFAULT
                    persistent_props = self._admin_zk_client.fetch_entity_config(ConfigType.BROKER, entity_name)
                    config_props = dynamic_config_of(self.config).from_persistent_props(
                        persistent_props, per_broker_config
                    )
                    self._prepare_incremental_configs(ops, config_props, KafkaConfig.config_def.config_keys)
                    self._alter_broker_configs(resource, validate_only, config_props)
                elif resource.type is ConfigResource.Type.BROKER_LOGGER:
                    self._get_broker_id(resource)
                    self._validate_log_level_configs(ops)
                    if not validate_only:
                        self._alter_log_level_configs(ops)
                else:
                    raise InvalidRequestException(
                        "AlterConfigs is only supported for topics and brokers, but resource type is "
                        f"{resource.type.name}"
                    )
                results[resource] = ApiError.NONE
            except (ConfigException, ValueError) as e:
                message = f"Invalid config value for resource {resource}: {exception_message(e)}"
                self.info(message)
                results[resource] = ApiError.from_throwable(InvalidRequestException(message))
            except Exception as e:
                message = f"Error processing alter configs request for resource {resource}, config {alter_config_ops}"
                if isinstance(e, ApiException):
                    self.info(message, e)
                else:
                    self.error(message, e)
                results[resource] = ApiError.from_throwable(e)
        return results

    def _validate_log_level_configs(self, ops: Sequence[_AlterConfigOp]) -> None:
        def validate_logger_name_exists(logger_name: str) -> None:
            if not Log4jController.logger_exists(logger_name):
                raise ConfigException(f"Logger {logger_name} does not exist!")

        for op in ops:
            logger_name = op.name
            if op.op_type is OpType.SET:
                validate_logger_name_exists(logger_name)
                log_level = op.value
                if log_level not in Log4jController.VALID_LOG_LEVELS:
                    valid_levels_str = ", ".join(sorted(Log4jController.VALID_LOG_LEVELS))
                    raise ConfigException(
                        f"Cannot set the log level of {logger_name} to {log_level} as it is not a supported log "
                        f"level. Valid log levels are {valid_levels_str}"
                    )
            elif op.op_type is OpType.DELETE:
                validate_logger_name_exists(logger_name)
                if logger_name == Log4jController.ROOT_LOGGER:
                    raise InvalidRequestException(
                        f"Removing the log level of the {Log4jController.ROOT_LOGGER} logger is not allowed"
                    )
            else:
                raise InvalidRequestException(
                    f"{op.op_type.name} operation is not allowed for the {ConfigResource.Type.BROKER_LOGGER.name} "
                    "resource"
                )

    def _alter_log_level_configs(self, ops: Sequence[_AlterConfigOp]) -> None:
        for op in ops:
            if op.op_type is OpType.SET:
                assert op.value is not None
                self.info(f"Updating the log level of {op.name} to {op.value}")
                Log4jController.log_level(op.name, op.value)
            elif op.op_type is OpType.DELETE:
                self.info(f"Unset the log level of {op.name}")
                Log4jController.unset_log_level(op.name)
            else:
                raise ValueError(f"Log level cannot be changed for OpType: {op.op_type.name}")

    @staticmethod
    def _prepare_incremental_configs(
        ops: Sequence[_AlterConfigOp], config_props: dict[str, str], config_keys: Mapping[str, ConfigKey]
    ) -> None:
        """Applies the operations to `config_props` (the current overrides), in place."""

        def list_type(config_name: str) -> bool:
            config_key = config_keys.get(config_name)
            if config_key is None:
                # PORT: Scala's Map.apply throws NoSuchElementException here (an unknown server error); the
                # intended answer, which Kafka 3.x gives, is used.
                raise InvalidConfigurationException(f"Unknown topic config name: {config_name}")
            return config_key.type is Type.LIST

        def old_value_list(config_name: str) -> list[str]:
            current = config_props.get(config_name)
            if current is None:
                current = ConfigDef.convert_to_string(config_keys[config_name].default_value, Type.LIST)
            return _java_split(current if current is not None else "")

        for op in ops:
            if op.op_type is OpType.SET:
                assert op.value is not None
                config_props[op.name] = op.value
            elif op.op_type is OpType.DELETE:
                config_props.pop(op.name, None)
            elif op.op_type is OpType.APPEND:
                if not list_type(op.name):
                    raise InvalidRequestException(f"Config value append is not allowed for config key: {op.name}")
                assert op.value is not None
                config_props[op.name] = ",".join(old_value_list(op.name) + _java_split(op.value))
            elif op.op_type is OpType.SUBTRACT:
                if not list_type(op.name):
                    raise InvalidRequestException(f"Config value subtract is not allowed for config key: {op.name}")
                assert op.value is not None
                config_props[op.name] = ",".join(_multiset_diff(old_value_list(op.name), _java_split(op.value)))

    # ---- client quotas ----------------------------------------------------------------------------

    def describe_client_quotas(self, quota_filter: ClientQuotaFilter) -> dict[ClientQuotaEntity, dict[str, float]]:
        """The quota configs in ZooKeeper of the entities the filter matches. InvalidRequestException for a
        duplicate or empty entity type or IP mixed with user/client id; UnsupportedVersionException for another
        entity type."""
        user_component: ClientQuotaFilterComponent | None = None
        client_id_component: ClientQuotaFilterComponent | None = None
        ip_component: ClientQuotaFilterComponent | None = None
        for component in quota_filter.components():
            entity_type = component.entity_type()
            if entity_type == ClientQuotaEntity.USER:
                if user_component is not None:
                    raise InvalidRequestException("Duplicate user filter component entity type")
                user_component = component
            elif entity_type == ClientQuotaEntity.CLIENT_ID:
                if client_id_component is not None:
                    raise InvalidRequestException("Duplicate client filter component entity type")
                client_id_component = component
            elif entity_type == ClientQuotaEntity.IP:
                if ip_component is not None:
                    raise InvalidRequestException("Duplicate ip filter component entity type")
                ip_component = component
            elif entity_type == "":
                raise InvalidRequestException("Unexpected empty filter component entity type")
            else:
                raise UnsupportedVersionException(f"Custom entity type '{entity_type}' not supported")
        if (user_component is not None or client_id_component is not None) and ip_component is not None:
            raise InvalidRequestException(
                "Invalid entity filter component combination, IP filter component should not be used with "
                "user or clientId filter component."
            )
        result: dict[ClientQuotaEntity, dict[str, float]] = {}
        if ip_component is None:
            result.update(
                self.handle_describe_client_quotas(user_component, client_id_component, quota_filter.strict())
            )
        if user_component is None and client_id_component is None:
            result.update(self.handle_describe_ip_quotas(ip_component, quota_filter.strict()))
        return result

    def handle_describe_client_quotas(
        self,
        user_component: ClientQuotaFilterComponent | None,
        client_id_component: ClientQuotaFilterComponent | None,
        strict: bool,
    ) -> dict[ClientQuotaEntity, dict[str, float]]:
        """The user, client id and <user, client id> quotas matching the components. A name is `_Name`: absent
        (None) or present with a name or None for the default entity."""
        user = _component_match(user_component)
        client_id = _component_match(client_id_component)
        sanitized_user = _sanitized(user)
        sanitized_client_id = _sanitized(client_id)
        exact_user = _want_exact(user_component)
        exact_client_id = _want_exact(client_id_component)
        exclude_user = strict and user_component is None
        exclude_client_id = strict and client_id_component is None
        fetch = self._admin_zk_client.fetch_entity_config

        entries: list[tuple[_Name, _Name, Mapping[str, str]]] = []
        if exact_user and exclude_client_id:
            entries.append((user, None, fetch(ConfigType.USER, sanitized_user)))
        elif not exclude_user and not exact_client_id:
            for name, props in self._admin_zk_client.fetch_all_entity_configs(ConfigType.USER).items():
                entries.append(((_desanitize_entity_name(name),), None, props))

        if exclude_user and exact_client_id:
            entries.append((None, client_id, fetch(ConfigType.CLIENT, sanitized_client_id)))
        elif not exact_user and not exclude_client_id:
            for name, props in self._admin_zk_client.fetch_all_entity_configs(ConfigType.CLIENT).items():
                entries.append((None, (_desanitize_entity_name(name),), props))

        if exact_user and exact_client_id:
            entries.append((user, client_id, fetch(ConfigType.USER, f"{sanitized_user}/clients/{sanitized_client_id}")))
        elif not exclude_user and not exclude_client_id:
            child_configs = self._admin_zk_client.fetch_all_child_entity_configs(ConfigType.USER, ConfigType.CLIENT)
            for name, props in child_configs.items():
                components = name.split("/")
                if len(components) != 3 or components[1] != "clients":
                    raise ValueError(f"Unexpected config path: {name}")
                entries.append(
                    (
                        (_desanitize_entity_name(components[0]),),
                        (_desanitize_entity_name(components[2]),),
                        props,
                    )
                )

        def matches(name_component: ClientQuotaFilterComponent | None, name: _Name) -> bool:
            if name_component is None:
                return name is None or not strict
            match = _component_match(name_component)
            if match is not None:
                return name == match
            return name is not None

        result: dict[ClientQuotaEntity, dict[str, float]] = {}
        for u, c, entity_props in entries:
            quota_props = {k: v for k, v in entity_props.items() if QuotaConfigs.is_client_or_user_config(k)}
            if quota_props and matches(user_component, u) and matches(client_id_component, c):
                result[_user_client_id_to_entity(u, c)] = _from_props(quota_props)
        return result

    def handle_describe_ip_quotas(
        self, ip_component: ClientQuotaFilterComponent | None, strict: bool
    ) -> dict[ClientQuotaEntity, dict[str, float]]:
        """The IP quotas matching the component."""
        ip = _component_match(ip_component)
        exact_ip = _want_exact(ip_component)
        all_ips = (ip_component is not None and ip_component.matches_any()) or (ip_component is None and not strict)
        ip_entries: list[tuple[str | None, Mapping[str, str]]] = []
        if exact_ip:
            assert ip is not None
            ip_entries.append((ip[0], self._admin_zk_client.fetch_entity_config(ConfigType.IP, _sanitized(ip))))
        elif all_ips:
            for name, props in self._admin_zk_client.fetch_all_entity_configs(ConfigType.IP).items():
                ip_entries.append((_desanitize_entity_name(name), props))
        ip_config_names = QuotaConfigs.ip_configs().names()
        result: dict[ClientQuotaEntity, dict[str, float]] = {}
        for ip_name, ip_props in ip_entries:
            ip_quota_props = {k: v for k, v in ip_props.items() if k in ip_config_names}
            if ip_quota_props:
                result[ClientQuotaEntity({ClientQuotaEntity.IP: ip_name})] = _from_props(ip_quota_props)
        return result

    def alter_client_quotas(
        self, entries: Sequence[ClientQuotaAlteration], validate_only: bool
    ) -> dict[ClientQuotaEntity, ApiError]:
        """Applies each entity's quota ops to its ZooKeeper config (unless validate_only); an ApiError per entity.

        # PORT: the stored quotas are not enforced yet: there is no ClientQuotaManager (produce/fetch/request
        # throttling) in this broker, so the quotas are only stored, described and announced to the brokers."""

        def alter_entity_quotas(entity: ClientQuotaEntity, ops: Iterable[ClientQuotaAlteration.Op]) -> None:
            user, client_id, ip = _parse_and_sanitize_quota_entity(entity)
            if user is not None and client_id is not None and ip is None:
                path, config_type = f"{user}/clients/{client_id}", ConfigType.USER
                config_keys = QuotaConfigs.scram_mechanisms_plus_user_and_client_quota_configs().config_keys
            elif user is not None and client_id is None and ip is None:
                path, config_type = user, ConfigType.USER
                config_keys = QuotaConfigs.scram_mechanisms_plus_user_and_client_quota_configs().config_keys
            elif user is None and client_id is not None and ip is None:
                path, config_type = client_id, ConfigType.CLIENT
                config_keys = QuotaConfigs.user_and_client_quota_configs().config_keys
            elif user is None and client_id is None and ip is not None:
                if not is_valid_ip_entity(ip):
                    raise InvalidRequestException(f"{ip} is not a valid IP or resolvable host.")
                path, config_type = ip, ConfigType.IP
                config_keys = QuotaConfigs.ip_configs().config_keys
            elif ip is not None:
                raise InvalidRequestException(
                    "Invalid quota entity combination, IP entity should not be used with user/client ID entity."
                )
            else:
                raise InvalidRequestException("Invalid client quota entity")

            props = self._admin_zk_client.fetch_entity_config(config_type, path)
            for op in ops:
                value = op.value()
                if value is None:
                    props.pop(op.key(), None)
                    continue
                key = config_keys.get(op.key())
                if key is None:
                    raise InvalidRequestException(f"Invalid configuration key {op.key()}")
                if key.type is Type.DOUBLE:
                    props[op.key()] = java_str(float(value))
                elif key.type in (Type.LONG, Type.INT):
                    epsilon = 1e-6
                    int_value = _to_java_integral(value + epsilon, key.type)
                    if not abs(float(int_value) - value) <= epsilon:
                        raise InvalidRequestException(f"Configuration {op.key()} must be a {key.type.value} value")
                    props[op.key()] = str(int_value)
                else:
                    raise RuntimeError(f"Unexpected config type {key.type.value}")
            if not validate_only:
                self._admin_zk_client.change_configs(config_type, path, props)

        results: dict[ClientQuotaEntity, ApiError] = {}
        for entry in entries:
            try:
                alter_entity_quotas(entry.entity(), entry.ops())
                api_error = ApiError.NONE
            except Exception as e:
                self.info("Error encountered while updating client quotas", e)
                api_error = ApiError.from_throwable(e)
            results[entry.entity()] = api_error
        return results

    # ---- life cycle -------------------------------------------------------------------------------

    # ---- SCRAM credentials (issue 15, S2) ------------------------------------------------------------

    def describe_user_scram_credentials(self, users: Sequence[str] | None) -> Any:
        """The SCRAM mechanisms and iterations of `users` (all users with a credential when None or empty), as
        DescribeUserScramCredentialsResponseData; never the credentials themselves."""
        from kafka.common.message import DescribeUserScramCredentialsResponseData as Data
        from kafka.common.security.scram.internals import scram_credential_utils as scu

        result_cls = Data.DescribeUserScramCredentialsResult
        info_cls = Data.CredentialInfo
        describing_all = not users
        retval = Data()
        user_results: dict[str, Any] = {}

        def add_if_has_scram_credential(user: str, config: Mapping[str, str], explicit_user: bool = False) -> None:
            result = result_cls(user=user)
            if any(name in config for name in _SCRAM_TYPES):
                try:
                    result.credential_infos = [
                        info_cls(mechanism=type_, iterations=scu.credential_from_string(config[name]).iterations)
                        for name, type_ in _SCRAM_TYPES.items()
                        if name in config
                    ]
                except Exception as e:
                    api_error = self._scram_api_error_from(e, _ERROR_PROCESSING_DESCRIBE)
                    result.error_code = api_error.error.code
                    result.error_message = api_error.error.message
                user_results[user] = result
            elif explicit_user:
                result.error_code = Errors.RESOURCE_NOT_FOUND.code
                result.error_message = f"Attempt to describe a user credential that does not exist: {user}"
                user_results[user] = result

        try:
            if describing_all:
                for user, props in self._admin_zk_client.fetch_all_entity_configs(ConfigType.USER).items():
                    add_if_has_scram_credential(desanitize(user), props)
                retval.results = [user_results[u] for u in sorted(user_results)]
            else:
                assert users is not None
                illegal = {u for u in users if not u}
                for user in illegal:
                    user_results[user] = result_cls(
                        user=user, error_code=Errors.RESOURCE_NOT_FOUND.code, error_message=_USERNAME_MUST_NOT_BE_EMPTY
                    )
                duplicated = {u for u in users if users.count(u) > 1} - illegal
                for user in duplicated:
                    user_results[user] = result_cls(
                        user=user,
                        error_code=Errors.DUPLICATE_RESOURCE.code,
                        error_message=f"Cannot describe SCRAM credentials for the same user twice in a single "
                        f"request: {user}",
                    )
                for user in users:
                    if user in illegal or user in duplicated:
                        continue
                    try:
                        config = self._admin_zk_client.fetch_entity_config(ConfigType.USER, sanitize(user))
                        add_if_has_scram_credential(user, config, True)
                    except Exception as e:
                        api_error = self._scram_api_error_from(e, _ERROR_PROCESSING_DESCRIBE)
                        user_results[user] = result_cls(
                            user=user, error_code=api_error.error.code, error_message=api_error.error.message
                        )
                retval.results = [user_results[u] for u in dict.fromkeys(users)]
        except Exception as e:
            api_error = self._scram_api_error_from(e, _ERROR_PROCESSING_DESCRIBE)
            retval.error_code = api_error.error.code
            retval.error_message = api_error.message_with_fallback()
        return retval

    def _scram_api_error_from(self, e: Exception, message: str) -> ApiError:
        if isinstance(e, ApiException):
            self.info(message, e)
        else:
            self.error(message, e)
        return ApiError.from_throwable(e)

    def alter_user_scram_credentials(self, upsertions: Sequence[Any], deletions: Sequence[Any]) -> Any:
        """Creates, replaces and deletes SCRAM credentials in `/config/users/<user>` (from the salted passwords the
        client sent), with Kafka 2.8's checks and one result per user, as AlterUserScramCredentialsResponseData."""
        from kafka.common.message import AlterUserScramCredentialsResponseData as Data
        from kafka.common.security.scram.internals import scram_credential_utils as scu
        from kafka.common.security.scram.internals.scram_formatter import ScramFormatter
        from kafka.common.security.scram.internals.scram_mechanism import ScramMechanism

        result_cls = Data.AlterUserScramCredentialsResult
        retval = Data()
        results: list[Any] = []
        names_by_type = {t: n for n, t in _SCRAM_TYPES.items()}
        unknown_msg = "Unknown SCRAM mechanism"
        illegal_by_user: dict[str, str] = {}
        for deletion in deletions:
            if not deletion.name:
                illegal_by_user[deletion.name] = _USERNAME_MUST_NOT_BE_EMPTY
            elif deletion.mechanism not in names_by_type:
                illegal_by_user[deletion.name] = unknown_msg
        for upsertion in upsertions:
            if not upsertion.name:
                illegal_by_user[upsertion.name] = _USERNAME_MUST_NOT_BE_EMPTY
            elif upsertion.mechanism not in names_by_type:
                illegal_by_user[upsertion.name] = unknown_msg
            else:
                mechanism = ScramMechanism.for_mechanism_name(names_by_type[upsertion.mechanism])
                assert mechanism is not None
                if upsertion.iterations > _MAX_SCRAM_ITERATIONS:
                    illegal_by_user[upsertion.name] = "Too many iterations"
                elif upsertion.iterations < mechanism.min_iterations:
                    illegal_by_user[upsertion.name] = "Too few iterations"
        for user, message in illegal_by_user.items():
            code = Errors.UNSUPPORTED_SASL_MECHANISM if message == unknown_msg else Errors.UNACCEPTABLE_CREDENTIAL
            results.append(result_cls(user=user, error_code=code.code, error_message=message))
        pairs = [(u.name, u.mechanism) for u in upsertions if u.name not in illegal_by_user] + [
            (d.name, d.mechanism) for d in deletions if d.name not in illegal_by_user
        ]
        duplicated_users = list(dict.fromkeys(user for user, mech in pairs if pairs.count((user, mech)) > 1))
        for user in duplicated_users:
            results.append(
                result_cls(
                    user=user,
                    error_code=Errors.DUPLICATE_RESOURCE.code,
                    error_message="A user credential cannot be altered twice in the same request",
                )
            )
        potentially_valid = list(dict.fromkeys(user for user, _ in pairs if user not in duplicated_users))
        configs = {
            u: self._admin_zk_client.fetch_entity_config(ConfigType.USER, sanitize(u)) for u in potentially_valid
        }
        invalid_deletion_users = list(
            dict.fromkeys(
                d.name for d in deletions if d.name in configs and names_by_type[d.mechanism] not in configs[d.name]
            )
        )
        for user in invalid_deletion_users:
            results.append(
                result_cls(
                    user=user,
                    error_code=Errors.RESOURCE_NOT_FOUND.code,
                    error_message="Attempt to delete a user credential that does not exist",
                )
            )
        for user in (u for u in potentially_valid if u not in invalid_deletion_users):
            try:
                config = dict(configs[user])
                for d in deletions:
                    if d.name == user:
                        config.pop(names_by_type[d.mechanism], None)
                for u in upsertions:
                    if u.name == user:
                        name = names_by_type[u.mechanism]
                        mechanism = ScramMechanism.for_mechanism_name(name)
                        assert mechanism is not None
                        credential = ScramFormatter(mechanism).generate_credential_from_salted_password(
                            bytes(u.salt), bytes(u.salted_password), u.iterations
                        )
                        config[name] = scu.credential_to_string(credential)
                self._admin_zk_client.change_configs(ConfigType.USER, sanitize(user), config)
                results.append(result_cls(user=user, error_code=Errors.NONE.code))
            except Exception as e:
                self.info("Error encountered while altering user SCRAM credentials", e)
                error = Errors.for_exception(e)
                results.append(result_cls(user=user, error_code=error.code, error_message=error.message))
        retval.results = results
        return retval

    def shutdown(self) -> None:
        self._topic_purgatory.shutdown()


# SCRAM mechanisms by name with the type byte the SCRAM credential APIs carry (the admin ScramMechanism's).
_SCRAM_TYPES = {"SCRAM-SHA-256": 1, "SCRAM-SHA-512": 2}
_MAX_SCRAM_ITERATIONS = 16384
_USERNAME_MUST_NOT_BE_EMPTY = "Username must not be empty"
_ERROR_PROCESSING_DESCRIBE = "Error processing describe user SCRAM credential configs request"


class _AlterConfigOp:
    """One IncrementalAlterConfigs entry: config name, operation and value."""

    __slots__ = ("name", "op_type", "value")

    def __init__(self, name: str, op_type: OpType, value: str | None) -> None:
        self.name = name
        self.op_type = op_type
        self.value = value

    @classmethod
    def of(cls, entry: Any) -> _AlterConfigOp:
        try:
            op_type = OpType(entry.config_operation)
        except ValueError:
            raise InvalidRequestException(f"Unknown config operation {entry.config_operation}") from None
        return cls(entry.name, op_type, entry.value)

    def __repr__(self) -> str:
        entry = f"ConfigEntry(name={self.name}, value={self.value})"
        return f"AlterConfigOp{{opType={self.op_type.name}, configEntry={entry}}}"


def _java_split(value: str) -> list[str]:
    """Java's String.split(","): the whole string if there is no comma, else without trailing empty strings."""
    parts = value.split(",")
    if len(parts) == 1:
        return parts
    while parts and parts[-1] == "":
        parts.pop()
    return parts


def _multiset_diff(values: Sequence[str], removed: Sequence[str]) -> list[str]:
    """Scala's List.diff: removes one occurrence of `values`' elements per occurrence in `removed`."""
    remaining = list(removed)
    result = []
    for v in values:
        if v in remaining:
            remaining.remove(v)
        else:
            result.append(v)
    return result


# ---- client quota helpers -----------------------------------------------------------------------------------------

# A filter's name for an entity type, as Scala's Option[String] holding a possibly-null name: None when the
# component gives no name (absent or "any"), else a 1-tuple of the name (None inside for the default entity).
_Name = tuple[str | None] | None

_JAVA_INT_RANGE = (-(2**31), 2**31 - 1)
_JAVA_LONG_RANGE = (-(2**63), 2**63 - 1)


def _sanitize_entity_name(entity_name: str | None) -> str:
    return ConfigEntityName.DEFAULT if entity_name is None else sanitize(entity_name)


def _desanitize_entity_name(sanitized_entity_name: str) -> str | None:
    return None if sanitized_entity_name == ConfigEntityName.DEFAULT else desanitize(sanitized_entity_name)


def _component_match(component: ClientQuotaFilterComponent | None) -> _Name:
    if component is None or component.matches_any():
        return None
    match = component.match()
    assert not isinstance(match, _AnyMatch)
    return (match,)


def _want_exact(component: ClientQuotaFilterComponent | None) -> bool:
    return component is not None and not component.matches_any()


def _sanitized(name: _Name) -> str:
    return "" if name is None else _sanitize_entity_name(name[0])


def _user_client_id_to_entity(user: _Name, client_id: _Name) -> ClientQuotaEntity:
    entries: dict[str, str | None] = {}
    if user is not None:
        entries[ClientQuotaEntity.USER] = user[0]
    if client_id is not None:
        entries[ClientQuotaEntity.CLIENT_ID] = client_id[0]
    return ClientQuotaEntity(entries)


def _from_props(props: Mapping[str, str]) -> dict[str, float]:
    result: dict[str, float] = {}
    for key, value in props.items():
        try:
            result[key] = float(value.strip())
        except ValueError:
            raise RuntimeError(f"Unexpected client quota configuration value: {key} -> {value}") from None
    return result


def _parse_and_sanitize_quota_entity(entity: ClientQuotaEntity) -> tuple[str | None, str | None, str | None]:
    """The sanitized user, client id and IP of an entity (None where the entity has no such type)."""
    entries = entity.entries()
    if not entries:
        raise InvalidRequestException("Invalid empty client quota entity")
    user = client_id = ip = None
    for entity_type, entity_name in entries.items():
        sanitized_entity_name = _sanitize_entity_name(entity_name)
        if entity_type == ClientQuotaEntity.USER:
            user = sanitized_entity_name
        elif entity_type == ClientQuotaEntity.CLIENT_ID:
            client_id = sanitized_entity_name
        elif entity_type == ClientQuotaEntity.IP:
            ip = sanitized_entity_name
        else:
            raise InvalidRequestException(f"Unhandled client quota entity type: {entity_type}")
        if entity_name is not None and entity_name == "":
            raise InvalidRequestException(f"Empty {entity_type} not supported")
    return user, client_id, ip


def _to_java_integral(value: float, type_: Type) -> int:
    """Scala's Double.toLong / toInt: truncation toward zero, saturating at the type's bounds, NaN as 0."""
    if math.isnan(value):
        return 0
    low, high = _JAVA_LONG_RANGE if type_ is Type.LONG else _JAVA_INT_RANGE
    if value >= high:
        return high
    if value <= low:
        return low
    return int(value)
