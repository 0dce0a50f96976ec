"""Port of core/src/main/scala/kafka/server/KafkaServer.scala (Kafka 2.8).

The lifecycle of a ZooKeeper-mode broker: `startup()` brings up every component in order, `shutdown()`
takes them down in Kafka 2.8's shutdown order, each step guarded so that one failure does not skip the rest,
and `await_shutdown()` blocks until shutdown has completed.

Start-up order (DESIGN.md, with two changes): broker state Starting; KafkaScheduler; ZooKeeper (chroot,
persistent paths); the finalized feature change listener; cluster id; LogManager (state Recovery while logs
load); broker id (config, meta.properties or /brokers/seqid); SocketServer (bound, not yet processing);
ReplicaManager; KafkaHealthcheck registers /brokers/ids/{id}; KafkaController; coordinators (group, then
transaction); authorizer; KafkaApis and the request handler pool; dynamic config; processing starts, state
RunningAsBroker; `started`.
# PORT: the request handlers hold client requests back until the metadata cache has heard from the controller
# (ClientRequestGate), so that a client that connects right after start-up gets a usable Metadata answer.
# PORT: DESIGN.md lists the broker registration last; Kafka 2.8 registers before starting the controller,
# because the controller is built with this broker's epoch (the registration znode's czxid, KIP-380) and
# checks controller requests against it. We follow Kafka 2.8 there.
# PORT: DESIGN.md has no feature listener; Kafka 2.8 starts it right after the ZooKeeper client (and, with
# inter.broker.protocol.version >= 2.7, waits up to zookeeper.connection.timeout.ms until it has read /feature
# once), so that ApiVersions reports the cluster's finalized features and the controller can wait for its own
# writes of /feature to reach the cache. We follow Kafka 2.8 there too.

Shutdown order (Kafka 2.8's): controlled shutdown; state ShuttingDown; DynamicConfigManager; the socket server
stops processing; request handler pool; KafkaScheduler; KafkaApis; the authorizer; admin manager; token manager;
TransactionCoordinator; GroupCoordinator; ReplicaManager; AlterIsrManager; AutoTopicCreationManager; LogManager;
KafkaController; feature change listener; ZooKeeper client; SocketServer; the dynamic config's reconfigurables
and dynamic values cleared;
state NotRunning; `shut down completed`.
# PORT: the parts of Kafka's sequence whose components this broker does not have (the control-plane listener,
# forwarding manager) are skipped.

At step "coordinators" the GroupCoordinator starts, then the TransactionCoordinator (with its own one-thread
scheduler, `transaction-log-manager-0`, and the ProducerIdManager it hands out producer ids from, to idempotent
producers too). At step "authorizer" the class `authorizer.class.name` names (none by default) is created,
configured with the broker's configs and started; each listener starts taking requests once the authorizer's
future for it completes.
"""

from __future__ import annotations

import os
import threading
import uuid
from concurrent.futures import Future
from typing import TYPE_CHECKING

from kafka.common.errors import (
    GenerateBrokerIdException,
    InconsistentBrokerIdException,
    InconsistentClusterIdException,
    KafkaException,
)
from kafka.common.message import ListenerType
from kafka.common.protocol.errors import Errors
from kafka.common.utils.time import Time
from kafka.metrics.kafka_metrics_group import KafkaMetricsGroup
from kafka.metrics.kafka_yammer_metrics import KafkaYammerMetrics
from kafka.server.broker_features import BrokerFeatures
from kafka.server.broker_metadata_checkpoint import BrokerMetadataCheckpoint, ZkMetaProperties
from kafka.server.broker_states import BrokerState
from kafka.server.finalized_feature_cache import FinalizedFeatureCache
from kafka.server.kafka_config import KafkaConfig
from kafka.utils.atomic import AtomicBoolean
from kafka.utils.core_utils import swallow
from kafka.utils.count_down_latch import CountDownLatch
from kafka.utils.logging import Logging

