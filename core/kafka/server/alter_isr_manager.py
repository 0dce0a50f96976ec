"""Port of core/src/main/scala/kafka/server/AlterIsrManager.scala (Kafka 2.8).

How a partition leader gets an ISR change committed. `Partition` hands an `AlterIsrItem` to the broker's
AlterIsrManager and learns the outcome later through the item's callback (an Errors, or the LeaderAndIsr that was
committed). Two implementations, chosen by KafkaServer from `inter.broker.protocol.version`:

- `DefaultAlterIsrManager` (2.7-IV2 and later, the default): pending changes are batched per partition (one at a
  time each) and sent to the controller as one AlterIsr request (API key 56, AlterPartition in 3.x) through the
  BrokerToControllerChannelManager; the controller, the only writer of partition state, checks the broker epoch,
  the leader epoch and the partition epoch (the state znode's version) and answers per partition.
- `ZkIsrManager` (older protocols): the leader writes the partition state znode itself, conditionally on its
  version, and tells the controller through batched `/isr_change_notification` znodes.

# PORT: Kafka keeps ZkIsrManager and IsrChangePropagationConfig in server/ZkIsrManager.scala; they live here
# beside the interface they implement. The AlterIsr metrics (none in 2.8 beyond the channel's) are left out.
"""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from kafka.api.leader_and_isr import LeaderAndIsr
from kafka.clients.client_response import ClientResponse
from kafka.common.errors import ClusterAuthorizationException
from kafka.common.message import AlterPartitionRequestData
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_request import DataBuilder
from kafka.common.requests.alter_partition_request import AlterPartitionRequest
from kafka.common.requests.alter_partition_response import AlterPartitionResponse
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.time import Time
from kafka.server.broker_to_controller_channel_manager import (
    BrokerToControllerChannelManager,
    ControllerRequestCompletionHandler,
)
from kafka.utils import replication_utils
from kafka.utils.atomic import AtomicBoolean
from kafka.utils.logging import Logging

if TYPE_CHECKING:
    from kafka.server.kafka_config import KafkaConfig
    from kafka.server.metadata_cache import MetadataCache
    from kafka.utils.kafka_scheduler import Scheduler

# The AlterIsr request versions this broker sends: the 2.8 layout (topic names, plain ISR), plus v1's leader
# recovery state, which is always RECOVERED here. Versions 2+ (topic ids, ISR members with broker epochs) belong
# to inter-broker protocols newer than the 2.8 this broker speaks, as Kafka 3.7 gates them.
ALTER_ISR_OLDEST_VERSION = 0
ALTER_ISR_LATEST_VERSION = 1

# How long a batch waits before it is sent again after a top-level error (or no usable answer).
_RETRY_BACKOFF_MS = 50


@dataclass(frozen=True, slots=True)
class AlterIsrItem:
    """One proposed ISR change. `callback` gets an Errors (Kafka's Left) or the committed LeaderAndIsr (Right).
    `controller_epoch` is what the ZooKeeper write records (ZkIsrManager only)."""

    topic_partition: TopicPartition
    leader_and_isr: LeaderAndIsr
    callback: Callable[[Errors | LeaderAndIsr], None]
    controller_epoch: int


class AlterIsrManager(ABC):
    """Sends ISR changes on: to the controller as AlterIsr requests, or straight to ZooKeeper. Asynchronous:
    partitions learn the outcome through the item's callback. The controller may still change an ISR on its own
    and tell the leader through LeaderAndIsr."""

    def start(self) -> None:  # noqa: B027 - optional hook, as Kafka's default method
        pass

    def shutdown(self) -> None:  # noqa: B027 - optional hook, as Kafka's default method
        pass

    @abstractmethod
    def submit(self, alter_isr_item: AlterIsrItem) -> bool:
        """Takes the change on; False if it was refused (one change per partition may be pending)."""

    @abstractmethod
    def clear_pending(self, topic_partition: TopicPartition) -> None:
        """Drops a change not sent yet (the partition got new state from the controller)."""

    @staticmethod
    def apply(
        config: KafkaConfig,
        metadata_cache: MetadataCache,
        scheduler: Scheduler,
        time: Time,
        thread_name_prefix: str | None,
        broker_epoch_supplier: Callable[[], int],
        broker_id: int,
    ) -> DefaultAlterIsrManager:
        """The AlterIsr-sending manager (inter.broker.protocol.version 2.7-IV2 and later), with its own channel to
        the controller found through the metadata cache. Kafka's other factory is `ZkIsrManager(...)`."""
        from kafka.server.broker_to_controller_channel_manager import (
            BrokerToControllerChannelManagerImpl,
            MetadataCacheControllerNodeProvider,
        )

        node_provider = MetadataCacheControllerNodeProvider.apply(config, metadata_cache)
        channel_manager = BrokerToControllerChannelManagerImpl(
            node_provider,
            time,
            config,
            channel_name="alterIsrChannel",
            thread_name_prefix=thread_name_prefix,
            retry_timeout_ms=2**63 - 1,
        )
        return DefaultAlterIsrManager(channel_manager, scheduler, time, broker_id, broker_epoch_supplier)


