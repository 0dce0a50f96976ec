"""Port of core/src/main/scala/kafka/server/AutoTopicCreationManager.scala (Kafka 2.8).

Creates the topics a client asks for that do not exist: Metadata requests with `allow_auto_topic_creation` (when
`auto.create.topics.enable`), and FindCoordinator for `__consumer_offsets` and `__transaction_state`. Topics are
written to ZooKeeper through ZkAdminManager.create_topics without waiting (timeout 0), and the client is told
LEADER_NOT_AVAILABLE: the topic exists now, its leaders are on the way, ask again.

Ordinary topics get `num.partitions` and `default.replication.factor`; the internal topics their own partition
count, replication factor and configs (offsets.topic.*, transaction.state.log.*). The answer per topic:

  LEADER_NOT_AVAILABLE        created now, or created by someone else meanwhile (TOPIC_ALREADY_EXISTS)
  INVALID_TOPIC_EXCEPTION     an illegal name (nothing is written)
  UNKNOWN_TOPIC_OR_PARTITION  another request of this broker is creating it right now
  INVALID_REPLICATION_FACTOR  fewer live brokers than the replication factor (and any other creation error)

# PORT: this is Kafka's DefaultAutoTopicCreationManager on its ZooKeeper path only (2.8's `createTopicsInZk`):
# forwarding the creation to a controller over a BrokerToControllerChannelManager (KIP-590, `enableForwarding`)
# is not ported, so no controller channel is started. The internal topics' configs come from the group and
# transaction coordinators (`offsets_topic_configs()`, `transaction_topic_configs()`) when they are given, else
# from the same KafkaConfig settings those coordinators read. `create_topics` takes Kafka 3.x's optional
# request context (used there only when forwarding) and answers MetadataResponseTopic entries, as Kafka does.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, Protocol

from kafka.common.errors import InvalidTopicException
from kafka.common.internals.topic import Topic
from kafka.common.message import CreateTopicsRequestData, MetadataResponseData
from kafka.common.protocol.errors import Errors
from kafka.common.requests.api_error import ApiError
from kafka.log.log_config import LogConfig
from kafka.utils.logging import Logging

if TYPE_CHECKING:
    from kafka.server.kafka_config import KafkaConfig
    from kafka.server.zk_admin_manager import ControllerMutationQuota, ZkAdminManager

__all__ = ["AutoTopicCreationManager", "DefaultAutoTopicCreationManager"]


class _OffsetsTopicConfigs(Protocol):
    def offsets_topic_configs(self) -> Mapping[str, str]: ...


class _TransactionTopicConfigs(Protocol):
    def transaction_topic_configs(self) -> Mapping[str, str]: ...


class AutoTopicCreationManager(Protocol):
    """Kafka's trait AutoTopicCreationManager."""

    def create_topics(
        self,
        topic_names: Iterable[str],
        controller_mutation_quota: ControllerMutationQuota | None,
        metadata_request_context: Any = None,
    ) -> list[Any]: ...

    def start(self) -> None: ...

    def shutdown(self) -> None: ...


