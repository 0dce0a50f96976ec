"""Port of core/src/main/scala/kafka/zk/AdminZkClient.scala (Kafka 2.8).

Administrative operations written straight to ZooKeeper, which the controller and the brokers then act upon:
creating topics (validated, with a replica assignment), adding partitions, marking topics for deletion, and
changing topic configs (the config znode plus a change notification for every broker).

Config changes of client ids, users, <user, client id> pairs and IPs (changeConfigs) are validated against
QuotaConfigs as Kafka's DynamicConfig.Client/User/Ip do.

# PORT: broker config changes (changeBrokerConfig) live in ZkAdminManager with the dynamic broker config
# validation; changeConfigs here does not take the broker entity type.
# TopicAlreadyMarkedForDeletionException (kafka/common/TopicAlreadyMarkedForDeletionException.scala) is defined
# here until kafka.common has it.
"""

from __future__ import annotations

import socket
from collections.abc import Mapping, Sequence

from kafka.admin.admin_utils import AdminOperationException, BrokerMetadata, RackAwareMode, assign_replicas_to_brokers
from kafka.common.config.config_def import ConfigDef
from kafka.common.config.internals.quota_configs import QuotaConfigs
from kafka.common.errors import (
    BrokerNotAvailableException,
    InvalidPartitionsException,
    InvalidReplicaAssignmentException,
    InvalidTopicException,
    TopicExistsException,
    UnknownTopicOrPartitionException,
)
from kafka.common.internals.topic import Topic
from kafka.common.protocol.types import Uuid
from kafka.common.topic_partition import TopicPartition
from kafka.log.log_config import LogConfig
from kafka.utils.logging import Logging
from kafka.zk.kafka_zk_client import KafkaZkClient
from kafka.zk.zk_data import ConfigEntityName, ConfigType, ReplicaAssignment, TopicZNode
from kafka.zookeeper.zookeeper_types import NodeExistsException

__all__ = ["AdminZkClient", "TopicAlreadyMarkedForDeletionException", "is_valid_ip_entity"]


class TopicAlreadyMarkedForDeletionException(RuntimeError):
    """kafka.common.TopicAlreadyMarkedForDeletionException."""