class DefaultAlterIsrManager(AlterIsrManager, Logging):
    """Batches pending ISR changes into AlterIsr requests to the controller, one request in flight at a time.

    `submit` may be called from any thread (a request handler, the ISR expiration task, a fetch); responses are
    handled on the channel's send thread, which runs the partitions' callbacks (they take the partition's write
    lock, so no partition lock may be held while calling into this class's response path)."""

    logger_name = "kafka.server.DefaultAlterIsrManager"

    def __init__(
        self,
        controller_channel_manager: BrokerToControllerChannelManager,
        scheduler: Scheduler,
        time: Time,
        broker_id: int,
        broker_epoch_supplier: Callable[[], int],
    ) -> None:
        self.controller_channel_manager = controller_channel_manager
        self.scheduler = scheduler
        self.time = time
        self.broker_id = broker_id
        self.broker_epoch_supplier = broker_epoch_supplier
        # At most one change per partition waits or is in flight (Java: a ConcurrentHashMap with putIfAbsent).
        self.unsent_isr_updates: dict[TopicPartition, AlterIsrItem] = {}
        self._unsent_lock = threading.Lock()
        # At most one AlterIsr request is in flight.
        self._inflight_request = AtomicBoolean(False)

    def start(self) -> None:
        self.controller_channel_manager.start()

    def shutdown(self) -> None:
        self.controller_channel_manager.shutdown()

    def submit(self, alter_isr_item: AlterIsrItem) -> bool:
        with self._unsent_lock:
            enqueued = alter_isr_item.topic_partition not in self.unsent_isr_updates
            if enqueued:
                self.unsent_isr_updates[alter_isr_item.topic_partition] = alter_isr_item
        self.maybe_propagate_isr_changes()
        return enqueued

    def clear_pending(self, topic_partition: TopicPartition) -> None:
        with self._unsent_lock:
            self.unsent_isr_updates.pop(topic_partition, None)

    def maybe_propagate_isr_changes(self) -> None:
        """Sends every pending change unless a request is already in flight. The items stay in the pending map
        until their answer comes, so a change that is not answered is sent again."""
        with self._unsent_lock:
            if not self.unsent_isr_updates:
                return
            if not self._inflight_request.compare_and_set(False, True):
                return
            inflight_alter_isr_items = list(self.unsent_isr_updates.values())
        self._send_request(inflight_alter_isr_items)

    def clear_in_flight_request(self) -> None:
        if not self._inflight_request.compare_and_set(True, False):
            self.warn("Attempting to clear AlterIsr in-flight flag when no apparent request is in-flight")

    def _send_request(self, inflight_alter_isr_items: Sequence[AlterIsrItem]) -> None:
        message = self._build_request(inflight_alter_isr_items)
        self.debug(f"Sending AlterIsr to controller {message}")
        manager = self

        class _Handler(ControllerRequestCompletionHandler):
            def on_complete(self, response: ClientResponse) -> None:
                manager.debug(f"Received AlterIsr response {response}")
                try:
                    if response.authentication_exception is not None:
                        # Retried like a network error; the channel manager has logged the authentication failure.
                        error = Errors.NETWORK_EXCEPTION
                    elif response.version_mismatch is not None:
                        error = Errors.UNSUPPORTED_VERSION
                    else:
                        body = response.response_body
                        if not isinstance(body, AlterPartitionResponse):
                            manager.warn(f"Unexpected response to AlterIsr: {body}")
                            error = Errors.UNKNOWN_SERVER_ERROR
                        else:
                            error = manager.handle_alter_isr_response(
                                body, message.broker_epoch, inflight_alter_isr_items
                            )
                finally:
                    # Lets the next request go, whatever happened to this one.
                    manager.clear_in_flight_request()
                if error == Errors.NONE:
                    # Changes submitted meanwhile go out at once.
                    manager.maybe_propagate_isr_changes()
                else:
                    # A top-level error: the same changes are sent again shortly.
                    manager.scheduler.schedule(
                        "send-alter-isr", manager.maybe_propagate_isr_changes, delay_ms=_RETRY_BACKOFF_MS
                    )

            def on_timeout(self) -> None:
                raise RuntimeError("Encountered unexpected timeout when sending AlterIsr to the controller")

        # No timeout: the request is retried until the controller answers, or a LeaderAndIsr replaces the
        # partition's state (then the answer is ignored by the partition).
        self.controller_channel_manager.send_request(
            DataBuilder(AlterPartitionRequest, message, ALTER_ISR_OLDEST_VERSION, ALTER_ISR_LATEST_VERSION), _Handler()
        )

    def _build_request(self, inflight_alter_isr_items: Sequence[AlterIsrItem]) -> AlterPartitionRequestData:
        message = AlterPartitionRequestData(broker_id=self.broker_id, broker_epoch=self.broker_epoch_supplier())
        by_topic: dict[str, AlterPartitionRequestData.TopicData] = {}
        for item in inflight_alter_isr_items:
            topic_data = by_topic.get(item.topic_partition.topic)
            if topic_data is None:
                topic_data = AlterPartitionRequestData.TopicData(topic_name=item.topic_partition.topic)
                by_topic[item.topic_partition.topic] = topic_data
                message.topics.append(topic_data)
            topic_data.partitions.append(
                AlterPartitionRequestData.PartitionData(
                    partition_index=item.topic_partition.partition,
                    leader_epoch=item.leader_and_isr.leader_epoch,
                    new_isr=list(item.leader_and_isr.isr),
                    partition_epoch=item.leader_and_isr.zk_version,
                )
            )
        return message

    def handle_alter_isr_response(
        self,
        alter_isr_response: AlterPartitionResponse,
        sent_broker_epoch: int,
        inflight_alter_isr_items: Sequence[AlterIsrItem],
    ) -> Errors:
        """Runs each sent item's callback with its partition's outcome; returns the top-level error."""
        data = alter_isr_response.data
        top_level_error = Errors.for_code(data.error_code)
        if top_level_error == Errors.STALE_BROKER_EPOCH:
            self.warn(f"Broker had a stale broker epoch ({sent_broker_epoch}), retrying.")
        elif top_level_error == Errors.CLUSTER_AUTHORIZATION_FAILED:
            self.error(
                "Broker is not authorized to send AlterIsr to controller",
                ClusterAuthorizationException("Broker is not authorized to send AlterIsr to controller"),
            )
        elif top_level_error == Errors.NONE:
            partition_responses: dict[TopicPartition, Errors | LeaderAndIsr] = {}
            for topic in data.topics:
                for partition in topic.partitions:
                    tp = TopicPartition(topic.topic_name, partition.partition_index)
                    error = Errors.for_code(partition.error_code)
                    self.debug(f"Controller successfully handled AlterIsr request for {tp}: {partition}")
                    if error == Errors.NONE:
                        partition_responses[tp] = LeaderAndIsr(
                            partition.leader_id, partition.leader_epoch, tuple(partition.isr), partition.partition_epoch
                        )
                    else:
                        partition_responses[tp] = error
            # Walk what was sent rather than what came back, so that a partition left out of the answer is
            # noticed (and stays pending, to be sent again).
            for item in inflight_alter_isr_items:
                result = partition_responses.get(item.topic_partition)
                if result is None:
                    self.warn(f"Partition {item.topic_partition} was sent but not included in the response")
                    continue
                # Out of the pending map before the callback runs, so that a callback retrying the change can
                # submit it again (as Kafka 3.x does; 2.8 removed it afterwards and refused such a retry).
                with self._unsent_lock:
                    if self.unsent_isr_updates.get(item.topic_partition) is item:
                        del self.unsent_isr_updates[item.topic_partition]
                try:
                    item.callback(result)
                except Exception as e:
                    self.error(f"Error in the AlterIsr callback of partition {item.topic_partition}", e)
        else:
            self.warn(
                f"Controller returned an unexpected top-level error when handling AlterIsr request: {top_level_error}"
            )
        return top_level_error


