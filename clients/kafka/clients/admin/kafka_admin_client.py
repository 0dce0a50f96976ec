"""Port of clients/src/main/java/org/apache/kafka/clients/admin/KafkaAdminClient.java (Kafka 3.7).

The Admin implementation. Each API call becomes one or more Calls, handed to a single network thread
(`kafka-admin-client-thread | {client.id}`) that runs AdminClientRunnable: it chooses a node for each call (the
least loaded broker, the controller, a given broker, or, through the AdminApiDriver, a group coordinator or
partition leader), sends at most one call per node at a time, fails calls whose deadline passed
(default.api.timeout.ms or the call's timeout_ms; each request has at most request.timeout.ms), and retries
retriable failures after retry.backoff.ms (growing to retry.backoff.max.ms) up to `retries` times. Cluster
metadata (nodes and controller) comes from its own Metadata requests, kept by the AdminMetadataManager.

Calls complete KafkaFutures, so any thread may wait on the results; callbacks run on the network thread.

`metrics()` returns the client's metrics as Java's does (admin-client-metrics, admin-client-node-metrics,
app-info).

# PORT: no client telemetry (KIP-714): `client_instance_id()` raises UnsupportedOperationException; no metric
reporters. Java's anonymous Call subclasses are local classes
of the methods that make them. Java's overloaded createInternal is one method with keyword arguments.

The modules of one admin API (its options, result, handler, request and response classes) are imported by the
methods that use them, not here: a process that starts a client for a few calls (a tool, Spark's per-query source
runner) would otherwise import about 270 modules it never uses (0.08 CPU s).
"""

from __future__ import annotations

import functools
import itertools
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from kafka.clients import client_utils
from kafka.clients import common_client_configs as ccc
from kafka.clients.admin.admin_client import AdminClient
from kafka.clients.admin.admin_client_config import AdminClientConfig
from kafka.clients.admin.internals.admin_api_driver import AdminApiDriver
from kafka.clients.admin.internals.admin_bootstrap_addresses import AdminBootstrapAddresses
from kafka.clients.admin.internals.admin_metadata_manager import AdminMetadataManager
from kafka.clients.admin.internals.coordinator_key import CoordinatorKey
from kafka.clients.api_versions import ApiVersions
from kafka.clients.default_host_resolver import DefaultHostResolver
from kafka.common.cluster import Cluster
from kafka.common.config.config_exception import ConfigException
from kafka.common.errors import (
    ApiException,
    DisconnectException,
    InvalidRequestException,
    InvalidTopicException,
    KafkaException,
    KafkaStorageException,
    MismatchedEndpointTypeException,
    RetriableException,
    ThrottlingQuotaExceededException,
    TimeoutException,
    UnknownServerException,
    UnknownTopicOrPartitionException,
    UnsupportedEndpointTypeException,
    UnsupportedVersionException,
)
from kafka.common.kafka_future import KafkaFuture, KafkaFutureImpl
from kafka.common.message import MetadataRequestData
from kafka.common.node import Node
from kafka.common.protocol.errors import Errors
from kafka.common.protocol.types import ZERO_UUID
from kafka.common.requests.abstract_request import Builder, DataBuilder
from kafka.common.requests.api_error import ApiError
from kafka.common.requests.metadata_request import MetadataRequest, MetadataRequestBuilder
from kafka.common.requests.metadata_response import NO_CONTROLLER_ID, MetadataResponse
from kafka.common.security.auth.kafka_principal import KafkaPrincipal
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.app_info_parser import register_app_info, unregister_app_info
from kafka.common.utils.exponential_backoff import ExponentialBackoff
from kafka.common.utils.kafka_thread import KafkaThread
from kafka.common.utils.log_context import LogContext
from kafka.common.utils.time import Time
from kafka.common.utils.utils import java_to_string

if TYPE_CHECKING:
    from kafka.clients.admin.abort_transaction_options import AbortTransactionOptions
    from kafka.clients.admin.abort_transaction_result import AbortTransactionResult
    from kafka.clients.admin.abort_transaction_spec import AbortTransactionSpec
    from kafka.clients.admin.abstract_options import AbstractOptions
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
    from kafka.clients.admin.config_entry import ConfigEntry, ConfigSource, ConfigType
    from kafka.clients.admin.consumer_group_listing import ConsumerGroupListing
    from kafka.clients.admin.create_acls_options import CreateAclsOptions
    from kafka.clients.admin.create_acls_result import CreateAclsResult
    from kafka.clients.admin.create_delegation_token_options import CreateDelegationTokenOptions
    from kafka.clients.admin.create_delegation_token_result import CreateDelegationTokenResult
    from kafka.clients.admin.create_partitions_options import CreatePartitionsOptions
    from kafka.clients.admin.create_partitions_result import CreatePartitionsResult
    from kafka.clients.admin.create_topics_options import CreateTopicsOptions
    from kafka.clients.admin.create_topics_result import CreateTopicsResult, TopicMetadataAndConfig
    from kafka.clients.admin.delete_acls_options import DeleteAclsOptions
    from kafka.clients.admin.delete_acls_result import DeleteAclsResult, FilterResults
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
    from kafka.clients.admin.describe_replica_log_dirs_result import DescribeReplicaLogDirsResult, ReplicaLogDirInfo
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
    from kafka.clients.admin.internals.admin_api_driver import RequestSpec
    from kafka.clients.admin.internals.admin_api_future import AdminApiFuture
    from kafka.clients.admin.internals.admin_api_handler import AdminApiHandler
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
    from kafka.clients.admin.log_dir_description import LogDirDescription
    from kafka.clients.admin.new_partition_reassignment import NewPartitionReassignment
    from kafka.clients.admin.new_partitions import NewPartitions
    from kafka.clients.admin.new_topic import NewTopic
    from kafka.clients.admin.offset_spec import OffsetSpec
    from kafka.clients.admin.partition_reassignment import PartitionReassignment
    from kafka.clients.admin.records_to_delete import RecordsToDelete
    from kafka.clients.admin.renew_delegation_token_options import RenewDelegationTokenOptions
    from kafka.clients.admin.renew_delegation_token_result import RenewDelegationTokenResult
    from kafka.clients.admin.scram_mechanism import ScramMechanism
    from kafka.clients.admin.topic_description import TopicDescription
    from kafka.clients.admin.topic_listing import TopicListing
    from kafka.clients.admin.user_scram_credential_alteration import UserScramCredentialAlteration
    from kafka.clients.client_response import ClientResponse
    from kafka.clients.consumer.offset_and_metadata import OffsetAndMetadata
    from kafka.clients.host_resolver import HostResolver
    from kafka.clients.kafka_client import KafkaClient
    from kafka.common.acl.acl_binding import AclBinding
    from kafka.common.acl.acl_binding_filter import AclBindingFilter
    from kafka.common.config.config_resource import ConfigResource
    from kafka.common.election_type import ElectionType
    from kafka.common.metric import Metric
    from kafka.common.metric_name import MetricName
    from kafka.common.metrics.metrics import Metrics
    from kafka.common.partition_info import PartitionInfo
    from kafka.common.protocol.types import Uuid
    from kafka.common.quota.client_quota_alteration import ClientQuotaAlteration
    from kafka.common.quota.client_quota_entity import ClientQuotaEntity
    from kafka.common.quota.client_quota_filter import ClientQuotaFilter
    from kafka.common.requests import describe_configs_response
    from kafka.common.requests.abstract_response import AbstractResponse
    from kafka.common.requests.describe_log_dirs_response import DescribeLogDirsResponse
    from kafka.common.security.token.delegation import DelegationToken
    from kafka.common.topic_collection import TopicCollection
    from kafka.common.topic_partition_replica import TopicPartitionReplica
    from kafka.common.utils.log_context import KafkaLogger

__all__ = ["Call", "KafkaAdminClient", "NodeProvider", "TimeoutProcessor", "TimeoutProcessorFactory"]

K = TypeVar("K")
V = TypeVar("V")

_INT_MAX = 2**31 - 1
_INT_MIN = -(2**31)
_LONG_MAX = 2**63 - 1

_admin_client_id_sequence = itertools.count(1)
_admin_client_id_lock = threading.Lock()

# An invalid shutdown time: no close has begun.
INVALID_SHUTDOWN_TIME = -1
# The reason of a LeaveGroup sent by the admin client.
DEFAULT_LEAVE_GROUP_REASON = "member was removed by an admin"
# The prefix of the network thread's name.
NETWORK_THREAD_PREFIX = "kafka-admin-client-thread"

# EndpointType (KIP-919) ids of DescribeCluster.
_ENDPOINT_TYPE_BROKER = 1
_ENDPOINT_TYPE_CONTROLLER = 2


def calc_timeout_ms_remaining_as_int(now: int, deadline_ms: int) -> int:
    """The time left before `deadline_ms`, clamped to the int range."""
    delta_ms = deadline_ms - now
    if delta_ms > _INT_MAX:
        return _INT_MAX
    if delta_ms < _INT_MIN:
        return _INT_MIN
    return delta_ms


def generate_client_id(config: AdminClientConfig) -> str:
    """client.id, or `adminclient-N` when not set."""
    client_id = config.get_string(AdminClientConfig.CLIENT_ID_CONFIG)
    if client_id:
        return client_id
    with _admin_client_id_lock:
        return f"adminclient-{next(_admin_client_id_sequence)}"


def pretty_print_exception(throwable: BaseException | None) -> str:
    """An exception as `SimpleClassName: message`."""
    if throwable is None:
        return "Null exception."
    message = str(throwable)
    if message:
        return f"{type(throwable).__name__}: {message}"
    return type(throwable).__name__


def create_log_context(client_id: str) -> LogContext:
    return LogContext(f"[AdminClient clientId={client_id}] ")


def _complete_all_exceptionally(futures: Iterable[KafkaFutureImpl[Any]], exc: BaseException) -> None:
    for future in futures:
        future.complete_exceptionally(exc)


def _complete_unrealized_futures(
    futures: Mapping[K, KafkaFutureImpl[Any]], message_formatter: Callable[[K], str]
) -> None:
    """Fails the futures the response left without a result."""
    for key, future in futures.items():
        if not future.is_done():
            future.complete_exceptionally(ApiException(message_formatter(key)))


def _maybe_complete_quota_exceeded_exception(
    should_retry_on_quota_violation: bool,
    throwable: BaseException,
    futures: Mapping[K, KafkaFutureImpl[Any]],
    quota_exceeded_exceptions: Mapping[K, ThrottlingQuotaExceededException],
    throttle_time_delta: int,
) -> None:
    """When topics retried after THROTTLING_QUOTA_EXCEEDED time out, they fail with the quota error (its throttle
    time reduced by the time spent) rather than the timeout."""
    if should_retry_on_quota_violation and isinstance(throwable, TimeoutException):
        for key, value in quota_exceeded_exceptions.items():
            throttle = max(0, value.throttle_time_ms - throttle_time_delta)
            futures[key].complete_exceptionally(ThrottlingQuotaExceededException(str(value), throttle_time_ms=throttle))


def _topic_name_is_unrepresentable(topic_name: str | None) -> bool:
    return topic_name is None or topic_name == ""


def _topic_id_is_unrepresentable(topic_id: Uuid | None) -> bool:
    return topic_id is None or topic_id == ZERO_UUID


def _config_entry_source(source: int) -> ConfigSource:
    """DescribeConfigsResponse.ConfigSource.forId(id).source(): the admin ConfigSource of a wire source id.

    # PORT: a negative id (a field the response version does not have) reads as UNKNOWN where Java raises."""
    from kafka.clients.admin.config_entry import ConfigSource
    from kafka.common.requests import describe_configs_response

    try:
        wire = describe_configs_response.ConfigSource(source)
    except ValueError:
        return ConfigSource.UNKNOWN
    return _source_of_wire()[wire]


@functools.cache
def _source_of_wire() -> dict[describe_configs_response.ConfigSource, ConfigSource]:
    """The admin ConfigSource of each wire source (made on first use: the describe/create configs modules are
    imported by the calls that need them)."""
    from kafka.clients.admin.config_entry import ConfigSource
    from kafka.common.requests import describe_configs_response

    wire = describe_configs_response.ConfigSource
    return {
        wire.UNKNOWN: ConfigSource.UNKNOWN,
        wire.TOPIC_CONFIG: ConfigSource.DYNAMIC_TOPIC_CONFIG,
        wire.DYNAMIC_BROKER_CONFIG: ConfigSource.DYNAMIC_BROKER_CONFIG,
        wire.DYNAMIC_DEFAULT_BROKER_CONFIG: ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG,
        wire.STATIC_BROKER_CONFIG: ConfigSource.STATIC_BROKER_CONFIG,
        wire.DEFAULT_CONFIG: ConfigSource.DEFAULT_CONFIG,
        wire.DYNAMIC_BROKER_LOGGER_CONFIG: ConfigSource.DYNAMIC_BROKER_LOGGER_CONFIG,
        wire.CLIENT_METRICS_CONFIG: ConfigSource.DYNAMIC_CLIENT_METRICS_CONFIG,
    }


def _config_entry_type(config_type: int) -> ConfigType:
    from kafka.clients.admin.config_entry import ConfigType
    from kafka.common.requests import describe_configs_response

    try:
        return ConfigType[describe_configs_response.ConfigType(config_type).name]
    except ValueError:
        return ConfigType.UNKNOWN


def _create_topics_config_source(source: int) -> ConfigSource:
    """The source of a config in a CreateTopics response (Java's configSource(...) switch), which knows no
    UNKNOWN or client-metrics source."""
    from kafka.clients.admin.config_entry import ConfigSource

    result = _config_entry_source(source)
    if result in (ConfigSource.UNKNOWN, ConfigSource.DYNAMIC_CLIENT_METRICS_CONFIG):
        raise ValueError(f"Unexpected config source {source}")
    return result


def get_offset_from_spec(offset_spec: OffsetSpec) -> int:
    """The ListOffsets timestamp that asks for `offset_spec`."""
    from kafka.clients.admin.offset_spec import EarliestSpec, MaxTimestampSpec, TimestampSpec
    from kafka.common.requests.list_offsets_request import EARLIEST_TIMESTAMP, LATEST_TIMESTAMP, MAX_TIMESTAMP

    if isinstance(offset_spec, TimestampSpec):
        return offset_spec.timestamp
    if isinstance(offset_spec, EarliestSpec):
        return EARLIEST_TIMESTAMP
    if isinstance(offset_spec, MaxTimestampSpec):
        return MAX_TIMESTAMP
    return LATEST_TIMESTAMP


def parse_describe_cluster_response(response: Any) -> Cluster:
    """The Cluster of a DescribeCluster response from a controller endpoint (KIP-919)."""
    api_error = ApiError(response.error_code, response.error_message)
    if api_error.is_failure():
        exc = api_error.exception()
        assert exc is not None
        raise exc
    if response.endpoint_type != _ENDPOINT_TYPE_CONTROLLER:
        raise MismatchedEndpointTypeException(
            f"Expected response from CONTROLLER endpoint, but got response from endpoint type {response.endpoint_type}"
        )
    nodes = []
    controller_node = None
    for broker in response.brokers:
        new_node = Node(broker.broker_id, broker.host, broker.port, broker.rack)
        nodes.append(new_node)
        if broker.broker_id == response.controller_id:
            controller_node = new_node
    return Cluster(response.cluster_id, nodes, [], controller=controller_node)


# -- node providers ----------------------------------------------------------------------------------------------


class NodeProvider(ABC):
    """Chooses the node of a Call; None when none can be chosen yet (the call stays pending)."""

    def __init__(self, admin: KafkaAdminClient) -> None:
        self._admin = admin

    @abstractmethod
    def provide(self) -> Node | None: ...

    def supports_use_controllers(self) -> bool:
        return False


class MetadataUpdateNodeIdProvider(NodeProvider):
    """Any node, even before metadata is known (for the metadata calls themselves)."""

    def provide(self) -> Node | None:
        return self._admin._client.least_loaded_node(self._admin._time.milliseconds())

    def supports_use_controllers(self) -> bool:
        return True


class ConstantNodeIdProvider(NodeProvider):
    """A given node id; while it is not in the metadata, asks for a metadata update and waits."""

    def __init__(self, admin: KafkaAdminClient, node_id: int, supports_use_controllers: bool = False) -> None:
        super().__init__(admin)
        self._node_id = node_id
        self._supports_use_controllers = supports_use_controllers

    def provide(self) -> Node | None:
        manager = self._admin._metadata_manager
        if manager.is_ready():
            node = manager.node_by_id(self._node_id)
            if node is not None:
                return node
        # The node may not be registered yet (a cluster starting up): refresh the metadata and look again.
        manager.request_update()
        return None

    def supports_use_controllers(self) -> bool:
        return self._supports_use_controllers


class ControllerNodeProvider(NodeProvider):
    """The controller."""

    def __init__(self, admin: KafkaAdminClient, supports_use_controllers: bool = False) -> None:
        super().__init__(admin)
        self._supports_use_controllers = supports_use_controllers

    def provide(self) -> Node | None:
        manager = self._admin._metadata_manager
        if manager.is_ready():
            node = manager.controller()
            if node is not None:
                return node
        manager.request_update()
        return None

    def supports_use_controllers(self) -> bool:
        return self._supports_use_controllers


class LeastLoadedNodeProvider(NodeProvider):
    """The least loaded broker, once metadata is known."""

    def provide(self) -> Node | None:
        manager = self._admin._metadata_manager
        if manager.is_ready():
            # None while every node is busy: the call waits.
            return self._admin._client.least_loaded_node(self._admin._time.milliseconds())
        manager.request_update()
        return None


class ConstantBrokerOrActiveKController(NodeProvider):
    """A given broker, or the active controller when talking to controllers (bootstrap.controllers)."""

    def __init__(self, admin: KafkaAdminClient, node_id: int) -> None:
        super().__init__(admin)
        self._node_id = node_id

    def provide(self) -> Node | None:
        manager = self._admin._metadata_manager
        if manager.is_ready():
            if manager.using_bootstrap_controllers():
                return manager.controller()
            node = manager.node_by_id(self._node_id)
            if node is not None:
                return node
        manager.request_update()
        return None

    def supports_use_controllers(self) -> bool:
        return True


class LeastLoadedBrokerOrActiveKController(NodeProvider):
    """The least loaded broker, or the active controller when talking to controllers."""

    def provide(self) -> Node | None:
        manager = self._admin._metadata_manager
        if manager.is_ready():
            if manager.using_bootstrap_controllers():
                return manager.controller()
            return self._admin._client.least_loaded_node(self._admin._time.milliseconds())
        manager.request_update()
        return None

    def supports_use_controllers(self) -> bool:
        return True


# -- calls ---------------------------------------------------------------------------------------------------------