class AdminZkClient(Logging):
    logger_name = "kafka.zk.AdminZkClient"

    def __init__(self, zk_client: KafkaZkClient) -> None:
        self.zk_client = zk_client

    def create_topic(
        self,
        topic: str,
        partitions: int,
        replication_factor: int,
        topic_config: Mapping[str, str] | None = None,
        rack_aware_mode: RackAwareMode | None = None,
        uses_topic_id: bool = False,
    ) -> None:
        """Creates a topic with replicas assigned over the registered brokers (racks enforced by default).

        Raises InvalidPartitionsException / InvalidReplicationFactorException for counts below one or a
        replication factor above the number of brokers, TopicExistsException, InvalidTopicException, and
        LogConfig's exceptions for invalid configs."""
        broker_metadatas = self.get_broker_metadatas(rack_aware_mode or RackAwareMode.Enforced())
        replica_assignment = assign_replicas_to_brokers(broker_metadatas, partitions, replication_factor)
        self.create_topic_with_assignment(topic, topic_config or {}, replica_assignment, uses_topic_id=uses_topic_id)

    def get_broker_metadatas(
        self, rack_aware_mode: RackAwareMode | None = None, broker_list: Sequence[int] | None = None
    ) -> list[BrokerMetadata]:
        """The registered brokers (or those of `broker_list`) by id, with racks as `rack_aware_mode` says."""
        rack_aware_mode = rack_aware_mode or RackAwareMode.Enforced()
        all_brokers = self.zk_client.get_all_brokers_in_cluster()
        brokers = all_brokers if broker_list is None else [b for b in all_brokers if b.id in broker_list]
        brokers_with_rack = [b for b in brokers if b.rack is not None]
        if isinstance(rack_aware_mode, RackAwareMode.Enforced) and 0 < len(brokers_with_rack) < len(brokers):
            raise AdminOperationException(
                "Not all brokers have rack information. Add --disable-rack-aware in command line to make replica "
                "assignment without rack information."
            )
        match rack_aware_mode:
            case RackAwareMode.Disabled():
                broker_metadatas = [BrokerMetadata(b.id, None) for b in brokers]
            case RackAwareMode.Safe() if len(brokers_with_rack) < len(brokers):
                broker_metadatas = [BrokerMetadata(b.id, None) for b in brokers]
            case _:
                broker_metadatas = [BrokerMetadata(b.id, b.rack) for b in brokers]
        return sorted(broker_metadatas, key=lambda b: b.id)

    def create_topic_with_assignment(
        self,
        topic: str,
        config: Mapping[str, str],
        partition_replica_assignment: Mapping[int, Sequence[int]],
        validate: bool = True,
        uses_topic_id: bool = False,
    ) -> None:
        """Writes the topic's config (not atomically with the rest) and its znode with the given assignment."""
        if validate:
            self.validate_topic_create(topic, partition_replica_assignment, config)

        self.info(
            f"Creating topic {topic} with configuration {_properties_str(config)} and initial partition "
            f"assignment {_assignment_str(partition_replica_assignment)}"
        )
        self.zk_client.set_or_create_entity_configs(ConfigType.TOPIC, topic, config)
        self._write_topic_partition_assignment(
            topic,
            {p: ReplicaAssignment(replicas) for p, replicas in partition_replica_assignment.items()},
            is_update=False,
            uses_topic_id=uses_topic_id,
        )

    def validate_topic_create(
        self, topic: str, partition_replica_assignment: Mapping[int, Sequence[int]], config: Mapping[str, str]
    ) -> None:
        """Checks the name (legal, not taken, no '.'/'_' collision), the assignment (same replica count everywhere,
        no duplicate replicas, partitions 0..n-1) and the configs."""
        Topic.validate(topic)

        if self.zk_client.topic_exists(topic):
            raise TopicExistsException(f"Topic '{topic}' already exists.")
        if Topic.has_collision_chars(topic):
            all_topics = self.zk_client.get_all_topics_in_cluster()
            # Check again: the topic may have been created meanwhile, and would collide with itself.
            if topic in all_topics:
                raise TopicExistsException(f"Topic '{topic}' already exists.")
            colliding_topics = [t for t in all_topics if Topic.has_collision(topic, t)]
            if colliding_topics:
                raise InvalidTopicException(
                    f"Topic '{topic}' collides with existing topics: {', '.join(colliding_topics)}"
                )

        if len({len(replicas) for replicas in partition_replica_assignment.values()}) != 1:
            raise InvalidReplicaAssignmentException("All partitions should have the same number of replicas")

        for replicas in partition_replica_assignment.values():
            if len(replicas) != len(set(replicas)):
                raise InvalidReplicaAssignmentException(
                    "Duplicate replica assignment found: " + _assignment_str(partition_replica_assignment)
                )

        partition_size = len(partition_replica_assignment)
        sequence_sum = partition_size * (partition_size - 1) // 2
        if sum(p for p in partition_replica_assignment if p >= 0) != sequence_sum:
            raise InvalidReplicaAssignmentException("partitions should be a consecutive 0-based integer sequence")

        LogConfig.validate(config)

    def _write_topic_partition_assignment(
        self,
        topic: str,
        replica_assignment: Mapping[int, ReplicaAssignment],
        is_update: bool,
        uses_topic_id: bool = False,
    ) -> None:
        try:
            assignment = {TopicPartition(topic, p): ra for p, ra in replica_assignment.items()}
            if not is_update:
                topic_id = Uuid.random_uuid() if uses_topic_id else None
                self.zk_client.create_topic_assignment(
                    topic, topic_id, {tp: ra.replicas for tp, ra in assignment.items()}
                )
            else:
                topic_ids = self.zk_client.get_topic_ids_for_topics([topic])
                self.zk_client.set_topic_assignment(topic, topic_ids.get(topic), assignment)
            self.debug(f"Updated path {TopicZNode.path(topic)} with {assignment} for replica assignment")
        except NodeExistsException:
            raise TopicExistsException(f"Topic '{topic}' already exists.") from None
        except Exception as e:
            raise AdminOperationException(f"{type(e).__name__}: {e}") from e

    def delete_topic(self, topic: str) -> None:
        """Marks the topic for deletion (/admin/delete_topics/T); the controller deletes it."""
        if not self.zk_client.topic_exists(topic):
            raise UnknownTopicOrPartitionException(f"Topic `{topic}` to delete does not exist")
        try:
            self.zk_client.create_delete_topic_path(topic)
        except NodeExistsException:
            raise TopicAlreadyMarkedForDeletionException(f"topic {topic} is already marked for deletion") from None
        except Exception as e:
            raise AdminOperationException(str(e)) from e

    def add_partitions(
        self,
        topic: str,
        existing_assignment: Mapping[int, ReplicaAssignment],
        all_brokers: Sequence[BrokerMetadata],
        num_partitions: int = 1,
        replica_assignment: Mapping[int, Sequence[int]] | None = None,
        validate_only: bool = False,
    ) -> dict[int, list[int]]:
        """Grows the topic to `num_partitions` (assigned by AdminUtils unless `replica_assignment` says);
        returns the whole assignment. With `validate_only` nothing is written."""
        proposed = self.create_new_partitions_assignment(
            topic, existing_assignment, all_brokers, num_partitions, replica_assignment
        )
        if validate_only:
            combined = {**existing_assignment, **proposed}
        else:
            combined = self.create_partitions_with_assignment(topic, existing_assignment, proposed)
        return {p: list(ra.replicas) for p, ra in combined.items()}

    def create_new_partitions_assignment(
        self,
        topic: str,
        existing_assignment: Mapping[int, ReplicaAssignment],
        all_brokers: Sequence[BrokerMetadata],
        num_partitions: int = 1,
        replica_assignment: Mapping[int, Sequence[int]] | None = None,
    ) -> dict[int, ReplicaAssignment]:
        """The assignment of the new partitions, given or computed so that it continues the existing one."""
        if 0 not in existing_assignment:
            raise AdminOperationException(
                f"Unexpected existing replica assignment for topic '{topic}', partition id 0 is missing. "
                f"Assignment: {existing_assignment}"
            )
        existing_assignment_partition0 = list(existing_assignment[0].replicas)

        partitions_to_add = num_partitions - len(existing_assignment)
        if partitions_to_add <= 0:
            raise InvalidPartitionsException(
                "The number of partitions for a topic can only be increased. "
                f"Topic {topic} currently has {len(existing_assignment)} partitions, "
                f"{num_partitions} would not be an increase."
            )

        if replica_assignment is not None:
            self._validate_replica_assignment(
                replica_assignment, len(existing_assignment_partition0), {b.id for b in all_brokers}
            )
            proposed = {p: list(replicas) for p, replicas in replica_assignment.items()}
        else:
            start_index = max(
                0,
                next((i for i, b in enumerate(all_brokers) if b.id >= existing_assignment_partition0[0]), -1),
            )
            proposed = assign_replicas_to_brokers(
                all_brokers,
                partitions_to_add,
                len(existing_assignment_partition0),
                start_index,
                len(existing_assignment),
            )
        return {p: ReplicaAssignment(replicas, (), ()) for p, replicas in proposed.items()}

    def create_partitions_with_assignment(
        self,
        topic: str,
        existing_assignment: Mapping[int, ReplicaAssignment],
        new_partition_assignment: Mapping[int, ReplicaAssignment],
    ) -> dict[int, ReplicaAssignment]:
        new_assignment = {p: ",".join(map(str, ra.replicas)) for p, ra in new_partition_assignment.items()}
        self.info(
            f"Creating {len(new_partition_assignment)} partitions for '{topic}' with the following replica "
            f"assignment: {new_assignment}."
        )
        combined_assignment = {**existing_assignment, **new_partition_assignment}
        self._write_topic_partition_assignment(topic, combined_assignment, is_update=True)
        return combined_assignment

    def _validate_replica_assignment(
        self,
        replica_assignment: Mapping[int, Sequence[int]],
        expected_replication_factor: int,
        available_broker_ids: set[int],
    ) -> None:
        for partition_id, replicas in replica_assignment.items():
            if not replicas:
                raise InvalidReplicaAssignmentException(
                    f"Cannot have replication factor of 0 for partition id {partition_id}."
                )
            if len(replicas) != len(set(replicas)):
                raise InvalidReplicaAssignmentException(
                    "Duplicate brokers not allowed in replica assignment: "
                    f"{', '.join(map(str, replicas))} for partition id {partition_id}."
                )
            if not set(replicas) <= available_broker_ids:
                raise BrokerNotAvailableException(
                    f"Some brokers specified for partition id {partition_id} are not available. "
                    f"Specified brokers: {', '.join(map(str, replicas))}, "
                    f"available brokers: {', '.join(map(str, available_broker_ids))}."
                )
        bad_rep_factors = sorted(
            (p, len(replicas))
            for p, replicas in replica_assignment.items()
            if len(replicas) != expected_replication_factor
        )
        if bad_rep_factors:
            partitions = ", ".join(str(p) for p, _ in bad_rep_factors)
            rep_factors = ", ".join(str(rf) for _, rf in bad_rep_factors)
            raise InvalidReplicaAssignmentException(
                "Inconsistent replication factor between partitions, "
                f"partition 0 has {expected_replication_factor} while partitions [{partitions}] have "
                f"replication factors [{rep_factors}], respectively."
            )

    @staticmethod
    def parse_broker(broker: str) -> int | None:
        """A broker entity name: None for the default entity, else the broker id."""
        if broker == ConfigEntityName.DEFAULT:
            return None
        try:
            return int(broker)
        except ValueError:
            raise ValueError(
                f"Error parsing broker {broker}. The broker's Entity Name must be a single integer value"
            ) from None

    def validate_topic_config(self, topic: str, configs: Mapping[str, str]) -> None:
        Topic.validate(topic)
        if not self.zk_client.topic_exists(topic):
            raise UnknownTopicOrPartitionException(f"Topic '{topic}' does not exist.")
        LogConfig.validate(configs)

    def change_topic_config(self, topic: str, configs: Mapping[str, str]) -> None:
        """Replaces the topic's config overrides with `configs` and notifies the brokers."""
        self.validate_topic_config(topic, configs)
        self._change_entity_config(ConfigType.TOPIC, topic, configs)

    def change_configs(self, entity_type: str, entity_name: str, configs: Mapping[str, str]) -> None:
        """Replaces the config overrides of a topic, client id, user (or `user/clients/client`) or IP with
        `configs`, validated for its entity type, and notifies the brokers. `entity_name` is sanitized."""
        if entity_type == ConfigType.TOPIC:
            self.change_topic_config(entity_name, configs)
        elif entity_type == ConfigType.CLIENT:
            self.change_client_id_config(entity_name, configs)
        elif entity_type == ConfigType.USER:
            self.change_user_or_user_client_id_config(entity_name, configs)
        elif entity_type == ConfigType.IP:
            self.change_ip_config(entity_name, configs)
        else:
            # PORT: broker configs change through ZkAdminManager, which holds the broker's dynamic config
            # validation; this method does not take them.
            raise ValueError(f"{entity_type} is not a known entityType. Should be one of {_scala_list(ConfigType.ALL)}")

    def change_client_id_config(self, sanitized_client_id: str, configs: Mapping[str, str]) -> None:
        _validate_dynamic_config(QuotaConfigs.user_and_client_quota_configs(), configs)
        self._change_entity_config(ConfigType.CLIENT, sanitized_client_id, configs)

    def change_user_or_user_client_id_config(self, sanitized_entity_name: str, configs: Mapping[str, str]) -> None:
        """A user's configs (quotas and SCRAM credentials) or, for the default user and `user/clients/client`
        paths, quotas only."""
        if sanitized_entity_name == ConfigEntityName.DEFAULT or "/clients" in sanitized_entity_name:
            _validate_dynamic_config(QuotaConfigs.user_and_client_quota_configs(), configs)
        else:
            _validate_dynamic_config(QuotaConfigs.scram_mechanisms_plus_user_and_client_quota_configs(), configs)
        self._change_entity_config(ConfigType.USER, sanitized_entity_name, configs)

    def change_ip_config(self, ip: str, configs: Mapping[str, str]) -> None:
        self.validate_ip_config(ip, configs)
        self._change_entity_config(ConfigType.IP, ip, configs)

    @staticmethod
    def validate_ip_config(ip: str, configs: Mapping[str, str]) -> None:
        if not is_valid_ip_entity(ip):
            raise AdminOperationException(f"{ip} is not a valid IP or resolvable host.")
        _validate_dynamic_config(QuotaConfigs.ip_configs(), configs)

    def _change_entity_config(
        self, root_entity_type: str, full_sanitized_entity_name: str, configs: Mapping[str, str]
    ) -> None:
        sanitized_entity_path = f"{root_entity_type}/{full_sanitized_entity_name}"
        self.zk_client.set_or_create_entity_configs(root_entity_type, full_sanitized_entity_name, configs)
        self.zk_client.create_config_change_notification(sanitized_entity_path)

    def fetch_entity_config(self, root_entity_type: str, sanitized_entity_name: str) -> dict[str, str]:
        return self.zk_client.get_entity_configs(root_entity_type, sanitized_entity_name)

    def get_all_topic_configs(self) -> dict[str, dict[str, str]]:
        return {
            topic: self.fetch_entity_config(ConfigType.TOPIC, topic)
            for topic in self.zk_client.get_all_topics_in_cluster()
        }

    def fetch_all_entity_configs(self, entity_type: str) -> dict[str, dict[str, str]]:
        return {
            entity: self.fetch_entity_config(entity_type, entity)
            for entity in self.zk_client.get_all_entities_with_config(entity_type)
        }

    def fetch_all_child_entity_configs(
        self, root_entity_type: str, child_entity_type: str
    ) -> dict[str, dict[str, str]]:
        """The configs of child entities, e.g. the clients of each user: `user/clients/client` -> configs."""

        def entity_paths(root_path: str | None) -> list[str]:
            root = root_entity_type if root_path is None else f"{root_entity_type}/{root_path}"
            entity_names = self.zk_client.get_all_entities_with_config(root)
            return entity_names if root_path is None else [f"{root_path}/{name}" for name in entity_names]

        return {
            entity_path: self.fetch_entity_config(root_entity_type, entity_path)
            for entity in entity_paths(None)
            for entity_path in entity_paths(f"{entity}/{child_entity_type}")
        }


def is_valid_ip_entity(ip: str) -> bool:
    """DynamicConfig.Ip.isValidIpEntity: the default entity, or an address or host name that resolves."""
    if ip != ConfigEntityName.DEFAULT:
        try:
            socket.getaddrinfo(ip, None)
        except (OSError, UnicodeError):
            return False
    return True


def _validate_dynamic_config(config_def: ConfigDef, configs: Mapping[str, str]) -> None:
    """DynamicConfig.validate without custom props: every key must be defined, every value parse."""
    names = config_def.names()
    unknown_keys = [key for key in configs if key not in names]
    if unknown_keys:
        raise ValueError(f"requirement failed: Unknown Dynamic Configuration: Set({', '.join(unknown_keys)}).")
    config_def.parse(configs)


def _scala_list(items: Sequence[str]) -> str:
    return "List(" + ", ".join(items) + ")"


def _properties_str(config: Mapping[str, str]) -> str:
    """As java.util.Properties prints."""
    return "{" + ", ".join(f"{k}={v}" for k, v in config.items()) + "}"


def _assignment_str(assignment: Mapping[int, Sequence[int]]) -> str:
    return "Map(" + ", ".join(f"{p} -> [{', '.join(map(str, r))}]" for p, r in assignment.items()) + ")"