if TYPE_CHECKING:
    from kafka.common.metrics.metrics import Metrics
    from kafka.common.network.listener_name import ListenerName
    from kafka.controller.kafka_controller import KafkaController
    from kafka.coordinator.group.group_coordinator import GroupCoordinator
    from kafka.coordinator.transaction.transaction_coordinator import TransactionCoordinator
    from kafka.log.log_dir_failure_channel import LogDirFailureChannel
    from kafka.log.log_manager import LogManager
    from kafka.metrics.prometheus_reporter import PrometheusReporter
    from kafka.network.socket_server import SocketServer
    from kafka.server.alter_isr_manager import AlterIsrManager
    from kafka.server.authorizer.authorizer import Authorizer
    from kafka.server.auto_topic_creation_manager import DefaultAutoTopicCreationManager
    from kafka.server.delegation_token_manager import DelegationTokenManager
    from kafka.server.dynamic_config_manager import DynamicConfigManager
    from kafka.server.fetch_session import FetchManager
    from kafka.server.finalized_feature_change_listener import FinalizedFeatureChangeListener
    from kafka.server.kafka_apis import KafkaApis
    from kafka.server.kafka_healthcheck import KafkaHealthcheck
    from kafka.server.kafka_request_handler import ClientRequestGate, KafkaRequestHandlerPool
    from kafka.server.metadata_cache import ZkMetadataCache
    from kafka.server.quota_factory import QuotaManagers
    from kafka.server.replica_manager import ReplicaManager
    from kafka.server.zk_admin_manager import ZkAdminManager
    from kafka.utils.kafka_scheduler import KafkaScheduler
    from kafka.zk.kafka_zk_client import KafkaZkClient