class Call(ABC):
    """One RPC of an admin operation, with its deadline and retry state. Subclasses build the request and
    handle the response or the final failure. Only the admin client's thread touches a Call once queued."""

    def __init__(
        self,
        admin: KafkaAdminClient,
        call_name: str,
        deadline_ms: int,
        node_provider: NodeProvider,
        internal: bool = False,
        next_allowed_try_ms: int = 0,
        tries: int = 0,
    ) -> None:
        self._admin = admin
        self.internal = internal
        self.call_name = call_name
        self.deadline_ms = deadline_ms
        self.node_provider = node_provider
        self.tries = tries
        self.cur_node: Node | None = None
        self.next_allowed_try_ms = next_allowed_try_ms

    def fail(self, now: int, throwable: BaseException) -> None:
        """Handles a failure: retry (after the backoff) if it is retriable and the deadline and retries allow,
        otherwise fail the call."""
        admin = self._admin
        runnable = admin._runnable
        log = admin._log
        if self.cur_node is not None:
            runnable.node_ready_deadlines.pop(self.cur_node, None)
            self.cur_node = None
        # A closing client does not retry.
        if runnable.closing:
            self.handle_failure(throwable)
            return
        # A version downgrade is retried at once and does not count as a try.
        if isinstance(throwable, UnsupportedVersionException) and self.handle_unsupported_version_exception(throwable):
            log.debug(f"{self} attempting protocol downgrade and then retry.")
            runnable.pending_calls.append(self)
            return
        self.next_allowed_try_ms = now + admin._retry_backoff.backoff(self.tries)
        self.tries += 1
        if calc_timeout_ms_remaining_as_int(now, self.deadline_ms) <= 0:
            self.handle_timeout_failure(now, throwable)
            return
        if not isinstance(throwable, RetriableException):
            if log.is_debug_enabled():
                log.debug(
                    f"{self} failed with non-retriable exception after {self.tries} attempt(s)",
                    Exception(pretty_print_exception(throwable)),
                )
            self.handle_failure(throwable)
            return
        if self.tries > admin._max_retries:
            self.handle_timeout_failure(now, throwable)
            return
        if log.is_debug_enabled():
            log.debug(f"{self} failed: {pretty_print_exception(throwable)}. Beginning retry #{self.tries}")
        self.maybe_retry(now, throwable)

    def maybe_retry(self, now: int, throwable: BaseException) -> None:
        self._admin._runnable.pending_calls.append(self)

    def handle_timeout_failure(self, now: int, cause: BaseException) -> None:
        log = self._admin._log
        if log.is_debug_enabled():
            log.debug(
                f"{self} timed out at {now} after {self.tries} attempt(s)", Exception(pretty_print_exception(cause))
            )
        if isinstance(cause, TimeoutException):
            self.handle_failure(cause)
        else:
            timeout = TimeoutException(f"{self} timed out at {now} after {self.tries} attempt(s)")
            timeout.__cause__ = cause
            self.handle_failure(timeout)

    @abstractmethod
    def create_request(self, timeout_ms: int) -> Builder[Any]:
        """The request builder, given the time the request may take."""

    @abstractmethod
    def handle_response(self, abstract_response: AbstractResponse) -> None:
        """Processes the response; an exception raised here fails (or retries) the call."""

    @abstractmethod
    def handle_failure(self, throwable: BaseException) -> None:
        """The call failed for good (not retriable, out of retries, or timed out)."""

    def handle_unsupported_version_exception(self, exception: UnsupportedVersionException) -> bool:
        """Whether the call can try again with another request (e.g. an older API); False fails it."""
        return False

    def is_internal(self) -> bool:
        return self.internal

    def __str__(self) -> str:
        return (
            f"Call(callName={self.call_name}, deadlineMs={self.deadline_ms}, tries={self.tries}, "
            f"nextAllowedTryMs={self.next_allowed_try_ms})"
        )

    __repr__ = __str__


class TimeoutProcessor:
    """Fails the calls whose deadline passed, and tracks the next deadline (for the poll timeout)."""

    def __init__(self, now: int) -> None:
        self._now = now
        self._next_timeout_ms = _INT_MAX

    def handle_timeouts(self, calls: list[Call], msg: str) -> int:
        """Fails and removes the expired calls of `calls`; returns how many."""
        num_timed_out = 0
        kept: list[Call] = []
        expired: list[Call] = []
        for call in calls:
            remaining_ms = calc_timeout_ms_remaining_as_int(self._now, call.deadline_ms)
            if remaining_ms < 0:
                expired.append(call)
                num_timed_out += 1
            else:
                self._next_timeout_ms = min(self._next_timeout_ms, remaining_ms)
                kept.append(call)
        calls[:] = kept
        for call in expired:
            call.fail(self._now, TimeoutException(f"{msg} Call: {call.call_name}"))
        return num_timed_out

    def call_has_expired(self, call: Call) -> bool:
        remaining_ms = calc_timeout_ms_remaining_as_int(self._now, call.deadline_ms)
        if remaining_ms < 0:
            return True
        self._next_timeout_ms = min(self._next_timeout_ms, remaining_ms)
        return False

    def next_timeout_ms(self) -> int:
        return self._next_timeout_ms


class TimeoutProcessorFactory:
    def create(self, now: int) -> TimeoutProcessor:
        return TimeoutProcessor(now)


class AdminClientRunnable:
    """The loop of the network thread. pending_calls, calls_to_send, calls_in_flight, correlation_id_to_calls
    and node_ready_deadlines belong to that thread alone; new_calls and closing are guarded by `_lock`."""

    def __init__(self, admin: KafkaAdminClient) -> None:
        self._admin = admin
        # Calls not yet assigned to a node.
        self.pending_calls: list[Call] = []
        # Calls assigned to a node, waiting to be sent.
        self.calls_to_send: dict[Node, list[Call]] = {}
        # The call in flight on each node (at most one per node).
        self.calls_in_flight: dict[str, Call] = {}
        self.correlation_id_to_calls: dict[int, Call] = {}
        # Calls submitted by other threads, moved to pending_calls by the loop.
        self.new_calls: list[Call] = []
        # The time by which each node with calls waiting (and none in flight) must become ready.
        self.node_ready_deadlines: dict[Node, int] = {}
        self.closing = False
        self._lock = threading.RLock()

    def _timeout_pending_calls(self, processor: TimeoutProcessor) -> None:
        num_timed_out = processor.handle_timeouts(self.pending_calls, "Timed out waiting for a node assignment.")
        if num_timed_out > 0:
            self._admin._log.debug(f"Timed out {num_timed_out} pending calls.")

    def _timeout_calls_to_send(self, processor: TimeoutProcessor) -> int:
        num_timed_out = 0
        for call_list in list(self.calls_to_send.values()):
            num_timed_out += processor.handle_timeouts(call_list, "Timed out waiting to send the call.")
        if num_timed_out > 0:
            self._admin._log.debug(f"Timed out {num_timed_out} call(s) with assigned nodes.")
        return num_timed_out

    def _drain_new_calls(self) -> None:
        with self._lock:
            self._transition_to_pending_and_clear_list(self.new_calls)

    def _transition_to_pending_and_clear_list(self, calls: list[Call]) -> None:
        for call in calls:
            call.cur_node = None
            self.pending_calls.append(call)
        calls.clear()

    def _maybe_drain_pending_calls(self, now: int) -> int:
        """Assigns nodes to the pending calls; returns the time until a backing-off call may be tried."""
        poll_timeout = _LONG_MAX
        log = self._admin._log
        if log.is_trace_enabled():
            log.trace(f"Trying to choose nodes for {self.pending_calls} at {now}")
        kept: list[Call] = []
        calls = self.pending_calls
        self.pending_calls = kept
        for call in calls:
            # A retried call waits out its backoff before it gets a node.
            if now < call.next_allowed_try_ms:
                poll_timeout = min(poll_timeout, call.next_allowed_try_ms - now)
                kept.append(call)
            elif not self._maybe_drain_pending_call(call, now):
                kept.append(call)
        return poll_timeout

    def _maybe_drain_pending_call(self, call: Call, now: int) -> bool:
        """True if the call got a node (or failed); False if it stays pending."""
        log = self._admin._log
        try:
            node = call.node_provider.provide()
            if node is not None:
                log.trace(f"Assigned {call} to node {node}")
                call.cur_node = node
                self.calls_to_send.setdefault(node, []).append(call)
                return True
            log.trace(f"Unable to assign {call} to a node.")
            return False
        except Exception as t:
            # E.g. the fatal error of a failed metadata update.
            log.debug(f"Unable to choose node for {call}", t)
            call.fail(now, t)
            return True

    def _send_eligible_calls(self, now: int) -> int:
        """Sends the first call waiting on each ready node; returns the poll timeout it needs."""
        admin = self._admin
        client = admin._client
        log = admin._log
        poll_timeout = _LONG_MAX
        for node, calls in list(self.calls_to_send.items()):
            if not calls:
                del self.calls_to_send[node]
                continue
            if node.id_string in self.calls_in_flight:
                log.trace(f"Still waiting for other calls to finish on node {node}.")
                self.node_ready_deadlines.pop(node, None)
                continue
            if not client.ready(node, now):
                deadline = self.node_ready_deadlines.get(node)
                if deadline is not None:
                    if now >= deadline:
                        log.info(
                            f"Disconnecting from {node.id_string} and revoking {len(calls)} node assignment(s) "
                            "because the node is taking too long to become ready."
                        )
                        self._transition_to_pending_and_clear_list(calls)
                        client.disconnect(node.id_string)
                        self.node_ready_deadlines.pop(node, None)
                        del self.calls_to_send[node]
                        continue
                    poll_timeout = min(poll_timeout, deadline - now)
                else:
                    self.node_ready_deadlines[node] = now + admin._request_timeout_ms
                node_timeout = client.poll_delay_ms(node, now)
                poll_timeout = min(poll_timeout, node_timeout)
                log.trace(f"Client is not ready to send to {node}. Must delay {node_timeout} ms")
                continue
            # The time spent waiting for the node comes off the request time.
            deadline_ms = self.node_ready_deadlines.pop(node, None)
            if deadline_ms is None:
                remaining_request_time = admin._request_timeout_ms
            else:
                remaining_request_time = calc_timeout_ms_remaining_as_int(now, deadline_ms)
            while calls:
                call = calls.pop(0)
                timeout_ms = min(remaining_request_time, calc_timeout_ms_remaining_as_int(now, call.deadline_ms))
                try:
                    request_builder = call.create_request(timeout_ms)
                except Exception as t:
                    failure = KafkaException(f"Internal error sending {call.call_name} to {node}.")
                    failure.__cause__ = t
                    call.fail(now, failure)
                    continue
                client_request = client.new_client_request(node.id_string, request_builder, now, True, timeout_ms, None)
                if log.is_debug_enabled():
                    log.debug(
                        f"Sending {request_builder} to {node}. correlationId={client_request.correlation_id}, "
                        f"timeoutMs={timeout_ms}"
                    )
                client.send(client_request, now)
                self.calls_in_flight[node.id_string] = call
                self.correlation_id_to_calls[client_request.correlation_id] = call
                break
        return poll_timeout

    def _timeout_calls_in_flight(self, processor: TimeoutProcessor) -> None:
        """Expired calls in flight can only be stopped by closing their connection; the disconnected responses
        of the next poll then fail them."""
        num_timed_out = 0
        for node_id, call in list(self.calls_in_flight.items()):
            if processor.call_has_expired(call):
                self._admin._log.info(f"Disconnecting from {node_id} due to timeout while awaiting {call}")
                self._admin._client.disconnect(node_id)
                num_timed_out += 1
        if num_timed_out > 0:
            self._admin._log.debug(f"Timed out {num_timed_out} call(s) in flight.")

    def _handle_responses(self, now: int, responses: list[ClientResponse]) -> None:
        admin = self._admin
        log = admin._log
        for response in responses:
            correlation_id = response.request_header.correlation_id
            call = self.correlation_id_to_calls.get(correlation_id)
            if call is None:
                # The server answered a request we never sent: close the connection.
                log.error(
                    f"Internal server error on {response.destination}: server returned information about unknown "
                    f"correlation ID {correlation_id}, requestHeader = {response.request_header}"
                )
                admin._client.disconnect(response.destination)
                continue
            del self.correlation_id_to_calls[correlation_id]
            if self.calls_in_flight.get(response.destination) is not call:
                log.error(
                    f"Internal server error on {response.destination}: ignoring call {call} in correlationIdToCall "
                    "that did not exist in callsInFlight"
                )
                continue
            del self.calls_in_flight[response.destination]
            # The call may be retried here after a retriable failure.
            if response.version_mismatch is not None:
                call.fail(now, response.version_mismatch)
            elif response.was_disconnected:
                auth_exception = (
                    admin._client.authentication_exception(call.cur_node) if call.cur_node is not None else None
                )
                if auth_exception is not None:
                    call.fail(now, auth_exception)
                else:
                    call.fail(
                        now,
                        DisconnectException(
                            f"Cancelled {call.call_name} request with correlation id {correlation_id} due to node "
                            f"{response.destination} being disconnected"
                        ),
                    )
            else:
                try:
                    body = response.response_body
                    assert body is not None
                    call.handle_response(body)
                    if log.is_trace_enabled():
                        log.trace(f"{call} got response {body}")
                except Exception as t:
                    if log.is_trace_enabled():
                        log.trace(f"{call} handleResponse failed with {pretty_print_exception(t)}")
                    call.fail(now, t)

    def unassign_unsent_calls(self, should_unassign: Callable[[Node], bool]) -> None:
        """Sends the unsent calls of the nodes `should_unassign` accepts back to pending (to choose again)."""
        for node, awaiting_calls in list(self.calls_to_send.items()):
            if not awaiting_calls:
                del self.calls_to_send[node]
            elif should_unassign(node):
                self.node_ready_deadlines.pop(node, None)
                self._transition_to_pending_and_clear_list(awaiting_calls)
                del self.calls_to_send[node]

    @staticmethod
    def _has_active_external_calls_in(calls: Iterable[Call]) -> bool:
        return any(not call.is_internal() for call in calls)

    def _has_active_external_calls(self) -> bool:
        if self._has_active_external_calls_in(self.pending_calls):
            return True
        for call_list in self.calls_to_send.values():
            if self._has_active_external_calls_in(call_list):
                return True
        return self._has_active_external_calls_in(self.correlation_id_to_calls.values())

    def _thread_should_exit(self, now: int, cur_hard_shutdown_time_ms: int) -> bool:
        log = self._admin._log
        if not self._has_active_external_calls():
            log.trace("All work has been completed, and the I/O thread is now exiting.")
            return True
        if now >= cur_hard_shutdown_time_ms:
            log.info("Forcing a hard I/O thread shutdown. Requests in progress will be aborted.")
            return True
        log.debug(f"Hard shutdown in {cur_hard_shutdown_time_ms - now} ms.")
        return False

    def run(self) -> None:
        admin = self._admin
        log = admin._log
        log.debug("Thread starting")
        try:
            self._process_requests()
        finally:
            with self._lock:
                self.closing = True
            num_timed_out = 0
            timeout_processor = TimeoutProcessor(_LONG_MAX)
            with self._lock:
                num_timed_out += timeout_processor.handle_timeouts(self.new_calls, "The AdminClient thread has exited.")
            num_timed_out += timeout_processor.handle_timeouts(self.pending_calls, "The AdminClient thread has exited.")
            num_timed_out += self._timeout_calls_to_send(timeout_processor)
            in_flight = list(self.correlation_id_to_calls.values())
            self.correlation_id_to_calls.clear()
            num_timed_out += timeout_processor.handle_timeouts(in_flight, "The AdminClient thread has exited.")
            if num_timed_out > 0:
                log.info(f"Timed out {num_timed_out} remaining operation(s) during close.")
            try:
                admin._client.close()
            except Exception as e:
                log.error("Failed to close KafkaClient with type NetworkClient", e)
            try:
                admin._metrics.close()
            except Exception as e:
                log.error("Failed to close Metrics with type Metrics", e)
            unregister_app_info(admin.JMX_PREFIX, admin._client_id, admin._metrics)
            log.debug("Exiting AdminClientRunnable thread.")

    def _process_requests(self) -> None:
        admin = self._admin
        log = admin._log
        now = admin._time.milliseconds()
        while True:
            self._drain_new_calls()

            cur_hard_shutdown_time_ms = admin._hard_shutdown_time_ms()
            if cur_hard_shutdown_time_ms != INVALID_SHUTDOWN_TIME and self._thread_should_exit(
                now, cur_hard_shutdown_time_ms
            ):
                break

            timeout_processor = admin._timeout_processor_factory.create(now)
            self._timeout_pending_calls(timeout_processor)
            self._timeout_calls_to_send(timeout_processor)
            self._timeout_calls_in_flight(timeout_processor)

            poll_timeout = min(1200000, timeout_processor.next_timeout_ms())
            if cur_hard_shutdown_time_ms != INVALID_SHUTDOWN_TIME:
                poll_timeout = min(poll_timeout, cur_hard_shutdown_time_ms - now)

            # Choose nodes for the pending calls.
            poll_timeout = min(poll_timeout, self._maybe_drain_pending_calls(now))
            metadata_fetch_delay_ms = admin._metadata_manager.metadata_fetch_delay_ms(now)
            if metadata_fetch_delay_ms == 0:
                admin._metadata_manager.transition_to_update_pending(now)
                metadata_call = self._make_metadata_call(now)
                # The other pending calls got their chance above; only the new call is assigned here.
                if not self._maybe_drain_pending_call(metadata_call, now):
                    self.pending_calls.append(metadata_call)
            poll_timeout = min(poll_timeout, self._send_eligible_calls(now))
            if metadata_fetch_delay_ms > 0:
                poll_timeout = min(poll_timeout, metadata_fetch_delay_ms)
            # Pending calls need a node soon: poll briefly.
            if self.pending_calls:
                poll_timeout = min(poll_timeout, admin._retry_backoff_ms)

            log.trace(f"Entering KafkaClient#poll(timeout={poll_timeout})")
            responses = admin._client.poll(max(0, poll_timeout), now)
            log.trace(f"KafkaClient#poll retrieved {len(responses)} response(s)")

            # Calls waiting on disconnected nodes choose again.
            self.unassign_unsent_calls(admin._client.connection_failed)

            now = admin._time.milliseconds()
            self._handle_responses(now, responses)

    def enqueue(self, call: Call, now: int) -> None:
        """Queues a call (also a retry); fails it if the thread has exited."""
        admin = self._admin
        log = admin._log
        if call.tries > admin._max_retries:
            log.debug(f"Max retries {admin._max_retries} for {call} reached")
            call.handle_timeout_failure(
                admin._time.milliseconds(), TimeoutException(f"Exceeded maxRetries after {call.tries} tries.")
            )
            return
        if log.is_debug_enabled():
            log.debug(
                f"Queueing {call} with a timeout {min(admin._request_timeout_ms, call.deadline_ms - now)} ms from now."
            )
        accepted = False
        with self._lock:
            if not self.closing:
                self.new_calls.append(call)
                accepted = True
        if accepted:
            admin._client.wakeup()  # the thread may be blocked in poll
        else:
            log.debug(f"The AdminClient thread has exited. Timing out {call}.")
            call.handle_timeout_failure(
                admin._time.milliseconds(), TimeoutException("The AdminClient thread has exited.")
            )

    def call(self, call: Call, now: int) -> None:
        """Starts a new call; fails it if the client is closing."""
        admin = self._admin
        if admin._hard_shutdown_time_ms() != INVALID_SHUTDOWN_TIME:
            admin._log.debug(f"Cannot accept new call {call} when AdminClient is closing.")
            call.handle_failure(RuntimeError("Cannot accept new calls when AdminClient is closing."))
        elif (
            admin._metadata_manager.using_bootstrap_controllers() and not call.node_provider.supports_use_controllers()
        ):
            call.fail(
                now,
                UnsupportedEndpointTypeException(
                    "This Admin API is not yet supported when communicating directly with the controller quorum."
                ),
            )
        else:
            self.enqueue(call, now)

    def _make_metadata_call(self, now: int) -> Call:
        if self._admin._metadata_manager.using_bootstrap_controllers():
            return self._make_controller_metadata_call(now)
        return self._make_broker_metadata_call(now)

    def _make_controller_metadata_call(self, now: int) -> Call:
        from kafka.common.message import DescribeClusterRequestData
        from kafka.common.requests.describe_cluster_request import DescribeClusterRequest
        from kafka.common.requests.describe_cluster_response import DescribeClusterResponse

        admin = self._admin
        runnable = self

        # DescribeCluster to a controller endpoint, as KIP-919 specifies.
        class _DescribeClusterCall(Call):
            def create_request(self, timeout_ms: int) -> Builder[Any]:
                return DataBuilder(
                    DescribeClusterRequest,
                    DescribeClusterRequestData(
                        include_cluster_authorized_operations=False, endpoint_type=_ENDPOINT_TYPE_CONTROLLER
                    ),
                )

            def handle_response(self, abstract_response: AbstractResponse) -> None:
                assert isinstance(abstract_response, DescribeClusterResponse)
                try:
                    cluster = parse_describe_cluster_response(abstract_response.data)
                except ApiException as e:
                    self.handle_failure(e)
                    return
                admin._metadata_manager.update(cluster, admin._time.milliseconds())
                # Unsent calls choose their node again from the new metadata.
                runnable.unassign_unsent_calls(lambda node: True)

            def handle_unsupported_version_exception(self, exception: UnsupportedVersionException) -> bool:
                admin._metadata_manager.update_failed(exception)
                return False

            def handle_failure(self, throwable: BaseException) -> None:
                admin._metadata_manager.update_failed(throwable)

        return _DescribeClusterCall(
            admin,
            "describeCluster",
            admin._calc_deadline_ms(now, admin._request_timeout_ms),
            MetadataUpdateNodeIdProvider(admin),
            internal=True,
        )

    def _make_broker_metadata_call(self, now: int) -> Call:
        admin = self._admin
        runnable = self

        # Metadata rather than DescribeCluster, so that brokers too old for DescribeCluster still serve it.
        class _FetchMetadataCall(Call):
            def create_request(self, timeout_ms: int) -> Builder[Any]:
                # Only nodes are asked for, so allowing auto-creation is harmless (and suits old brokers).
                return MetadataRequestBuilder(data=MetadataRequestData(topics=[], allow_auto_topic_creation=True))

            def handle_response(self, abstract_response: AbstractResponse) -> None:
                assert isinstance(abstract_response, MetadataResponse)
                admin._metadata_manager.update(abstract_response.build_cluster(), admin._time.milliseconds())
                # Unsent calls choose their node again from the new metadata.
                runnable.unassign_unsent_calls(lambda node: True)

            def handle_unsupported_version_exception(self, exception: UnsupportedVersionException) -> bool:
                admin._metadata_manager.update_failed(exception)
                return False

            def handle_failure(self, throwable: BaseException) -> None:
                admin._metadata_manager.update_failed(throwable)

        return _FetchMetadataCall(
            admin,
            "fetchMetadata",
            admin._calc_deadline_ms(now, admin._request_timeout_ms),
            MetadataUpdateNodeIdProvider(admin),
            internal=True,
        )