class DefaultAutoTopicCreationManager(Logging):
    """Auto-creates topics through ZooKeeper (see the module docstring).

    Thread-safety: called by many request handler threads at once; `_inflight_topics` (Kafka's concurrent set)
    is guarded by `_inflight_lock`, held only to test-and-add or remove names.
    """

    logger_name = "kafka.server.DefaultAutoTopicCreationManager"

    def __init__(
        self,
        config: KafkaConfig,
        admin_manager: ZkAdminManager,
        group_coordinator: _OffsetsTopicConfigs | None = None,
        txn_coordinator: _TransactionTopicConfigs | None = None,
    ) -> None:
        self._config = config
        self._admin_manager = admin_manager
        self._group_coordinator = group_coordinator
        self._txn_coordinator = txn_coordinator
        self._inflight_topics: set[str] = set()
        self._inflight_lock = threading.Lock()

    def start(self) -> None:
        pass  # nothing to start without a controller channel

    def shutdown(self) -> None:
        with self._inflight_lock:
            self._inflight_topics.clear()

    def create_topics(
        self,
        topic_names: Iterable[str],
        controller_mutation_quota: ControllerMutationQuota | None,
        metadata_request_context: Any = None,
    ) -> list[Any]:
        """Creates the missing topics; one MetadataResponseTopic (name, error, is_internal) per topic."""
        creatable_topics, uncreatable_topic_responses = self._filter_creatable_topics(topic_names)
        creatable_topic_responses = (
            self._create_topics_in_zk(creatable_topics, controller_mutation_quota) if creatable_topics else []
        )
        return uncreatable_topic_responses + creatable_topic_responses

    def _create_topics_in_zk(
        self, creatable_topics: dict[str, Any], controller_mutation_quota: ControllerMutationQuota | None
    ) -> list[Any]:
        topic_errors: list[dict[str, ApiError]] = []
        try:
            # Timeout 0: we do not wait for the leaders, only for the outcome of the ZooKeeper writes.
            self._admin_manager.create_topics(
                0, False, creatable_topics, {}, controller_mutation_quota, topic_errors.append
            )
            if topic_errors:
                responses = []
                for topic, api_error in topic_errors[0].items():
                    error = api_error.error
                    if error in (Errors.TOPIC_ALREADY_EXISTS, Errors.REQUEST_TIMED_OUT):
                        # REQUEST_TIMED_OUT is what timeout 0 gives a topic that was written: it exists, it has no
                        # leader yet.
                        error = Errors.LEADER_NOT_AVAILABLE
                    responses.append(_metadata_response_topic(topic, error))
                return responses
            return [_metadata_response_topic(topic, Errors.UNKNOWN_TOPIC_OR_PARTITION) for topic in creatable_topics]
        finally:
            self._clear_inflight_requests(creatable_topics)

    def _clear_inflight_requests(self, creatable_topics: Mapping[str, Any]) -> None:
        with self._inflight_lock:
            for topic in creatable_topics:
                self._inflight_topics.discard(topic)
        self.debug(f"Cleared inflight topic creation state for {list(creatable_topics)}")

    def _creatable_topic(self, topic: str) -> Any:
        if topic == Topic.GROUP_METADATA_TOPIC_NAME:
            return CreateTopicsRequestData.CreatableTopic(
                name=topic,
                num_partitions=self._config.offsets_topic_partitions,
                replication_factor=self._config.offsets_topic_replication_factor,
                configs=_convert_to_topic_config_collection(self._offsets_topic_configs()),
            )
        if topic == Topic.TRANSACTION_STATE_TOPIC_NAME:
            return CreateTopicsRequestData.CreatableTopic(
                name=topic,
                num_partitions=self._config.transaction_topic_partitions,
                replication_factor=self._config.transaction_topic_replication_factor,
                configs=_convert_to_topic_config_collection(self._transaction_topic_configs()),
            )
        return CreateTopicsRequestData.CreatableTopic(
            name=topic,
            num_partitions=self._config.num_partitions,
            replication_factor=self._config.default_replication_factor,
        )

    def _offsets_topic_configs(self) -> Mapping[str, str]:
        """GroupCoordinator.offsetsTopicConfigs."""
        if self._group_coordinator is not None:
            return self._group_coordinator.offsets_topic_configs()
        return {
            LogConfig.CLEANUP_POLICY_PROP: LogConfig.COMPACT,
            LogConfig.SEGMENT_BYTES_PROP: str(self._config.offsets_topic_segment_bytes),
            LogConfig.COMPRESSION_TYPE_PROP: "producer",
        }

    def _transaction_topic_configs(self) -> Mapping[str, str]:
        """TransactionStateManager.transactionTopicConfigs."""
        if self._txn_coordinator is not None:
            return self._txn_coordinator.transaction_topic_configs()
        return {
            LogConfig.UNCLEAN_LEADER_ELECTION_ENABLE_PROP: "false",
            LogConfig.COMPRESSION_TYPE_PROP: "uncompressed",
            LogConfig.CLEANUP_POLICY_PROP: LogConfig.COMPACT,
            LogConfig.MIN_IN_SYNC_REPLICAS_PROP: str(self._config.transaction_topic_min_isr),
            LogConfig.SEGMENT_BYTES_PROP: str(self._config.transaction_topic_segment_bytes),
        }

    @staticmethod
    def _is_valid_topic_name(topic: str) -> bool:
        try:
            Topic.validate(topic)
            return True
        except InvalidTopicException:
            return False

    def _filter_creatable_topics(self, topics: Iterable[str]) -> tuple[dict[str, Any], list[Any]]:
        """Splits the topics into those to create (now marked in flight) and the answers for the others."""
        creatable_topics: dict[str, Any] = {}
        uncreatable_topics: list[Any] = []
        for topic in dict.fromkeys(topics):
            # Basic validation before anything is written.
            validation_error: Errors | None = None
            if not self._is_valid_topic_name(topic):
                validation_error = Errors.INVALID_TOPIC_EXCEPTION
            else:
                with self._inflight_lock:
                    if topic in self._inflight_topics:
                        validation_error = Errors.UNKNOWN_TOPIC_OR_PARTITION
                    else:
                        self._inflight_topics.add(topic)
            if validation_error is not None:
                uncreatable_topics.append(_metadata_response_topic(topic, validation_error))
            else:
                creatable_topics[topic] = self._creatable_topic(topic)
        return creatable_topics, uncreatable_topics


def _metadata_response_topic(topic: str, error: Errors) -> Any:
    return MetadataResponseData.MetadataResponseTopic(
        error_code=error.code, name=topic, is_internal=Topic.is_internal(topic)
    )


def _convert_to_topic_config_collection(config: Mapping[str, str]) -> Any:
    collection = CreateTopicsRequestData.CreateableTopicConfigCollection()
    for name, value in config.items():
        collection.append(CreateTopicsRequestData.CreateableTopicConfig(name=name, value=str(value)))
    return collection