class KafkaServer(Logging, KafkaMetricsGroup):
    logger_name = "kafka.server.KafkaServer"

    def __init__(self, config: KafkaConfig, time: Time = Time.SYSTEM, thread_name_prefix: str | None = None) -> None:
        self.config = config
        self.time = time
        self.thread_name_prefix = thread_name_prefix
        self.log_ident = f"[KafkaServer id={config.broker_id}] "
        self.broker_state = BrokerState.NOT_RUNNING
        self._startup_complete = threading.Event()
        self._is_shutting_down = threading.Event()
        self._is_starting_up = threading.Event()
        self._shutdown_latch = CountDownLatch(1)
        self._lock = threading.RLock()
        self.cluster_id: str = ""
        self.broker_epoch = -1
        # kafka.server:type=KafkaServer gauges, as Kafka 2.8's.
        self.new_gauge("BrokerState", lambda: int(self.broker_state))
        self.new_gauge("ClusterId", lambda: self.cluster_id)
        self.new_gauge("yammer-metrics-count", lambda: len(KafkaYammerMetrics.default_registry().all_metrics()))
        # What this broker supports, and the cluster's finalized features as the feature listener last read them.
        self.broker_features = BrokerFeatures.create_default()
        self.feature_cache = FinalizedFeatureCache(self.broker_features, time)
        # The components, in start-up order (None until started).
        self.kafka_scheduler: KafkaScheduler | None = None
        self.zk_client: KafkaZkClient | None = None
        self.feature_change_listener: FinalizedFeatureChangeListener | None = None
        self.log_dir_failure_channel: LogDirFailureChannel | None = None
        self.log_manager: LogManager | None = None
        self.socket_server: SocketServer | None = None
        self.metadata_cache: ZkMetadataCache | None = None
        self.alter_isr_manager: AlterIsrManager | None = None
        self.replica_manager: ReplicaManager | None = None
        self.kafka_healthcheck: KafkaHealthcheck | None = None
        self.kafka_controller: KafkaController | None = None
        self.admin_manager: ZkAdminManager | None = None
        self.group_coordinator: GroupCoordinator | None = None
        self.transaction_coordinator: TransactionCoordinator | None = None
        self.fetch_manager: FetchManager | None = None
        self.data_plane_request_processor: KafkaApis | None = None
        self.authorizer: Authorizer | None = None
        self.token_manager: DelegationTokenManager | None = None
        self.data_plane_request_handler_pool: KafkaRequestHandlerPool | None = None
        self.dynamic_config_manager: DynamicConfigManager | None = None
        self.auto_topic_creation_manager: DefaultAutoTopicCreationManager | None = None
        # The broker's Metrics registry and quota managers (Kafka's `metrics` and `quotaManagers`).
        self.metrics: Metrics | None = None
        # PORT: the /metrics endpoint (metrics.prometheus.port) in place of Kafka's JMX MBeans (issue 16).
        self.prometheus_reporter: PrometheusReporter | None = None
        from kafka.server.kafka_request_handler import BrokerTopicStats

        self.broker_topic_stats = BrokerTopicStats()
        self.quota_managers: QuotaManagers | None = None
        # The ReplicaManager's `isShuttingDown`.
        # PORT: Kafka hands ReplicaManager the server's own isShuttingDown flag, which is set as soon as shutdown
        # begins; this one is set just before the ReplicaManager stops (as this broker always did), so partitions
        # that become followers during a controlled shutdown still start fetching.
        self._replica_manager_shutting_down = AtomicBoolean(False)
        # Names of the steps as they complete, for the start-up order test and for shutdown.
        self.started_steps: list[str] = []

    # ---- start-up ---------------------------------------------------------------------------------------

    def startup(self) -> None:
        """Starts the broker; on failure logs a fatal line, shuts down what had started, and raises."""
        try:
            self.info("starting")
            if self._is_shutting_down.is_set():
                raise RuntimeError("Kafka server is still shutting down, cannot re-start!")
            if self._startup_complete.is_set():
                return
            self._is_starting_up.set()
            self._startup()
            self._is_starting_up.clear()
            self._startup_complete.set()
            self.info("started")
        except BaseException as e:
            self.fatal("Fatal error during KafkaServer startup. Prepare to shutdown", e)
            self._is_starting_up.clear()
            self.shutdown()
            raise

    def _step(self, name: str) -> None:
        self.started_steps.append(name)

    def _startup(self) -> None:
        from kafka.utils.kafka_scheduler import KafkaScheduler

        config = self.config
        self.broker_state = BrokerState.STARTING
        self._step("broker-state-starting")

        self.kafka_scheduler = scheduler = KafkaScheduler(config.background_threads)
        scheduler.startup()
        self._step("kafka-scheduler")

        self.zk_client = zk_client = self._init_zk_client()
        self._step("zookeeper")

        from kafka.server.finalized_feature_change_listener import FinalizedFeatureChangeListener

        self.feature_change_listener = FinalizedFeatureChangeListener(self.feature_cache, zk_client)
        if config.is_feature_versioning_supported:
            self.feature_change_listener.init_or_throw(config.zk_connection_timeout_ms)
        self._step("feature-change-listener")

        from kafka.server.config_handler import dynamic_config_of

        dynamic_config_of(self.config).initialize(zk_client)
        self.cluster_id = self._get_or_generate_cluster_id(zk_client)
        self.info(f"Cluster ID = {self.cluster_id}")
        self._step("cluster-id")

        meta, initial_offline_dirs = BrokerMetadataCheckpoint.get_broker_metadata_and_offline_dirs(
            list(config.log_dirs), ignore_missing=True
        )
        if meta.cluster_id is not None and meta.cluster_id != self.cluster_id:
            raise InconsistentClusterIdException(
                f"The Cluster ID {self.cluster_id} doesn't match stored clusterId {meta.cluster_id} in "
                "meta.properties. The broker is trying to join the wrong cluster. Configured zookeeper.connect "
                f"may be wrong."
            )

        from kafka.log.log_dir_failure_channel import LogDirFailureChannel

        self.log_dir_failure_channel = log_dir_failure_channel = LogDirFailureChannel(len(config.log_dirs))
        self.log_manager = log_manager = self._start_log_manager(
            initial_offline_dirs, zk_client, scheduler, log_dir_failure_channel
        )
        self._step("log-manager")

        broker_id = self._get_or_generate_broker_id(meta.broker_id, zk_client)
        config.broker_id = broker_id
        self.log_ident = f"[KafkaServer id={broker_id}] "
        self._step("broker-id")

        from kafka.server import quota_factory
        from kafka.server.server import initialize_metrics

        # PORT: Kafka 2.8 makes these right after the scheduler, once the broker id is known (its metrics context
        # names it); here the broker id is settled after the LogManager, so they come right after it.
        self.metrics = metrics = initialize_metrics(config, self.time, self.cluster_id)
        self.quota_managers = quota_factory.instantiate(config, metrics, self.time, self.thread_name_prefix or "")
        if config.metrics_prometheus_port:
            from kafka.metrics.kafka_yammer_metrics import KafkaYammerMetrics
            from kafka.metrics.prometheus_reporter import PrometheusReporter

            self.prometheus_reporter = PrometheusReporter(KafkaYammerMetrics.default_registry(), metrics)
            self.prometheus_reporter.startup(config.metrics_prometheus_host, config.metrics_prometheus_port)

        # PORT: Kafka 2.8 fails at registration below if the previous run of this broker was killed and its session
        # still holds /brokers/ids/{id}; this waits for it instead, before the listeners are bound, so that clients
        # find the port closed rather than unanswered meanwhile. ZooKeeper expires a session at the first tick after
        # the session timeout has passed since its last request (a tick is at most half the timeout: ZooKeeper keeps
        # timeouts between 2 and 20 ticks) and then deletes its ephemeral znodes, and the previous run may have made
        # its last request just before this one started: so the wait is twice the session timeout, not one (with
        # one, a broker restarted at once after SIGKILL could find the znode still there when the wait ended, by up
        # to a tick; it happened once in CI).
        zk_client.await_previous_broker_registration_gone(broker_id, 2 * config.zk_session_timeout_ms)

        from kafka.common.security.scram.internals.scram_mechanism import ScramMechanism
        from kafka.common.security.token.delegation.internals.delegation_token_cache import DelegationTokenCache
        from kafka.network.socket_server import SocketServer
        from kafka.security.credential_provider import CredentialProvider

        # Every SCRAM mechanism gets a token cache, so that enabling a mechanism later needs no new cache.
        self.token_cache = DelegationTokenCache(ScramMechanism.mechanism_names())
        self.credential_provider = CredentialProvider(ScramMechanism.mechanism_names(), self.token_cache)
        self.socket_server = socket_server = SocketServer(
            config, self.time, credential_provider=self.credential_provider, metrics=metrics
        )
        socket_server.startup(start_processing_requests=False)
        self._step("socket-server")

        self.replica_manager = replica_manager = self._start_replica_manager(
            zk_client, scheduler, log_manager, log_dir_failure_channel
        )
        self._step("replica-manager")

        from kafka.server.kafka_healthcheck import KafkaHealthcheck

        self.kafka_healthcheck = healthcheck = KafkaHealthcheck(
            broker_id, config.advertised_listeners, config.rack, zk_client, socket_server.bound_port
        )
        self.broker_epoch = healthcheck.startup()
        self._checkpoint_broker_metadata(ZkMetaProperties(self.cluster_id, broker_id), log_manager)
        self._step("kafka-healthcheck")

        from kafka.controller.kafka_controller import KafkaController
        from kafka.server.delegation_token_manager import DelegationTokenManager

        self.token_manager = token_manager = DelegationTokenManager(config, self.token_cache, self.time, zk_client)
        token_manager.startup()
        self._step("token-manager")

        self.kafka_controller = controller = KafkaController(
            config,
            zk_client,
            self.time,
            healthcheck.broker_info,
            self.broker_epoch,
            self.thread_name_prefix,
            self.broker_features,
            self.feature_cache,
            token_manager=token_manager,
        )
        controller.startup()
        self._step("kafka-controller")

        from kafka.common.internals.topic import Topic
        from kafka.coordinator.group.group_coordinator import GroupCoordinator
        from kafka.coordinator.transaction.producer_id_manager import ProducerIdManager
        from kafka.coordinator.transaction.transaction_coordinator import TransactionCoordinator
        from kafka.server.zk_admin_manager import ZkAdminManager
        from kafka.utils.kafka_scheduler import KafkaScheduler

        self.admin_manager = admin_manager = ZkAdminManager(config, None, replica_manager.metadata_cache, zk_client)
        # The offsets topic's partition count is what ZooKeeper says once the topic exists, else the config's.
        self.group_coordinator = group_coordinator = GroupCoordinator.apply(
            config, zk_client, replica_manager, self.time, metrics=self.metrics
        )
        if self.prometheus_reporter is not None:
            from kafka.coordinator.group.consumer_group_lag_collector import ConsumerGroupLagCollector

            self.prometheus_reporter.extra_collectors.append(
                ConsumerGroupLagCollector(group_coordinator, replica_manager, config, self.time)
            )
        group_coordinator.startup(
            lambda: (
                zk_client.get_topic_partition_count(Topic.GROUP_METADATA_TOPIC_NAME) or config.offsets_topic_partitions
            ),
            True,
        )
        # The transaction coordinator loads and expires transactions on a scheduler of its own, as in Kafka.
        self.transaction_coordinator = txn_coordinator = TransactionCoordinator.apply(
            config,
            replica_manager,
            KafkaScheduler(1, thread_name_prefix="transaction-log-manager-"),
            lambda: ProducerIdManager(broker_id, zk_client),
            self.metrics,
            replica_manager.metadata_cache,
            self.time,
        )
        txn_coordinator.startup(
            lambda: (
                zk_client.get_topic_partition_count(Topic.TRANSACTION_STATE_TOPIC_NAME)
                or config.transaction_topic_partitions
            )
        )
        self._step("coordinators")

        authorizer_futures: dict[str, Future[None]] = {}
        if config.authorizer_class_name:
            from kafka.security.authorizer.authorizer_utils import create_authorizer
            from kafka.server.authorizer.authorizer_server_info import AuthorizerServerInfo

            self.authorizer = authorizer = create_authorizer(config.authorizer_class_name)
            authorizer.configure(config.originals())
            server_info = AuthorizerServerInfo(
                self.cluster_id,
                broker_id,
                [ep.listener_name.value for ep in config.listeners],
                config.inter_broker_listener_name.value,
            )
            authorizer_futures = {str(k): v for k, v in authorizer.start(server_info).items()}
        self._step("authorizer")

        self._start_request_processing(
            broker_id,
            zk_client,
            socket_server,
            replica_manager,
            controller,
            admin_manager,
            group_coordinator,
            txn_coordinator,
        )
        self._step("kafka-apis")

        self._start_dynamic_config(zk_client, log_manager, controller)
        self._step("dynamic-config")

        # The listeners were bound early; requests are read only from here on, as in Kafka 2.8.
        socket_server.start_processing_requests(authorizer_futures)
        self.broker_state = BrokerState.RUNNING
        # Keys nobody knows (a typo, a config of a newer Kafka) are reported, as Kafka's AbstractConfig does.
        config.log_unused()

    def _init_zk_client(self) -> KafkaZkClient:
        from kafka.zk.kafka_zk_client import KafkaZkClient

        config = self.config
        zk_connect = config.zk_connect
        if not zk_connect:
            raise KafkaException("zookeeper.connect must be set: this broker runs in ZooKeeper mode")
        self.info(f"Connecting to zookeeper on {zk_connect}")
        chroot_index = zk_connect.find("/")
        if chroot_index > 0:
            # Create the chroot with a client that connects without it, as Kafka does.
            KafkaZkClient.create_chroot_path(
                zk_connect,
                False,
                config.zk_session_timeout_ms,
                config.zk_connection_timeout_ms,
                config.zk_max_in_flight_requests,
                self.time,
            )
        zk_client = KafkaZkClient.apply(
            zk_connect,
            False,
            config.zk_session_timeout_ms,
            config.zk_connection_timeout_ms,
            config.zk_max_in_flight_requests,
            self.time,
            name="Kafka server",
        )
        # Set before the paths are created, so that a failure there still closes the client.
        self.zk_client = zk_client
        zk_client.create_top_level_paths()
        return zk_client

    def _get_or_generate_cluster_id(self, zk_client: KafkaZkClient) -> str:
        existing = zk_client.get_cluster_id()
        if existing is not None:
            return str(existing)
        proposed = _generate_cluster_id()
        return str(zk_client.create_or_get_cluster_id(proposed))

    def _get_or_generate_broker_id(self, meta_broker_id: int | None, zk_client: KafkaZkClient) -> int:
        """broker.id from the config, else from meta.properties, else generated from /brokers/seqid."""
        config = self.config
        configured = config.broker_id
        if configured >= 0 and meta_broker_id is not None and meta_broker_id != configured:
            raise InconsistentBrokerIdException(
                f"Configured broker.id {configured} doesn't match stored broker.id {meta_broker_id} in "
                "meta.properties. If you moved your data, make sure your configured broker.id matches. "
                "If you intend to create a new broker, you should remove all data in your data directories "
                "(log.dirs)."
            )
        if meta_broker_id is not None:
            return meta_broker_id
        if configured < 0 and config.broker_id_generation_enable:
            try:
                return int(zk_client.generate_broker_sequence_id()) + config.max_reserved_broker_id
            except Exception as e:
                raise GenerateBrokerIdException(f"Failed to generate broker.id due to {e}") from e
        return configured

    def _checkpoint_broker_metadata(self, meta: ZkMetaProperties, log_manager: LogManager) -> None:
        live = {str(d) for d in log_manager.live_log_dirs}
        for log_dir in self.config.log_dirs:
            if str(os.path.abspath(log_dir)) not in live:
                continue
            checkpoint = BrokerMetadataCheckpoint(os.path.join(log_dir, "meta.properties"))
            checkpoint.write(meta.to_properties())

    def _start_log_manager(
        self,
        initial_offline_dirs: list[str],
        zk_client: KafkaZkClient,
        scheduler: KafkaScheduler,
        log_dir_failure_channel: LogDirFailureChannel,
    ) -> LogManager:
        from kafka.log.log_manager import LogManager
        from kafka.server.config_helper import ZkConfigRepository
        from kafka.zk.admin_zk_client import AdminZkClient

        self.log_manager = log_manager = LogManager.apply(
            self.config,
            initial_offline_dirs,
            ZkConfigRepository(AdminZkClient(zk_client)),
            scheduler,
            self.time,
            log_dir_failure_channel,
            broker_topic_stats=self.broker_topic_stats,
        )
        self.broker_state = BrokerState.RECOVERY
        log_manager.startup(zk_client.get_all_topics_in_cluster())
        return log_manager

    def _start_replica_manager(
        self,
        zk_client: KafkaZkClient,
        scheduler: KafkaScheduler,
        log_manager: LogManager,
        log_dir_failure_channel: LogDirFailureChannel,
    ) -> ReplicaManager:
        from kafka.server.alter_isr_manager import AlterIsrManager, ZkIsrManager
        from kafka.server.metadata_cache import ZkMetadataCache
        from kafka.server.replica_manager import ReplicaManager

        config = self.config
        self.metadata_cache = metadata_cache = ZkMetadataCache(config.broker_id, self.cluster_id)
        # AlterIsr to the controller from inter.broker.protocol.version 2.7-IV2 on, else ISR writes to ZooKeeper. The
        # broker epoch is read when a request is built: the controller (made later) keeps it across re-registrations.
        alter_isr_manager: AlterIsrManager
        if config.inter_broker_protocol_version.is_alter_isr_supported:
            alter_isr_manager = AlterIsrManager.apply(
                config,
                metadata_cache,
                scheduler,
                self.time,
                self.thread_name_prefix,
                lambda: self.broker_epoch if self.kafka_controller is None else self.kafka_controller.broker_epoch,
                config.broker_id,
            )
        else:
            alter_isr_manager = ZkIsrManager(scheduler, self.time, zk_client)
        self.alter_isr_manager = alter_isr_manager
        alter_isr_manager.start()
        self.replica_manager = replica_manager = ReplicaManager(
            config,
            self.metrics,
            self.time,
            zk_client,
            scheduler,
            log_manager,
            self._replica_manager_shutting_down,
            self.quota_managers,
            self.broker_topic_stats,
            metadata_cache,
            log_dir_failure_channel,
            alter_isr_manager,
            thread_name_prefix=self.thread_name_prefix,
        )
        replica_manager.startup()
        return replica_manager

    def _start_request_processing(
        self,
        broker_id: int,
        zk_client: KafkaZkClient,
        socket_server: SocketServer,
        replica_manager: ReplicaManager,
        controller: KafkaController,
        admin_manager: ZkAdminManager,
        group_coordinator: GroupCoordinator,
        txn_coordinator: TransactionCoordinator,
    ) -> None:
        from kafka.server.api_version_manager import ApiVersionManager
        from kafka.server.auto_topic_creation_manager import DefaultAutoTopicCreationManager
        from kafka.server.fetch_session import FetchManager, FetchSessionCache
        from kafka.server.kafka_apis import KafkaApis
        from kafka.server.kafka_request_handler import KafkaRequestHandlerPool

        config = self.config
        metadata_cache = self.metadata_cache
        assert metadata_cache is not None  # made with the ReplicaManager
        self.fetch_manager = FetchManager(
            self.time, FetchSessionCache(config.max_incremental_fetch_session_cache_slots, 120_000)
        )
        self.auto_topic_creation_manager = DefaultAutoTopicCreationManager(
            config, admin_manager, group_coordinator, txn_coordinator
        )
        api_version_manager = ApiVersionManager(
            ListenerType.ZK_BROKER,
            KafkaApis.HANDLED_APIS,
            config.unstable_api_versions_enabled,
            self.broker_features,
            self.feature_cache,
        )
        socket_server.api_version_manager = api_version_manager  # SASL listeners answer ApiVersions before auth
        self.data_plane_request_processor = KafkaApis(
            socket_server.data_plane_request_channel,
            replica_manager,
            group_coordinator,
            txn_coordinator,
            admin_manager,
            controller,
            zk_client,
            broker_id,
            config,
            replica_manager.metadata_cache,
            self.fetch_manager,
            self.broker_topic_stats,
            self.cluster_id,
            self.time,
            api_version_manager,
            self.auto_topic_creation_manager,
            admin_manager.config_helper,
            lambda: controller.broker_epoch,
            quotas=self.quota_managers,
            authorizer=self.authorizer,
            token_manager=self.token_manager,
        )
        self.data_plane_request_handler_pool = KafkaRequestHandlerPool(
            broker_id,
            socket_server.data_plane_request_channel,
            self.data_plane_request_processor,
            self.time,
            config.num_io_threads,
            client_request_gate=self._client_request_gate(broker_id, socket_server, metadata_cache),
        )

    def _client_request_gate(
        self, broker_id: int, socket_server: SocketServer, metadata_cache: ZkMetadataCache
    ) -> ClientRequestGate:
        """Client requests wait until the controller's first UpdateMetadata has reached the metadata cache, so that
        the first Metadata response a client gets names the controller and this broker.

        # PORT: not in Kafka 2.8 (see ClientRequestGate). The wait is bounded by zookeeper.session.timeout.ms: within
        # it a controller that died before this broker started has lost its session and a new one has been elected
        # (and clients' request timeouts are longer than its default)."""
        from kafka.server.kafka_request_handler import ClientRequestGate

        def describe_state() -> str:
            controller_id = metadata_cache.get_controller_id()
            alive = sorted(b.id for b in metadata_cache.get_alive_brokers())
            return f"controller id {-1 if controller_id is None else controller_id}, live brokers {alive}"

        return ClientRequestGate(
            socket_server.data_plane_request_channel,
            metadata_cache.knows_controller_and_this_broker,
            f"the metadata cache knows the controller and the live brokers, this broker ({broker_id}) among them",
            describe_state,
            self.config.zk_session_timeout_ms,
            self.time,
            f"[data-plane Kafka Request Handler on Broker {broker_id}], ",  # the pool's, whose logger it uses
        )

    def _start_dynamic_config(
        self, zk_client: KafkaZkClient, log_manager: LogManager, controller: KafkaController
    ) -> None:
        from kafka.server.config_handler import (
            BrokerConfigHandler,
            ClientIdConfigHandler,
            DynamicLogConfig,
            DynamicSocketServerConfig,
            IpConfigHandler,
            TopicConfigHandler,
            UserConfigHandler,
            dynamic_config_of,
        )
        from kafka.server.dynamic_config_manager import DynamicConfigManager
        from kafka.zk.zk_data import ConfigType

        quota_managers, socket_server = self.quota_managers, self.socket_server
        assert quota_managers is not None and socket_server is not None  # made earlier in start-up
        dynamic_config_of(self.config).add_broker_reconfigurable(DynamicLogConfig(log_manager, controller))
        dynamic_config_of(self.config).add_broker_reconfigurable(DynamicSocketServerConfig(socket_server))
        handlers = {
            ConfigType.TOPIC: TopicConfigHandler(log_manager, self.config, quota_managers, controller),
            ConfigType.CLIENT: ClientIdConfigHandler(quota_managers),
            ConfigType.USER: UserConfigHandler(quota_managers, socket_server.credential_provider),
            ConfigType.BROKER: BrokerConfigHandler(self.config, quota_managers),
            ConfigType.IP: IpConfigHandler(socket_server.connection_quotas),
        }
        self.dynamic_config_manager = DynamicConfigManager(zk_client, handlers)
        self.dynamic_config_manager.startup()

    # ---- shutdown ---------------------------------------------------------------------------------------

    def shutdown(self) -> None:
        """Stops every component in the reverse order of start-up; safe to call more than once."""
        with self._lock:
            if self._is_starting_up.is_set():
                raise RuntimeError("Kafka server is still starting up, cannot shut down!")
            if self._shutdown_latch.get_count() > 0 and not self._is_shutting_down.is_set():
                self._is_shutting_down.set()
                try:
                    self.info("shutting down")
                    self._shutdown()
                finally:
                    self.broker_state = BrokerState.NOT_RUNNING
                    self._startup_complete.clear()
                    self._is_shutting_down.clear()
                    self._shutdown_latch.count_down()
                    self.info("shut down completed")

    def _controlled_shutdown(self, zk_client: KafkaZkClient, controller: KafkaController) -> None:
        """Asks the controller to move this broker's leaderships away before stopping (KafkaServer's
        controlledShutdown): up to `controlled.shutdown.max.retries` attempts, `controlled.shutdown.retry.backoff.ms`
        apart. Failing that, the shutdown goes on uncontrolled, as in Kafka.

        The request goes through a ControllerBrokerChannel (a NetworkClient) on the inter-broker listener."""
        from kafka.common.message import ControlledShutdownRequestData
        from kafka.common.network.channel_builders import ChannelBuilders
        from kafka.common.requests.abstract_request import DataBuilder
        from kafka.common.requests.controlled_shutdown_request import ControlledShutdownRequest
        from kafka.common.utils.log_context import LogContext
        from kafka.controller.controller_channel_manager import ControllerBrokerChannel

        config = self.config
        if not (self._startup_complete.is_set() and config.controlled_shutdown_enable):
            return
        self.info("Starting controlled shutdown")
        self.broker_state = BrokerState.PENDING_CONTROLLED_SHUTDOWN
        succeeded = False
        remaining_retries = config.controlled_shutdown_max_retries
        while not succeeded and remaining_retries > 0:
            remaining_retries -= 1
            controller_id = zk_client.get_controller_id()
            broker = zk_client.get_broker(controller_id) if controller_id is not None else None
            if controller_id is None:
                self.info("No controller registered in ZooKeeper")
            elif broker is None:
                self.info(
                    f"Broker registration for controller {controller_id} is not available "
                    "(i.e. the Controller's ZK session expired)"
                )
            else:
                node = broker.node(config.inter_broker_listener_name)
                channel = ControllerBrokerChannel(
                    node,
                    str(config.broker_id),
                    self.time,
                    config.request_timeout_ms,
                    self.log_ident or "",
                    ChannelBuilders.inter_broker_client_channel_builder(config, self.time, LogContext(self.log_ident)),
                )
                try:
                    channel.connect(config.controller_socket_timeout_ms)
                    data = ControlledShutdownRequestData(
                        broker_id=config.broker_id, broker_epoch=controller.broker_epoch
                    )
                    _, response = channel.send_and_receive(DataBuilder(ControlledShutdownRequest, data, 3))
                    error = Errors.for_code(response.data.error_code)
                    if error is Errors.NONE and not response.data.remaining_partitions:
                        succeeded = True
                        self.info("Controlled shutdown succeeded")
                    else:
                        self.info(f"Remaining partitions to move: {list(response.data.remaining_partitions)}")
                        self.info(f"Error from controller: {error.name}")
                except (OSError, TimeoutError, KafkaException) as e:
                    self.warn(
                        "Error during controlled shutdown, possibly because leader movement took longer than the "
                        f"configured controller.socket.timeout.ms and/or request.timeout.ms: {e}"
                    )
                finally:
                    channel.close_all()
            if not succeeded and remaining_retries > 0:
                self.time.sleep(config.controlled_shutdown_retry_backoff_ms)
                self.warn("Retrying controlled shutdown after the previous attempt failed...")
        if not succeeded:
            self.warn("Proceeding to do an unclean shutdown as all the controlled shutdown attempts failed")

    def _shutdown(self) -> None:
        log = self
        zk_client, controller = self.zk_client, self.kafka_controller
        if controller is not None and zk_client is not None:
            swallow(lambda: self._controlled_shutdown(zk_client, controller), log)
        self.broker_state = BrokerState.SHUTTING_DOWN
        if self.dynamic_config_manager is not None:
            swallow(self.dynamic_config_manager.shutdown, log)
        # Stop taking requests; the socket server itself stops last, after the controller, whose shutdown may
        # still answer requests.
        if self.socket_server is not None:
            swallow(self.socket_server.stop_processing_requests, log)
        if self.data_plane_request_handler_pool is not None:
            swallow(self.data_plane_request_handler_pool.shutdown, log)
        if self.kafka_scheduler is not None:
            swallow(self.kafka_scheduler.shutdown, log)
        if self.data_plane_request_processor is not None:
            swallow(self.data_plane_request_processor.close, log)
        if self.authorizer is not None:
            swallow(self.authorizer.close, log)
        if self.admin_manager is not None:
            swallow(self.admin_manager.shutdown, log)
        if self.token_manager is not None:
            swallow(self.token_manager.shutdown, log)
        # The coordinators stop before the replica manager they write through.
        if self.transaction_coordinator is not None:
            swallow(self.transaction_coordinator.shutdown, log)
        if self.group_coordinator is not None:
            swallow(self.group_coordinator.shutdown, log)
        if self.replica_manager is not None:
            self._replica_manager_shutting_down.set(True)
            swallow(self.replica_manager.shutdown, log)
        if self.alter_isr_manager is not None:
            swallow(self.alter_isr_manager.shutdown, log)
        if self.auto_topic_creation_manager is not None:
            swallow(self.auto_topic_creation_manager.shutdown, log)
        if self.log_manager is not None:
            swallow(self.log_manager.shutdown, log)
        if controller is not None:
            swallow(controller.shutdown, log)
        if self.feature_change_listener is not None:
            swallow(self.feature_change_listener.close, log)
        if zk_client is not None:
            swallow(zk_client.close, log)
        if self.quota_managers is not None:
            swallow(self.quota_managers.shutdown, log)
        if self.socket_server is not None:
            swallow(self.socket_server.shutdown, log)
        swallow(self.broker_topic_stats.close, log)
        if self.prometheus_reporter is not None:
            swallow(self.prometheus_reporter.shutdown, log)
        if self.metrics is not None:
            swallow(self.metrics.close, log)
        dynamic_config = self.config.dynamic_config
        if dynamic_config is not None:
            dynamic_config.clear()

    def await_shutdown(self, timeout_s: float | None = None) -> bool:
        """Blocks until shutdown has completed (or `timeout_s` passes); wakes in short slices so that signal
        handlers run on the main thread."""
        remaining = timeout_s
        while True:
            step = 0.5 if remaining is None else min(0.5, remaining)
            if self._shutdown_latch.await_(step):
                return True
            if remaining is not None:
                remaining -= step
                if remaining <= 0:
                    return False

    @property
    def startup_complete(self) -> bool:
        return self._startup_complete.is_set()

    def bound_port(self, listener_name: ListenerName | str) -> int:
        if self.socket_server is None:
            raise RuntimeError("Kafka server is not started")
        return int(self.socket_server.bound_port(listener_name))


def _generate_cluster_id() -> str:
    """A random uuid in Kafka's base64 form (CoreUtils.generateUuidAsBase64)."""
    from kafka.common.protocol.types import Uuid

    return str(Uuid.from_bytes(uuid.uuid4().bytes))