# -- the client ----------------------------------------------------------------------------------------------------


class KafkaAdminClient(AdminClient):
    """The admin client. Thread-safe: any thread may start calls and wait on their futures."""

    NETWORK_THREAD_PREFIX = NETWORK_THREAD_PREFIX
    JMX_PREFIX = "kafka.admin.client"
    DEFAULT_LEAVE_GROUP_REASON = DEFAULT_LEAVE_GROUP_REASON

    @staticmethod
    def create_internal(
        config: AdminClientConfig,
        timeout_processor_factory: TimeoutProcessorFactory | None = None,
        host_resolver: HostResolver | None = None,
        *,
        metadata_manager: AdminMetadataManager | None = None,
        client: KafkaClient | None = None,
        time: Time | None = None,
    ) -> KafkaAdminClient:
        """A KafkaAdminClient with its own NetworkClient; or, given `metadata_manager`, `client` and `time` (as
        tests do), one over that client."""
        client_id = generate_client_id(config)
        log_context = create_log_context(client_id)
        system_time = Time.SYSTEM if time is None else time
        metrics = client_utils.create_metrics(config, client_id, system_time)
        if client is not None:
            if metadata_manager is None or time is None:
                raise ValueError("A client needs a metadata_manager and a time")
            try:
                return KafkaAdminClient(
                    config,
                    client_id,
                    time,
                    metadata_manager,
                    client,
                    timeout_processor_factory,
                    log_context,
                    metrics=metrics,
                )
            except Exception as exc:
                raise KafkaException("Failed to create new KafkaAdminClient") from exc
        network_client = None
        api_versions = ApiVersions()
        try:
            admin_addresses = AdminBootstrapAddresses.from_config(config)
            manager = AdminMetadataManager(
                log_context,
                config.get_long(AdminClientConfig.RETRY_BACKOFF_MS_CONFIG),
                config.get_long(AdminClientConfig.METADATA_MAX_AGE_CONFIG),
                admin_addresses.using_bootstrap_controllers,
            )
            manager.update(Cluster.bootstrap(admin_addresses.addresses), system_time.milliseconds())
            network_client = client_utils.create_network_client(
                config,
                log_context,
                api_versions,
                system_time,
                1,
                client_id=client_id,
                request_timeout_ms=3600 * 1000,
                metadata_updater=manager.updater(),
                host_resolver=DefaultHostResolver() if host_resolver is None else host_resolver,
                metrics=metrics,
                metrics_grp_prefix="admin-client",
            )
            return KafkaAdminClient(
                config,
                client_id,
                system_time,
                manager,
                network_client,
                timeout_processor_factory,
                log_context,
                metrics=metrics,
            )
        except ConfigException:
            # PORT: a configuration mistake stays a ConfigException, so that the user sees what is wrong.
            if network_client is not None:
                network_client.close()
            raise
        except Exception as exc:
            if network_client is not None:
                network_client.close()
            raise KafkaException("Failed to create new KafkaAdminClient") from exc

    def __init__(
        self,
        config: AdminClientConfig,
        client_id: str,
        time: Time,
        metadata_manager: AdminMetadataManager,
        client: KafkaClient,
        timeout_processor_factory: TimeoutProcessorFactory | None,
        log_context: LogContext,
        *,
        metrics: Metrics | None = None,
    ) -> None:
        """Use Admin.create (or create_internal): this starts the network thread."""
        self._client_id = client_id
        self._metrics = metrics if metrics is not None else client_utils.create_metrics(config, client_id, time)
        self._log: KafkaLogger = log_context.logger("org.apache.kafka.clients.admin.KafkaAdminClient")
        self._log_context = log_context
        self._request_timeout_ms = config.get_int(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG)
        self._default_api_timeout_ms = self._configure_default_api_timeout_ms(config)
        self._time = time
        self._metadata_manager = metadata_manager
        self._client = client
        self._hard_shutdown_lock = threading.Lock()
        self._hard_shutdown_time = INVALID_SHUTDOWN_TIME
        self._runnable = AdminClientRunnable(self)
        thread_name = f"{NETWORK_THREAD_PREFIX} | {client_id}"
        self._thread = KafkaThread(thread_name, self._runnable.run, True)
        self._timeout_processor_factory = (
            TimeoutProcessorFactory() if timeout_processor_factory is None else timeout_processor_factory
        )
        self._max_retries = config.get_int(AdminClientConfig.RETRIES_CONFIG)
        self._retry_backoff_ms = config.get_long(AdminClientConfig.RETRY_BACKOFF_MS_CONFIG)
        self._retry_backoff_max_ms = config.get_long(AdminClientConfig.RETRY_BACKOFF_MAX_MS_CONFIG)
        self._retry_backoff = ExponentialBackoff(
            self._retry_backoff_ms, ccc.RETRY_BACKOFF_EXP_BASE, self._retry_backoff_max_ms, ccc.RETRY_BACKOFF_JITTER
        )
        config.log_unused()
        register_app_info(self.JMX_PREFIX, client_id, self._metrics, time.milliseconds())
        self._log.debug("Kafka admin client initialized")
        self._thread.start()

    def _configure_default_api_timeout_ms(self, config: AdminClientConfig) -> int:
        """default.api.timeout.ms, which may not be below request.timeout.ms: set explicitly, that is an error;
        left at its default, it is raised to request.timeout.ms with a warning."""
        request_timeout_ms = config.get_int(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG)
        default_api_timeout_ms = config.get_int(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG)
        if default_api_timeout_ms < request_timeout_ms:
            if AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG in config.originals():
                raise ConfigException(
                    f"The specified value of {AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG} must be no smaller "
                    f"than the value of {AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG}."
                )
            self._log.warn(
                f"Overriding the default value for {AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG} "
                f"({default_api_timeout_ms}) with the explicitly configured request timeout {request_timeout_ms}"
            )
            return request_timeout_ms
        return default_api_timeout_ms

    @property
    def client_id(self) -> str:
        return self._client_id

    def metrics(self) -> Mapping[MetricName, Metric]:
        """The client's metrics by name (a snapshot of the map; each Metric's metric_value() is read live)."""
        return self._metrics.metrics()

    def num_pending_calls(self) -> int:
        """For tests: the calls waiting for a node."""
        return len(self._runnable.pending_calls)

    def _hard_shutdown_time_ms(self) -> int:
        with self._hard_shutdown_lock:
            return self._hard_shutdown_time

    def _calc_deadline_ms(self, now: int, option_timeout_ms: int | None) -> int:
        if option_timeout_ms is not None:
            return now + max(0, option_timeout_ms)
        return now + self._default_api_timeout_ms

    # -- closing ------------------------------------------------------------------------------------------------

    def close(self, timeout_ms: int | None = None) -> None:
        """Stops accepting calls; waits up to `timeout_ms` (None: without limit) for the calls in progress, then
        fails the rest and stops the thread. Called from a callback (the admin thread) it does not wait."""
        wait_time_ms = _LONG_MAX if timeout_ms is None else timeout_ms
        if wait_time_ms < 0:
            raise ValueError("The timeout cannot be negative.")
        wait_time_ms = min(365 * 24 * 3600 * 1000, wait_time_ms)  # at most a year
        now = self._time.milliseconds()
        new_hard_shutdown_time_ms = now + wait_time_ms
        with self._hard_shutdown_lock:
            prev = self._hard_shutdown_time
            if prev == INVALID_SHUTDOWN_TIME:
                self._log.debug("Initiating close operation.")
                self._hard_shutdown_time = new_hard_shutdown_time_ms
            elif prev > new_hard_shutdown_time_ms:
                self._log.debug("Moving hard shutdown time forward.")
                self._hard_shutdown_time = new_hard_shutdown_time_ms
            else:
                self._log.debug("Hard shutdown time is already earlier than requested.")
                new_hard_shutdown_time_ms = prev
        self._client.wakeup()  # the thread may be blocked in poll
        if self._log.is_debug_enabled():
            delta_ms = max(0, new_hard_shutdown_time_ms - self._time.milliseconds())
            self._log.debug(f"Waiting for the I/O thread to exit. Hard shutdown in {delta_ms} ms.")
        # The admin thread closing its own client (from a callback) cannot wait for itself.
        if threading.current_thread() is not self._thread:
            self._thread.join(wait_time_ms / 1000.0)
        self._log.debug("Kafka admin client closed.")

    # -- topics -------------------------------------------------------------------------------------------------

    def create_topics(
        self, new_topics: Collection[NewTopic], options: CreateTopicsOptions | None = None
    ) -> CreateTopicsResult:
        from kafka.clients.admin.create_topics_options import CreateTopicsOptions
        from kafka.clients.admin.create_topics_result import CreateTopicsResult

        options = CreateTopicsOptions() if options is None else options
        topic_futures: dict[str, KafkaFutureImpl[TopicMetadataAndConfig]] = {}
        topics: list[Any] = []
        for new_topic in new_topics:
            if _topic_name_is_unrepresentable(new_topic.name):
                future: KafkaFutureImpl[TopicMetadataAndConfig] = KafkaFutureImpl()
                future.complete_exceptionally(
                    InvalidTopicException(
                        f"The given topic name '{new_topic.name}' cannot be represented in a request."
                    )
                )
                topic_futures[new_topic.name] = future
            elif new_topic.name not in topic_futures:
                topic_futures[new_topic.name] = KafkaFutureImpl()
                topics.append(new_topic.convert_to_creatable_topic())
        if topics:
            now = self._time.milliseconds()
            deadline = self._calc_deadline_ms(now, options.timeout_ms())
            call = self._get_create_topics_call(options, topic_futures, topics, {}, now, deadline)
            self._runnable.call(call, now)
        return CreateTopicsResult(dict(topic_futures))

    def _get_create_topics_call(
        self,
        options: CreateTopicsOptions,
        futures: dict[str, KafkaFutureImpl[TopicMetadataAndConfig]],
        topics: list[Any],
        quota_exceeded_exceptions: Mapping[str, ThrottlingQuotaExceededException],
        now: int,
        deadline: int,
    ) -> Call:
        from kafka.clients.admin.config import Config
        from kafka.clients.admin.config_entry import ConfigEntry, ConfigType
        from kafka.clients.admin.create_topics_result import UNKNOWN, TopicMetadataAndConfig
        from kafka.clients.admin.internals.request_builders import CreateTopicsRequestBuilder
        from kafka.common.message import CreateTopicsRequestData
        from kafka.common.requests.create_topics_response import CreateTopicsResponse

        admin = self

        class _CreateTopicsCall(Call):
            def create_request(self, timeout_ms: int) -> Builder[Any]:
                return CreateTopicsRequestBuilder(
                    CreateTopicsRequestData(
                        topics=list(topics),
                        timeout_ms=timeout_ms,
                        validate_only=options.should_validate_only(),
                    )
                )

            def handle_response(self, abstract_response: AbstractResponse) -> None:
                admin._handle_not_controller_error(abstract_response)
                assert isinstance(abstract_response, CreateTopicsResponse)
                response = abstract_response
                retry_topics: list[Any] = []
                retry_topic_quota_exceeded_exceptions: dict[str, ThrottlingQuotaExceededException] = {}
                for result in response.data.topics:
                    future = futures.get(result.name)
                    if future is None:
                        admin._log.warn(f"Server response mentioned unknown topic {result.name}")
                        continue
                    error = ApiError(result.error_code, result.error_message)
                    if error.is_failure():
                        if error.is_(Errors.THROTTLING_QUOTA_EXCEEDED):
                            quota_exceeded_exception = ThrottlingQuotaExceededException(
                                error.message_with_fallback(), throttle_time_ms=response.throttle_time_ms()
                            )
                            if options.should_retry_on_quota_violation():
                                retry_topics.extend(t for t in topics if t.name == result.name)
                                retry_topic_quota_exceeded_exceptions[result.name] = quota_exceeded_exception
                            else:
                                future.complete_exceptionally(quota_exceeded_exception)
                        else:
                            exc = error.exception()
                            assert exc is not None
                            future.complete_exceptionally(exc)
                    else:
                        if result.topic_config_error_code != Errors.NONE.code:
                            config_exc = Errors.for_code(result.topic_config_error_code).exception()
                            assert config_exc is not None
                            topic_metadata_and_config = TopicMetadataAndConfig(config_exc)
                        elif result.num_partitions == UNKNOWN:
                            topic_metadata_and_config = TopicMetadataAndConfig(
                                UnsupportedVersionException(
                                    "Topic metadata and configs in CreateTopics response not supported"
                                )
                            )
                        else:
                            topic_config = Config(self._config_entry(c) for c in result.configs)
                            topic_metadata_and_config = TopicMetadataAndConfig(
                                result.topic_id, result.num_partitions, result.replication_factor, topic_config
                            )
                        future.complete(topic_metadata_and_config)
                # Retry the throttled topics; otherwise check that every topic was answered.
                if not retry_topics:
                    _complete_unrealized_futures(
                        futures, lambda topic: f"The controller response did not contain a result for topic {topic}"
                    )
                else:
                    now2 = admin._time.milliseconds()
                    call = admin._get_create_topics_call(
                        options, futures, retry_topics, retry_topic_quota_exceeded_exceptions, now2, deadline
                    )
                    admin._runnable.call(call, now2)

            @staticmethod
            def _config_entry(config: Any) -> ConfigEntry:
                return ConfigEntry(
                    config.name,
                    config.value,
                    _create_topics_config_source(config.config_source),
                    config.is_sensitive,
                    config.read_only,
                    (),
                    ConfigType.UNKNOWN,
                    None,
                )

            def handle_failure(self, throwable: BaseException) -> None:
                # Topics retried after a quota error fail with that error if the retry timed out.
                _maybe_complete_quota_exceeded_exception(
                    options.should_retry_on_quota_violation(),
                    throwable,
                    futures,
                    quota_exceeded_exceptions,
                    admin._time.milliseconds() - now,
                )
                _complete_all_exceptionally(futures.values(), throwable)

        return _CreateTopicsCall(self, "createTopics", deadline, ControllerNodeProvider(self))

    def delete_topics(
        self, topics: Collection[str] | TopicCollection, options: DeleteTopicsOptions | None = None
    ) -> DeleteTopicsResult:
        """Deletes topics named in `topics` (names, or a TopicCollection of names or ids)."""
        from kafka.clients.admin.delete_topics_options import DeleteTopicsOptions
        from kafka.clients.admin.delete_topics_result import DeleteTopicsResult
        from kafka.common.topic_collection import TopicCollection, TopicIdCollection, TopicNameCollection

        options = DeleteTopicsOptions() if options is None else options
        if isinstance(topics, TopicIdCollection):
            return DeleteTopicsResult.of_topic_ids(self._handle_delete_topics_using_ids(topics.topic_ids, options))
        if isinstance(topics, TopicNameCollection):
            return DeleteTopicsResult.of_topic_names(
                self._handle_delete_topics_using_names(topics.topic_names, options)
            )
        if isinstance(topics, TopicCollection) or isinstance(topics, (str, bytes)):
            raise ValueError(
                f"The TopicCollection: {topics} provided did not match any supported classes for deleteTopics."
            )
        return DeleteTopicsResult.of_topic_names(self._handle_delete_topics_using_names(list(topics), options))

    def _handle_delete_topics_using_names(
        self, topic_names: Iterable[str], options: DeleteTopicsOptions
    ) -> dict[str, KafkaFuture[None]]:
        topic_futures: dict[str, KafkaFutureImpl[None]] = {}
        valid_topic_names: list[str] = []
        for topic_name in topic_names:
            if _topic_name_is_unrepresentable(topic_name):
                future: KafkaFutureImpl[None] = KafkaFutureImpl()
                future.complete_exceptionally(
                    InvalidTopicException(f"The given topic name '{topic_name}' cannot be represented in a request.")
                )
                topic_futures[topic_name] = future
            elif topic_name not in topic_futures:
                topic_futures[topic_name] = KafkaFutureImpl()
                valid_topic_names.append(topic_name)
        if valid_topic_names:
            now = self._time.milliseconds()
            deadline = self._calc_deadline_ms(now, options.timeout_ms())
            call = self._get_delete_topics_call(options, topic_futures, valid_topic_names, {}, now, deadline, False)
            self._runnable.call(call, now)
        return dict(topic_futures)

    def _handle_delete_topics_using_ids(
        self, topic_ids: Iterable[Uuid], options: DeleteTopicsOptions
    ) -> dict[Uuid, KafkaFuture[None]]:
        topic_futures: dict[Uuid, KafkaFutureImpl[None]] = {}
        valid_topic_ids: list[Uuid] = []
        for topic_id in topic_ids:
            if topic_id == ZERO_UUID:
                future: KafkaFutureImpl[None] = KafkaFutureImpl()
                future.complete_exceptionally(
                    InvalidTopicException(f"The given topic ID '{topic_id}' cannot be represented in a request.")
                )
                topic_futures[topic_id] = future
            elif topic_id not in topic_futures:
                topic_futures[topic_id] = KafkaFutureImpl()
                valid_topic_ids.append(topic_id)
        if valid_topic_ids:
            now = self._time.milliseconds()
            deadline = self._calc_deadline_ms(now, options.timeout_ms())
            call = self._get_delete_topics_call(options, topic_futures, valid_topic_ids, {}, now, deadline, True)
            self._runnable.call(call, now)
        return dict(topic_futures)

    def _get_delete_topics_call(
        self,
        options: DeleteTopicsOptions,
        futures: dict[Any, KafkaFutureImpl[None]],
        topics: list[Any],
        quota_exceeded_exceptions: Mapping[Any, ThrottlingQuotaExceededException],
        now: int,
        deadline: int,
        by_id: bool,
    ) -> Call:
        """The deleteTopics call for topic names or (with `by_id`) topic ids (Java's getDeleteTopicsCall and
        getDeleteTopicsWithIdsCall)."""
        from kafka.clients.admin.internals.request_builders import DeleteTopicsRequestBuilder
        from kafka.common.message import DeleteTopicsRequestData
        from kafka.common.requests.delete_topics_response import DeleteTopicsResponse

        admin = self

        class _DeleteTopicsCall(Call):
            def create_request(self, timeout_ms: int) -> Builder[Any]:
                if by_id:
                    return DeleteTopicsRequestBuilder(
                        DeleteTopicsRequestData(
                            topics=[DeleteTopicsRequestData.DeleteTopicState(topic_id=t, name=None) for t in topics],
                            timeout_ms=timeout_ms,
                        )
                    )
                return DeleteTopicsRequestBuilder(
                    DeleteTopicsRequestData(topic_names=list(topics), timeout_ms=timeout_ms)
                )

            def handle_response(self, abstract_response: AbstractResponse) -> None:
                admin._handle_not_controller_error(abstract_response)
                assert isinstance(abstract_response, DeleteTopicsResponse)
                response = abstract_response
                retry_topics: list[Any] = []
                retry_topic_quota_exceeded_exceptions: dict[Any, ThrottlingQuotaExceededException] = {}
                for result in response.data.responses:
                    key = result.topic_id if by_id else result.name
                    future = futures.get(key)
                    if future is None:
                        if by_id:
                            admin._log.warn(f"Server response mentioned unknown topic ID {result.topic_id}")
                        else:
                            admin._log.warn(f"Server response mentioned unknown topic {result.name}")
                        continue
                    error = ApiError(result.error_code, result.error_message)
                    if error.is_failure():
                        if error.is_(Errors.THROTTLING_QUOTA_EXCEEDED):
                            quota_exceeded_exception = ThrottlingQuotaExceededException(
                                error.message_with_fallback(), throttle_time_ms=response.throttle_time_ms()
                            )
                            if options.should_retry_on_quota_violation():
                                retry_topics.append(key)
                                retry_topic_quota_exceeded_exceptions[key] = quota_exceeded_exception
                            else:
                                future.complete_exceptionally(quota_exceeded_exception)
                        else:
                            exc = error.exception()
                            assert exc is not None
                            future.complete_exceptionally(exc)
                    else:
                        future.complete(None)
                if not retry_topics:
                    _complete_unrealized_futures(
                        futures, lambda topic: f"The controller response did not contain a result for topic {topic}"
                    )
                else:
                    now2 = admin._time.milliseconds()
                    call = admin._get_delete_topics_call(
                        options, futures, retry_topics, retry_topic_quota_exceeded_exceptions, now2, deadline, by_id
                    )
                    admin._runnable.call(call, now2)

            def handle_failure(self, throwable: BaseException) -> None:
                _maybe_complete_quota_exceeded_exception(
                    options.should_retry_on_quota_violation(),
                    throwable,
                    futures,
                    quota_exceeded_exceptions,
                    admin._time.milliseconds() - now,
                )
                _complete_all_exceptionally(futures.values(), throwable)

        return _DeleteTopicsCall(self, "deleteTopics", deadline, ControllerNodeProvider(self))

    def list_topics(self, options: ListTopicsOptions | None = None) -> ListTopicsResult:
        from kafka.clients.admin.list_topics_options import ListTopicsOptions
        from kafka.clients.admin.list_topics_result import ListTopicsResult
        from kafka.clients.admin.topic_listing import TopicListing

        opts: ListTopicsOptions = ListTopicsOptions() if options is None else options
        topic_listing_future: KafkaFutureImpl[dict[str, TopicListing]] = KafkaFutureImpl()
        now = self._time.milliseconds()

        class _ListTopicsCall(Call):
            def create_request(self, timeout_ms: int) -> Builder[Any]:
                return MetadataRequestBuilder.all_topics()

            def handle_response(self, abstract_response: AbstractResponse) -> None:
                assert isinstance(abstract_response, MetadataResponse)
                topic_listing: dict[str, TopicListing] = {}
                for metadata in abstract_response.topic_metadata():
                    if not metadata.is_internal or opts.should_list_internal():
                        topic_listing[metadata.topic] = TopicListing(
                            metadata.topic, metadata.topic_id, metadata.is_internal
                        )
                topic_listing_future.complete(topic_listing)

            def handle_failure(self, throwable: BaseException) -> None:
                topic_listing_future.complete_exceptionally(throwable)

        self._runnable.call(
            _ListTopicsCall(
                self, "listTopics", self._calc_deadline_ms(now, opts.timeout_ms()), LeastLoadedNodeProvider(self)
            ),
            now,
        )
        return ListTopicsResult(topic_listing_future)

    def describe_topics(
        self, topics: Collection[str] | TopicCollection, options: DescribeTopicsOptions | None = None
    ) -> DescribeTopicsResult:
        """Describes topics named in `topics` (names, or a TopicCollection of names or ids)."""
        from kafka.clients.admin.describe_topics_options import DescribeTopicsOptions
        from kafka.clients.admin.describe_topics_result import DescribeTopicsResult
        from kafka.common.topic_collection import TopicCollection, TopicIdCollection, TopicNameCollection

        options = DescribeTopicsOptions() if options is None else options
        if isinstance(topics, TopicIdCollection):
            return DescribeTopicsResult.of_topic_ids(self._handle_describe_topics_by_ids(topics.topic_ids, options))
        if isinstance(topics, TopicNameCollection):
            return DescribeTopicsResult.of_topic_names(
                self._handle_describe_topics_by_names(topics.topic_names, options)
            )
        if isinstance(topics, TopicCollection) or isinstance(topics, (str, bytes)):
            raise ValueError(
                f"The TopicCollection: {topics} provided did not match any supported classes for describeTopics."
            )
        return DescribeTopicsResult.of_topic_names(self._handle_describe_topics_by_names(list(topics), options))

    def _handle_describe_topics_by_names(
        self, topic_names: Iterable[str], options: DescribeTopicsOptions
    ) -> dict[str, KafkaFuture[TopicDescription]]:
        admin = self
        topic_futures: dict[str, KafkaFutureImpl[TopicDescription]] = {}
        topic_names_list: list[str] = []
        for topic_name in topic_names:
            if _topic_name_is_unrepresentable(topic_name):
                future: KafkaFutureImpl[TopicDescription] = KafkaFutureImpl()
                future.complete_exceptionally(
                    InvalidTopicException(f"The given topic name '{topic_name}' cannot be represented in a request.")
                )
                topic_futures[topic_name] = future
            elif topic_name not in topic_futures:
                topic_futures[topic_name] = KafkaFutureImpl()
                topic_names_list.append(topic_name)
        now = self._time.milliseconds()

        class _DescribeTopicsCall(Call):
            supports_disabling_topic_creation = True

            def create_request(self, timeout_ms: int) -> Builder[Any]:
                if self.supports_disabling_topic_creation:
                    return MetadataRequestBuilder(
                        data=MetadataRequestData(
                            topics=MetadataRequest.convert_to_metadata_request_topic(topic_names_list),
                            allow_auto_topic_creation=False,
                            include_topic_authorized_operations=options.include_authorized_operations(),
                        )
                    )
                return MetadataRequestBuilder.all_topics()

            def handle_response(self, abstract_response: AbstractResponse) -> None:
                assert isinstance(abstract_response, MetadataResponse)
                response = abstract_response
                cluster = response.build_cluster()
                errors = response.errors()
                for topic_name, future in topic_futures.items():
                    topic_error = errors.get(topic_name)
                    if topic_error is not None:
                        exc = topic_error.exception()
                        assert exc is not None
                        future.complete_exceptionally(exc)
                        continue
                    if topic_name not in cluster.topics:
                        future.complete_exceptionally(
                            UnknownTopicOrPartitionException(f"Topic {topic_name} not found.")
                        )
                        continue
                    topic_id = cluster.topic_id(topic_name)
                    authorized_operations = response.topic_authorized_operations(topic_name)
                    future.complete(
                        admin._get_topic_description_from_cluster(cluster, topic_name, topic_id, authorized_operations)
                    )

            def handle_unsupported_version_exception(self, exception: UnsupportedVersionException) -> bool:
                if self.supports_disabling_topic_creation:
                    self.supports_disabling_topic_creation = False
                    return True
                return False

            def handle_failure(self, throwable: BaseException) -> None:
                _complete_all_exceptionally(topic_futures.values(), throwable)

        if topic_names_list:
            call = _DescribeTopicsCall(
                self, "describeTopics", self._calc_deadline_ms(now, options.timeout_ms()), LeastLoadedNodeProvider(self)
            )
            self._runnable.call(call, now)
        return dict(topic_futures)

    def _handle_describe_topics_by_ids(
        self, topic_ids: Iterable[Uuid], options: DescribeTopicsOptions
    ) -> dict[Uuid, KafkaFuture[TopicDescription]]:
        admin = self
        topic_futures: dict[Uuid, KafkaFutureImpl[TopicDescription]] = {}
        topic_ids_list: list[Uuid] = []
        for topic_id in topic_ids:
            if _topic_id_is_unrepresentable(topic_id):
                future: KafkaFutureImpl[TopicDescription] = KafkaFutureImpl()
                future.complete_exceptionally(
                    InvalidTopicException(f"The given topic id '{topic_id}' cannot be represented in a request.")
                )
                topic_futures[topic_id] = future
            elif topic_id not in topic_futures:
                topic_futures[topic_id] = KafkaFutureImpl()
                topic_ids_list.append(topic_id)
        now = self._time.milliseconds()

        class _DescribeTopicsWithIdsCall(Call):
            def create_request(self, timeout_ms: int) -> Builder[Any]:
                return MetadataRequestBuilder(
                    data=MetadataRequestData(
                        topics=MetadataRequest.convert_topic_ids_to_metadata_request_topic(topic_ids_list),
                        allow_auto_topic_creation=False,
                        include_topic_authorized_operations=options.include_authorized_operations(),
                    )
                )

            def handle_response(self, abstract_response: AbstractResponse) -> None:
                assert isinstance(abstract_response, MetadataResponse)
                response = abstract_response
                cluster = response.build_cluster()
                errors = response.errors_by_topic_id()
                for topic_id, future in topic_futures.items():
                    topic_name = cluster.topic_name(topic_id)
                    if topic_name is None:
                        future.complete_exceptionally(InvalidTopicException(f"TopicId {topic_id} not found."))
                        continue
                    topic_error = errors.get(topic_id)
                    if topic_error is not None:
                        exc = topic_error.exception()
                        assert exc is not None
                        future.complete_exceptionally(exc)
                        continue
                    authorized_operations = response.topic_authorized_operations(topic_name)
                    future.complete(
                        admin._get_topic_description_from_cluster(cluster, topic_name, topic_id, authorized_operations)
                    )

            def handle_failure(self, throwable: BaseException) -> None:
                _complete_all_exceptionally(topic_futures.values(), throwable)

        if topic_ids_list:
            call = _DescribeTopicsWithIdsCall(
                self,
                "describeTopicsWithIds",
                self._calc_deadline_ms(now, options.timeout_ms()),
                LeastLoadedNodeProvider(self),
            )
            self._runnable.call(call, now)
        return dict(topic_futures)

    def _get_topic_description_from_cluster(
        self, cluster: Cluster, topic_name: str, topic_id: Uuid, authorized_operations: int | None
    ) -> TopicDescription:
        from kafka.clients.admin.internals.describe_consumer_groups_handler import valid_acl_operations
        from kafka.clients.admin.topic_description import TopicDescription
        from kafka.common.topic_partition_info import TopicPartitionInfo

        is_internal = topic_name in cluster.internal_topics
        partitions = [
            TopicPartitionInfo(p.partition, self._leader(p), list(p.replicas), list(p.in_sync_replicas))
            for p in cluster.partitions_for_topic(topic_name)
        ]
        partitions.sort(key=lambda p: p.partition)
        operations = None if authorized_operations is None else valid_acl_operations(authorized_operations)
        return TopicDescription(topic_name, is_internal, partitions, operations, topic_id)

    @staticmethod
    def _leader(partition_info: PartitionInfo) -> Node | None:
        leader = partition_info.leader
        if leader is None or leader.id == Node.no_node().id:
            return None
        return leader

    # -- cluster ------------------------------------------------------------------------------------------------

    def describe_cluster(self, options: DescribeClusterOptions | None = None) -> DescribeClusterResult:
        from kafka.clients.admin.describe_cluster_options import DescribeClusterOptions
        from kafka.clients.admin.describe_cluster_result import DescribeClusterResult
        from kafka.clients.admin.internals.describe_consumer_groups_handler import valid_acl_operations
        from kafka.common.message import DescribeClusterRequestData
        from kafka.common.requests.describe_cluster_request import DescribeClusterRequest
        from kafka.common.requests.describe_cluster_response import DescribeClusterResponse

        opts: DescribeClusterOptions = DescribeClusterOptions() if options is None else options
        admin = self
        describe_cluster_future: KafkaFutureImpl[list[Node]] = KafkaFutureImpl()
        controller_future: KafkaFutureImpl[Node | None] = KafkaFutureImpl()
        cluster_id_future: KafkaFutureImpl[str | None] = KafkaFutureImpl()
        authorized_operations_future: KafkaFutureImpl[Any] = KafkaFutureImpl()
        now = self._time.milliseconds()

        class _ListNodesCall(Call):
            use_metadata_request = False

            def create_request(self, timeout_ms: int) -> Builder[Any]:
                if not self.use_metadata_request:
                    endpoint_type = (
                        _ENDPOINT_TYPE_CONTROLLER
                        if admin._metadata_manager.using_bootstrap_controllers()
                        else _ENDPOINT_TYPE_BROKER
                    )
                    return DataBuilder(
                        DescribeClusterRequest,
                        DescribeClusterRequestData(
                            include_cluster_authorized_operations=opts.include_authorized_operations(),
                            endpoint_type=endpoint_type,
                        ),
                    )
                # Only nodes are asked for, so allowing auto-creation is harmless (and suits old brokers).
                return MetadataRequestBuilder(
                    data=MetadataRequestData(
                        topics=[],
                        allow_auto_topic_creation=True,
                        include_cluster_authorized_operations=opts.include_authorized_operations(),
                    )
                )

            def handle_response(self, abstract_response: AbstractResponse) -> None:
                if not self.use_metadata_request:
                    assert isinstance(abstract_response, DescribeClusterResponse)
                    data = abstract_response.data
                    error = Errors.for_code(data.error_code)
                    if error is not Errors.NONE:
                        exc = ApiError(error, data.error_message).exception()
                        assert exc is not None
                        self.handle_failure(exc)
                        return
                    nodes = {b.broker_id: Node(b.broker_id, b.host, b.port, b.rack) for b in data.brokers}
                    describe_cluster_future.complete(list(nodes.values()))
                    # No controller: None.
                    controller_future.complete(nodes.get(data.controller_id))
                    cluster_id_future.complete(data.cluster_id)
                    authorized_operations_future.complete(valid_acl_operations(data.cluster_authorized_operations))
                else:
                    assert isinstance(abstract_response, MetadataResponse)
                    response = abstract_response
                    describe_cluster_future.complete(list(response.brokers()))
                    controller_node = response.controller()
                    if controller_node is not None and controller_node.id == NO_CONTROLLER_ID:
                        controller_node = None
                    controller_future.complete(controller_node)
                    cluster_id_future.complete(response.cluster_id())
                    authorized_operations_future.complete(
                        valid_acl_operations(response.cluster_authorized_operations())
                    )

            def handle_failure(self, throwable: BaseException) -> None:
                describe_cluster_future.complete_exceptionally(throwable)
                controller_future.complete_exceptionally(throwable)
                cluster_id_future.complete_exceptionally(throwable)
                authorized_operations_future.complete_exceptionally(throwable)

            def handle_unsupported_version_exception(self, exception: UnsupportedVersionException) -> bool:
                if admin._metadata_manager.using_bootstrap_controllers():
                    return False
                if self.use_metadata_request:
                    return False
                self.use_metadata_request = True
                return True

        self._runnable.call(
            _ListNodesCall(
                self,
                "listNodes",
                self._calc_deadline_ms(now, opts.timeout_ms()),
                LeastLoadedBrokerOrActiveKController(self),
            ),
            now,
        )
        return DescribeClusterResult(
            describe_cluster_future, controller_future, cluster_id_future, authorized_operations_future
        )

    # -- ACLs -----------------------------------------------------------------------------------------------------

    def describe_acls(
        self, acl_filter: AclBindingFilter, options: DescribeAclsOptions | None = None
    ) -> DescribeAclsResult:
        """The ACL bindings that match `acl_filter` (DescribeAcls, to the least loaded broker)."""
        from kafka.clients.admin.describe_acls_options import DescribeAclsOptions
        from kafka.clients.admin.describe_acls_result import DescribeAclsResult
        from kafka.common.requests.describe_acls_request import DescribeAclsRequest
        from kafka.common.requests.describe_acls_response import DescribeAclsResponse

        opts = DescribeAclsOptions() if options is None else options
        future: KafkaFutureImpl[list[AclBinding]] = KafkaFutureImpl()
        if acl_filter.is_unknown:
            future.complete_exceptionally(
                InvalidRequestException("The AclBindingFilter must not contain UNKNOWN elements.")
            )
            return DescribeAclsResult(future)
        now = self._time.milliseconds()

        class _DescribeAclsCall(Call):
            def create_request(self, timeout_ms: int) -> Builder[Any]:
                return DataBuilder(DescribeAclsRequest, DescribeAclsRequest.data_of(acl_filter))

            def handle_response(self, abstract_response: AbstractResponse) -> None:
                assert isinstance(abstract_response, DescribeAclsResponse)
                data = abstract_response.data
                if data.error_code != Errors.NONE.code:
                    exc = ApiError(Errors.for_code(data.error_code), data.error_message).exception()
                    assert exc is not None
                    future.complete_exceptionally(exc)
                    return
                future.complete([b for r in data.resources for b in DescribeAclsResponse.acl_bindings(r)])

            def handle_failure(self, throwable: BaseException) -> None:
                future.complete_exceptionally(throwable)

        self._runnable.call(
            _DescribeAclsCall(
                self, "describeAcls", self._calc_deadline_ms(now, opts.timeout_ms()), LeastLoadedNodeProvider(self)
            ),
            now,
        )
        return DescribeAclsResult(future)

    def create_acls(self, acls: Collection[AclBinding], options: CreateAclsOptions | None = None) -> CreateAclsResult:
        """Creates the bindings (CreateAcls); a binding with an indefinite field fails without being sent."""
        from kafka.clients.admin.create_acls_options import CreateAclsOptions
        from kafka.clients.admin.create_acls_result import CreateAclsResult
        from kafka.common.message import CreateAclsRequestData
        from kafka.common.requests.create_acls_request import CreateAclsRequest

        opts = CreateAclsOptions() if options is None else options
        futures: dict[AclBinding, KafkaFutureImpl[None]] = {}
        sent: list[AclBinding] = []
        for acl in acls:
            if acl in futures:
                continue
            f: KafkaFutureImpl[None] = KafkaFutureImpl()
            futures[acl] = f
            indefinite = acl.to_filter().find_indefinite_field()
            if indefinite is None:
                sent.append(acl)
            else:
                f.complete_exceptionally(InvalidRequestException(indefinite))
        if not sent:
            return CreateAclsResult(futures)
        now = self._time.milliseconds()

        class _CreateAclsCall(Call):
            def create_request(self, timeout_ms: int) -> Builder[Any]:
                creations = [CreateAclsRequest.acl_creation(a) for a in sent]
                return DataBuilder(CreateAclsRequest, CreateAclsRequestData(creations=creations))

            def handle_response(self, abstract_response: AbstractResponse) -> None:
                results = list(abstract_response.data.results)
                for i, acl in enumerate(sent):
                    future = futures[acl]
                    if i >= len(results):
                        future.complete_exceptionally(
                            UnknownServerException(f"The broker reported no creation result for the given ACL: {acl}")
                        )
                        continue
                    error = ApiError(Errors.for_code(results[i].error_code), results[i].error_message)
                    exc = error.exception()
                    if exc is not None:
                        future.complete_exceptionally(exc)
                    else:
                        future.complete(None)

            def handle_failure(self, throwable: BaseException) -> None:
                _complete_all_exceptionally((futures[a] for a in sent), throwable)

        self._runnable.call(
            _CreateAclsCall(
                self, "createAcls", self._calc_deadline_ms(now, opts.timeout_ms()), LeastLoadedNodeProvider(self)
            ),
            now,
        )
        return CreateAclsResult(futures)

    def delete_acls(
        self, filters: Collection[AclBindingFilter], options: DeleteAclsOptions | None = None
    ) -> DeleteAclsResult:
        """Deletes every ACL binding a filter matches (DeleteAcls); a future per filter."""
        from kafka.clients.admin.delete_acls_options import DeleteAclsOptions
        from kafka.clients.admin.delete_acls_result import DeleteAclsResult, FilterResult, FilterResults
        from kafka.common.message import DeleteAclsRequestData
        from kafka.common.requests.delete_acls_request import DeleteAclsRequest
        from kafka.common.requests.delete_acls_response import DeleteAclsResponse

        opts = DeleteAclsOptions() if options is None else options
        futures: dict[AclBindingFilter, KafkaFutureImpl[FilterResults]] = {}
        sent: list[AclBindingFilter] = []
        for acl_filter in filters:
            if acl_filter not in futures:
                futures[acl_filter] = KafkaFutureImpl()
                sent.append(acl_filter)
        if not sent:
            return DeleteAclsResult(futures)
        now = self._time.milliseconds()

        class _DeleteAclsCall(Call):
            def create_request(self, timeout_ms: int) -> Builder[Any]:
                data = DeleteAclsRequestData(filters=[DeleteAclsRequest.delete_acls_filter(f) for f in sent])
                return DataBuilder(DeleteAclsRequest, data)

            def handle_response(self, abstract_response: AbstractResponse) -> None:
                results = list(abstract_response.data.filter_results)
                for i, acl_filter in enumerate(sent):
                    future = futures[acl_filter]
                    if i >= len(results):
                        future.complete_exceptionally(
                            UnknownServerException("The broker reported no deletion result for the given filter.")
                        )
                        continue
                    r = results[i]
                    exc = ApiError(Errors.for_code(r.error_code), r.error_message).exception()
                    if exc is not None:
                        future.complete_exceptionally(exc)
                        continue
                    values = []
                    for m in r.matching_acls:
                        m_exc = ApiError(Errors.for_code(m.error_code), m.error_message).exception()
                        values.append(FilterResult(DeleteAclsResponse.acl_binding(m), m_exc))
                    future.complete(FilterResults(values))

            def handle_failure(self, throwable: BaseException) -> None:
                _complete_all_exceptionally(futures.values(), throwable)

        self._runnable.call(
            _DeleteAclsCall(
                self, "deleteAcls", self._calc_deadline_ms(now, opts.timeout_ms()), LeastLoadedNodeProvider(self)
            ),
            now,
        )
        return DeleteAclsResult(futures)

    # -- client quotas ------------------------------------------------------------------------------------------

    def describe_client_quotas(
        self, quota_filter: ClientQuotaFilter, options: DescribeClientQuotasOptions | None = None
    ) -> DescribeClientQuotasResult:
        from kafka.clients.admin.describe_client_quotas_options import DescribeClientQuotasOptions
        from kafka.clients.admin.describe_client_quotas_result import DescribeClientQuotasResult
        from kafka.common.requests.describe_client_quotas_request import DescribeClientQuotasRequestBuilder
        from kafka.common.requests.describe_client_quotas_response import DescribeClientQuotasResponse

        opts = DescribeClientQuotasOptions() if options is None else options
        future: KafkaFutureImpl[dict[ClientQuotaEntity, dict[str, float]]] = KafkaFutureImpl()
        now = self._time.milliseconds()

        class _DescribeClientQuotasCall(Call):
            def create_request(self, timeout_ms: int) -> Builder[Any]:
                return DescribeClientQuotasRequestBuilder(quota_filter)

            def handle_response(self, abstract_response: AbstractResponse) -> None:
                assert isinstance(abstract_response, DescribeClientQuotasResponse)
                abstract_response.complete(future)

            def handle_failure(self, throwable: BaseException) -> None:
                future.complete_exceptionally(throwable)

        self._runnable.call(
            _DescribeClientQuotasCall(
                self,
                "describeClientQuotas",
                self._calc_deadline_ms(now, opts.timeout_ms()),
                LeastLoadedNodeProvider(self),
            ),
            now,
        )
        return DescribeClientQuotasResult(future)

    def alter_client_quotas(
        self, entries: Collection[ClientQuotaAlteration], options: AlterClientQuotasOptions | None = None
    ) -> AlterClientQuotasResult:
        from kafka.clients.admin.alter_client_quotas_options import AlterClientQuotasOptions
        from kafka.clients.admin.alter_client_quotas_result import AlterClientQuotasResult
        from kafka.common.requests.alter_client_quotas_request import AlterClientQuotasRequestBuilder
        from kafka.common.requests.alter_client_quotas_response import AlterClientQuotasResponse

        opts = AlterClientQuotasOptions() if options is None else options
        alterations = list(entries)
        futures: dict[ClientQuotaEntity, KafkaFutureImpl[None]] = {a.entity(): KafkaFutureImpl() for a in alterations}
        now = self._time.milliseconds()

        class _AlterClientQuotasCall(Call):
            def create_request(self, timeout_ms: int) -> Builder[Any]:
                return AlterClientQuotasRequestBuilder(alterations, opts.should_validate_only())

            def handle_response(self, abstract_response: AbstractResponse) -> None:
                assert isinstance(abstract_response, AlterClientQuotasResponse)
                abstract_response.complete(futures)

            def handle_failure(self, throwable: BaseException) -> None:
                _complete_all_exceptionally(futures.values(), throwable)

        self._runnable.call(
            _AlterClientQuotasCall(
                self, "alterClientQuotas", self._calc_deadline_ms(now, opts.timeout_ms()), LeastLoadedNodeProvider(self)
            ),
            now,
        )
        return AlterClientQuotasResult(futures)

    # -- SCRAM credentials ----------------------------------------------------------------------------------------

    def create_delegation_token(
        self, options: CreateDelegationTokenOptions | None = None
    ) -> CreateDelegationTokenResult:
        from kafka.clients.admin.create_delegation_token_options import CreateDelegationTokenOptions
        from kafka.clients.admin.create_delegation_token_result import CreateDelegationTokenResult
        from kafka.common.message import CreateDelegationTokenRequestData
        from kafka.common.requests.create_delegation_token_request import CreateDelegationTokenRequest
        from kafka.common.security.token.delegation import DelegationToken, TokenInformation

        opts = CreateDelegationTokenOptions() if options is None else options
        future: KafkaFutureImpl[DelegationToken] = KafkaFutureImpl()
        now = self._time.milliseconds()

        class _CreateDelegationTokenCall(Call):
            def create_request(self, timeout_ms: int) -> Builder[Any]:
                data = CreateDelegationTokenRequestData(
                    renewers=[
                        CreateDelegationTokenRequestData.CreatableRenewers(
                            principal_type=r.principal_type, principal_name=r.name
                        )
                        for r in opts.renewers()
                    ],
                    max_lifetime_ms=opts.max_life_time_ms(),
                )
                owner = opts.owner()
                if owner is not None:
                    data.owner_principal_type = owner.principal_type
                    data.owner_principal_name = owner.name
                return DataBuilder(CreateDelegationTokenRequest, data)

            def handle_response(self, abstract_response: AbstractResponse) -> None:
                data = abstract_response.data
                error = Errors.for_code(data.error_code)
                if error is not Errors.NONE:
                    future.complete_exceptionally(error.exception() or UnknownServerException())
                    return
                owner = KafkaPrincipal(data.principal_type, data.principal_name)
                requester = (
                    KafkaPrincipal(data.token_requester_principal_type, data.token_requester_principal_name)
                    if data.token_requester_principal_name
                    else owner
                )
                token_info = TokenInformation(
                    data.token_id,
                    owner,
                    opts.renewers(),
                    data.issue_timestamp_ms,
                    data.max_timestamp_ms,
                    data.expiry_timestamp_ms,
                    requester,
                )
                future.complete(DelegationToken(token_info, bytes(data.hmac)))

            def handle_failure(self, throwable: BaseException) -> None:
                future.complete_exceptionally(throwable)

        self._runnable.call(
            _CreateDelegationTokenCall(
                self,
                "createDelegationToken",
                self._calc_deadline_ms(now, opts.timeout_ms()),
                LeastLoadedNodeProvider(self),
            ),
            now,
        )
        return CreateDelegationTokenResult(future)

    def renew_delegation_token(
        self, hmac: bytes, options: RenewDelegationTokenOptions | None = None
    ) -> RenewDelegationTokenResult:
        from kafka.clients.admin.renew_delegation_token_options import RenewDelegationTokenOptions
        from kafka.clients.admin.renew_delegation_token_result import RenewDelegationTokenResult
        from kafka.common.message import RenewDelegationTokenRequestData
        from kafka.common.requests.renew_delegation_token_request import RenewDelegationTokenRequest

        opts = RenewDelegationTokenOptions() if options is None else options
        data = RenewDelegationTokenRequestData(hmac=bytes(hmac), renew_period_ms=opts.renew_time_period_ms())
        future = self._expiry_call("renewDelegationToken", RenewDelegationTokenRequest, data, opts)
        return RenewDelegationTokenResult(future)

    def expire_delegation_token(
        self, hmac: bytes, options: ExpireDelegationTokenOptions | None = None
    ) -> ExpireDelegationTokenResult:
        from kafka.clients.admin.expire_delegation_token_options import ExpireDelegationTokenOptions
        from kafka.clients.admin.expire_delegation_token_result import ExpireDelegationTokenResult
        from kafka.common.message import ExpireDelegationTokenRequestData
        from kafka.common.requests.expire_delegation_token_request import ExpireDelegationTokenRequest

        opts = ExpireDelegationTokenOptions() if options is None else options
        data = ExpireDelegationTokenRequestData(hmac=bytes(hmac), expiry_time_period_ms=opts.expiry_time_period_ms())
        future = self._expiry_call("expireDelegationToken", ExpireDelegationTokenRequest, data, opts)
        return ExpireDelegationTokenResult(future)

    def _expiry_call(self, call_name: str, request_class: Any, data: Any, opts: AbstractOptions) -> KafkaFuture[int]:
        """A renew or expire call to the least loaded broker; the future gets the token's new expiry timestamp."""
        future: KafkaFutureImpl[int] = KafkaFutureImpl()
        now = self._time.milliseconds()

        class _ExpiryCall(Call):
            def create_request(self, timeout_ms: int) -> Builder[Any]:
                return DataBuilder(request_class, data)

            def handle_response(self, abstract_response: AbstractResponse) -> None:
                response_data = abstract_response.data
                error = Errors.for_code(response_data.error_code)
                if error is not Errors.NONE:
                    future.complete_exceptionally(error.exception() or UnknownServerException())
                else:
                    future.complete(int(response_data.expiry_timestamp_ms))

            def handle_failure(self, throwable: BaseException) -> None:
                future.complete_exceptionally(throwable)

        self._runnable.call(
            _ExpiryCall(self, call_name, self._calc_deadline_ms(now, opts.timeout_ms()), LeastLoadedNodeProvider(self)),
            now,
        )
        return future

    def describe_delegation_token(
        self, options: DescribeDelegationTokenOptions | None = None
    ) -> DescribeDelegationTokenResult:
        from kafka.clients.admin.describe_delegation_token_options import DescribeDelegationTokenOptions
        from kafka.clients.admin.describe_delegation_token_result import DescribeDelegationTokenResult
        from kafka.common.message import DescribeDelegationTokenRequestData
        from kafka.common.requests.describe_delegation_token_request import DescribeDelegationTokenRequest
        from kafka.common.security.token.delegation import DelegationToken, TokenInformation

        opts = DescribeDelegationTokenOptions() if options is None else options
        future: KafkaFutureImpl[list[DelegationToken]] = KafkaFutureImpl()
        now = self._time.milliseconds()

        class _DescribeDelegationTokenCall(Call):
            def create_request(self, timeout_ms: int) -> Builder[Any]:
                owners = opts.owners()
                data = DescribeDelegationTokenRequestData(
                    owners=None
                    if owners is None
                    else [
                        DescribeDelegationTokenRequestData.DescribeDelegationTokenOwner(
                            principal_type=o.principal_type, principal_name=o.name
                        )
                        for o in owners
                    ]
                )
                return DataBuilder(DescribeDelegationTokenRequest, data)

            def handle_response(self, abstract_response: AbstractResponse) -> None:
                data = abstract_response.data
                error = Errors.for_code(data.error_code)
                if error is not Errors.NONE:
                    future.complete_exceptionally(error.exception() or UnknownServerException())
                    return
                tokens = []
                for t in data.tokens:
                    owner = KafkaPrincipal(t.principal_type, t.principal_name)
                    requester = (
                        KafkaPrincipal(t.token_requester_principal_type, t.token_requester_principal_name)
                        if t.token_requester_principal_name
                        else owner
                    )
                    info = TokenInformation(
                        t.token_id,
                        owner,
                        [KafkaPrincipal(r.principal_type, r.principal_name) for r in t.renewers],
                        t.issue_timestamp,
                        t.max_timestamp,
                        t.expiry_timestamp,
                        requester,
                    )
                    tokens.append(DelegationToken(info, bytes(t.hmac)))
                future.complete(tokens)

            def handle_failure(self, throwable: BaseException) -> None:
                future.complete_exceptionally(throwable)

        self._runnable.call(
            _DescribeDelegationTokenCall(
                self,
                "describeDelegationToken",
                self._calc_deadline_ms(now, opts.timeout_ms()),
                LeastLoadedNodeProvider(self),
            ),
            now,
        )
        return DescribeDelegationTokenResult(future)

    def describe_user_scram_credentials(
        self, users: Sequence[str] | None = None, options: DescribeUserScramCredentialsOptions | None = None
    ) -> DescribeUserScramCredentialsResult:
        from kafka.clients.admin.describe_user_scram_credentials_options import DescribeUserScramCredentialsOptions
        from kafka.clients.admin.describe_user_scram_credentials_result import DescribeUserScramCredentialsResult
        from kafka.common.message import DescribeUserScramCredentialsRequestData
        from kafka.common.requests.abstract_request import DataBuilder
        from kafka.common.requests.describe_user_scram_credentials_request import DescribeUserScramCredentialsRequest

        opts = DescribeUserScramCredentialsOptions() if options is None else options
        data_future: KafkaFutureImpl[Any] = KafkaFutureImpl()
        now = self._time.milliseconds()

        class _DescribeUserScramCredentialsCall(Call):
            def create_request(self, timeout_ms: int) -> Builder[Any]:
                data = DescribeUserScramCredentialsRequestData()
                if users:
                    data.users = [
                        DescribeUserScramCredentialsRequestData.UserName(name=u) for u in users if u is not None
                    ]
                return DataBuilder(DescribeUserScramCredentialsRequest, data)

            def handle_response(self, abstract_response: AbstractResponse) -> None:
                data = abstract_response.data
                if data.error_code != Errors.NONE.code:
                    exc = Errors.for_code(data.error_code).exception(data.error_message)
                    assert exc is not None
                    data_future.complete_exceptionally(exc)
                else:
                    data_future.complete(data)

            def handle_failure(self, throwable: BaseException) -> None:
                data_future.complete_exceptionally(throwable)

        self._runnable.call(
            _DescribeUserScramCredentialsCall(
                self,
                "describeUserScramCredentials",
                self._calc_deadline_ms(now, opts.timeout_ms()),
                LeastLoadedNodeProvider(self),
            ),
            now,
        )
        return DescribeUserScramCredentialsResult(data_future)

    def alter_user_scram_credentials(
        self,
        alterations: Sequence[UserScramCredentialAlteration],
        options: AlterUserScramCredentialsOptions | None = None,
    ) -> AlterUserScramCredentialsResult:
        """Java 3.7's checks before sending (empty user or password, unknown mechanism fail that user's future);
        the password is salted and hashed here (Hi of RFC 5802) and only that is sent."""
        from kafka.clients.admin.alter_user_scram_credentials_options import AlterUserScramCredentialsOptions
        from kafka.clients.admin.alter_user_scram_credentials_result import AlterUserScramCredentialsResult
        from kafka.clients.admin.scram_mechanism import ScramMechanism
        from kafka.clients.admin.user_scram_credential_alteration import (
            UserScramCredentialDeletion,
            UserScramCredentialUpsertion,
        )
        from kafka.common.errors import UnacceptableCredentialException, UnsupportedSaslMechanismException
        from kafka.common.message import AlterUserScramCredentialsRequestData as ReqData
        from kafka.common.requests.abstract_request import DataBuilder
        from kafka.common.requests.alter_user_scram_credentials_request import AlterUserScramCredentialsRequest
        from kafka.common.security.scram.internals.scram_formatter import ScramFormatter
        from kafka.common.security.scram.internals.scram_mechanism import ScramMechanism as InternalScramMechanism

        opts = AlterUserScramCredentialsOptions() if options is None else options
        admin = self
        now = self._time.milliseconds()
        futures: dict[str, KafkaFutureImpl[None]] = {a.user(): KafkaFutureImpl() for a in alterations}
        illegal: dict[str, BaseException] = {}
        for a in alterations:
            if isinstance(a, UserScramCredentialDeletion):
                if not a.user():
                    illegal[a.user()] = UnacceptableCredentialException("Username must not be empty")
                elif a.mechanism() is ScramMechanism.UNKNOWN:
                    illegal[a.user()] = UnsupportedSaslMechanismException("Unknown SCRAM mechanism")
        upsertions: dict[str, dict[ScramMechanism, Any]] = {}
        for a in alterations:
            if not isinstance(a, UserScramCredentialUpsertion) or a.user() in illegal:
                continue
            user = a.user()
            if not user:
                illegal[user] = UnacceptableCredentialException("Username must not be empty")
            elif not a.password():
                illegal[user] = UnacceptableCredentialException("Password must not be empty")
            else:
                mechanism = a.credential_info().mechanism
                internal = InternalScramMechanism.for_mechanism_name(mechanism.mechanism_name)
                if mechanism is ScramMechanism.UNKNOWN or internal is None:
                    illegal[user] = UnsupportedSaslMechanismException("Unknown SCRAM mechanism")
                    continue
                iterations = a.credential_info().iterations
                salted = ScramFormatter(internal).hi(a.password(), a.salt(), iterations)
                upsertions.setdefault(user, {})[mechanism] = ReqData.ScramCredentialUpsertion(
                    name=user, mechanism=mechanism.type, iterations=iterations, salt=a.salt(), salted_password=salted
                )

        class _AlterUserScramCredentialsCall(Call):
            def create_request(self, timeout_ms: int) -> Builder[Any]:
                data = ReqData(
                    upsertions=[
                        upsertions[a.user()][a.credential_info().mechanism]
                        for a in alterations
                        if isinstance(a, UserScramCredentialUpsertion) and a.user() not in illegal
                    ],
                    deletions=[
                        ReqData.ScramCredentialDeletion(name=a.user(), mechanism=a.mechanism().type)
                        for a in alterations
                        if isinstance(a, UserScramCredentialDeletion) and a.user() not in illegal
                    ],
                )
                return DataBuilder(AlterUserScramCredentialsRequest, data)

            def handle_response(self, abstract_response: AbstractResponse) -> None:
                admin._handle_not_controller_error(abstract_response)
                for user, exc in illegal.items():
                    futures[user].complete_exceptionally(exc)
                for result in abstract_response.data.results:
                    future = futures.get(result.user)
                    if future is None:
                        admin._log.warn(f"Server response mentioned unknown user {result.user}")
                        continue
                    error = Errors.for_code(result.error_code)
                    if error is Errors.NONE:
                        future.complete(None)
                    else:
                        failure = error.exception(result.error_message)
                        assert failure is not None
                        future.complete_exceptionally(failure)
                _complete_unrealized_futures(
                    futures, lambda user: f"The broker response did not contain a result for user {user}"
                )

            def handle_failure(self, throwable: BaseException) -> None:
                _complete_all_exceptionally(futures.values(), throwable)

        self._runnable.call(
            _AlterUserScramCredentialsCall(
                self,
                "alterUserScramCredentials",
                self._calc_deadline_ms(now, opts.timeout_ms()),
                ControllerNodeProvider(self),
            ),
            now,
        )
        return AlterUserScramCredentialsResult(dict(futures))

    # -- configs ------------------------------------------------------------------------------------------------

    def describe_configs(
        self, resources: Collection[ConfigResource], options: DescribeConfigsOptions | None = None
    ) -> DescribeConfigsResult:
        from kafka.clients.admin.describe_configs_options import DescribeConfigsOptions
        from kafka.clients.admin.describe_configs_result import DescribeConfigsResult
        from kafka.common.config.config_resource import ConfigResource
        from kafka.common.message import DescribeConfigsRequestData
        from kafka.common.requests.describe_configs_request import DescribeConfigsRequest
        from kafka.common.requests.describe_configs_response import DescribeConfigsResponse

        opts: DescribeConfigsOptions = DescribeConfigsOptions() if options is None else options
        admin = self
        # Resources of one broker go to that broker; the rest (None) to any broker.
        node_futures: dict[int | None, dict[ConfigResource, KafkaFutureImpl[Config]]] = {}
        for resource in resources:
            broker = self._node_for(resource)
            node_futures.setdefault(broker, {})[resource] = KafkaFutureImpl()
        now = self._time.milliseconds()
        for node, unified in node_futures.items():

            class _DescribeConfigsCall(Call):
                def __init__(
                    self, node: int | None, unified: dict[ConfigResource, KafkaFutureImpl[Config]], *args: Any
                ) -> None:
                    super().__init__(*args)
                    self._node = node
                    self._unified = unified

                def create_request(self, timeout_ms: int) -> Builder[Any]:
                    return DataBuilder(
                        DescribeConfigsRequest,
                        DescribeConfigsRequestData(
                            resources=[
                                DescribeConfigsRequestData.DescribeConfigsResource(
                                    resource_name=c.name, resource_type=c.type.id, configuration_keys=None
                                )
                                for c in self._unified
                            ],
                            include_synonyms=opts.include_synonyms(),
                            include_documentation=opts.include_documentation(),
                        ),
                    )

                def handle_response(self, abstract_response: AbstractResponse) -> None:
                    assert isinstance(abstract_response, DescribeConfigsResponse)
                    for (resource_type, resource_name), result in abstract_response.result_map().items():
                        config_resource = ConfigResource(ConfigResource.Type.for_id(resource_type), resource_name)
                        future = self._unified.get(config_resource)
                        if future is None:
                            if self._node is not None:
                                admin._log.warn(
                                    f"The config {config_resource} in the response from node {self._node} is not in "
                                    "the request"
                                )
                            else:
                                admin._log.warn(
                                    f"The config {config_resource} in the response from the least loaded broker is "
                                    "not in the request"
                                )
                        elif result.error_code != Errors.NONE.code:
                            exc = Errors.for_code(result.error_code).exception(result.error_message)
                            assert exc is not None
                            future.complete_exceptionally(exc)
                        else:
                            future.complete(admin._describe_config_result(result))
                    _complete_unrealized_futures(
                        self._unified,
                        lambda r: f"The node response did not contain a result for config resource {r}",
                    )

                def handle_failure(self, throwable: BaseException) -> None:
                    _complete_all_exceptionally(self._unified.values(), throwable)

            provider: NodeProvider = (
                ConstantNodeIdProvider(self, node, True)
                if node is not None
                else LeastLoadedBrokerOrActiveKController(self)
            )
            self._runnable.call(
                _DescribeConfigsCall(
                    node,
                    unified,
                    self,
                    "describeConfigs",
                    self._calc_deadline_ms(now, opts.timeout_ms()),
                    provider,
                ),
                now,
            )
        return DescribeConfigsResult({r: f for futures in node_futures.values() for r, f in futures.items()})

    @staticmethod
    def _describe_config_result(describe_configs_result: Any) -> Config:
        from kafka.clients.admin.config import Config
        from kafka.clients.admin.config_entry import ConfigEntry, ConfigSynonym

        return Config(
            ConfigEntry(
                config.name,
                config.value,
                _config_entry_source(config.config_source),
                config.is_sensitive,
                config.read_only,
                [ConfigSynonym(s.name, s.value, _config_entry_source(s.source)) for s in config.synonyms],
                _config_entry_type(config.config_type),
                config.documentation,
            )
            for config in describe_configs_result.configs
        )

    def alter_configs(
        self, configs: Mapping[ConfigResource, Config], options: AlterConfigsOptions | None = None
    ) -> AlterConfigsResult:
        """Deprecated in Java: replaces every dynamic config of each resource. Use incremental_alter_configs."""
        from kafka.clients.admin.alter_configs_options import AlterConfigsOptions
        from kafka.clients.admin.alter_configs_result import AlterConfigsResult

        options = AlterConfigsOptions() if options is None else options
        all_futures: dict[ConfigResource, KafkaFutureImpl[None]] = {}
        # A BROKER resource goes to its own broker, one request each; the others together to any broker.
        unified_request_resources: list[ConfigResource] = []
        for resource in configs:
            node = self._node_for(resource)
            if node is not None:
                all_futures.update(
                    self._alter_configs(configs, options, [resource], ConstantBrokerOrActiveKController(self, node))
                )
            else:
                unified_request_resources.append(resource)
        if unified_request_resources:
            all_futures.update(
                self._alter_configs(
                    configs, options, unified_request_resources, LeastLoadedBrokerOrActiveKController(self)
                )
            )
        return AlterConfigsResult(dict(all_futures))

    def _alter_configs(
        self,
        configs: Mapping[ConfigResource, Config],
        options: AlterConfigsOptions,
        resources: list[ConfigResource],
        node_provider: NodeProvider,
    ) -> dict[ConfigResource, KafkaFutureImpl[None]]:
        from kafka.clients.admin.internals.request_builders import AlterConfigsRequestBuilder
        from kafka.common.requests.alter_configs_response import AlterConfigsResponse

        futures: dict[ConfigResource, KafkaFutureImpl[None]] = {r: KafkaFutureImpl() for r in resources}
        request_map = {r: configs[r] for r in resources}
        now = self._time.milliseconds()

        class _AlterConfigsCall(Call):
            def create_request(self, timeout_ms: int) -> Builder[Any]:
                return AlterConfigsRequestBuilder(request_map, options.should_validate_only())

            def handle_response(self, abstract_response: AbstractResponse) -> None:
                assert isinstance(abstract_response, AlterConfigsResponse)
                errors = abstract_response.errors()
                for resource, future in futures.items():
                    api_error = errors.get((resource.type.id, resource.name))
                    exception = None if api_error is None else api_error.exception()
                    if api_error is None:
                        exception = ApiException(f"The response did not contain a result for {resource}")
                    if exception is not None:
                        future.complete_exceptionally(exception)
                    else:
                        future.complete(None)

            def handle_failure(self, throwable: BaseException) -> None:
                _complete_all_exceptionally(futures.values(), throwable)

        self._runnable.call(
            _AlterConfigsCall(self, "alterConfigs", self._calc_deadline_ms(now, options.timeout_ms()), node_provider),
            now,
        )
        return futures

    def incremental_alter_configs(
        self, configs: Mapping[ConfigResource, Collection[AlterConfigOp]], options: AlterConfigsOptions | None = None
    ) -> AlterConfigsResult:
        from kafka.clients.admin.alter_configs_options import AlterConfigsOptions
        from kafka.clients.admin.alter_configs_result import AlterConfigsResult
        from kafka.common.config.config_resource import ConfigResource

        options = AlterConfigsOptions() if options is None else options
        all_futures: dict[ConfigResource, KafkaFutureImpl[None]] = {}
        # BROKER_LOGGER resources go to their broker (or controller); a specific BROKER resource to its broker
        # (to the active controller with bootstrap.controllers); the rest together to any broker.
        unified_request_resources: list[ConfigResource] = []
        for resource in configs:
            node = self._node_for(resource)
            if self._metadata_manager.using_bootstrap_controllers():
                if resource.type is not ConfigResource.Type.BROKER_LOGGER:
                    node = None
            if node is not None:
                all_futures.update(
                    self._incremental_alter_configs(
                        configs, options, [resource], ConstantNodeIdProvider(self, node, True)
                    )
                )
            else:
                unified_request_resources.append(resource)
        if unified_request_resources:
            all_futures.update(
                self._incremental_alter_configs(
                    configs, options, unified_request_resources, LeastLoadedBrokerOrActiveKController(self)
                )
            )
        return AlterConfigsResult(dict(all_futures))

    def _incremental_alter_configs(
        self,
        configs: Mapping[ConfigResource, Collection[AlterConfigOp]],
        options: AlterConfigsOptions,
        resources: list[ConfigResource],
        node_provider: NodeProvider,
    ) -> dict[ConfigResource, KafkaFutureImpl[None]]:
        from kafka.clients.admin.internals.request_builders import IncrementalAlterConfigsRequestBuilder
        from kafka.common.requests.incremental_alter_configs_response import IncrementalAlterConfigsResponse

        futures: dict[ConfigResource, KafkaFutureImpl[None]] = {r: KafkaFutureImpl() for r in resources}
        now = self._time.milliseconds()

        class _IncrementalAlterConfigsCall(Call):
            def create_request(self, timeout_ms: int) -> Builder[Any]:
                return IncrementalAlterConfigsRequestBuilder(resources, configs, options.should_validate_only())

            def handle_response(self, abstract_response: AbstractResponse) -> None:
                assert isinstance(abstract_response, IncrementalAlterConfigsResponse)
                errors = abstract_response.from_response_data()
                for resource, future in futures.items():
                    api_error = errors.get((resource.type.id, resource.name))
                    if api_error is None:
                        future.complete_exceptionally(
                            ApiException(f"The response did not contain a result for {resource}")
                        )
                        continue
                    exception = api_error.exception()
                    if exception is not None:
                        future.complete_exceptionally(exception)
                    else:
                        future.complete(None)

            def handle_failure(self, throwable: BaseException) -> None:
                _complete_all_exceptionally(futures.values(), throwable)

        self._runnable.call(
            _IncrementalAlterConfigsCall(
                self, "incrementalAlterConfigs", self._calc_deadline_ms(now, options.timeout_ms()), node_provider
            ),
            now,
        )
        return futures

    # -- log dirs -----------------------------------------------------------------------------------------------

    def alter_replica_log_dirs(
        self,
        replica_assignment: Mapping[TopicPartitionReplica, str],
        options: AlterReplicaLogDirsOptions | None = None,
    ) -> AlterReplicaLogDirsResult:
        from kafka.clients.admin.alter_replica_log_dirs_options import AlterReplicaLogDirsOptions
        from kafka.clients.admin.alter_replica_log_dirs_result import AlterReplicaLogDirsResult
        from kafka.common.message import AlterReplicaLogDirsRequestData
        from kafka.common.requests.alter_replica_log_dirs_request import AlterReplicaLogDirsRequest
        from kafka.common.requests.alter_replica_log_dirs_response import AlterReplicaLogDirsResponse
        from kafka.common.topic_partition_replica import TopicPartitionReplica

        options = AlterReplicaLogDirsOptions() if options is None else options
        admin = self
        futures: dict[TopicPartitionReplica, KafkaFutureImpl[None]] = {r: KafkaFutureImpl() for r in replica_assignment}
        # One request per broker: its replicas grouped by destination directory, then by topic.
        assignment_by_broker: dict[int, dict[str, dict[str, list[int]]]] = {}
        for replica, log_dir in replica_assignment.items():
            topics = assignment_by_broker.setdefault(replica.broker_id, {}).setdefault(log_dir, {})
            topics.setdefault(replica.topic, []).append(replica.partition)
        now = self._time.milliseconds()
        for broker_id, dirs in assignment_by_broker.items():
            request_data = AlterReplicaLogDirsRequestData(
                dirs=[
                    AlterReplicaLogDirsRequestData.AlterReplicaLogDir(
                        path=log_dir,
                        topics=[
                            AlterReplicaLogDirsRequestData.AlterReplicaLogDirTopic(name=topic, partitions=partitions)
                            for topic, partitions in topics.items()
                        ],
                    )
                    for log_dir, topics in dirs.items()
                ]
            )
            broker_futures = {r: f for r, f in futures.items() if r.broker_id == broker_id}

            class _AlterReplicaLogDirsCall(Call):
                def __init__(
                    self,
                    broker_id: int,
                    request_data: Any,
                    broker_futures: dict[TopicPartitionReplica, KafkaFutureImpl[None]],
                    *args: Any,
                ) -> None:
                    super().__init__(*args)
                    self._broker_id = broker_id
                    self._request_data = request_data
                    self._broker_futures = broker_futures

                def create_request(self, timeout_ms: int) -> Builder[Any]:
                    return DataBuilder(AlterReplicaLogDirsRequest, self._request_data)

                def handle_response(self, abstract_response: AbstractResponse) -> None:
                    assert isinstance(abstract_response, AlterReplicaLogDirsResponse)
                    for topic_result in abstract_response.data.results:
                        for partition_result in topic_result.partitions:
                            replica = TopicPartitionReplica(
                                topic_result.topic_name, partition_result.partition_index, self._broker_id
                            )
                            future = self._broker_futures.get(replica)
                            if future is None:
                                admin._log.warn(
                                    f"The partition "
                                    f"{TopicPartition(topic_result.topic_name, partition_result.partition_index)} "
                                    f"in the response from broker {self._broker_id} is not in the request"
                                )
                            elif partition_result.error_code == Errors.NONE.code:
                                future.complete(None)
                            else:
                                exc = Errors.for_code(partition_result.error_code).exception()
                                assert exc is not None
                                future.complete_exceptionally(exc)
                    # Every replica should have a result; any left without one fails.
                    _complete_unrealized_futures(
                        self._broker_futures,
                        lambda missing: (
                            f"The response from broker {self._broker_id} did not contain a result for replica {missing}"
                        ),
                    )

                def handle_failure(self, throwable: BaseException) -> None:
                    # Only this broker's replicas fail.
                    _complete_all_exceptionally(self._broker_futures.values(), throwable)

            self._runnable.call(
                _AlterReplicaLogDirsCall(
                    broker_id,
                    request_data,
                    broker_futures,
                    self,
                    "alterReplicaLogDirs",
                    self._calc_deadline_ms(now, options.timeout_ms()),
                    ConstantNodeIdProvider(self, broker_id),
                ),
                now,
            )
        return AlterReplicaLogDirsResult(dict(futures))

    def describe_log_dirs(
        self, brokers: Collection[int], options: DescribeLogDirsOptions | None = None
    ) -> DescribeLogDirsResult:
        from kafka.clients.admin.describe_log_dirs_options import DescribeLogDirsOptions
        from kafka.clients.admin.describe_log_dirs_result import DescribeLogDirsResult
        from kafka.common.message import DescribeLogDirsRequestData
        from kafka.common.requests.describe_log_dirs_request import DescribeLogDirsRequest
        from kafka.common.requests.describe_log_dirs_response import DescribeLogDirsResponse

        options = DescribeLogDirsOptions() if options is None else options
        futures: dict[int, KafkaFutureImpl[dict[str, LogDirDescription]]] = {}
        now = self._time.milliseconds()
        for broker_id in brokers:
            future: KafkaFutureImpl[dict[str, LogDirDescription]] = KafkaFutureImpl()
            futures[broker_id] = future

            class _DescribeLogDirsCall(Call):
                def __init__(self, future: KafkaFutureImpl[dict[str, LogDirDescription]], *args: Any) -> None:
                    super().__init__(*args)
                    self._future = future

                def create_request(self, timeout_ms: int) -> Builder[Any]:
                    # Every partition of every log directory.
                    return DataBuilder(DescribeLogDirsRequest, DescribeLogDirsRequestData(topics=None))

                def handle_response(self, abstract_response: AbstractResponse) -> None:
                    assert isinstance(abstract_response, DescribeLogDirsResponse)
                    descriptions = KafkaAdminClient._log_dir_descriptions(abstract_response)
                    if descriptions:
                        self._future.complete(descriptions)
                    else:
                        # Before v3 the response had no error code: no directories meant not authorized.
                        data = abstract_response.data
                        error = (
                            Errors.CLUSTER_AUTHORIZATION_FAILED
                            if data.error_code == Errors.NONE.code
                            else Errors.for_code(data.error_code)
                        )
                        exc = error.exception()
                        assert exc is not None
                        self._future.complete_exceptionally(exc)

                def handle_failure(self, throwable: BaseException) -> None:
                    self._future.complete_exceptionally(throwable)

            self._runnable.call(
                _DescribeLogDirsCall(
                    future,
                    self,
                    "describeLogDirs",
                    self._calc_deadline_ms(now, options.timeout_ms()),
                    ConstantNodeIdProvider(self, broker_id),
                ),
                now,
            )
        return DescribeLogDirsResult(dict(futures))

    @staticmethod
    def _log_dir_descriptions(response: DescribeLogDirsResponse) -> dict[str, LogDirDescription]:
        from kafka.clients.admin.log_dir_description import LogDirDescription
        from kafka.clients.admin.replica_info import ReplicaInfo

        result: dict[str, LogDirDescription] = {}
        for log_dir_result in response.data.results:
            replica_info_map = {
                TopicPartition(t.name, p.partition_index): ReplicaInfo(p.partition_size, p.offset_lag, p.is_future_key)
                for t in log_dir_result.topics
                for p in t.partitions
            }
            error = Errors.for_code(log_dir_result.error_code).exception()
            result[log_dir_result.log_dir] = LogDirDescription(
                error, replica_info_map, log_dir_result.total_bytes, log_dir_result.usable_bytes
            )
        return result

    def describe_replica_log_dirs(
        self, replicas: Collection[TopicPartitionReplica], options: DescribeReplicaLogDirsOptions | None = None
    ) -> DescribeReplicaLogDirsResult:
        from kafka.clients.admin.describe_replica_log_dirs_options import DescribeReplicaLogDirsOptions
        from kafka.clients.admin.describe_replica_log_dirs_result import DescribeReplicaLogDirsResult, ReplicaLogDirInfo
        from kafka.common.message import DescribeLogDirsRequestData
        from kafka.common.requests.describe_log_dirs_request import DescribeLogDirsRequest
        from kafka.common.requests.describe_log_dirs_response import DescribeLogDirsResponse
        from kafka.common.topic_partition_replica import TopicPartitionReplica

        options = DescribeReplicaLogDirsOptions() if options is None else options
        admin = self
        futures: dict[TopicPartitionReplica, KafkaFutureImpl[ReplicaLogDirInfo]] = {
            r: KafkaFutureImpl() for r in replicas
        }
        partitions_by_broker: dict[int, dict[str, list[int]]] = {}
        for replica in replicas:
            partitions_by_broker.setdefault(replica.broker_id, {}).setdefault(replica.topic, []).append(
                replica.partition
            )
        now = self._time.milliseconds()
        for broker_id, topic_partitions in partitions_by_broker.items():
            replica_dir_info_by_partition: dict[TopicPartition, ReplicaLogDirInfo] = {
                TopicPartition(topic, p): ReplicaLogDirInfo() for topic, ps in topic_partitions.items() for p in ps
            }
            request_data = DescribeLogDirsRequestData(
                topics=[
                    DescribeLogDirsRequestData.DescribableLogDirTopic(topic=topic, partitions=list(ps))
                    for topic, ps in topic_partitions.items()
                ]
            )

            class _DescribeReplicaLogDirsCall(Call):
                def __init__(
                    self,
                    broker_id: int,
                    request_data: Any,
                    infos: dict[TopicPartition, ReplicaLogDirInfo],
                    *args: Any,
                ) -> None:
                    super().__init__(*args)
                    self._broker_id = broker_id
                    self._request_data = request_data
                    self._infos = infos

                def create_request(self, timeout_ms: int) -> Builder[Any]:
                    return DataBuilder(DescribeLogDirsRequest, self._request_data)

                def handle_response(self, abstract_response: AbstractResponse) -> None:
                    assert isinstance(abstract_response, DescribeLogDirsResponse)
                    infos = self._infos
                    for log_dir, log_dir_info in KafkaAdminClient._log_dir_descriptions(abstract_response).items():
                        # An offline log directory reports no replicas.
                        if isinstance(log_dir_info.error, KafkaStorageException):
                            continue
                        if log_dir_info.error is not None:
                            self.handle_failure(
                                RuntimeError(
                                    f"The error {type(log_dir_info.error).__name__} for log directory {log_dir} in "
                                    f"the response from broker {self._broker_id} is illegal"
                                )
                            )
                        for tp, replica_info in log_dir_info.replica_infos.items():
                            replica_log_dir_info = infos.get(tp)
                            if replica_log_dir_info is None:
                                admin._log.warn(
                                    f"Server response from broker {self._broker_id} mentioned unknown partition {tp}"
                                )
                            elif replica_info.is_future:
                                infos[tp] = ReplicaLogDirInfo(
                                    replica_log_dir_info.current_replica_log_dir,
                                    replica_log_dir_info.current_replica_offset_lag,
                                    log_dir,
                                    replica_info.offset_lag,
                                )
                            else:
                                infos[tp] = ReplicaLogDirInfo(
                                    log_dir,
                                    replica_info.offset_lag,
                                    replica_log_dir_info.future_replica_log_dir,
                                    replica_log_dir_info.future_replica_offset_lag,
                                )
                    for tp, info in infos.items():
                        futures[TopicPartitionReplica(tp.topic, tp.partition, self._broker_id)].complete(info)

                def handle_failure(self, throwable: BaseException) -> None:
                    _complete_all_exceptionally(futures.values(), throwable)

            self._runnable.call(
                _DescribeReplicaLogDirsCall(
                    broker_id,
                    request_data,
                    replica_dir_info_by_partition,
                    self,
                    "describeReplicaLogDirs",
                    self._calc_deadline_ms(now, options.timeout_ms()),
                    ConstantNodeIdProvider(self, broker_id),
                ),
                now,
            )
        return DescribeReplicaLogDirsResult(dict(futures))

    # -- partitions and records ---------------------------------------------------------------------------------

    def create_partitions(
        self, new_partitions: Mapping[str, NewPartitions], options: CreatePartitionsOptions | None = None
    ) -> CreatePartitionsResult:
        from kafka.clients.admin.create_partitions_options import CreatePartitionsOptions
        from kafka.clients.admin.create_partitions_result import CreatePartitionsResult
        from kafka.common.message import CreatePartitionsRequestData

        options = CreatePartitionsOptions() if options is None else options
        futures: dict[str, KafkaFutureImpl[None]] = {}
        topics: list[Any] = []
        for topic, new_partition in new_partitions.items():
            new_assignments = new_partition.assignments
            assignments = (
                None
                if new_assignments is None
                else [CreatePartitionsRequestData.CreatePartitionsAssignment(broker_ids=b) for b in new_assignments]
            )
            topics.append(
                CreatePartitionsRequestData.CreatePartitionsTopic(
                    name=topic, count=new_partition.total_count, assignments=assignments
                )
            )
            futures[topic] = KafkaFutureImpl()
        if topics:
            now = self._time.milliseconds()
            deadline = self._calc_deadline_ms(now, options.timeout_ms())
            call = self._get_create_partitions_call(options, futures, topics, {}, now, deadline)
            self._runnable.call(call, now)
        return CreatePartitionsResult(dict(futures))

    def _get_create_partitions_call(
        self,
        options: CreatePartitionsOptions,
        futures: dict[str, KafkaFutureImpl[None]],
        topics: list[Any],
        quota_exceeded_exceptions: Mapping[str, ThrottlingQuotaExceededException],
        now: int,
        deadline: int,
    ) -> Call:
        from kafka.common.message import CreatePartitionsRequestData
        from kafka.common.requests.create_partitions_request import CreatePartitionsRequest
        from kafka.common.requests.create_partitions_response import CreatePartitionsResponse

        admin = self

        class _CreatePartitionsCall(Call):
            def create_request(self, timeout_ms: int) -> Builder[Any]:
                return DataBuilder(
                    CreatePartitionsRequest,
                    CreatePartitionsRequestData(
                        topics=list(topics), validate_only=options.validate_only(), timeout_ms=timeout_ms
                    ),
                )

            def handle_response(self, abstract_response: AbstractResponse) -> None:
                admin._handle_not_controller_error(abstract_response)
                assert isinstance(abstract_response, CreatePartitionsResponse)
                response = abstract_response
                retry_topics: list[Any] = []
                retry_topic_quota_exceeded_exceptions: dict[str, ThrottlingQuotaExceededException] = {}
                for result in response.data.results:
                    future = futures.get(result.name)
                    if future is None:
                        admin._log.warn(f"Server response mentioned unknown topic {result.name}")
                        continue
                    error = ApiError(result.error_code, result.error_message)
                    if error.is_failure():
                        if error.is_(Errors.THROTTLING_QUOTA_EXCEEDED):
                            quota_exceeded_exception = ThrottlingQuotaExceededException(
                                error.message_with_fallback(), throttle_time_ms=response.throttle_time_ms()
                            )
                            if options.should_retry_on_quota_violation():
                                retry_topics.extend(t for t in topics if t.name == result.name)
                                retry_topic_quota_exceeded_exceptions[result.name] = quota_exceeded_exception
                            else:
                                future.complete_exceptionally(quota_exceeded_exception)
                        else:
                            exc = error.exception()
                            assert exc is not None
                            future.complete_exceptionally(exc)
                    else:
                        future.complete(None)
                if not retry_topics:
                    _complete_unrealized_futures(
                        futures, lambda topic: f"The controller response did not contain a result for topic {topic}"
                    )
                else:
                    now2 = admin._time.milliseconds()
                    call = admin._get_create_partitions_call(
                        options, futures, retry_topics, retry_topic_quota_exceeded_exceptions, now2, deadline
                    )
                    admin._runnable.call(call, now2)

            def handle_failure(self, throwable: BaseException) -> None:
                _maybe_complete_quota_exceeded_exception(
                    options.should_retry_on_quota_violation(),
                    throwable,
                    futures,
                    quota_exceeded_exceptions,
                    admin._time.milliseconds() - now,
                )
                _complete_all_exceptionally(futures.values(), throwable)

        return _CreatePartitionsCall(self, "createPartitions", deadline, ControllerNodeProvider(self))

    def delete_records(
        self, records_to_delete: Mapping[TopicPartition, RecordsToDelete], options: DeleteRecordsOptions | None = None
    ) -> DeleteRecordsResult:
        from kafka.clients.admin.delete_records_options import DeleteRecordsOptions
        from kafka.clients.admin.delete_records_result import DeleteRecordsResult
        from kafka.clients.admin.internals.delete_records_handler import DeleteRecordsHandler

        options = DeleteRecordsOptions() if options is None else options
        future = DeleteRecordsHandler.new_future(records_to_delete.keys())
        requested_timeout_ms = options.timeout_ms()
        timeout_ms = self._default_api_timeout_ms if requested_timeout_ms is None else requested_timeout_ms
        handler = DeleteRecordsHandler(records_to_delete, self._log_context, timeout_ms)
        self._invoke_driver(handler, future, options.timeout_ms())
        return DeleteRecordsResult(future.all())

    def list_offsets(
        self, topic_partition_offsets: Mapping[TopicPartition, OffsetSpec], options: ListOffsetsOptions | None = None
    ) -> ListOffsetsResult:
        from kafka.clients.admin.internals.list_offsets_handler import ListOffsetsHandler
        from kafka.clients.admin.list_offsets_options import ListOffsetsOptions
        from kafka.clients.admin.list_offsets_result import ListOffsetsResult

        options = ListOffsetsOptions() if options is None else options
        future = ListOffsetsHandler.new_future(topic_partition_offsets.keys())
        offset_queries_by_partition = {tp: get_offset_from_spec(spec) for tp, spec in topic_partition_offsets.items()}
        handler = ListOffsetsHandler(offset_queries_by_partition, options, self._log_context)
        self._invoke_driver(handler, future, options.timeout_ms())
        return ListOffsetsResult(future.all())

    def elect_leaders(
        self,
        election_type: ElectionType,
        partitions: Iterable[TopicPartition] | None,
        options: ElectLeadersOptions | None = None,
    ) -> ElectLeadersResult:
        from kafka.clients.admin.elect_leaders_options import ElectLeadersOptions
        from kafka.clients.admin.elect_leaders_result import ElectLeadersResult
        from kafka.clients.admin.internals.request_builders import ElectLeadersRequestBuilder
        from kafka.common.requests.elect_leaders_response import ElectLeadersResponse

        options = ElectLeadersOptions() if options is None else options
        election_future: KafkaFutureImpl[dict[TopicPartition, BaseException | None]] = KafkaFutureImpl()
        topic_partitions = None if partitions is None else list(dict.fromkeys(partitions))
        now = self._time.milliseconds()

        class _ElectLeadersCall(Call):
            def create_request(self, timeout_ms: int) -> Builder[Any]:
                return ElectLeadersRequestBuilder(election_type, topic_partitions, timeout_ms)

            def handle_response(self, abstract_response: AbstractResponse) -> None:
                assert isinstance(abstract_response, ElectLeadersResponse)
                data = abstract_response.data
                result: dict[TopicPartition, BaseException | None] = {}
                for topic_results in data.replica_election_results:
                    for partition_result in topic_results.partition_result:
                        error = Errors.for_code(partition_result.error_code)
                        result[TopicPartition(topic_results.topic, partition_result.partition_id)] = (
                            None if error is Errors.NONE else error.exception(partition_result.error_message)
                        )
                # Version 0 has no top-level error code (it reads as NONE).
                top_error = Errors.for_code(data.error_code)
                if top_error is not Errors.NONE:
                    exc = top_error.exception()
                    assert exc is not None
                    election_future.complete_exceptionally(exc)
                    return
                election_future.complete(result)

            def handle_failure(self, throwable: BaseException) -> None:
                election_future.complete_exceptionally(throwable)

        self._runnable.call(
            _ElectLeadersCall(
                self, "electLeaders", self._calc_deadline_ms(now, options.timeout_ms()), ControllerNodeProvider(self)
            ),
            now,
        )
        return ElectLeadersResult(election_future)

    # -- partition reassignments --------------------------------------------------------------------------------

    def alter_partition_reassignments(
        self,
        reassignments: Mapping[TopicPartition, NewPartitionReassignment | None],
        options: AlterPartitionReassignmentsOptions | None = None,
    ) -> AlterPartitionReassignmentsResult:
        from kafka.clients.admin.alter_partition_reassignments_options import AlterPartitionReassignmentsOptions
        from kafka.clients.admin.alter_partition_reassignments_result import AlterPartitionReassignmentsResult
        from kafka.common.message import AlterPartitionReassignmentsRequestData
        from kafka.common.requests.alter_partition_reassignments_request import AlterPartitionReassignmentsRequest
        from kafka.common.requests.alter_partition_reassignments_response import AlterPartitionReassignmentsResponse

        options = AlterPartitionReassignmentsOptions() if options is None else options
        futures: dict[TopicPartition, KafkaFutureImpl[None]] = {}
        topics_to_reassignments: dict[str, dict[int, NewPartitionReassignment | None]] = {}
        for tp, reassignment in reassignments.items():
            future: KafkaFutureImpl[None] = KafkaFutureImpl()
            futures[tp] = future
            if _topic_name_is_unrepresentable(tp.topic):
                future.complete_exceptionally(
                    InvalidTopicException(f"The given topic name '{tp.topic}' cannot be represented in a request.")
                )
            elif tp.partition < 0:
                future.complete_exceptionally(
                    InvalidTopicException(f"The given partition index {tp.partition} is not valid.")
                )
            else:
                topics_to_reassignments.setdefault(tp.topic, {})[tp.partition] = reassignment
        # Topics and partitions go out sorted, as Java's TreeMaps send them.
        ordered = {t: dict(sorted(ps.items())) for t, ps in sorted(topics_to_reassignments.items())}
        admin = self
        now = self._time.milliseconds()

        class _AlterPartitionReassignmentsCall(Call):
            def create_request(self, timeout_ms: int) -> Builder[Any]:
                data = AlterPartitionReassignmentsRequestData(timeout_ms=timeout_ms)
                for topic, partitions in ordered.items():
                    data.topics.append(
                        AlterPartitionReassignmentsRequestData.ReassignableTopic(
                            name=topic,
                            partitions=[
                                AlterPartitionReassignmentsRequestData.ReassignablePartition(
                                    partition_index=p, replicas=None if r is None else r.target_replicas
                                )
                                for p, r in partitions.items()
                            ],
                        )
                    )
                return DataBuilder(AlterPartitionReassignmentsRequest, data)

            def handle_response(self, abstract_response: AbstractResponse) -> None:
                assert isinstance(abstract_response, AlterPartitionReassignmentsResponse)
                data = abstract_response.data
                errors: dict[TopicPartition, ApiException | None] = {}
                received = 0
                top_level_error = Errors.for_code(data.error_code)
                if top_level_error is Errors.NONE:
                    for topic_response in data.responses:
                        for partition_response in topic_response.partitions:
                            error = Errors.for_code(partition_response.error_code)
                            tp = TopicPartition(topic_response.name, partition_response.partition_index)
                            errors[tp] = (
                                None
                                if error is Errors.NONE
                                else ApiError(error, partition_response.error_message).exception()
                            )
                            received += 1
                elif top_level_error is Errors.NOT_CONTROLLER:
                    admin._handle_not_controller_error(abstract_response)
                else:
                    for topic_response in data.responses:
                        for partition_response in topic_response.partitions:
                            tp = TopicPartition(topic_response.name, partition_response.partition_index)
                            errors[tp] = ApiError(top_level_error, data.error_message).exception()
                            received += 1
                expected = sum(len(ps) for ps in ordered.values())
                if all(e is None for e in errors.values()) and received != expected:
                    quantifier = "many" if received > expected else "less"
                    raise UnknownServerException(
                        f"The server returned too {quantifier} results.Expected {expected} but received {received}"
                    )
                for tp, exception in errors.items():
                    if exception is None:
                        futures[tp].complete(None)
                    else:
                        futures[tp].complete_exceptionally(exception)

            def handle_failure(self, throwable: BaseException) -> None:
                for f in futures.values():
                    f.complete_exceptionally(throwable)

        if ordered:
            self._runnable.call(
                _AlterPartitionReassignmentsCall(
                    self,
                    "alterPartitionReassignments",
                    self._calc_deadline_ms(now, options.timeout_ms()),
                    ControllerNodeProvider(self),
                ),
                now,
            )
        return AlterPartitionReassignmentsResult(dict(futures))

    def list_partition_reassignments(
        self,
        partitions: Collection[TopicPartition] | None = None,
        options: ListPartitionReassignmentsOptions | None = None,
    ) -> ListPartitionReassignmentsResult:
        from kafka.clients.admin.list_partition_reassignments_options import ListPartitionReassignmentsOptions
        from kafka.clients.admin.list_partition_reassignments_result import ListPartitionReassignmentsResult
        from kafka.clients.admin.partition_reassignment import PartitionReassignment
        from kafka.common.message import ListPartitionReassignmentsRequestData
        from kafka.common.requests.list_partition_reassignments_request import ListPartitionReassignmentsRequest
        from kafka.common.requests.list_partition_reassignments_response import ListPartitionReassignmentsResponse

        options = ListPartitionReassignmentsOptions() if options is None else options
        reassignments_future: KafkaFutureImpl[dict[TopicPartition, PartitionReassignment]] = KafkaFutureImpl()
        wanted = None if partitions is None else list(dict.fromkeys(partitions))
        if wanted is not None:
            for tp in wanted:
                if _topic_name_is_unrepresentable(tp.topic):
                    reassignments_future.complete_exceptionally(
                        InvalidTopicException(f"The given topic name '{tp.topic}' cannot be represented in a request.")
                    )
                elif tp.partition < 0:
                    reassignments_future.complete_exceptionally(
                        InvalidTopicException(f"The given partition index {tp.partition} is not valid.")
                    )
                if reassignments_future.is_completed_exceptionally():
                    return ListPartitionReassignmentsResult(reassignments_future)
        admin = self
        now = self._time.milliseconds()

        class _ListPartitionReassignmentsCall(Call):
            def create_request(self, timeout_ms: int) -> Builder[Any]:
                data = ListPartitionReassignmentsRequestData(timeout_ms=timeout_ms)
                if wanted is not None:
                    by_topic: dict[str, Any] = {}
                    for tp in wanted:
                        topic = by_topic.get(tp.topic)
                        if topic is None:
                            topic = ListPartitionReassignmentsRequestData.ListPartitionReassignmentsTopics(
                                name=tp.topic
                            )
                            by_topic[tp.topic] = topic
                        topic.partition_indexes.append(tp.partition)
                    data.topics = list(by_topic.values())
                return DataBuilder(ListPartitionReassignmentsRequest, data)

            def handle_response(self, abstract_response: AbstractResponse) -> None:
                assert isinstance(abstract_response, ListPartitionReassignmentsResponse)
                data = abstract_response.data
                error = Errors.for_code(data.error_code)
                if error is Errors.NOT_CONTROLLER:
                    admin._handle_not_controller_error(abstract_response)
                elif error is not Errors.NONE:
                    exception = ApiError(error, data.error_message).exception()
                    assert exception is not None
                    reassignments_future.complete_exceptionally(exception)
                reassignment_map: dict[TopicPartition, PartitionReassignment] = {}
                for topic_reassignment in data.topics:
                    for partition_reassignment in topic_reassignment.partitions:
                        reassignment_map[
                            TopicPartition(topic_reassignment.name, partition_reassignment.partition_index)
                        ] = PartitionReassignment(
                            tuple(partition_reassignment.replicas),
                            tuple(partition_reassignment.adding_replicas),
                            tuple(partition_reassignment.removing_replicas),
                        )
                reassignments_future.complete(reassignment_map)

            def handle_failure(self, throwable: BaseException) -> None:
                reassignments_future.complete_exceptionally(throwable)

        self._runnable.call(
            _ListPartitionReassignmentsCall(
                self,
                "listPartitionReassignments",
                self._calc_deadline_ms(now, options.timeout_ms()),
                ControllerNodeProvider(self),
            ),
            now,
        )
        return ListPartitionReassignmentsResult(reassignments_future)

    # -- consumer groups ----------------------------------------------------------------------------------------

    def describe_consumer_groups(
        self, group_ids: Collection[str], options: DescribeConsumerGroupsOptions | None = None
    ) -> DescribeConsumerGroupsResult:
        from kafka.clients.admin.describe_consumer_groups_options import DescribeConsumerGroupsOptions
        from kafka.clients.admin.describe_consumer_groups_result import DescribeConsumerGroupsResult
        from kafka.clients.admin.internals.describe_consumer_groups_handler import DescribeConsumerGroupsHandler

        options = DescribeConsumerGroupsOptions() if options is None else options
        future = DescribeConsumerGroupsHandler.new_future(group_ids)
        handler = DescribeConsumerGroupsHandler(options.include_authorized_operations(), self._log_context)
        self._invoke_driver(handler, future, options.timeout_ms())
        return DescribeConsumerGroupsResult({k.id_value: f for k, f in future.all().items()})

    def list_consumer_groups(self, options: ListConsumerGroupsOptions | None = None) -> ListConsumerGroupsResult:
        from kafka.clients.admin.consumer_group_listing import ConsumerGroupListing
        from kafka.clients.admin.internals.request_builders import ListGroupsRequestBuilder
        from kafka.clients.admin.list_consumer_groups_options import ListConsumerGroupsOptions
        from kafka.clients.admin.list_consumer_groups_result import ListConsumerGroupsResult
        from kafka.clients.consumer.internals import consumer_protocol
        from kafka.clients.stale_metadata_exception import StaleMetadataException
        from kafka.common.consumer_group_state import ConsumerGroupState
        from kafka.common.message import ListGroupsRequestData
        from kafka.common.requests.list_groups_response import ListGroupsResponse

        opts: ListConsumerGroupsOptions = ListConsumerGroupsOptions() if options is None else options
        admin = self
        all_future: KafkaFutureImpl[list[Any]] = KafkaFutureImpl()
        now_metadata = self._time.milliseconds()
        deadline = self._calc_deadline_ms(now_metadata, opts.timeout_ms())

        class _FindAllBrokersCall(Call):
            def create_request(self, timeout_ms: int) -> Builder[Any]:
                return MetadataRequestBuilder(data=MetadataRequestData(topics=[], allow_auto_topic_creation=True))

            def handle_response(self, abstract_response: AbstractResponse) -> None:
                assert isinstance(abstract_response, MetadataResponse)
                nodes = list(dict.fromkeys(abstract_response.brokers()))
                if not nodes:
                    raise StaleMetadataException("Metadata fetch failed due to missing broker list")
                results = _ListConsumerGroupsResults(nodes, all_future)
                for node in nodes:
                    now_list = admin._time.milliseconds()
                    admin._runnable.call(
                        _ListConsumerGroupsCall(
                            node,
                            results,
                            admin,
                            "listConsumerGroups",
                            deadline,
                            ConstantNodeIdProvider(admin, node.id),
                        ),
                        now_list,
                    )

            def handle_failure(self, throwable: BaseException) -> None:
                exception = KafkaException("Failed to find brokers to send ListGroups")
                exception.__cause__ = throwable
                all_future.complete([exception])

        class _ListConsumerGroupsCall(Call):
            def __init__(self, node: Node, results: _ListConsumerGroupsResults, *args: Any) -> None:
                super().__init__(*args)
                self._node = node
                self._results = results

            def create_request(self, timeout_ms: int) -> Builder[Any]:
                states = [str(s) for s in opts.states()]
                return ListGroupsRequestBuilder(ListGroupsRequestData(states_filter=states))

            def _maybe_add_consumer_group(self, group: Any) -> None:
                protocol_type = group.protocol_type
                if protocol_type == consumer_protocol.PROTOCOL_TYPE or protocol_type == "":
                    state = None if group.group_state == "" else ConsumerGroupState.parse(group.group_state)
                    self._results.add_listing(ConsumerGroupListing(group.group_id, protocol_type == "", state))

            def handle_response(self, abstract_response: AbstractResponse) -> None:
                assert isinstance(abstract_response, ListGroupsResponse)
                with self._results.lock:
                    error = Errors.for_code(abstract_response.data.error_code)
                    if error in (Errors.COORDINATOR_LOAD_IN_PROGRESS, Errors.COORDINATOR_NOT_AVAILABLE):
                        exc = error.exception()
                        assert exc is not None
                        raise exc
                    if error is not Errors.NONE:
                        exc = error.exception()
                        assert exc is not None
                        self._results.add_error(exc, self._node)
                    else:
                        for group in abstract_response.data.groups:
                            self._maybe_add_consumer_group(group)
                    self._results.try_complete(self._node)

            def handle_failure(self, throwable: BaseException) -> None:
                with self._results.lock:
                    self._results.add_error(throwable, self._node)
                    self._results.try_complete(self._node)

        self._runnable.call(
            _FindAllBrokersCall(self, "findAllBrokers", deadline, LeastLoadedNodeProvider(self)), now_metadata
        )
        return ListConsumerGroupsResult(all_future)

    def list_consumer_group_offsets(
        self,
        group: str | Mapping[str, ListConsumerGroupOffsetsSpec],
        options: ListConsumerGroupOffsetsOptions | None = None,
    ) -> ListConsumerGroupOffsetsResult:
        from kafka.clients.admin.internals.list_consumer_group_offsets_handler import ListConsumerGroupOffsetsHandler
        from kafka.clients.admin.list_consumer_group_offsets_options import ListConsumerGroupOffsetsOptions
        from kafka.clients.admin.list_consumer_group_offsets_result import ListConsumerGroupOffsetsResult
        from kafka.clients.admin.list_consumer_group_offsets_spec import ListConsumerGroupOffsetsSpec

        options = ListConsumerGroupOffsetsOptions() if options is None else options
        if isinstance(group, str):
            # The single-group form takes its partitions from the (deprecated) option.
            group_specs: Mapping[str, ListConsumerGroupOffsetsSpec] = {
                group: ListConsumerGroupOffsetsSpec(options.topic_partitions())
            }
        else:
            group_specs = group
        future = ListConsumerGroupOffsetsHandler.new_future(group_specs.keys())
        handler = ListConsumerGroupOffsetsHandler(group_specs, options.require_stable(), self._log_context)
        self._invoke_driver(handler, future, options.timeout_ms())
        return ListConsumerGroupOffsetsResult(future.all())

    def delete_consumer_groups(
        self, group_ids: Collection[str], options: DeleteConsumerGroupsOptions | None = None
    ) -> DeleteConsumerGroupsResult:
        from kafka.clients.admin.delete_consumer_groups_options import DeleteConsumerGroupsOptions
        from kafka.clients.admin.delete_consumer_groups_result import DeleteConsumerGroupsResult
        from kafka.clients.admin.internals.delete_consumer_groups_handler import DeleteConsumerGroupsHandler

        options = DeleteConsumerGroupsOptions() if options is None else options
        future = DeleteConsumerGroupsHandler.new_future(group_ids)
        handler = DeleteConsumerGroupsHandler(self._log_context)
        self._invoke_driver(handler, future, options.timeout_ms())
        return DeleteConsumerGroupsResult({k.id_value: f for k, f in future.all().items()})

    def delete_consumer_group_offsets(
        self,
        group_id: str,
        partitions: Collection[TopicPartition],
        options: DeleteConsumerGroupOffsetsOptions | None = None,
    ) -> DeleteConsumerGroupOffsetsResult:
        from kafka.clients.admin.delete_consumer_group_offsets_options import DeleteConsumerGroupOffsetsOptions
        from kafka.clients.admin.delete_consumer_group_offsets_result import DeleteConsumerGroupOffsetsResult
        from kafka.clients.admin.internals.delete_consumer_group_offsets_handler import (
            DeleteConsumerGroupOffsetsHandler,
        )

        options = DeleteConsumerGroupOffsetsOptions() if options is None else options
        future = DeleteConsumerGroupOffsetsHandler.new_future(group_id)
        handler = DeleteConsumerGroupOffsetsHandler(group_id, partitions, self._log_context)
        self._invoke_driver(handler, future, options.timeout_ms())
        return DeleteConsumerGroupOffsetsResult(future.get(CoordinatorKey.by_group_id(group_id)), partitions)

    def alter_consumer_group_offsets(
        self,
        group_id: str,
        offsets: Mapping[TopicPartition, OffsetAndMetadata],
        options: AlterConsumerGroupOffsetsOptions | None = None,
    ) -> AlterConsumerGroupOffsetsResult:
        from kafka.clients.admin.alter_consumer_group_offsets_options import AlterConsumerGroupOffsetsOptions
        from kafka.clients.admin.alter_consumer_group_offsets_result import AlterConsumerGroupOffsetsResult
        from kafka.clients.admin.internals.alter_consumer_group_offsets_handler import AlterConsumerGroupOffsetsHandler

        options = AlterConsumerGroupOffsetsOptions() if options is None else options
        future = AlterConsumerGroupOffsetsHandler.new_future(group_id)
        handler = AlterConsumerGroupOffsetsHandler(group_id, offsets, self._log_context)
        self._invoke_driver(handler, future, options.timeout_ms())
        return AlterConsumerGroupOffsetsResult(future.get(CoordinatorKey.by_group_id(group_id)))

    # -- transactions and producers -----------------------------------------------------------------------------

    def describe_producers(
        self, topic_partitions: Collection[TopicPartition], options: DescribeProducersOptions | None = None
    ) -> DescribeProducersResult:
        from kafka.clients.admin.describe_producers_options import DescribeProducersOptions
        from kafka.clients.admin.describe_producers_result import DescribeProducersResult
        from kafka.clients.admin.internals.describe_producers_handler import DescribeProducersHandler

        options = DescribeProducersOptions() if options is None else options
        future = DescribeProducersHandler.new_future(topic_partitions)
        handler = DescribeProducersHandler(options, self._log_context)
        self._invoke_driver(handler, future, options.timeout_ms())
        return DescribeProducersResult(future.all())

    def describe_transactions(
        self, transactional_ids: Collection[str], options: DescribeTransactionsOptions | None = None
    ) -> DescribeTransactionsResult:
        from kafka.clients.admin.describe_transactions_options import DescribeTransactionsOptions
        from kafka.clients.admin.describe_transactions_result import DescribeTransactionsResult
        from kafka.clients.admin.internals.describe_transactions_handler import DescribeTransactionsHandler

        options = DescribeTransactionsOptions() if options is None else options
        future = DescribeTransactionsHandler.new_future(transactional_ids)
        handler = DescribeTransactionsHandler(self._log_context)
        self._invoke_driver(handler, future, options.timeout_ms())
        return DescribeTransactionsResult(future.all())

    def abort_transaction(
        self, spec: AbortTransactionSpec, options: AbortTransactionOptions | None = None
    ) -> AbortTransactionResult:
        from kafka.clients.admin.abort_transaction_options import AbortTransactionOptions
        from kafka.clients.admin.abort_transaction_result import AbortTransactionResult
        from kafka.clients.admin.internals.abort_transaction_handler import AbortTransactionHandler

        options = AbortTransactionOptions() if options is None else options
        future = AbortTransactionHandler.new_future([spec.topic_partition])
        handler = AbortTransactionHandler(spec, self._log_context)
        self._invoke_driver(handler, future, options.timeout_ms())
        return AbortTransactionResult(future.all())

    def list_transactions(self, options: ListTransactionsOptions | None = None) -> ListTransactionsResult:
        from kafka.clients.admin.internals.list_transactions_handler import ListTransactionsHandler
        from kafka.clients.admin.list_transactions_options import ListTransactionsOptions
        from kafka.clients.admin.list_transactions_result import ListTransactionsResult

        options = ListTransactionsOptions() if options is None else options
        future = ListTransactionsHandler.new_future()
        handler = ListTransactionsHandler(options, self._log_context)
        self._invoke_driver(handler, future, options.timeout_ms())
        return ListTransactionsResult(future.all())

    # -- helpers ------------------------------------------------------------------------------------------------

    def _handle_not_controller_error(self, response: AbstractResponse) -> None:
        """A NOT_CONTROLLER answer: forget the controller, refresh metadata, and retry (the error is retriable)."""
        if Errors.NOT_CONTROLLER in response.error_counts():
            self._metadata_manager.clear_controller()
            self._metadata_manager.request_update()
            exc = Errors.NOT_CONTROLLER.exception()
            assert exc is not None
            raise exc

    @staticmethod
    def _node_for(resource: ConfigResource) -> int | None:
        """The broker a resource belongs to, or None for resources any broker serves."""
        from kafka.common.config.config_resource import ConfigResource

        if (
            resource.type is ConfigResource.Type.BROKER and not resource.is_default()
        ) or resource.type is ConfigResource.Type.BROKER_LOGGER:
            return int(resource.name)
        return None

    def _invoke_driver(
        self, handler: AdminApiHandler[K, V], future: AdminApiFuture[K, V], timeout_ms: int | None
    ) -> None:
        current_time_ms = self._time.milliseconds()
        deadline_ms = self._calc_deadline_ms(current_time_ms, timeout_ms)
        driver = AdminApiDriver(
            handler, future, deadline_ms, self._retry_backoff_ms, self._retry_backoff_max_ms, self._log_context
        )
        self._maybe_send_requests(driver, current_time_ms)

    def _maybe_send_requests(self, driver: AdminApiDriver[K, V], current_time_ms: int) -> None:
        for spec in driver.poll():
            self._runnable.call(self._new_call(driver, spec), current_time_ms)

    def _new_call(self, driver: AdminApiDriver[K, V], spec: RequestSpec[K]) -> Call:
        admin = self
        destination = spec.scope.destination_broker_id()
        node_provider: NodeProvider = (
            ConstantNodeIdProvider(self, destination) if destination is not None else LeastLoadedNodeProvider(self)
        )

        class _DriverCall(Call):
            def create_request(self, timeout_ms: int) -> Builder[Any]:
                return spec.request

            def handle_response(self, abstract_response: AbstractResponse) -> None:
                current_time_ms = admin._time.milliseconds()
                assert self.cur_node is not None
                driver.on_response(current_time_ms, spec, abstract_response, self.cur_node)
                admin._maybe_send_requests(driver, current_time_ms)

            def handle_failure(self, throwable: BaseException) -> None:
                current_time_ms = admin._time.milliseconds()
                driver.on_failure(current_time_ms, spec, throwable)
                admin._maybe_send_requests(driver, current_time_ms)

            def maybe_retry(self, now: int, throwable: BaseException) -> None:
                if isinstance(throwable, DisconnectException):
                    # After a disconnect the driver looks the key up again (the leader or coordinator may have
                    # moved) rather than retrying the same node.
                    driver.on_failure(now, spec, throwable)
                    admin._maybe_send_requests(driver, now)
                else:
                    super().maybe_retry(now, throwable)

        return _DriverCall(
            self,
            spec.name,
            spec.deadline_ms,
            node_provider,
            next_allowed_try_ms=spec.next_allowed_try_ms,
            tries=spec.tries,
        )

    @staticmethod
    def get_sub_level_error(
        sub_level_errors: Mapping[K, Errors], sub_key: K, key_not_found_msg: str
    ) -> BaseException | None:
        from kafka.clients.admin._results import get_sub_level_error

        return get_sub_level_error(sub_level_errors, sub_key, key_not_found_msg)

    def __repr__(self) -> str:
        return f"KafkaAdminClient(clientId={self._client_id})"