# -- kafka.server.ZkIsrManager ---------------------------------------------------------------------------------


class IsrZkClient(replication_utils.ConditionalUpdateZkClient, Protocol):
    """What ZkIsrManager needs of the ZooKeeper client (KafkaZkClient): the conditional write of a partition's state
    (ReplicationUtils.updateLeaderAndIsr) and the ISR change notification."""

    def propagate_isr_changes(self, isr_change_set: set[TopicPartition]) -> None: ...


@dataclass(frozen=True, slots=True)
class IsrChangePropagationConfig:
    check_interval_ms: int
    max_delay_ms: int
    linger_ms: int


class ZkIsrManager(AlterIsrManager, Logging):
    """ISR changes written straight to ZooKeeper (inter-broker protocol before 2.7-IV2), with the controller told
    through isr-change notifications batched by the `isr-change-propagation` task."""

    logger_name = "kafka.server.ZkIsrManager"

    DEFAULT_ISR_PROPAGATION_CONFIG = IsrChangePropagationConfig(
        check_interval_ms=2500, max_delay_ms=60000, linger_ms=5000
    )

    def __init__(self, scheduler: Scheduler, time: Time, zk_client: IsrZkClient) -> None:
        self._scheduler = scheduler
        self._time = time
        self._zk_client = zk_client
        self._isr_change_notification_config = ZkIsrManager.DEFAULT_ISR_PROPAGATION_CONFIG
        self.isr_change_set: set[TopicPartition] = set()
        self._isr_change_lock = threading.RLock()
        self._last_isr_change_ms = time.milliseconds()
        self._last_isr_propagation_ms = time.milliseconds()

    def start(self) -> None:
        self._scheduler.schedule(
            "isr-change-propagation",
            self.maybe_propagate_isr_changes,
            period_ms=self._isr_change_notification_config.check_interval_ms,
        )

    def clear_pending(self, topic_partition: TopicPartition) -> None:
        # Writes happen at once and nothing waits: the notification of a written change still goes out.
        pass

    def submit(self, alter_isr_item: AlterIsrItem) -> bool:
        self.debug(
            f"Writing new ISR {alter_isr_item.leader_and_isr.isr} to ZooKeeper with version "
            f"{alter_isr_item.leader_and_isr.zk_version} for partition {alter_isr_item.topic_partition}"
        )
        update_succeeded, new_version = replication_utils.update_leader_and_isr(
            self._zk_client,
            alter_isr_item.topic_partition,
            alter_isr_item.leader_and_isr,
            alter_isr_item.controller_epoch,
        )
        if update_succeeded:
            with self._isr_change_lock:
                self.isr_change_set.add(alter_isr_item.topic_partition)
                self._last_isr_change_ms = self._time.milliseconds()
            # The partition has already moved to the pending state, so the callback can run right here.
            alter_isr_item.callback(alter_isr_item.leader_and_isr.with_zk_version(new_version))
        else:
            alter_isr_item.callback(Errors.INVALID_UPDATE_VERSION)
        # Always accepted: the outcome goes through the callback.
        return True

    def maybe_propagate_isr_changes(self) -> None:
        """Notifies the controller of written ISR changes once none came for `linger_ms`, or at the latest
        `max_delay_ms` after the previous notification."""
        now = self._time.milliseconds()
        config = self._isr_change_notification_config
        with self._isr_change_lock:
            if self.isr_change_set and (
                self._last_isr_change_ms + config.linger_ms < now
                or self._last_isr_propagation_ms + config.max_delay_ms < now
            ):
                self._zk_client.propagate_isr_changes(set(self.isr_change_set))
                self.isr_change_set.clear()
                self._last_isr_propagation_ms = now