class _ListConsumerGroupsResults:
    """The listings and errors of the per-broker ListGroups calls of one listConsumerGroups; completes the
    future when every broker has answered or failed."""

    def __init__(self, leaders: Iterable[Node], future: KafkaFutureImpl[list[Any]]) -> None:
        self.lock = threading.RLock()
        self._errors: list[BaseException] = []
        self._listings: dict[str, ConsumerGroupListing] = {}
        self._remaining = set(leaders)
        self._future = future
        self._try_complete()

    def add_error(self, throwable: BaseException, node: Node) -> None:
        with self.lock:
            error = ApiError.from_throwable(throwable)
            if not error.message:
                exc = error.error.exception(f"Error listing groups on {node}")
            else:
                exc = error.error.exception(f"Error listing groups on {node}: {error.message}")
            self._errors.append(exc if exc is not None else KafkaException(java_to_string(throwable)))

    def add_listing(self, listing: ConsumerGroupListing) -> None:
        with self.lock:
            self._listings[listing.group_id] = listing

    def try_complete(self, leader: Node) -> None:
        with self.lock:
            self._remaining.discard(leader)
            self._try_complete()

    def _try_complete(self) -> None:
        with self.lock:
            if not self._remaining:
                results: list[Any] = list(self._listings.values())
                results.extend(self._errors)
                self._future.complete(results)
