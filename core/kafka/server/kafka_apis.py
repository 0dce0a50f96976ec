"""Port of core/src/main/scala/kafka/server/KafkaApis.scala (Kafka 2.8, with 3.7's request versions).

`KafkaApis.handle` runs on a request handler thread: it dispatches on the API key to one handler per API,
each of which answers through the request channel, at once or later from a purgatory.

What this broker serves is exactly the keys of the handler table (`KafkaApis._HANDLERS`, at the end of the
class), and ApiVersions advertises those (`HANDLED_APIS`) and nothing else. A request for a key the broker
knows but does not serve is answered with UNSUPPORTED_VERSION in
that API's own error response.
# PORT: Kafka's SocketServer closes the connection for an API that is not enabled; answering with the error
# tells the client why, which is what a client of this broker needs while APIs arrive.
# PORT: the handlers keep Kafka's names, but the class groups them by subject (ApiVersions, Metadata, Produce,
# Fetch, ListOffsets, the group APIs, inter-broker, admin, transactions) rather than in Kafka's file order; the
# handler table lists them in the order of Kafka's `handle`.

The group APIs (FindCoordinator, JoinGroup, SyncGroup, Heartbeat, LeaveGroup, OffsetCommit, OffsetFetch,
DescribeGroups, ListGroups, DeleteGroups, OffsetDelete) go to the GroupCoordinator as 2.8's KafkaApis hands
them over, answered in the layout of the request's version as 3.7 does (batched FindCoordinator and
OffsetFetch, v9 JoinGroup). OffsetCommit and OffsetFetch v0 keep the offsets in ZooKeeper, under
/consumers, as a ZooKeeper-mode Kafka broker does. LeaderAndIsr and StopReplica tell the coordinator which
__consumer_offsets partitions to load and unload.

The transaction APIs (InitProducerId, AddPartitionsToTxn, AddOffsetsToTxn, EndTxn, TxnOffsetCommit and, from the
coordinators of other brokers, WriteTxnMarkers) go to the TransactionCoordinator, and TxnOffsetCommit to the
GroupCoordinator, as 2.8's KafkaApis hands them over; 3.7's DescribeProducers, DescribeTransactions,
ListTransactions and AddPartitionsToTxn v4 as 3.7's does. FindCoordinator finds transactional ids on the leaders
of __transaction_state, and LeaderAndIsr and StopReplica tell the transaction coordinator which of its partitions
to load and unload.

Every handler authorizes exactly where Kafka 2.8's KafkaApis does (3.7's for the APIs that only exist there),
through the authorizer KafkaServer creates from `authorizer.class.name`; without one (Kafka's default) every
operation is allowed. CreateAcls, DescribeAcls and DeleteAcls go to the authorizer (SECURITY_DISABLED without one).
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from kafka.common.acl.acl_binding import AclBinding
from kafka.common.acl.acl_operation import AclOperation
from kafka.common.config.config_resource import ConfigResource
from kafka.common.election_type import ElectionType
from kafka.common.errors import (
    ApiException,
    ClusterAuthorizationException,
    ControllerMovedException,
    InvalidRequestException,
    KafkaException,
    NotControllerException,
    SecurityDisabledException,
    UnsupportedVersionException,
)
from kafka.common.internals.topic import Topic
from kafka.common.isolation_level import IsolationLevel
from kafka.common.message import (
    AddOffsetsToTxnResponseData,
    AddPartitionsToTxnResponseData,
    AlterConfigsResponseData,
    AlterReplicaLogDirsResponseData,
    CreateAclsResponseData,
    DeleteAclsResponseData,
    DeleteGroupsResponseData,
    DeleteRecordsResponseData,
    DescribeAclsResponseData,
    DescribeClusterResponseData,
    DescribeGroupsResponseData,
    DescribeLogDirsResponseData,
    DescribeProducersResponseData,
    DescribeTransactionsResponseData,
    ElectLeadersResponseData,
    EndTxnResponseData,
    FetchResponseData,
    FindCoordinatorResponseData,
    HeartbeatResponseData,
    IncrementalAlterConfigsResponseData,
    InitProducerIdResponseData,
    JoinGroupResponseData,
    LeaveGroupResponseData,
    ListGroupsResponseData,
    ListOffsetsResponseData,
    MetadataResponseData,
    OffsetCommitResponseData,
    OffsetDeleteResponseData,
    OffsetFetchResponseData,
    OffsetForLeaderEpochResponseData,
    SyncGroupResponseData,
    TxnOffsetCommitResponseData,
)
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.protocol.types import ZERO_UUID
from kafka.common.record.control_record_type import ControlRecordType
from kafka.common.record.end_transaction_marker import EndTransactionMarker
from kafka.common.record.memory_records import MemoryRecords
from kafka.common.record.record_batch import (
    MAGIC_VALUE_V2,
    NO_PARTITION_LEADER_EPOCH,
    NO_PRODUCER_EPOCH,
    NO_PRODUCER_ID,
)
from kafka.common.replica.client_metadata import ClientMetadata
from kafka.common.requests.abstract_response import AbstractResponse
from kafka.common.requests.add_offsets_to_txn_response import AddOffsetsToTxnResponse
from kafka.common.requests.add_partitions_to_txn_response import AddPartitionsToTxnResponse
from kafka.common.requests.alter_configs_response import AlterConfigsResponse
from kafka.common.requests.alter_replica_log_dirs_response import AlterReplicaLogDirsResponse
from kafka.common.requests.api_error import ApiError
from kafka.common.requests.api_versions_response import ApiVersionsResponse
from kafka.common.requests.controlled_shutdown_response import ControlledShutdownResponse
from kafka.common.requests.create_acls_request import CreateAclsRequest
from kafka.common.requests.create_acls_response import CreateAclsResponse
from kafka.common.requests.create_partitions_response import CreatePartitionsResponse
from kafka.common.requests.create_topics_response import CreateTopicsResponse
from kafka.common.requests.delete_acls_response import DeleteAclsResponse
from kafka.common.requests.delete_groups_response import DeleteGroupsResponse
from kafka.common.requests.delete_records_response import DeleteRecordsResponse
from kafka.common.requests.delete_topics_response import DeleteTopicsResponse
from kafka.common.requests.describe_acls_response import DescribeAclsResponse
from kafka.common.requests.describe_cluster_response import DescribeClusterResponse
from kafka.common.requests.describe_groups_response import DescribeGroupsResponse
from kafka.common.requests.describe_log_dirs_response import DescribeLogDirsResponse
from kafka.common.requests.describe_producers_response import DescribeProducersResponse
from kafka.common.requests.describe_transactions_response import DescribeTransactionsResponse
from kafka.common.requests.elect_leaders_response import ElectLeadersResponse
from kafka.common.requests.end_txn_response import EndTxnResponse
from kafka.common.requests.fetch_response import FetchResponse
from kafka.common.requests.find_coordinator_request import CoordinatorType
from kafka.common.requests.find_coordinator_response import NO_NODE, FindCoordinatorResponse, NodeInfo
from kafka.common.requests.heartbeat_response import HeartbeatResponse
from kafka.common.requests.incremental_alter_configs_response import IncrementalAlterConfigsResponse
from kafka.common.requests.init_producer_id_response import InitProducerIdResponse
from kafka.common.requests.join_group_response import JoinGroupResponse
from kafka.common.requests.leave_group_response import LeaveGroupResponse
from kafka.common.requests.list_groups_response import ListGroupsResponse
from kafka.common.requests.list_offsets_response import ListOffsetsResponse
from kafka.common.requests.list_transactions_response import ListTransactionsResponse
from kafka.common.requests.metadata_response import MetadataResponse
from kafka.common.requests.offset_commit_request import DEFAULT_RETENTION_TIME as OFFSET_COMMIT_DEFAULT_RETENTION_TIME
from kafka.common.requests.offset_commit_request import DEFAULT_TIMESTAMP as OFFSET_COMMIT_DEFAULT_TIMESTAMP
from kafka.common.requests.offset_commit_response import OffsetCommitResponse
from kafka.common.requests.offset_delete_response import OffsetDeleteResponse
from kafka.common.requests.offset_fetch_response import INVALID_OFFSET as OFFSET_FETCH_INVALID_OFFSET
from kafka.common.requests.offset_fetch_response import NO_METADATA as OFFSET_FETCH_NO_METADATA
from kafka.common.requests.offset_fetch_response import UNAUTHORIZED_PARTITION as OFFSET_FETCH_UNAUTHORIZED_PARTITION
from kafka.common.requests.offset_fetch_response import UNKNOWN_PARTITION as OFFSET_FETCH_UNKNOWN_PARTITION
from kafka.common.requests.offset_fetch_response import OffsetFetchResponse
from kafka.common.requests.offset_fetch_response import PartitionData as OffsetFetchPartitionData
from kafka.common.requests.offsets_for_leader_epoch_response import OffsetsForLeaderEpochResponse
from kafka.common.requests.produce_request import ProduceRequest
from kafka.common.requests.produce_response import PartitionResponse, ProduceResponse
from kafka.common.requests.request_context import RequestContext
from kafka.common.requests.request_utils import has_transactional_records
from kafka.common.requests.stop_replica_response import StopReplicaResponse
from kafka.common.requests.sync_group_response import SyncGroupResponse
from kafka.common.requests.transaction_result import TransactionResult
from kafka.common.requests.txn_offset_commit_response import TxnOffsetCommitResponse
from kafka.common.requests.update_metadata_response import UpdateMetadataResponse
from kafka.common.requests.write_txn_markers_response import WriteTxnMarkersResponse
from kafka.common.resource.pattern_type import PatternType
from kafka.common.resource.resource import CLUSTER_NAME, Resource
from kafka.common.resource.resource_pattern import ResourcePattern
from kafka.common.resource.resource_type import ResourceType
from kafka.common.security.auth.kafka_principal import KafkaPrincipal
from kafka.common.security.auth.security_protocol import SecurityProtocol
from kafka.common.security.token.delegation import DelegationToken, TokenInformation
from kafka.common.topic_id_partition import TopicIdPartition
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.producer_id_and_epoch import ProducerIdAndEpoch
from kafka.common.utils.time import Time
from kafka.coordinator.group.offset_and_metadata import OffsetAndMetadata
from kafka.log.log_validator import Client, Coordinator
from kafka.network.request_channel import NoOpResponse, Request, RequestChannel, SendResponse
from kafka.security.authorizer.acl_entry import AclEntry
from kafka.security.authorizer.authorizer_utils import is_cluster_resource
from kafka.server.authorizer.acl_create_result import AclCreateResult
from kafka.server.authorizer.action import Action
from kafka.server.authorizer.authorization_result import AuthorizationResult
from kafka.server.controller_mutation_quota_manager import UNBOUNDED_CONTROLLER_MUTATION_QUOTA
from kafka.server.delayed_operation_key import TopicPartitionOperationKey
from kafka.server.delegation_token_manager import CreateTokenResult, DelegationTokenManager
from kafka.server.kafka_config import KAFKA_0_11_0_IV0, KAFKA_2_3_IV0, ApiVersion
from kafka.server.metadata_cache import NO_LEADER_ID
from kafka.server.quota_factory import UNBOUNDED_QUOTA
from kafka.server.request_handler_helper import on_leadership_change
from kafka.utils.logging import Logging

if TYPE_CHECKING:
    from kafka.controller.kafka_controller import KafkaController
    from kafka.coordinator.transaction.transaction_coordinator import InitProducerIdResult, TransactionCoordinator
    from kafka.server.api_version_manager import ApiVersionManager
    from kafka.server.authorizer.authorizer import Authorizer
    from kafka.server.auto_topic_creation_manager import AutoTopicCreationManager
    from kafka.server.client_quota_manager import ClientQuotaManager
    from kafka.server.config_helper import ConfigHelper
    from kafka.server.controller_mutation_quota_manager import ControllerMutationQuota
    from kafka.server.fetch_session import FetchManager
    from kafka.server.kafka_config import KafkaConfig
    from kafka.server.kafka_request_handler import BrokerTopicStats
    from kafka.server.metadata_cache import MetadataCache
    from kafka.server.quota_factory import QuotaManagers
    from kafka.server.replica_manager import ReplicaManager
    from kafka.server.replication_quota_manager import ReplicaQuota
    from kafka.server.zk_admin_manager import ZkAdminManager
    from kafka.zk.kafka_zk_client import KafkaZkClient

_INT_MAX = 2**31 - 1

_T = TypeVar("_T")

# ListOffsets special timestamps and the replica id of an ordinary consumer.
LATEST_TIMESTAMP = -1
EARLIEST_TIMESTAMP = -2
CONSUMER_REPLICA_ID = -1
DEBUGGING_REPLICA_ID = -2
# The client id of the admin tools, which may write to internal topics (AdminUtils.AdminClientId).
ADMIN_CLIENT_ID = "__admin_client"
# Metadata v8-10 clients that did not ask for authorized operations get this value.
AUTHORIZED_OPERATIONS_OMITTED = -(2**31)


class KafkaApis(Logging):
    """Logic to handle the various Kafka requests."""

    logger_name = "kafka.server.KafkaApis"

    def __init__(
        self,
        request_channel: RequestChannel,
        replica_manager: ReplicaManager,
        # Any: a request header's client id may be None (Kafka prints it as null), the coordinator's are str.
        group_coordinator: Any,
        txn_coordinator: TransactionCoordinator,
        admin_manager: ZkAdminManager,
        controller: KafkaController,
        zk_client: KafkaZkClient,
        broker_id: int,
        config: KafkaConfig,
        metadata_cache: MetadataCache,
        fetch_manager: FetchManager,
        broker_topic_stats: BrokerTopicStats | None,
        cluster_id: str,
        time: Time,
        api_version_manager: ApiVersionManager,
        auto_topic_creation_manager: AutoTopicCreationManager,
        config_helper: ConfigHelper,
        broker_epoch_supplier: Callable[[], int],
        quotas: QuotaManagers | None = None,
        authorizer: Authorizer | None = None,
        token_manager: DelegationTokenManager | None = None,
    ) -> None:
        """`quotas` are the broker's quota managers (Kafka's `quotas`; KafkaServer always passes them). Without
        them (unit tests) no fetch is throttled."""
        self.request_channel = request_channel
        self.replica_manager = replica_manager
        self.group_coordinator = group_coordinator
        self.txn_coordinator = txn_coordinator
        self.admin_manager = admin_manager
        self.controller = controller
        self.zk_client = zk_client
        self.broker_id = broker_id
        self.config = config
        self.metadata_cache = metadata_cache
        self.fetch_manager = fetch_manager
        self.broker_topic_stats = broker_topic_stats
        self.cluster_id = cluster_id
        self.time = time
        self.api_version_manager = api_version_manager
        self.auto_topic_creation_manager = auto_topic_creation_manager
        self.config_helper = config_helper
        self.broker_epoch_supplier = broker_epoch_supplier
        self.quotas = quotas
        # None: no authorizer.class.name, and every operation is allowed (Kafka's `authorizer: Option[Authorizer]`).
        self.authorizer = authorizer
        # Delegation tokens (KafkaServer always passes it; without one, unit tests, the token APIs fail).
        self.token_manager = token_manager
        self.log_ident = f"[KafkaApi-{broker_id}] "

    def close(self) -> None:
        self.info("Shutdown complete.")

    # ---- dispatch -------------------------------------------------------------------------------------

    def handle(self, request: Request) -> None:
        """Top-level method that handles all requests and multiplexes to the right api."""
        try:
            if self.is_trace_enabled():
                self.trace(
                    f"Handling request:{request.request_desc(True)} from connection {request.context.connection_id};"
                    f"securityProtocol:{request.context.security_protocol},principal:{request.context.principal}"
                )
            header = request.header
            api_key = header.api_key
            api_version = header.api_version
            handler = KafkaApis._HANDLERS.get(api_key)
            if handler is None or not self.api_version_manager.is_version_enabled(api_key, api_version):
                self.handle_error(
                    request,
                    UnsupportedVersionException(
                        f"Received request for api key {api_key.name} with version {api_version}, "
                        "which this broker does not serve"
                    ),
                )
                return
            handler(self, request)
        except Exception as e:
            self.handle_error(request, e)
        finally:
            # Delayed operations that a produce or a leadership change made completable run here, on
            # this thread and with no lock held, as Kafka's action queue does.
            self.replica_manager.try_complete_actions()
            # A request answered later (a produce waiting for acks=all, a join waiting for the group) finished its
            # local part here: the time to its response is RemoteTime, not LocalTime.
            if request.api_local_complete_time_nanos < 0:
                request.api_local_complete_time_nanos = self.time.nanoseconds()

    def handle_error(self, request: Request, e: BaseException) -> None:
        """Answers with the request's error response for `e`, or closes the connection when that fails."""
        if isinstance(e, ApiException):
            self.debug(f"Error when handling request: {request.request_desc(True)}: {e}")
        else:
            self.error(f"Error when handling request: {request.request_desc(True)}", e)
        try:
            response = request.body.get_error_response(0, e)
        except Exception as inner:
            self.error(f"Could not build the error response of {request.request_desc(False)}", inner)
            self.request_channel.close_connection(request, {})
            return
        if response is None:
            self.request_channel.close_connection(request, {Errors.for_exception(e): 1})
        elif isinstance(e, ClusterAuthorizationException):
            # Refused inter-broker requests count against the sender's request quota, as in Kafka.
            self.send_response_maybe_throttle(request, response)
        else:
            self.send_response(request, response)

    def send_response(self, request: Request, response: AbstractResponse | None) -> None:
        """Sends `response`, or a no-op (nothing goes back) when it is None, after the request quota: requests
        between brokers (cluster actions) are exempt, any other response carries the client's throttle time and
        its connection is muted for that long once the response is out (RequestHandlerHelper's
        sendResponseMaybeThrottle / sendResponseExemptThrottle)."""
        if response is None:
            self.send_no_op_response_exempt_throttle(request)
        elif request.header.api_key.cluster_action:
            self.send_response_exempt_throttle(request, response)
        else:
            self.send_response_maybe_throttle(request, response)

    # ---- throttling (Kafka 2.8's RequestHandlerHelper) -------------------------------------------------

    def send_response_maybe_throttle(self, request: Request, response: AbstractResponse) -> None:
        """Records the request's time against its client's request quota and sends the response at once, with the
        throttle time in it; a violated quota mutes the connection afterwards (KIP-219)."""
        throttle_time_ms = self.maybe_record_and_get_throttle_time_ms(request)
        if self.quotas is not None and not request.is_forwarded:
            self.quotas.request.throttle(request, throttle_time_ms, self.request_channel.send_response)
        response.maybe_set_throttle_time_ms(throttle_time_ms)
        self._send_response(request, response)

    def maybe_record_and_get_throttle_time_ms(self, request: Request) -> int:
        if self.quotas is None:
            return 0
        throttle_time_ms = self.quotas.request.maybe_record_and_get_throttle_time_ms_for_request(
            request, self.time.milliseconds()
        )
        request.api_throttle_time_ms = throttle_time_ms
        return throttle_time_ms

    def send_response_maybe_throttle_with_controller_quota(
        self, controller_mutation_quota: ControllerMutationQuota, request: Request, response: AbstractResponse
    ) -> None:
        """As send_response_maybe_throttle, with the longer of the request quota's and the controller mutation
        quota's throttle times."""
        if self.quotas is None:
            self._send_response(request, response)
            return
        time_ms = self.time.milliseconds()
        controller_throttle_time_ms = controller_mutation_quota.throttle_time
        request_throttle_time_ms = self.quotas.request.maybe_record_and_get_throttle_time_ms_for_request(
            request, time_ms
        )
        max_throttle_time_ms = max(controller_throttle_time_ms, request_throttle_time_ms)
        if max_throttle_time_ms > 0 and not request.is_forwarded:
            request.api_throttle_time_ms = max_throttle_time_ms
            if controller_throttle_time_ms > request_throttle_time_ms:
                self.quotas.controller_mutation.throttle(
                    request, controller_throttle_time_ms, self.request_channel.send_response
                )
            else:
                self.quotas.request.throttle(request, request_throttle_time_ms, self.request_channel.send_response)
        response.maybe_set_throttle_time_ms(max_throttle_time_ms)
        self._send_response(request, response)

    def controller_mutation_quota_for(self, request: Request, strict_since_version: int) -> ControllerMutationQuota:
        """The client's controller mutation quota for this request: strict (THROTTLING_QUOTA_EXCEEDED once spent)
        from `strict_since_version` on, permissive before it."""
        if self.quotas is None:
            return UNBOUNDED_CONTROLLER_MUTATION_QUOTA
        return self.quotas.controller_mutation.new_quota_for(request, strict_since_version)

    def send_response_exempt_throttle(self, request: Request, response: AbstractResponse) -> None:
        if self.quotas is not None:
            self.quotas.request.maybe_record_exempt(request)
        self._send_response(request, response)

    def send_no_op_response_exempt_throttle(self, request: Request) -> None:
        if self.quotas is not None:
            self.quotas.request.maybe_record_exempt(request)
        self.request_channel.send_response(NoOpResponse(request))

    def _record_bandwidth_and_throttle(
        self, request: Request, bandwidth_quota: ClientQuotaManager, value: float, record_request_time: bool
    ) -> tuple[int, int]:
        """Records `value` bytes against the client's produce or fetch quota and (unless told not to) the request
        time against its request quota; throttles the connection by the longer of the two throttle times. Returns
        (the longer throttle time, the bandwidth throttle time)."""
        assert self.quotas is not None
        time_ms = self.time.milliseconds()
        bandwidth_throttle_time_ms = bandwidth_quota.maybe_record_and_get_throttle_time_ms(request, value, time_ms)
        request_throttle_time_ms = (
            self.quotas.request.maybe_record_and_get_throttle_time_ms_for_request(request, time_ms)
            if record_request_time
            else 0
        )
        max_throttle_time_ms = max(bandwidth_throttle_time_ms, request_throttle_time_ms)
        if max_throttle_time_ms > 0:
            request.api_throttle_time_ms = max_throttle_time_ms
            if bandwidth_throttle_time_ms > request_throttle_time_ms:
                bandwidth_quota.throttle(request, bandwidth_throttle_time_ms, self.request_channel.send_response)
            else:
                self.quotas.request.throttle(request, request_throttle_time_ms, self.request_channel.send_response)
        return max_throttle_time_ms, bandwidth_throttle_time_ms

    def _send_response(self, request: Request, response: AbstractResponse) -> None:
        self.request_channel.send_response(
            SendResponse(request, request.build_response_send(response), request.response_node(response), None)
        )

    def send_error_response(self, request: Request, e: BaseException) -> None:
        self.send_response(request, request.body.get_error_response(0, e))

    # ---- authorization (Kafka 2.8's AuthHelper) -------------------------------------------------------

    def authorize(
        self,
        request_context: RequestContext,
        operation: AclOperation,
        resource_type: ResourceType,
        resource_name: str,
        log_if_allowed: bool = True,
        log_if_denied: bool = True,
        ref_count: int = 1,
    ) -> bool:
        """Whether the request's principal may do `operation` on the named resource (always, without an
        authorizer)."""
        if self.authorizer is None:
            return True
        resource = ResourcePattern(resource_type, resource_name, PatternType.LITERAL)
        action = Action(operation, resource, ref_count, log_if_allowed, log_if_denied)
        return self.authorizer.authorize(request_context, [action])[0] is AuthorizationResult.ALLOWED

    def authorize_cluster_operation(self, request: Request, operation: AclOperation) -> None:
        """Raises ClusterAuthorizationException unless `operation` on the cluster is allowed."""
        if not self.authorize(request.context, operation, ResourceType.CLUSTER, CLUSTER_NAME):
            raise ClusterAuthorizationException(f"Request {request.request_desc(False)} is not authorized.")

    def authorized_operations(self, request: Request, resource: Resource) -> int:
        """The operations the resource's type supports that the principal may do on it, as a bit field of
        operation codes."""
        supported_ops = sorted(AclEntry.supported_operations(resource.resource_type), key=lambda op: op.code)
        if self.authorizer is None:
            authorized_ops = supported_ops
        else:
            pattern = ResourcePattern(resource.resource_type, resource.name, PatternType.LITERAL)
            actions = [Action(op, pattern, 1, False, False) for op in supported_ops]
            results = self.authorizer.authorize(request.context, actions)
            authorized_ops = [op for op, r in zip(supported_ops, results) if r is AuthorizationResult.ALLOWED]
        field = 0
        for op in authorized_ops:
            field |= 1 << op.code
        return field

    def authorize_by_resource_type(
        self, request_context: RequestContext, operation: AclOperation, resource_type: ResourceType
    ) -> bool:
        if self.authorizer is None:
            return True
        result = self.authorizer.authorize_by_resource_type(request_context, operation, resource_type)
        return result is AuthorizationResult.ALLOWED

    def filter_by_authorized(
        self,
        request_context: RequestContext,
        operation: AclOperation,
        resource_type: ResourceType,
        resources: Iterable[_T],
        resource_name: Callable[[_T], str],
        log_if_allowed: bool = True,
        log_if_denied: bool = True,
    ) -> set[str]:
        """The names of `resources` the principal may do `operation` on; each name is authorized once, with the
        number of times the request names it."""
        names = [resource_name(r) for r in resources]
        if self.authorizer is None:
            return set(names)
        counts: dict[str, int] = {}
        for name in names:
            counts[name] = counts.get(name, 0) + 1
        actions = [
            Action(operation, ResourcePattern(resource_type, n, PatternType.LITERAL), c, log_if_allowed, log_if_denied)
            for n, c in counts.items()
        ]
        results = self.authorizer.authorize(request_context, actions)
        return {name for name, r in zip(counts, results) if r is AuthorizationResult.ALLOWED}

    def partition_seq_by_authorized(
        self,
        request_context: RequestContext,
        operation: AclOperation,
        resource_type: ResourceType,
        resources: Sequence[_T],
        resource_name: Callable[[_T], str],
        log_if_allowed: bool = True,
        log_if_denied: bool = True,
    ) -> tuple[list[_T], list[_T]]:
        """(the authorized resources, the others), each in the request's order."""
        if self.authorizer is None:
            return list(resources), []
        authorized = self.filter_by_authorized(
            request_context, operation, resource_type, resources, resource_name, log_if_allowed, log_if_denied
        )
        allowed = [r for r in resources if resource_name(r) in authorized]
        denied = [r for r in resources if resource_name(r) not in authorized]
        return allowed, denied

    # ---- ApiVersions ----------------------------------------------------------------------------------

    def handle_api_versions_request(self, request: Request) -> None:
        api_versions_request: Any = request.body
        if api_versions_request.has_unsupported_request_version():
            # The client is newer than us: answer in the v0 layout it can read, listing what we serve.
            response = self.api_version_manager.api_version_response(0)
            response.data.error_code = Errors.UNSUPPORTED_VERSION.code
            self.send_response(request, response)
        elif not api_versions_request.is_valid():
            self.send_response(request, api_versions_request.get_error_response(0, InvalidRequestException()))
        else:
            self.send_response(request, self.api_version_manager.api_version_response(0))

    # ---- Metadata -------------------------------------------------------------------------------------

    def handle_topic_metadata_request(self, request: Request) -> None:
        metadata_request: Any = request.body
        version = request.header.api_version
        listener = request.context.listener_name
        data = metadata_request.data

        # Topic ids in requests are not served by ZooKeeper-mode brokers (as in 3.7).
        if any(t.topic_id != ZERO_UUID for t in (data.topics or [])):
            self.send_error_response(
                request, InvalidRequestException("Topic IDs are not supported in metadata requests")
            )
            return

        all_topics = metadata_request.is_all_topics()
        topics = self.metadata_cache.get_all_topics() if all_topics else set(metadata_request.topics())

        ctx = request.context
        authorized_for_describe = self.filter_by_authorized(
            ctx, AclOperation.DESCRIBE, ResourceType.TOPIC, topics, _identity, log_if_denied=not all_topics
        )
        authorized_topics = {t for t in topics if t in authorized_for_describe}
        unauthorized_for_describe = [t for t in topics if t not in authorized_for_describe]
        unauthorized_for_create: set[str] = set()
        if authorized_topics and self.config.auto_create_topics_enable and metadata_request.allow_auto_topic_creation():
            non_existing = {t for t in authorized_topics if not self.metadata_cache.contains(t)}
            if non_existing and not self.authorize(
                ctx, AclOperation.CREATE, ResourceType.CLUSTER, CLUSTER_NAME, log_if_denied=False
            ):
                authorized_for_create = self.filter_by_authorized(
                    ctx, AclOperation.CREATE, ResourceType.TOPIC, non_existing, _identity
                )
                unauthorized_for_create = non_existing - authorized_for_create
                authorized_topics -= unauthorized_for_create
        unauthorized_metadata = [
            _metadata_topic(t, Errors.TOPIC_AUTHORIZATION_FAILED, Topic.is_internal(t)) for t in unauthorized_for_create
        ]
        # Topics the principal may not describe are not disclosed: a listing of all topics leaves them out.
        if not (all_topics or (version == 0 and not metadata_request.topics())):
            unauthorized_metadata += [
                _metadata_topic(t, Errors.TOPIC_AUTHORIZATION_FAILED, False) for t in unauthorized_for_describe
            ]
        topics = authorized_topics

        error_unavailable_endpoints = version == 0
        error_unavailable_listeners = version >= 6
        known = [t for t in topics if self.metadata_cache.contains(t)]
        topic_metadata = (
            self.metadata_cache.get_topic_metadata(
                known, listener, error_unavailable_endpoints, error_unavailable_listeners
            )
            if known
            else []
        )
        known_set = set(known)
        unknown = [t for t in topics if t not in known_set] if not all_topics else []
        unknown_metadata: list[Any] = []
        if unknown:
            allow_auto = self.config.auto_create_topics_enable and metadata_request.allow_auto_topic_creation()
            if allow_auto:
                unknown_metadata = list(self.auto_topic_creation_manager.create_topics(set(unknown), None))
            else:
                error = Errors.UNKNOWN_TOPIC_OR_PARTITION
                unknown_metadata = [_metadata_topic(t, error, Topic.is_internal(t)) for t in unknown]

        response_data = MetadataResponseData(
            throttle_time_ms=0,
            cluster_id=self.cluster_id,
            controller_id=_or_minus_one(self.metadata_cache.get_controller_id()),
        )
        if 8 <= version <= 10 and data.include_cluster_authorized_operations:
            if self.authorize(ctx, AclOperation.DESCRIBE, ResourceType.CLUSTER, CLUSTER_NAME):
                response_data.cluster_authorized_operations = self.authorized_operations(request, Resource.CLUSTER)
            else:
                response_data.cluster_authorized_operations = 0
        else:
            response_data.cluster_authorized_operations = AUTHORIZED_OPERATIONS_OMITTED
        include_topic_operations = version >= 8 and data.include_topic_authorized_operations
        for node in self.metadata_cache.get_alive_broker_nodes(listener):
            response_data.brokers.append(
                MetadataResponseData.MetadataResponseBroker(
                    node_id=node.id, host=node.host, port=node.port, rack=node.rack
                )
            )
        for t in topic_metadata + unknown_metadata:
            t.topic_authorized_operations = (
                self.authorized_operations(request, Resource(ResourceType.TOPIC, t.name))
                if include_topic_operations
                else AUTHORIZED_OPERATIONS_OMITTED
            )
            response_data.topics.append(t)
        for t in unauthorized_metadata:
            t.topic_authorized_operations = AUTHORIZED_OPERATIONS_OMITTED
            response_data.topics.append(t)
        self.trace(
            f"Sending topic metadata for correlation id {request.header.correlation_id} to client "
            f"{request.header.client_id}"
        )
        self.send_response(request, MetadataResponse(response_data, version))

    # ---- Produce --------------------------------------------------------------------------------------

    def handle_produce_request(self, request: Request) -> None:
        produce_request: Any = request.body
        header = request.header
        version = header.api_version
        if has_transactional_records(produce_request) and (
            produce_request.transactional_id is None
            or not self.authorize(
                request.context, AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID, produce_request.transactional_id
            )
        ):
            # Transactional batches must name a transactional id the principal may write.
            self.send_error_response(request, _exception_of(Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED))
            return

        unauthorized: dict[TopicPartition, PartitionResponse] = {}
        non_existing: dict[TopicPartition, PartitionResponse] = {}
        invalid: dict[TopicPartition, PartitionResponse] = {}
        authorized: dict[TopicPartition, Any] = {}
        authorized_topics = self.filter_by_authorized(
            request.context, AclOperation.WRITE, ResourceType.TOPIC, produce_request.data.topic_data, _name_of
        )
        for topic in produce_request.data.topic_data:
            for partition in topic.partition_data:
                tp = TopicPartition(topic.name, partition.index)
                records = partition.records
                if topic.name not in authorized_topics:
                    unauthorized[tp] = PartitionResponse(Errors.TOPIC_AUTHORIZATION_FAILED)
                    continue
                if not self.metadata_cache.contains(tp):
                    non_existing[tp] = PartitionResponse(Errors.UNKNOWN_TOPIC_OR_PARTITION)
                    continue
                try:
                    ProduceRequest.validate_records(version, records)
                    authorized[tp] = records
                except ApiException as e:
                    invalid[tp] = PartitionResponse(Errors.for_exception(e))

        # Read before the records are dropped from the request below.
        request_size = request.size_in_bytes
        acks = produce_request.acks

        def send_response_callback(response_status: dict[TopicPartition, PartitionResponse]) -> None:
            merged = {**response_status, **unauthorized, **non_existing, **invalid}
            error_in_response = False
            for tp, status in merged.items():
                if status.error is not Errors.NONE:
                    error_in_response = True
                    self.debug(
                        f"Produce request with correlation id {request.header.correlation_id} from client "
                        f"{request.header.client_id} on partition {tp} failed due to {status.error.exception_name()}"
                    )
            # The request's bytes count against the produce quota and its time against the request quota (not
            # for acks=0, which gets no response to carry a throttle time); the longer throttle mutes the
            # connection once the response is out.
            max_throttle_time_ms = 0
            if self.quotas is not None:
                max_throttle_time_ms, _ = self._record_bandwidth_and_throttle(
                    request, self.quotas.produce, request_size, acks != 0
                )
            if acks == 0:
                if error_in_response:
                    summary = ", ".join(f"{tp} -> {s.error.exception_name()}" for tp, s in merged.items())
                    self.info(
                        f"Closing connection due to error during produce request with correlation id "
                        f"{request.header.correlation_id} from client id {request.header.client_id} with ack=0\n"
                        f"Topic and partition to exceptions: {summary}"
                    )
                    errors: dict[Errors, int] = {}
                    for s in merged.values():
                        errors[s.error] = errors.get(s.error, 0) + 1
                    self.request_channel.close_connection(request, errors)
                else:
                    # Exempt from the request quota; the produce quota may still have throttled the connection.
                    self.send_no_op_response_exempt_throttle(request)
            else:
                responses = {(tp.topic, tp.partition): s for tp, s in merged.items()}
                self._send_response(request, ProduceResponse.from_partition_responses(responses, max_throttle_time_ms))

        def processing_stats_callback(processing_stats: dict[TopicPartition, Any]) -> None:
            for tp, info in processing_stats.items():
                self._update_record_conversion_stats(request, tp, info)

        if not authorized:
            send_response_callback({})
            return
        self.replica_manager.append_records(
            timeout=produce_request.timeout,
            required_acks=acks,
            internal_topics_allowed=header.client_id == ADMIN_CLIENT_ID,
            origin=Client(),
            entries_per_partition=authorized,
            response_callback=send_response_callback,
            record_conversion_stats_callback=processing_stats_callback,
        )
        # The records are in the log now: the request no longer needs to hold them.
        produce_request.clear_partition_records()

    # ---- Fetch ----------------------------------------------------------------------------------------

    def handle_fetch_request(self, request: Request) -> None:
        fetch_request: Any = request.body
        version = request.header.api_version
        topic_names = self.metadata_cache.topic_ids_to_names() if version >= 13 else {}
        fetch_data = fetch_request.fetch_data(topic_names)
        forgotten = fetch_request.forgotten_topics(topic_names)
        is_from_follower = fetch_request.is_from_follower()
        context = self.fetch_manager.new_context(
            version, fetch_request.metadata(), is_from_follower, fetch_data, forgotten, topic_names
        )
        # Fetch v11+ (KIP-392) tells the leader enough of the consumer to send it to a nearby replica.
        client_metadata: ClientMetadata | None = None
        if version >= 11:
            client_metadata = ClientMetadata(
                fetch_request.rack_id(),
                request.header.client_id if request.header.client_id is not None else "",
                request.context.client_address or "",
                request.context.principal,
                request.context.listener_name.value,
            )

        # Partitions are keyed as the requests layer keys them: by TopicIdPartition, the topic None for an unknown id.
        erroneous: list[tuple[TopicIdPartition, Any]] = []
        interesting: list[tuple[TopicIdPartition, Any]] = []
        # PORT: Kafka walks the context's partitions twice (the topics to authorize, then the partitions to
        # classify), each time making every partition's request data again from the session; walked once here.
        requested: list[tuple[TopicIdPartition, Any]] = []
        context.foreach_partition(lambda tip, data: requested.append((tip, data)))

        if is_from_follower:
            # A follower needs ClusterAction on the cluster; a consumer needs Read on each topic.
            follower_authorized = self.authorize(
                request.context, AclOperation.CLUSTER_ACTION, ResourceType.CLUSTER, CLUSTER_NAME
            )
            authorized_topics: set[str] = set()
        else:
            follower_authorized = False
            authorized_topics = self.filter_by_authorized(
                request.context,
                AclOperation.READ,
                ResourceType.TOPIC,
                [tip for tip, _ in requested if tip.topic is not None],
                _topic_of,
            )

        def classify(tip: TopicIdPartition, data: Any) -> None:
            tp = tip.topic_partition
            if tip.topic is None:
                erroneous.append((tip, FetchResponse.partition_response(tp.partition, Errors.UNKNOWN_TOPIC_ID)))
            elif not (follower_authorized if is_from_follower else tip.topic in authorized_topics):
                erroneous.append(
                    (tip, FetchResponse.partition_response(tp.partition, Errors.TOPIC_AUTHORIZATION_FAILED))
                )
            elif not self.metadata_cache.contains(tp):
                erroneous.append(
                    (tip, FetchResponse.partition_response(tp.partition, Errors.UNKNOWN_TOPIC_OR_PARTITION))
                )
            else:
                interesting.append((tip, data))

        for tip, data in requested:
            classify(tip, data)

        def maybe_down_convert_storage_error(error: Errors) -> Errors:
            return Errors.NOT_LEADER_OR_FOLLOWER if error is Errors.KAFKA_STORAGE_ERROR and version <= 5 else error

        def maybe_convert(tip: TopicIdPartition, partition_data: Any) -> Any:
            """Down-converts records for fetch versions that cannot read the log's format (v0-v3)."""
            if tip.topic is None:
                return partition_data  # an unknown topic id: only an error to report, no records
            tp = tip.topic_partition
            partition = tp.partition
            log_config = self.replica_manager.get_log_config(tp)
            if log_config is not None and str(log_config.compression_type) == "zstd" and version < 10:
                return FetchResponse.partition_response(partition, Errors.UNSUPPORTED_COMPRESSION_TYPE)
            target_magic = 0 if version <= 1 else 1 if version <= 3 else None
            if target_magic is None or partition_data.records is None:
                return partition_data
            records = FetchResponse.records_or_fail(partition_data)
            if not any(b.magic() > target_magic for b in records.batches()):
                return partition_data
            if log_config is not None and not log_config.message_down_conversion_enable:
                return FetchResponse.partition_response(partition, Errors.UNSUPPORTED_VERSION)
            fetch_offset = context.get_fetch_offset(tip) or 0
            try:
                converted = records.down_convert(target_magic, fetch_offset, self.time)
            except ApiException as e:
                self.trace(f"Received {e} during down-conversion of {tp}")
                return FetchResponse.partition_response(partition, Errors.for_exception(e))
            # PORT: Kafka converts lazily while the response is written and records the stats once it is sent; the
            # records are converted here before the send, so their stats are recorded now.
            self._update_record_conversion_stats(request, tp, converted.record_conversion_stats())
            partition_data.records = converted.records()
            return partition_data

        def update_bytes_out(topic: str | None, partition: int, records: Any) -> None:
            """Marks the bytes sent for a partition: a consumer's per topic, a follower's as replication."""
            stats = self.broker_topic_stats
            if stats is None or topic is None:
                return
            size = records.size_in_bytes() if records is not None else 0
            reassigning = is_from_follower and self.replica_manager.is_adding_replica(
                TopicPartition(topic, partition), fetch_request.replica_id()
            )
            stats.update_bytes_out(topic, is_from_follower, reassigning, size)

        def process_response_callback(response_partition_data: list[tuple[TopicIdPartition, Any]]) -> None:
            partitions: dict[TopicIdPartition, Any] = {}
            for tip, data in response_partition_data:
                pd = FetchResponseData.PartitionData(
                    partition_index=tip.topic_partition.partition,
                    error_code=maybe_down_convert_storage_error(data.error).code,
                    high_watermark=data.high_watermark,
                    last_stable_offset=data.last_stable_offset if data.last_stable_offset is not None else -1,
                    log_start_offset=data.log_start_offset,
                    aborted_transactions=data.aborted_transactions,
                    records=data.records,
                    preferred_read_replica=(
                        data.preferred_read_replica if data.preferred_read_replica is not None else -1
                    ),
                )
                if data.diverging_epoch is not None:
                    pd.diverging_epoch = data.diverging_epoch
                partitions[tip] = pd
            for tip, pd in erroneous:
                partitions[tip] = pd
            throttle_time_ms = 0
            if is_from_follower:
                unconverted = context.update_and_generate_response_data(partitions)
                if self.quotas is not None:
                    # The quota was applied when reading (throttled partitions of out-of-sync followers came back
                    # empty); what the throttled partitions send now counts against the leader's replication quota.
                    leader_quota = self.quotas.leader
                    leader_quota.record(
                        self.size_of_throttled_partitions(version, unconverted, topic_names, leader_quota)
                    )
            elif self.quotas is not None:
                # The response size (before any down-conversion) counts against the fetch quota and the time
                # against the request quota; a throttled client gets an empty response (its bytes taken back
                # from the quota) and the connection is muted once it is out.
                response_size = context.get_response_size(partitions, version)
                throttle_time_ms, _ = self._record_bandwidth_and_throttle(
                    request, self.quotas.fetch, response_size, True
                )
                if throttle_time_ms > 0:
                    self.quotas.fetch.unrecord_quota_sensor(request, response_size, self.time.milliseconds())
                    unconverted = context.get_throttled_response(throttle_time_ms)
                else:
                    unconverted = context.update_and_generate_response_data(partitions)
            else:
                unconverted = context.update_and_generate_response_data(partitions)
            send = self.send_response_exempt_throttle if is_from_follower else self._send_response
            if version >= 10 and not self.is_debug_enabled():
                # Nothing to convert: v10+ reads every record format and zstd. Send what the session built,
                # rather than building the whole response a second time as Kafka does.
                unconverted.maybe_set_throttle_time_ms(throttle_time_ms)
                stats = self.broker_topic_stats
                if stats is not None:
                    for topic_response in unconverted.data.responses:
                        name = topic_response.topic or topic_names.get(topic_response.topic_id)
                        if is_from_follower:
                            for p in topic_response.partitions:
                                update_bytes_out(name, p.partition_index, p.records)
                        elif name is not None:
                            # PORT: Kafka marks a consumer's bytes out per partition; the topic's partitions are
                            # marked at once here (the meters' counts and rates are the sums either way).
                            size = 0
                            for p in topic_response.partitions:
                                records = p.records
                                if records is not None:
                                    size += records.size_in_bytes()
                            stats.update_bytes_out(name, False, False, size)
                send(request, unconverted)
                return
            converted: dict[TopicIdPartition, Any] = {}
            for topic_response in unconverted.data.responses:
                topic_id = topic_response.topic_id
                topic_name = topic_response.topic or topic_names.get(topic_id)
                for p in topic_response.partitions:
                    error = Errors.for_code(p.error_code)
                    if error is not Errors.NONE:
                        self.debug(
                            f"Fetch request with correlation id {request.header.correlation_id} from client "
                            f"{request.header.client_id} on partition {topic_name}-{p.partition_index} failed due to "
                            f"{error.exception_name()}"
                        )
                    tip = TopicIdPartition.of(topic_id, p.partition_index, topic_name)
                    converted[tip] = maybe_convert(tip, p)
                    update_bytes_out(topic_name, p.partition_index, converted[tip].records)
            response = FetchResponse.of(unconverted.error(), throttle_time_ms, unconverted.session_id(), converted)
            send(request, response)

        if not interesting:
            process_response_callback([])
            return
        # A consumer's fetch is capped at what its fetch quota allows in one window, so that a fetch is never
        # sure to be throttled (and the consumer can make progress).
        max_quota_window_bytes = _INT_MAX
        if not is_from_follower and self.quotas is not None:
            client_id = request.header.client_id if request.header.client_id is not None else ""
            max_quota_window_bytes = int(
                min(self.quotas.fetch.get_max_value_in_quota_window(request.session, client_id), _INT_MAX)
            )
        fetch_max_bytes = min(fetch_request.max_bytes(), self.config.fetch_max_bytes, max_quota_window_bytes)
        fetch_min_bytes = min(fetch_request.min_bytes(), fetch_max_bytes)
        # The replica manager speaks TopicPartition; the response is keyed as the request was (with ids).
        keys = {tip.topic_partition: tip for tip, _ in interesting}
        self.replica_manager.fetch_messages(
            fetch_request.max_wait(),
            fetch_request.replica_id(),
            fetch_min_bytes,
            fetch_max_bytes,
            version <= 2,
            [(tip.topic_partition, data) for tip, data in interesting],
            self.replication_quota(fetch_request),
            lambda results: process_response_callback([(keys[tp], data) for tp, data in results]),
            fetch_request.isolation_level(),
            client_metadata,
        )

    def replication_quota(self, fetch_request: Any) -> ReplicaQuota | None:
        """The leader's replication quota for a follower's fetch; a consumer's fetch is never throttled by it."""
        if fetch_request.is_from_follower() and self.quotas is not None:
            return self.quotas.leader
        return UNBOUNDED_QUOTA

    @staticmethod
    def size_of_throttled_partitions(
        version: int, unconverted_response: FetchResponse, topic_names: Mapping[Any, str], quota: ReplicaQuota
    ) -> int:
        """The size of a Fetch response holding only the partitions of `unconverted_response` that `quota`
        throttles (Kafka's sizeOfThrottledPartitions)."""
        throttled: list[tuple[TopicIdPartition, Any]] = []
        for topic_response in unconverted_response.data.responses:
            topic_id = topic_response.topic_id
            topic_name = topic_response.topic or topic_names.get(topic_id)
            if topic_name is None:
                continue
            for p in topic_response.partitions:
                if quota.is_throttled(TopicPartition(topic_name, p.partition_index)):
                    throttled.append((TopicIdPartition.of(topic_id, p.partition_index, topic_name), p))
        return FetchResponse.size_of(version, throttled)

    # ---- ListOffsets ----------------------------------------------------------------------------------

    def handle_list_offset_request(self, request: Request) -> None:
        version = request.header.api_version
        offset_request: Any = request.body
        data = offset_request.data
        replica_id = data.replica_id
        is_from_consumer = replica_id == CONSUMER_REPLICA_ID
        fetch_only_from_leader = replica_id != DEBUGGING_REPLICA_ID
        isolation = IsolationLevel.for_id(data.isolation_level) if is_from_consumer else None
        response_data = ListOffsetsResponseData(throttle_time_ms=0)
        authorized_topics = self.filter_by_authorized(
            request.context, AclOperation.DESCRIBE, ResourceType.TOPIC, data.topics, _name_of
        )
        for topic in data.topics:
            topic_response = ListOffsetsResponseData.ListOffsetsTopicResponse(name=topic.name)
            for partition in topic.partitions:
                tp = TopicPartition(topic.name, partition.partition_index)
                result = ListOffsetsResponseData.ListOffsetsPartitionResponse(partition_index=tp.partition)
                try:
                    if topic.name not in authorized_topics:
                        result.error_code = Errors.TOPIC_AUTHORIZATION_FAILED.code
                        result.timestamp = -1
                        result.offset = -1
                    elif not self.metadata_cache.contains(tp):
                        result.error_code = Errors.UNKNOWN_TOPIC_OR_PARTITION.code
                    elif version == 0:
                        offsets = self.replica_manager.legacy_fetch_offsets_for_timestamp(
                            tp, partition.timestamp, partition.max_num_offsets, is_from_consumer, fetch_only_from_leader
                        )
                        result.old_style_offsets = offsets
                    else:
                        leader_epoch = partition.current_leader_epoch
                        found = self.replica_manager.fetch_offset_for_timestamp(
                            tp,
                            partition.timestamp,
                            isolation,
                            None if leader_epoch == -1 else leader_epoch,
                            fetch_only_from_leader,
                        )
                        if found is None:
                            result.timestamp = -1
                            result.offset = -1
                        else:
                            result.timestamp = found.timestamp
                            result.offset = found.offset
                            if found.leader_epoch is not None and version >= 4:
                                result.leader_epoch = found.leader_epoch
                except ApiException as e:
                    error = Errors.for_exception(e)
                    self.debug(
                        f"Offset request with correlation id {request.header.correlation_id} from client "
                        f"{request.header.client_id} on partition {tp} failed due to {error.exception_name()}"
                    )
                    result.error_code = error.code
                    result.timestamp = -1
                    result.offset = -1
                topic_response.partitions.append(result)
            response_data.topics.append(topic_response)
        self.send_response(request, ListOffsetsResponse(response_data))

    # ---- OffsetForLeaderEpoch -------------------------------------------------------------------------

    def handle_offset_for_leader_epoch_request(self, request: Request) -> None:
        body: Any = request.body
        topics: list[Any] = list(body.data.topics)
        unauthorized: list[Any]
        # Followers need ClusterAction; consumers checking for truncation (KIP-320) Describe on the topic.
        if self.authorize(
            request.context, AclOperation.CLUSTER_ACTION, ResourceType.CLUSTER, CLUSTER_NAME, log_if_denied=False
        ):
            authorized, unauthorized = topics, []
        else:
            authorized, unauthorized = self.partition_seq_by_authorized(
                request.context, AclOperation.DESCRIBE, ResourceType.TOPIC, topics, _topic_of
            )
        results = self.replica_manager.last_offset_for_leader_epoch(authorized) if authorized else []
        response_data = OffsetForLeaderEpochResponseData(throttle_time_ms=0)
        response_data.topics.extend(results)
        for t in unauthorized:
            response_data.topics.append(
                OffsetForLeaderEpochResponseData.OffsetForLeaderTopicResult(
                    topic=t.topic,
                    partitions=[
                        OffsetForLeaderEpochResponseData.EpochEndOffset(
                            partition=p.partition, error_code=Errors.TOPIC_AUTHORIZATION_FAILED.code
                        )
                        for p in t.partitions
                    ],
                )
            )
        self.send_response(request, OffsetsForLeaderEpochResponse(response_data))

    # ---- Group coordination: FindCoordinator ---------------------------------------------------------

    def handle_find_coordinator_request(self, request: Request) -> None:
        version = request.header.api_version
        data: Any = request.body.data
        if version < 4:
            error, node = self._get_coordinator(request, data.key_type, data.key)
            if error is not Errors.NONE:
                self.send_error_response(request, _exception_of(error))
                return
            response = FindCoordinatorResponse(
                FindCoordinatorResponseData(
                    throttle_time_ms=0,
                    error_code=error.code,
                    error_message=_java_error_message(error),
                    node_id=node.id,
                    host=node.host,
                    port=node.port,
                )
            )
        else:
            # KIP-699: one answer per key; no error message on the entries, as Kafka's.
            response_data = FindCoordinatorResponseData(throttle_time_ms=0)
            for key in data.coordinator_keys:
                error, node = self._get_coordinator(request, data.key_type, key)
                response_data.coordinators.append(
                    FindCoordinatorResponseData.Coordinator(
                        key=key, error_code=error.code, host=node.host, node_id=node.id, port=node.port
                    )
                )
            response = FindCoordinatorResponse(response_data)
        if self.is_trace_enabled():
            self.trace(
                f"Sending FindCoordinator response {response.data} for correlation id "
                f"{request.header.correlation_id} to client {request.header.client_id}."
            )
        self.send_response(request, response)

    def _get_coordinator(self, request: Request, key_type: int, key: str) -> tuple[Errors, Any]:
        """The error and node answering one FindCoordinator key: the alive leader of the key's partition of the
        coordinator's topic; the topic is created when it does not exist yet (COORDINATOR_NOT_AVAILABLE
        meanwhile)."""
        coordinator_type = CoordinatorType.for_id(key_type)
        if coordinator_type is CoordinatorType.GROUP and not self.authorize(
            request.context, AclOperation.DESCRIBE, ResourceType.GROUP, key
        ):
            return Errors.GROUP_AUTHORIZATION_FAILED, NO_NODE
        if coordinator_type is CoordinatorType.TRANSACTION and not self.authorize(
            request.context, AclOperation.DESCRIBE, ResourceType.TRANSACTIONAL_ID, key
        ):
            return Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED, NO_NODE
        if coordinator_type is CoordinatorType.TRANSACTION:
            partition = self.txn_coordinator.partition_for(key)
            internal_topic_name = Topic.TRANSACTION_STATE_TOPIC_NAME
        else:
            partition = self.group_coordinator.partition_for(key)
            internal_topic_name = Topic.GROUP_METADATA_TOPIC_NAME
        listener = request.context.listener_name
        topic_metadata = self.metadata_cache.get_topic_metadata([internal_topic_name], listener)
        if not topic_metadata:
            self.auto_topic_creation_manager.create_topics({internal_topic_name}, None)
            return Errors.COORDINATOR_NOT_AVAILABLE, NO_NODE
        metadata = topic_metadata[0]
        if metadata.error_code != Errors.NONE.code:
            return Errors.COORDINATOR_NOT_AVAILABLE, NO_NODE
        for partition_metadata in metadata.partitions:
            if partition_metadata.partition_index == partition and partition_metadata.leader_id != NO_LEADER_ID:
                node = self.metadata_cache.get_alive_broker_node(partition_metadata.leader_id, listener)
                if node is not None and node.host:
                    return Errors.NONE, NodeInfo(node.id, node.host, node.port)
                break
        return Errors.COORDINATOR_NOT_AVAILABLE, NO_NODE

    # ---- Group coordination: membership --------------------------------------------------------------

    def _static_membership_unsupported(self, group_instance_id: str | None) -> bool:
        """Static members (KIP-345) are refused below inter.broker.protocol.version 2.3: a broker of an older
        version taking over the group would drop their instance ids."""
        return group_instance_id is not None and self.config.inter_broker_protocol_version < KAFKA_2_3_IV0

    def handle_join_group_request(self, request: Request) -> None:
        join_group_request: Any = request.body
        data = join_group_request.data
        version = request.header.api_version
        if self._static_membership_unsupported(data.group_instance_id):
            self.send_error_response(request, _exception_of(Errors.UNSUPPORTED_VERSION))
            return

        def send_response_callback(join_result: Any) -> None:
            response_data = JoinGroupResponseData(
                throttle_time_ms=0,
                error_code=join_result.error.code,
                generation_id=join_result.generation_id,
                protocol_type=join_result.protocol_type,
                protocol_name=join_result.protocol_name,
                leader=join_result.leader_id,
                skip_assignment=join_result.skip_assignment,
                member_id=join_result.member_id,
                members=list(join_result.members),
            )
            # Below v7 the constructor turns an unknown (None) protocol name into "", as 2.8 sends it.
            response = JoinGroupResponse(response_data, version)
            if self.is_trace_enabled():
                self.trace(
                    f"Sending join group response {response.data} for correlation id "
                    f"{request.header.correlation_id} to client {request.header.client_id}."
                )
            self.send_response(request, response)

        if not self.authorize(request.context, AclOperation.READ, ResourceType.GROUP, data.group_id):
            self.send_response(
                request,
                JoinGroupResponse(
                    JoinGroupResponseData(
                        throttle_time_ms=0,
                        error_code=Errors.GROUP_AUTHORIZATION_FAILED.code,
                        generation_id=-1,
                        protocol_type=None,
                        protocol_name=None,
                        leader="",
                        member_id="",
                        members=[],
                    ),
                    version,
                ),
            )
            return

        # From v4 a new dynamic member is sent back for a member id first (KIP-394).
        require_known_member_id = version >= 4 and data.group_instance_id is None
        protocols = [(protocol.name, protocol.metadata) for protocol in data.protocols]
        self.group_coordinator.handle_join_group(
            data.group_id,
            data.member_id,
            data.group_instance_id,
            require_known_member_id,
            request.header.client_id,
            _client_host(request),
            data.rebalance_timeout_ms,
            data.session_timeout_ms,
            data.protocol_type,
            protocols,
            send_response_callback,
            version >= 9,
        )

    def handle_sync_group_request(self, request: Request) -> None:
        sync_group_request: Any = request.body
        data = sync_group_request.data
        if self._static_membership_unsupported(data.group_instance_id):
            self.send_error_response(request, _exception_of(Errors.UNSUPPORTED_VERSION))
            return
        if not sync_group_request.are_mandatory_protocol_type_and_name_present():
            # From v5 the protocol type and name must be given.
            self.send_error_response(request, _exception_of(Errors.INCONSISTENT_GROUP_PROTOCOL))
            return

        def send_response_callback(sync_result: Any) -> None:
            self.send_response(
                request,
                SyncGroupResponse(
                    SyncGroupResponseData(
                        throttle_time_ms=0,
                        error_code=sync_result.error.code,
                        protocol_type=sync_result.protocol_type,
                        protocol_name=sync_result.protocol_name,
                        assignment=sync_result.member_assignment,
                    )
                ),
            )

        if not self.authorize(request.context, AclOperation.READ, ResourceType.GROUP, data.group_id):
            send_response_callback(_SyncGroupDenied())
            return
        self.group_coordinator.handle_sync_group(
            data.group_id,
            data.generation_id,
            data.member_id,
            data.protocol_type,
            data.protocol_name,
            data.group_instance_id,
            sync_group_request.group_assignments(),
            send_response_callback,
        )

    def handle_heartbeat_request(self, request: Request) -> None:
        data: Any = request.body.data
        if self._static_membership_unsupported(data.group_instance_id):
            self.send_error_response(request, _exception_of(Errors.UNSUPPORTED_VERSION))
            return

        def send_response_callback(error: Errors) -> None:
            response = HeartbeatResponse(HeartbeatResponseData(throttle_time_ms=0, error_code=error.code))
            if self.is_trace_enabled():
                self.trace(
                    f"Sending heartbeat response {response.data} for correlation id {request.header.correlation_id} "
                    f"to client {request.header.client_id}."
                )
            self.send_response(request, response)

        if not self.authorize(request.context, AclOperation.READ, ResourceType.GROUP, data.group_id):
            send_response_callback(Errors.GROUP_AUTHORIZATION_FAILED)
            return
        self.group_coordinator.handle_heartbeat(
            data.group_id, data.member_id, data.group_instance_id, data.generation_id, send_response_callback
        )

    def handle_leave_group_request(self, request: Request) -> None:
        leave_group_request: Any = request.body
        version = request.header.api_version

        def send_response_callback(leave_result: Any) -> None:
            member_responses = [
                LeaveGroupResponseData.MemberResponse(
                    error_code=member.error.code, member_id=member.member_id, group_instance_id=member.group_instance_id
                )
                for member in leave_result.member_responses
            ]
            self.send_response(
                request, LeaveGroupResponse.of(member_responses, leave_result.top_level_error, 0, version)
            )

        if not self.authorize(
            request.context, AclOperation.READ, ResourceType.GROUP, leave_group_request.data.group_id
        ):
            self.send_response(request, LeaveGroupResponse.of([], Errors.GROUP_AUTHORIZATION_FAILED, 0, version))
            return
        self.group_coordinator.handle_leave_group(
            leave_group_request.data.group_id, leave_group_request.members(), send_response_callback
        )

    # ---- Group coordination: administration ----------------------------------------------------------

    def handle_describe_group_request(self, request: Request) -> None:
        data: Any = request.body.data
        version = request.header.api_version
        response_data = DescribeGroupsResponseData(throttle_time_ms=0)
        for group_id in data.groups:
            if not self.authorize(request.context, AclOperation.DESCRIBE, ResourceType.GROUP, group_id):
                response_data.groups.append(
                    DescribeGroupsResponseData.DescribedGroup(
                        error_code=Errors.GROUP_AUTHORIZATION_FAILED.code,
                        group_id=group_id,
                        group_state="",
                        protocol_type="",
                        protocol_data="",
                    )
                )
                continue
            error, summary = self.group_coordinator.handle_describe_group(group_id)
            described = DescribeGroupsResponseData.DescribedGroup(
                error_code=error.code,
                group_id=group_id,
                group_state=summary.state,
                protocol_type=summary.protocol_type,
                protocol_data=summary.protocol,
                members=[
                    DescribeGroupsResponseData.DescribedGroupMember(
                        member_id=member.member_id,
                        group_instance_id=member.group_instance_id,
                        client_id=member.client_id,
                        client_host=member.client_host,
                        member_assignment=member.assignment,
                        member_metadata=member.metadata,
                    )
                    for member in summary.members
                ],
            )
            if version >= 3 and error is Errors.NONE and data.include_authorized_operations:
                described.authorized_operations = self.authorized_operations(
                    request, Resource(ResourceType.GROUP, group_id)
                )
            response_data.groups.append(described)
        self.send_response(request, DescribeGroupsResponse(response_data))

    def handle_list_groups_request(self, request: Request) -> None:
        data: Any = request.body.data
        # A null filter is the same as an empty one: every group.
        states = set(data.states_filter or ())
        error, groups = self.group_coordinator.handle_list_groups(states)
        # With Describe on the cluster every group is listed, else those the principal may describe.
        if not self.authorize(request.context, AclOperation.DESCRIBE, ResourceType.CLUSTER, CLUSTER_NAME):
            ctx = request.context
            groups = [g for g in groups if self.authorize(ctx, AclOperation.DESCRIBE, ResourceType.GROUP, g.group_id)]
        response_data = ListGroupsResponseData(throttle_time_ms=0, error_code=error.code)
        for group in groups:
            response_data.groups.append(
                ListGroupsResponseData.ListedGroup(
                    group_id=group.group_id, protocol_type=group.protocol_type, group_state=group.state
                )
            )
        self.send_response(request, ListGroupsResponse(response_data))

    def handle_delete_groups_request(self, request: Request) -> None:
        data: Any = request.body.data
        groups = list(dict.fromkeys(data.groups_names))
        authorized_groups, unauthorized_groups = self.partition_seq_by_authorized(
            request.context, AclOperation.DELETE, ResourceType.GROUP, groups, _identity
        )
        results = self.group_coordinator.handle_delete_groups(set(authorized_groups)) if authorized_groups else {}
        results = {**results, **{g: Errors.GROUP_AUTHORIZATION_FAILED for g in unauthorized_groups}}
        collection = DeleteGroupsResponseData.DeletableGroupResultCollection()
        for group_id, error in results.items():
            collection.append(DeleteGroupsResponseData.DeletableGroupResult(group_id=group_id, error_code=error.code))
        self.send_response(
            request, DeleteGroupsResponse(DeleteGroupsResponseData(throttle_time_ms=0, results=collection))
        )

    # ---- Group coordination: offsets -----------------------------------------------------------------

    def handle_offset_commit_request(self, request: Request) -> None:
        offset_commit_request: Any = request.body
        data = offset_commit_request.data
        header = request.header
        if self._static_membership_unsupported(data.group_instance_id):
            self.send_error_response(request, _exception_of(Errors.UNSUPPORTED_VERSION))
            return

        if not self.authorize(request.context, AclOperation.READ, ResourceType.GROUP, data.group_id):
            self.send_error_response(request, _exception_of(Errors.GROUP_AUTHORIZATION_FAILED))
            return

        # Partitions of unauthorized or unknown topics are answered here; the rest go to ZooKeeper (v0) or the
        # coordinator.
        response_builder = _PartitionErrorsBuilder()
        valid: list[tuple[TopicPartition, Any]] = []
        authorized_topics = self.filter_by_authorized(
            request.context, AclOperation.READ, ResourceType.TOPIC, data.topics, _name_of
        )
        for topic in data.topics:
            if topic.name not in authorized_topics:
                for partition in topic.partitions:
                    response_builder.add(topic.name, partition.partition_index, Errors.TOPIC_AUTHORIZATION_FAILED)
                continue
            if not self.metadata_cache.contains(topic.name):
                for partition in topic.partitions:
                    response_builder.add(topic.name, partition.partition_index, Errors.UNKNOWN_TOPIC_OR_PARTITION)
                continue
            for partition in topic.partitions:
                if self.metadata_cache.get_partition_info(topic.name, partition.partition_index) is None:
                    response_builder.add(topic.name, partition.partition_index, Errors.UNKNOWN_TOPIC_OR_PARTITION)
                else:
                    valid.append((TopicPartition(topic.name, partition.partition_index), partition))

        def send_response_callback(commit_status: dict[TopicPartition, Errors]) -> None:
            for tp, error in commit_status.items():
                response_builder.add(tp.topic, tp.partition, error)
            if self.is_debug_enabled():
                for topic_name, partition_index, error in response_builder.entries():
                    if error is not Errors.NONE:
                        self.debug(
                            f"Offset commit request with correlation id {header.correlation_id} from client "
                            f"{header.client_id} on partition {topic_name}-{partition_index} failed due to "
                            f"{error.exception_name()}"
                        )
            self.send_response(request, OffsetCommitResponse(response_builder.offset_commit_response_data()))

        if not valid:
            send_response_callback({})
        elif header.api_version == 0:
            send_response_callback(self._commit_offsets_to_zookeeper(data.group_id, valid))
        else:
            current_timestamp = self.time.milliseconds()
            # An explicit retention (v2-4) sets an expiry; otherwise the broker's offsets.retention.minutes applies.
            expire_timestamp = (
                None
                if data.retention_time_ms == OFFSET_COMMIT_DEFAULT_RETENTION_TIME
                else current_timestamp + data.retention_time_ms
            )
            offsets = {
                tp: _offset_and_metadata(
                    partition,
                    (
                        current_timestamp
                        if partition.commit_timestamp == OFFSET_COMMIT_DEFAULT_TIMESTAMP
                        else partition.commit_timestamp
                    ),
                    expire_timestamp,
                )
                for tp, partition in valid
            }
            self.group_coordinator.handle_commit_offsets(
                data.group_id,
                data.member_id,
                data.group_instance_id,
                data.generation_id_or_member_epoch,
                offsets,
                send_response_callback,
            )

    def _commit_offsets_to_zookeeper(
        self, group_id: str, partitions: list[tuple[TopicPartition, Any]]
    ) -> dict[TopicPartition, Errors]:
        """OffsetCommit v0: the offsets go to /consumers/{group}/offsets/{topic}/{partition}, as the old
        ZooKeeper-based consumers kept them; their metadata is checked for size and not stored."""
        results: dict[TopicPartition, Errors] = {}
        for tp, partition in partitions:
            try:
                metadata = partition.committed_metadata
                if metadata is not None and len(metadata) > self.config.offset_metadata_max_size:
                    results[tp] = Errors.OFFSET_METADATA_TOO_LARGE
                else:
                    self.zk_client.set_or_create_consumer_offset(group_id, tp, partition.committed_offset)
                    results[tp] = Errors.NONE
            except Exception as e:
                results[tp] = Errors.for_exception(e)
        return results

    def handle_offset_fetch_request(self, request: Request) -> None:
        if request.header.api_version == 0:
            self._handle_offset_fetch_request_from_zookeeper(request)
        else:
            self._handle_offset_fetch_request_from_coordinator(request)

    def _handle_offset_fetch_request_from_zookeeper(self, request: Request) -> None:
        offset_fetch_request: Any = request.body
        group_id = offset_fetch_request.group_id()
        if not self.authorize(request.context, AclOperation.DESCRIBE, ResourceType.GROUP, group_id):
            response = offset_fetch_request.get_error_response_for(0, Errors.GROUP_AUTHORIZATION_FAILED)
            self._send_offset_fetch_response(request, response)
            return
        requested = list(offset_fetch_request.partitions() or ())
        authorized_topics = self.filter_by_authorized(
            request.context, AclOperation.DESCRIBE, ResourceType.TOPIC, requested, _first
        )
        partition_data: dict[tuple[str, int], OffsetFetchPartitionData] = {}
        for topic, partition in requested:
            tp = TopicPartition(topic, partition)
            try:
                if topic not in authorized_topics:
                    partition_data[(topic, partition)] = OFFSET_FETCH_UNAUTHORIZED_PARTITION
                    continue
                if not self.metadata_cache.contains(tp):
                    partition_data[(topic, partition)] = OFFSET_FETCH_UNKNOWN_PARTITION
                    continue
                offset = self.zk_client.get_consumer_offset(group_id, tp)
                partition_data[(topic, partition)] = (
                    OFFSET_FETCH_UNKNOWN_PARTITION
                    if offset is None
                    else OffsetFetchPartitionData(offset, None, OFFSET_FETCH_NO_METADATA, Errors.NONE)
                )
            except Exception as e:
                partition_data[(topic, partition)] = OffsetFetchPartitionData(
                    OFFSET_FETCH_INVALID_OFFSET, None, OFFSET_FETCH_NO_METADATA, Errors.for_exception(e)
                )
        self._send_offset_fetch_response(request, OffsetFetchResponse.of(Errors.NONE, partition_data))

    def _handle_offset_fetch_request_from_coordinator(self, request: Request) -> None:
        offset_fetch_request: Any = request.body
        version = request.header.api_version
        require_stable = offset_fetch_request.require_stable()
        groups = offset_fetch_request.groups()
        if version < 8:
            group = groups[0]
            error, group_response = self._fetch_offsets_for_group(request, group, require_stable)
            if error is not Errors.NONE:
                # PORT: as 2.8 answers a single group: before v2 the error goes into every partition asked for.
                # (3.7 answers those versions with no partition at all, which hides the error from the client.)
                response = offset_fetch_request.get_error_response_for(0, error)
            else:
                response = OffsetFetchResponse.from_groups([group_response], version)
        else:
            group_responses = [self._fetch_offsets_for_group(request, group, require_stable)[1] for group in groups]
            response = OffsetFetchResponse.from_groups(group_responses, version)
        self._send_offset_fetch_response(request, response)

    def _fetch_offsets_for_group(self, request: Request, group: Any, require_stable: bool) -> tuple[Errors, Any]:
        """The coordinator's committed offsets of one group (all of them when `group.topics` is null) as a v8
        OffsetFetchResponseGroup, with the group's error."""
        partitions = (
            None
            if group.topics is None
            else [TopicPartition(topic.name, index) for topic in group.topics for index in topic.partition_indexes]
        )
        group_response = OffsetFetchResponseData.OffsetFetchResponseGroup(group_id=group.group_id)
        if not self.authorize(request.context, AclOperation.DESCRIBE, ResourceType.GROUP, group.group_id):
            group_response.error_code = Errors.GROUP_AUTHORIZATION_FAILED.code
            return Errors.GROUP_AUTHORIZATION_FAILED, group_response
        unauthorized: list[TopicPartition] = []
        if partitions is not None:
            partitions, unauthorized = self.partition_seq_by_authorized(
                request.context, AclOperation.DESCRIBE, ResourceType.TOPIC, partitions, _topic_of
            )
        error, results = self.group_coordinator.handle_fetch_offsets(group.group_id, require_stable, partitions)
        if error is not Errors.NONE:
            group_response.error_code = error.code
            return error, group_response
        if partitions is None:
            # Offsets of topics the principal may not describe are not shown.
            visible = self.filter_by_authorized(
                request.context, AclOperation.DESCRIBE, ResourceType.TOPIC, results, _topic_of
            )
            results = {tp: d for tp, d in results.items() if tp.topic in visible}
        else:
            results = {**results, **dict.fromkeys(unauthorized, OFFSET_FETCH_UNAUTHORIZED_PARTITION)}
        by_topic: dict[str, Any] = {}
        for tp, data in results.items():
            topic_response = by_topic.get(tp.topic)
            if topic_response is None:
                topic_response = OffsetFetchResponseData.OffsetFetchResponseTopics(name=tp.topic)
                by_topic[tp.topic] = topic_response
                group_response.topics.append(topic_response)
            topic_response.partitions.append(
                OffsetFetchResponseData.OffsetFetchResponsePartitions(
                    partition_index=tp.partition,
                    committed_offset=data.offset,
                    committed_leader_epoch=(
                        NO_PARTITION_LEADER_EPOCH if data.leader_epoch is None else data.leader_epoch
                    ),
                    metadata=data.metadata,
                    error_code=data.error.code,
                )
            )
        return Errors.NONE, group_response

    def _send_offset_fetch_response(self, request: Request, response: OffsetFetchResponse) -> None:
        if self.is_trace_enabled():
            self.trace(
                f"Sending offset fetch response {response.data} for correlation id {request.header.correlation_id} "
                f"to client {request.header.client_id}."
            )
        self.send_response(request, response)

    def handle_offset_delete_request(self, request: Request) -> None:
        offset_delete_request: Any = request.body
        data = offset_delete_request.data
        if not self.authorize(request.context, AclOperation.DELETE, ResourceType.GROUP, data.group_id):
            response = offset_delete_request.get_error_response_for(0, Errors.GROUP_AUTHORIZATION_FAILED)
            self.send_response(request, response)
            return
        response_builder = _PartitionErrorsBuilder()
        partitions: list[TopicPartition] = []
        authorized_topics = self.filter_by_authorized(
            request.context, AclOperation.READ, ResourceType.TOPIC, data.topics, _name_of
        )
        for topic in data.topics:
            if topic.name not in authorized_topics:
                for partition in topic.partitions:
                    response_builder.add(topic.name, partition.partition_index, Errors.TOPIC_AUTHORIZATION_FAILED)
                continue
            if not self.metadata_cache.contains(topic.name):
                for partition in topic.partitions:
                    response_builder.add(topic.name, partition.partition_index, Errors.UNKNOWN_TOPIC_OR_PARTITION)
                continue
            for partition in topic.partitions:
                if self.metadata_cache.get_partition_info(topic.name, partition.partition_index) is None:
                    response_builder.add(topic.name, partition.partition_index, Errors.UNKNOWN_TOPIC_OR_PARTITION)
                else:
                    partitions.append(TopicPartition(topic.name, partition.partition_index))
        group_error, partition_errors = self.group_coordinator.handle_delete_offsets(data.group_id, partitions)
        if group_error is not Errors.NONE:
            self.send_response(request, offset_delete_request.get_error_response_for(0, group_error))
            return
        for tp, error in partition_errors.items():
            response_builder.add(tp.topic, tp.partition, error)
        self.send_response(request, OffsetDeleteResponse(response_builder.offset_delete_response_data()))

    # ---- Inter-broker ---------------------------------------------------------------------------------

    def _is_broker_epoch_stale(self, broker_epoch_in_request: int) -> bool:
        """A request from a controller that knew an older registration of this broker (KIP-380)."""
        if broker_epoch_in_request == -1:
            return False
        return broker_epoch_in_request < self.broker_epoch_supplier()

    def handle_leader_and_isr_request(self, request: Request) -> None:
        correlation_id = request.header.correlation_id
        leader_and_isr_request: Any = request.body
        self.authorize_cluster_operation(request, AclOperation.CLUSTER_ACTION)
        if self._is_broker_epoch_stale(leader_and_isr_request.broker_epoch()):
            self.info(
                f"Received LeaderAndIsr request with broker epoch {leader_and_isr_request.broker_epoch()} smaller "
                f"than the current broker epoch {self.broker_epoch_supplier()}"
            )
            self.send_error_response(request, _stale_broker_epoch())
            return
        response = self.replica_manager.become_leader_or_follower(
            correlation_id,
            leader_and_isr_request,
            lambda leaders, followers: on_leadership_change(
                self.group_coordinator, self.txn_coordinator, leaders, followers
            ),
        )
        self.send_response(request, response)

    def handle_stop_replica_request(self, request: Request) -> None:
        stop_replica_request: Any = request.body
        self.authorize_cluster_operation(request, AclOperation.CLUSTER_ACTION)
        if self._is_broker_epoch_stale(stop_replica_request.broker_epoch()):
            self.info(
                f"Received StopReplica request with broker epoch {stop_replica_request.broker_epoch()} smaller than "
                f"the current broker epoch {self.broker_epoch_supplier()}"
            )
            self.send_error_response(request, _stale_broker_epoch())
            return
        partition_states = {
            TopicPartition(topic, partition): state
            for (topic, partition), state in stop_replica_request.partition_states().items()
        }
        result, error = self.replica_manager.stop_replicas(
            request.header.correlation_id,
            stop_replica_request.controller_id(),
            stop_replica_request.controller_epoch(),
            stop_replica_request.broker_epoch(),
            partition_states,
        )
        # The coordinators drop what they cached of a deleted partition of their topic they may have led; on a
        # reassignment only the remaining replicas get a LeaderAndIsr request, so this is the removed replica's only
        # notice.
        for tp, partition_error in result.items():
            if partition_error is not Errors.NONE:
                continue
            partition_state = partition_states[tp]
            if not partition_state.delete_partition:
                continue
            leader_epoch = partition_state.leader_epoch if partition_state.leader_epoch >= 0 else None
            if tp.topic == Topic.GROUP_METADATA_TOPIC_NAME:
                self.group_coordinator.on_resignation(tp.partition, leader_epoch)
            elif tp.topic == Topic.TRANSACTION_STATE_TOPIC_NAME:
                self.txn_coordinator.on_resignation(tp.partition, leader_epoch)
        from kafka.common.message import StopReplicaResponseData

        response_data = StopReplicaResponseData(error_code=error.code)
        for tp, partition_error in result.items():
            response_data.partition_errors.append(
                StopReplicaResponseData.StopReplicaPartitionError(
                    topic_name=tp.topic, partition_index=tp.partition, error_code=partition_error.code
                )
            )
        self.send_response(request, StopReplicaResponse(response_data))
        self.replica_manager.replica_fetcher_manager.shutdown_idle_fetcher_threads()

    def handle_update_metadata_request(self, request: Request) -> None:
        correlation_id = request.header.correlation_id
        update_metadata_request: Any = request.body
        from kafka.common.message import UpdateMetadataResponseData

        self.authorize_cluster_operation(request, AclOperation.CLUSTER_ACTION)
        if self._is_broker_epoch_stale(update_metadata_request.broker_epoch()):
            self.info(
                f"Received update metadata request with broker epoch {update_metadata_request.broker_epoch()} smaller "
                f"than the current broker epoch {self.broker_epoch_supplier()}"
            )
            self.send_response(
                request, UpdateMetadataResponse(UpdateMetadataResponseData(error_code=Errors.STALE_BROKER_EPOCH.code))
            )
            return
        try:
            deleted = self.replica_manager.maybe_update_metadata_cache(correlation_id, update_metadata_request)
        except ControllerMovedException as e:
            self.send_error_response(request, e)
            return
        if deleted:
            self.group_coordinator.handle_deleted_partitions(deleted)
        if self.replica_manager.has_delayed_election_operations:
            for state in update_metadata_request.partition_states():
                self.replica_manager.try_complete_election(
                    TopicPartitionOperationKey(state.topic_name, state.partition_index)
                )
        if self.admin_manager.has_delayed_topic_operations:
            for topic in {p.topic_name for p in update_metadata_request.partition_states()}:
                self.admin_manager.try_complete_delayed_topic_operations(topic)
        self.send_response(request, UpdateMetadataResponse(UpdateMetadataResponseData(error_code=Errors.NONE.code)))

    def handle_controlled_shutdown_request(self, request: Request) -> None:
        controlled_shutdown_request: Any = request.body
        data = controlled_shutdown_request.data
        self.authorize_cluster_operation(request, AclOperation.CLUSTER_ACTION)

        def callback(result: Any) -> None:
            from kafka.common.message import ControlledShutdownResponseData

            response_data = ControlledShutdownResponseData()
            if isinstance(result, BaseException):
                response_data.error_code = Errors.for_exception(result).code
            else:
                response_data.error_code = Errors.NONE.code
                for tp in result:
                    response_data.remaining_partitions.append(
                        ControlledShutdownResponseData.RemainingPartition(
                            topic_name=tp.topic, partition_index=tp.partition
                        )
                    )
            self.send_response(request, ControlledShutdownResponse(response_data))

        self.controller.controlled_shutdown(data.broker_id, data.broker_epoch, callback)

    # ---- Admin: topics --------------------------------------------------------------------------------

    def handle_create_topics_request(self, request: Request) -> None:
        create_topics_request: Any = request.body
        data = create_topics_request.data
        version = request.header.api_version
        from kafka.common.message import CreateTopicsResponseData

        results = CreateTopicsResponseData.CreatableTopicResultCollection()
        if not self.controller.is_active:
            for topic in data.topics:
                results.append(
                    CreateTopicsResponseData.CreatableTopicResult(
                        name=topic.name, error_code=Errors.NOT_CONTROLLER.code
                    )
                )
            self.send_response(request, CreateTopicsResponse(CreateTopicsResponseData(topics=results)))
            return
        seen: set[str] = set()
        duplicates: set[str] = set()
        for topic in data.topics:
            if topic.name in seen:
                duplicates.add(topic.name)
            seen.add(topic.name)
        to_create = {t.name: t for t in data.topics if t.name not in duplicates}
        for name in sorted(duplicates):
            results.append(
                CreateTopicsResponseData.CreatableTopicResult(
                    name=name,
                    error_code=Errors.INVALID_REQUEST.code,
                    error_message=f"Create topics request from client `{request.header.client_id}` contains multiple "
                    f"entries for the following topics: {', '.join(sorted(duplicates))}",
                )
            )

        # CREATE on the cluster allows every topic, else CREATE on each topic; only topics whose configs the
        # principal may describe report them.
        ctx = request.context
        names = [t.name for t in data.topics]
        if self.authorize(ctx, AclOperation.CREATE, ResourceType.CLUSTER, CLUSTER_NAME, log_if_denied=False):
            authorized_topics = set(names)
        else:
            authorized_topics = self.filter_by_authorized(
                ctx, AclOperation.CREATE, ResourceType.TOPIC, names, _identity
            )
        authorized_for_describe_configs = self.filter_by_authorized(
            ctx, AclOperation.DESCRIBE_CONFIGS, ResourceType.TOPIC, names, _identity, log_if_denied=False
        )
        config_error = Errors.TOPIC_AUTHORIZATION_FAILED.code
        for name in [n for n in to_create if n not in authorized_topics]:
            del to_create[name]
            results.append(
                CreateTopicsResponseData.CreatableTopicResult(
                    name=name,
                    error_code=Errors.TOPIC_AUTHORIZATION_FAILED.code,
                    error_message="Authorization failed.",
                    topic_config_error_code=0 if name in authorized_for_describe_configs else config_error,
                )
            )

        # One result per topic, filled in place with configs, partitions and replication factor (v5+).
        include = {
            name: CreateTopicsResponseData.CreatableTopicResult(
                name=name, topic_config_error_code=0 if name in authorized_for_describe_configs else config_error
            )
            for name in to_create
        }
        controller_mutation_quota = self.controller_mutation_quota_for(request, 6)

        def send_callback(errors: dict[str, Any]) -> None:
            for name, result in include.items():
                api_error = errors.get(name)
                if api_error is not None:
                    result.error_code = api_error.error.code
                    result.error_message = api_error.message
                    if api_error.error is not Errors.NONE:
                        # As 2.8: a failed topic reports no configs and -1 counts.
                        result.configs = None if version >= 5 else result.configs
                        result.num_partitions = -1
                        result.replication_factor = -1
                        result.topic_config_error_code = Errors.NONE.code
                results.append(result)
            self.send_response_maybe_throttle_with_controller_quota(
                controller_mutation_quota,
                request,
                CreateTopicsResponse(CreateTopicsResponseData(throttle_time_ms=0, topics=results)),
            )

        self.admin_manager.create_topics(
            data.timeout_ms,
            data.validate_only,
            to_create,
            {n: r for n, r in include.items() if n in authorized_for_describe_configs} if version >= 5 else {},
            controller_mutation_quota,
            send_callback,
        )

    def handle_delete_topics_request(self, request: Request) -> None:
        delete_topics_request: Any = request.body
        from kafka.common.message import DeleteTopicsResponseData

        data = delete_topics_request.data
        names = delete_topics_request.topic_names()
        results = DeleteTopicsResponseData.DeletableTopicResultCollection()
        if not self.controller.is_active:
            for name in names:
                results.append(
                    DeleteTopicsResponseData.DeletableTopicResult(name=name, error_code=Errors.NOT_CONTROLLER.code)
                )
            self.send_response(request, DeleteTopicsResponse(DeleteTopicsResponseData(responses=results)))
            return
        if not self.config.delete_topic_enable:
            error = Errors.TOPIC_DELETION_DISABLED if request.header.api_version >= 3 else Errors.INVALID_REQUEST
            for name in names:
                results.append(DeleteTopicsResponseData.DeletableTopicResult(name=name, error_code=error.code))
            self.send_response(request, DeleteTopicsResponse(DeleteTopicsResponseData(responses=results)))
            return
        to_delete: list[str] = []
        named = [n for n in names if n is not None]
        authorized_delete = self.filter_by_authorized(
            request.context, AclOperation.DELETE, ResourceType.TOPIC, named, _identity
        )
        for name in names:
            if name is None:
                results.append(
                    DeleteTopicsResponseData.DeletableTopicResult(name=None, error_code=Errors.UNKNOWN_TOPIC_ID.code)
                )
            elif name not in authorized_delete:
                results.append(
                    DeleteTopicsResponseData.DeletableTopicResult(
                        name=name, error_code=Errors.TOPIC_AUTHORIZATION_FAILED.code
                    )
                )
            elif not self.metadata_cache.contains(name):
                results.append(
                    DeleteTopicsResponseData.DeletableTopicResult(
                        name=name, error_code=Errors.UNKNOWN_TOPIC_OR_PARTITION.code
                    )
                )
            else:
                to_delete.append(name)
        controller_mutation_quota = self.controller_mutation_quota_for(request, 5)

        def send_callback(deleted: dict[str, Errors]) -> None:
            for name, error in deleted.items():
                results.append(
                    DeleteTopicsResponseData.DeletableTopicResult(
                        name=name, error_code=error.code, topic_id=self.metadata_cache.get_topic_id(name)
                    )
                )
            self.send_response_maybe_throttle_with_controller_quota(
                controller_mutation_quota,
                request,
                DeleteTopicsResponse(DeleteTopicsResponseData(throttle_time_ms=0, responses=results)),
            )

        if not to_delete:
            send_callback({})
        else:
            self.admin_manager.delete_topics(data.timeout_ms, set(to_delete), controller_mutation_quota, send_callback)

    def handle_create_partitions_request(self, request: Request) -> None:
        create_partitions_request: Any = request.body
        data = create_partitions_request.data
        from kafka.common.message import CreatePartitionsResponseData

        results: list[Any] = []
        if not self.controller.is_active:
            for topic in data.topics:
                results.append(
                    CreatePartitionsResponseData.CreatePartitionsTopicResult(
                        name=topic.name, error_code=Errors.NOT_CONTROLLER.code
                    )
                )
            self.send_response(request, CreatePartitionsResponse(CreatePartitionsResponseData(results=results)))
            return
        seen: set[str] = set()
        dupes: set[str] = set()
        for topic in data.topics:
            (dupes if topic.name in seen else seen).add(topic.name)
        not_duped = [t for t in data.topics if t.name not in dupes]
        authorized, unauthorized = self.partition_seq_by_authorized(
            request.context, AclOperation.ALTER, ResourceType.TOPIC, not_duped, _name_of
        )
        valid = {t.name: t for t in authorized}
        for topic in unauthorized:
            results.append(
                CreatePartitionsResponseData.CreatePartitionsTopicResult(
                    name=topic.name,
                    error_code=Errors.TOPIC_AUTHORIZATION_FAILED.code,
                    error_message="The topic authorization is failed.",
                )
            )
        for name in dupes:
            results.append(
                CreatePartitionsResponseData.CreatePartitionsTopicResult(
                    name=name, error_code=Errors.INVALID_REQUEST.code, error_message="Duplicate topic in request."
                )
            )

        controller_mutation_quota = self.controller_mutation_quota_for(request, 3)

        def send_callback(outcome: dict[str, Any]) -> None:
            for name, api_error in outcome.items():
                results.append(
                    CreatePartitionsResponseData.CreatePartitionsTopicResult(
                        name=name, error_code=api_error.error.code, error_message=api_error.message
                    )
                )
            self.send_response_maybe_throttle_with_controller_quota(
                controller_mutation_quota,
                request,
                CreatePartitionsResponse(CreatePartitionsResponseData(throttle_time_ms=0, results=results)),
            )

        self.admin_manager.create_partitions(
            data.timeout_ms, list(valid.values()), data.validate_only, controller_mutation_quota, send_callback
        )

    # ---- Admin: configs -------------------------------------------------------------------------------

    def handle_describe_configs_request(self, request: Request) -> None:
        describe_configs_request: Any = request.body
        data = describe_configs_request.data
        from kafka.common.message import DescribeConfigsResponseData
        from kafka.common.requests.describe_configs_response import DescribeConfigsResponse

        authorized: list[Any] = []
        unauthorized: list[Any] = []
        for r in data.resources:
            op = AclOperation.DESCRIBE_CONFIGS
            ok = self._config_resource_authorized(request, op, r.resource_type, r.resource_name)
            (authorized if ok else unauthorized).append(r)
        results: list[Any] = self.config_helper.describe_configs(
            authorized, data.include_synonyms, data.include_documentation
        )
        for r in unauthorized:
            error = _configs_authorization_error(r.resource_type)
            results.append(
                DescribeConfigsResponseData.DescribeConfigsResult(
                    error_code=error.code,
                    error_message=error.message,
                    configs=[],
                    resource_name=r.resource_name,
                    resource_type=r.resource_type,
                )
            )

        self.send_response(
            request, DescribeConfigsResponse(DescribeConfigsResponseData(throttle_time_ms=0, results=results))
        )

    def handle_alter_configs_request(self, request: Request) -> None:
        data: Any = request.body.data
        configs = {_config_resource(r): {c.name: c.value for c in r.configs} for r in data.resources}
        unauthorized = self._remove_unauthorized_alters(request, configs)
        outcome = self.admin_manager.alter_configs(configs, data.validate_only) if configs else {}
        outcome.update({res: ApiError(_configs_authorization_error(res.type.id), None) for res in unauthorized})
        response_data = AlterConfigsResponseData(throttle_time_ms=0)
        response_data.responses.extend(
            _alter_configs_results(AlterConfigsResponseData.AlterConfigsResourceResponse, outcome)
        )
        self.send_response(request, AlterConfigsResponse(response_data))

    def handle_incremental_alter_configs_request(self, request: Request) -> None:
        data: Any = request.body.data
        configs = {_config_resource(r): list(r.configs) for r in data.resources}
        unauthorized = self._remove_unauthorized_alters(request, configs)
        outcome = self.admin_manager.incremental_alter_configs(configs, data.validate_only) if configs else {}
        outcome.update({res: ApiError(_configs_authorization_error(res.type.id), None) for res in unauthorized})
        response_data = IncrementalAlterConfigsResponseData(throttle_time_ms=0)
        response_data.responses.extend(
            _alter_configs_results(IncrementalAlterConfigsResponseData.AlterConfigsResourceResponse, outcome)
        )
        self.send_response(request, IncrementalAlterConfigsResponse(response_data))

    def _remove_unauthorized_alters(self, request: Request, configs: dict[Any, Any]) -> list[Any]:
        """Takes the resources the client may not ALTER_CONFIGS out of `configs` and returns them."""
        unauthorized = [
            res
            for res in configs
            if not self._config_resource_authorized(request, AclOperation.ALTER_CONFIGS, res.type.id, res.name)
        ]
        for res in unauthorized:
            del configs[res]
        return unauthorized

    def _config_resource_authorized(self, request: Request, op: AclOperation, type_id: int, name: str) -> bool:
        """DESCRIBE_CONFIGS/ALTER_CONFIGS on the cluster for broker (and broker logger) configs, on the topic for
        topic configs. Other types are left to the config handling, which answers them with its own error."""
        if type_id in (ConfigResource.Type.BROKER.id, ConfigResource.Type.BROKER_LOGGER.id):
            return self.authorize(request.context, op, ResourceType.CLUSTER, CLUSTER_NAME)
        if type_id == ConfigResource.Type.TOPIC.id:
            return self.authorize(request.context, op, ResourceType.TOPIC, name)
        return True

    # ---- Admin: client quotas -------------------------------------------------------------------------

    def handle_describe_client_quotas_request(self, request: Request) -> None:
        """The quota configs in ZooKeeper matching the filter. Errors of the filter (raised by the admin manager)
        become the request's error response in `handle`. Quotas are stored only: nothing enforces them yet."""
        from kafka.common.requests.describe_client_quotas_response import DescribeClientQuotasResponse

        describe_client_quotas_request: Any = request.body
        if not self.authorize(request.context, AclOperation.DESCRIBE_CONFIGS, ResourceType.CLUSTER, CLUSTER_NAME):
            self.send_error_response(request, _exception_of(Errors.CLUSTER_AUTHORIZATION_FAILED))
            return
        result = self.admin_manager.describe_client_quotas(describe_client_quotas_request.filter())
        self.send_response(request, DescribeClientQuotasResponse.from_quota_entities(result, 0))

    def handle_alter_client_quotas_request(self, request: Request) -> None:
        """Sets or removes the quota configs of each entity in ZooKeeper, with an error per entity."""
        from kafka.common.requests.alter_client_quotas_response import AlterClientQuotasResponse

        alter_client_quotas_request: Any = request.body
        if not self.authorize(request.context, AclOperation.ALTER_CONFIGS, ResourceType.CLUSTER, CLUSTER_NAME):
            self.send_error_response(request, _exception_of(Errors.CLUSTER_AUTHORIZATION_FAILED))
            return
        result = self.admin_manager.alter_client_quotas(
            alter_client_quotas_request.entries(), alter_client_quotas_request.validate_only()
        )
        self.send_response(request, AlterClientQuotasResponse.from_quota_entities(result, 0))

    # ---- SASL after authentication, SCRAM credentials (issue 15, S2) ----------------------------------

    def handle_sasl_handshake_request(self, request: Request) -> None:
        """A SaslHandshake reaching the request handlers comes on an authenticated or non-SASL connection (a SASL
        connection's handshake is answered by its authenticator): ILLEGAL_SASL_STATE."""
        from kafka.common.message import SaslHandshakeResponseData
        from kafka.common.requests.sasl_handshake_response import SaslHandshakeResponse

        data = SaslHandshakeResponseData(error_code=Errors.ILLEGAL_SASL_STATE.code)
        self.send_response_maybe_throttle(request, SaslHandshakeResponse(data))

    def handle_sasl_authenticate_request(self, request: Request) -> None:
        from kafka.common.message import SaslAuthenticateResponseData
        from kafka.common.requests.sasl_authenticate_response import SaslAuthenticateResponse

        data = SaslAuthenticateResponseData(
            error_code=Errors.ILLEGAL_SASL_STATE.code,
            error_message="SaslAuthenticate request received after successful authentication",
        )
        self.send_response_maybe_throttle(request, SaslAuthenticateResponse(data))

    def handle_describe_user_scram_credentials_request(self, request: Request) -> None:
        """The SCRAM mechanisms and iterations of the users asked for (all when none); Describe on the cluster."""
        from kafka.common.requests.describe_user_scram_credentials_response import (
            DescribeUserScramCredentialsResponse,
        )

        describe_request: Any = request.body
        if self.authorize(request.context, AclOperation.DESCRIBE, ResourceType.CLUSTER, CLUSTER_NAME):
            users = describe_request.data.users
            names = None if users is None else [u.name for u in users]
            result = self.admin_manager.describe_user_scram_credentials(names)
            self.send_response_maybe_throttle(request, DescribeUserScramCredentialsResponse(result))
        else:
            self.send_response_maybe_throttle(
                request, describe_request.get_error_response(0, Errors.CLUSTER_AUTHORIZATION_FAILED.exception())
            )

    def handle_alter_user_scram_credentials_request(self, request: Request) -> None:
        """Creates or deletes SCRAM credentials in ZooKeeper; only the controller does (NOT_CONTROLLER elsewhere),
        with Alter on the cluster."""
        from kafka.common.requests.alter_user_scram_credentials_response import (
            AlterUserScramCredentialsResponse,
        )

        alter_request: Any = request.body
        if not self.controller.is_active:
            self.send_response_maybe_throttle(
                request, alter_request.get_error_response(0, Errors.NOT_CONTROLLER.exception())
            )
        elif self.authorize(request.context, AclOperation.ALTER, ResourceType.CLUSTER, CLUSTER_NAME):
            data = alter_request.data
            result = self.admin_manager.alter_user_scram_credentials(list(data.upsertions), list(data.deletions))
            self.send_response_maybe_throttle(request, AlterUserScramCredentialsResponse(result))
        else:
            self.send_response_maybe_throttle(
                request, alter_request.get_error_response(0, Errors.CLUSTER_AUTHORIZATION_FAILED.exception())
            )

    # ---- Delegation tokens -------------------------------------------------------------------------------

    def handle_create_token_request(self, request: Request) -> None:
        """A token for the caller, or (v3+) for another owner with CreateTokens on that user; its renewers must be
        users. Refused on channels that may not ask for tokens (allow_token_requests)."""
        from kafka.common.requests.create_delegation_token_response import CreateDelegationTokenResponse

        data: Any = request.body.data
        version = request.header.api_version
        requester = request.context.principal
        owner_name = data.owner_principal_name
        owner = requester if not owner_name else KafkaPrincipal(data.owner_principal_type, owner_name)
        renewers = [KafkaPrincipal(r.principal_type, r.principal_name) for r in data.renewers]

        def send_error(error: Errors) -> None:
            self.send_response_maybe_throttle(
                request, CreateDelegationTokenResponse.prepare_response(version, 0, error, owner, requester)
            )

        if not self.allow_token_requests(request):
            send_error(Errors.DELEGATION_TOKEN_REQUEST_NOT_ALLOWED)
        elif owner != requester and not self.authorize(
            request.context, AclOperation.CREATE_TOKENS, ResourceType.USER, str(owner)
        ):
            send_error(Errors.DELEGATION_TOKEN_AUTHORIZATION_FAILED)
        elif any(r.principal_type != KafkaPrincipal.USER_TYPE for r in renewers):
            send_error(Errors.INVALID_PRINCIPAL_TYPE)
        else:

            def send_response_callback(result: CreateTokenResult) -> None:
                self.send_response_maybe_throttle(
                    request,
                    CreateDelegationTokenResponse.prepare_response(
                        version,
                        0,
                        result.error,
                        result.owner,
                        result.token_requester,
                        result.issue_timestamp,
                        result.expiry_timestamp,
                        result.max_timestamp,
                        result.token_id,
                        result.hmac,
                    ),
                )

            self._token_manager().create_token(owner, requester, renewers, data.max_lifetime_ms, send_response_callback)

    def handle_renew_token_request(self, request: Request) -> None:
        from kafka.common.message import RenewDelegationTokenResponseData
        from kafka.common.requests.renew_delegation_token_response import RenewDelegationTokenResponse

        def send_response_callback(error: Errors, expiry_timestamp: int) -> None:
            self.send_response_maybe_throttle(
                request,
                RenewDelegationTokenResponse(
                    RenewDelegationTokenResponseData(
                        throttle_time_ms=0, error_code=error.code, expiry_timestamp_ms=expiry_timestamp
                    )
                ),
            )

        if not self.allow_token_requests(request):
            send_response_callback(Errors.DELEGATION_TOKEN_REQUEST_NOT_ALLOWED, DelegationTokenManager.ERROR_TIMESTAMP)
        else:
            data: Any = request.body.data
            self._token_manager().renew_token(
                request.context.principal, bytes(data.hmac), data.renew_period_ms, send_response_callback
            )

    def handle_expire_token_request(self, request: Request) -> None:
        from kafka.common.message import ExpireDelegationTokenResponseData
        from kafka.common.requests.expire_delegation_token_response import ExpireDelegationTokenResponse

        def send_response_callback(error: Errors, expiry_timestamp: int) -> None:
            self.send_response_maybe_throttle(
                request,
                ExpireDelegationTokenResponse(
                    ExpireDelegationTokenResponseData(
                        throttle_time_ms=0, error_code=error.code, expiry_timestamp_ms=expiry_timestamp
                    )
                ),
            )

        if not self.allow_token_requests(request):
            send_response_callback(Errors.DELEGATION_TOKEN_REQUEST_NOT_ALLOWED, DelegationTokenManager.ERROR_TIMESTAMP)
        else:
            data: Any = request.body.data
            self._token_manager().expire_token(
                request.context.principal, bytes(data.hmac), data.expiry_time_period_ms, send_response_callback
            )

    def handle_describe_tokens_request(self, request: Request) -> None:
        """The tokens of the owners asked for (all when null) that the caller may see (DelegationTokenManager.
        filter_token: its own, or Describe on the token, or DescribeTokens on the owner)."""
        from kafka.common.message import DescribeDelegationTokenResponseData
        from kafka.common.requests.describe_delegation_token_response import DescribeDelegationTokenResponse

        describe_request: Any = request.body
        version = request.header.api_version

        def send_response_callback(error: Errors, tokens: list[DelegationToken]) -> None:
            described = []
            for token in tokens:
                info = token.token_info()
                described.append(
                    DescribeDelegationTokenResponseData.DescribedDelegationToken(
                        principal_type=info.owner.principal_type,
                        principal_name=info.owner.name,
                        token_requester_principal_type=info.token_requester.principal_type,
                        token_requester_principal_name=info.token_requester.name,
                        issue_timestamp=info.issue_timestamp,
                        expiry_timestamp=info.expiry_timestamp,
                        max_timestamp=info.max_timestamp,
                        token_id=info.token_id,
                        hmac=token.hmac(),
                        renewers=[
                            DescribeDelegationTokenResponseData.DescribedDelegationTokenRenewer(
                                principal_type=r.principal_type, principal_name=r.name
                            )
                            for r in info.renewers
                        ],
                    )
                )
            self.send_response_maybe_throttle(request, DescribeDelegationTokenResponse.of(version, 0, error, described))

        if not self.allow_token_requests(request):
            send_response_callback(Errors.DELEGATION_TOKEN_REQUEST_NOT_ALLOWED, [])
        elif not self.config.token_auth_enabled:
            send_response_callback(Errors.DELEGATION_TOKEN_AUTH_DISABLED, [])
        elif describe_request.owners_list_empty():
            send_response_callback(Errors.NONE, [])
        else:
            requester = request.context.principal
            owners_data = describe_request.data.owners
            owners = (
                None
                if owners_data is None
                else [KafkaPrincipal(o.principal_type, o.principal_name) for o in owners_data]
            )

            def authorize_token(token_id: str) -> bool:
                return self.authorize(request.context, AclOperation.DESCRIBE, ResourceType.DELEGATION_TOKEN, token_id)

            def authorize_requester(owner: KafkaPrincipal) -> bool:
                return self.authorize(request.context, AclOperation.DESCRIBE_TOKENS, ResourceType.USER, str(owner))

            def eligible(token: TokenInformation) -> bool:
                return DelegationTokenManager.filter_token(
                    requester, owners, token, authorize_token, authorize_requester
                )

            send_response_callback(Errors.NONE, self._token_manager().get_tokens(eligible))

    def allow_token_requests(self, request: Request) -> bool:
        """Tokens may not be asked for, renewed, expired or described over a token-authenticated connection, over
        PLAINTEXT, or over SSL without a client certificate (3.7's rule)."""
        principal = request.context.principal
        protocol = request.context.security_protocol
        return not (
            principal.token_authenticated
            or protocol == SecurityProtocol.PLAINTEXT.name
            or (protocol == SecurityProtocol.SSL.name and principal == KafkaPrincipal.ANONYMOUS)
        )

    def _token_manager(self) -> DelegationTokenManager:
        manager = self.token_manager
        if manager is None:
            raise KafkaException("The broker has no DelegationTokenManager")
        return manager

    # ---- Admin: records, log dirs, leaders, cluster ---------------------------------------------------

    def handle_delete_records_request(self, request: Request) -> None:
        delete_records_request: Any = request.body
        data = delete_records_request.data
        non_existing: dict[TopicPartition, Any] = {}
        to_delete: dict[TopicPartition, int] = {}
        authorized_topics = self.filter_by_authorized(
            request.context, AclOperation.DELETE, ResourceType.TOPIC, data.topics, _name_of
        )
        for topic in data.topics:
            for partition in topic.partitions:
                tp = TopicPartition(topic.name, partition.partition_index)
                if topic.name not in authorized_topics:
                    non_existing[tp] = DeleteRecordsResponseData.DeleteRecordsPartitionResult(
                        partition_index=tp.partition,
                        low_watermark=-1,
                        error_code=Errors.TOPIC_AUTHORIZATION_FAILED.code,
                    )
                elif not self.metadata_cache.contains(tp):
                    non_existing[tp] = DeleteRecordsResponseData.DeleteRecordsPartitionResult(
                        partition_index=tp.partition,
                        low_watermark=-1,
                        error_code=Errors.UNKNOWN_TOPIC_OR_PARTITION.code,
                    )
                else:
                    to_delete[tp] = partition.offset

        def send_callback(results: dict[TopicPartition, Any]) -> None:
            merged = {**results, **non_existing}
            response_data = DeleteRecordsResponseData(throttle_time_ms=0)
            for tp, result in merged.items():
                topic_result = response_data.topics.find(tp.topic)
                if topic_result is None:
                    topic_result = DeleteRecordsResponseData.DeleteRecordsTopicResult(name=tp.topic)
                    response_data.topics.append(topic_result)
                result.partition_index = tp.partition
                topic_result.partitions.append(result)
            self.send_response(request, DeleteRecordsResponse(response_data))

        if not to_delete:
            send_callback({})
        else:
            self.replica_manager.delete_records(data.timeout_ms, to_delete, send_callback)

    def handle_alter_replica_log_dirs_request(self, request: Request) -> None:
        """AlterReplicaLogDirs: moves replicas of this broker to other log directories (ReplicaManager)."""
        alter_request: Any = request.body
        partition_dirs = {
            TopicPartition(topic, partition): log_dir
            for (topic, partition), log_dir in alter_request.partition_dirs().items()
        }
        if self.authorize(request.context, AclOperation.ALTER, ResourceType.CLUSTER, CLUSTER_NAME):
            result = self.replica_manager.alter_replica_log_dirs(partition_dirs)
        else:
            result = dict.fromkeys(partition_dirs, Errors.CLUSTER_AUTHORIZATION_FAILED)
        by_topic: dict[str, Any] = {}
        for tp, error in result.items():
            topic_result = by_topic.get(tp.topic)
            if topic_result is None:
                topic_result = AlterReplicaLogDirsResponseData.AlterReplicaLogDirTopicResult(topic_name=tp.topic)
                by_topic[tp.topic] = topic_result
            topic_result.partitions.append(
                AlterReplicaLogDirsResponseData.AlterReplicaLogDirPartitionResult(
                    partition_index=tp.partition, error_code=error.code
                )
            )
        response_data = AlterReplicaLogDirsResponseData(throttle_time_ms=0, results=list(by_topic.values()))
        self.send_response(request, AlterReplicaLogDirsResponse(response_data))

    def handle_describe_log_dirs_request(self, request: Request) -> None:
        describe_request: Any = request.body
        data = describe_request.data
        if not self.authorize(request.context, AclOperation.DESCRIBE, ResourceType.CLUSTER, CLUSTER_NAME):
            # No log dirs are described (and from v3 the error says why).
            response_data = DescribeLogDirsResponseData(
                throttle_time_ms=0, error_code=Errors.CLUSTER_AUTHORIZATION_FAILED.code, results=[]
            )
            self.send_response(request, DescribeLogDirsResponse(response_data))
            return
        if data.topics is None:
            partitions = [p.topic_partition for p in self.replica_manager.online_partitions()]
        else:
            partitions = [TopicPartition(t.topic, p) for t in data.topics for p in t.partitions]
        results = self.replica_manager.describe_log_dirs(partitions)
        response_data = DescribeLogDirsResponseData(throttle_time_ms=0, results=results)
        self.send_response(request, DescribeLogDirsResponse(response_data))

    def handle_elect_replica_leader(self, request: Request) -> None:
        elect_request: Any = request.body
        data = elect_request.data
        all_partitions = data.topic_partitions is None

        top_level_error = Errors.NONE

        def send_callback(results: dict[TopicPartition, Any]) -> None:
            response_data = ElectLeadersResponseData(throttle_time_ms=0, error_code=top_level_error.code)
            by_topic: dict[str, Any] = {}
            for tp, api_error in results.items():
                # An election over every partition reports only the partitions it elected or failed on.
                if all_partitions and api_error.error is Errors.ELECTION_NOT_NEEDED:
                    continue
                entry = by_topic.get(tp.topic)
                if entry is None:
                    entry = ElectLeadersResponseData.ReplicaElectionResult(topic=tp.topic)
                    by_topic[tp.topic] = entry
                    response_data.replica_election_results.append(entry)
                entry.partition_result.append(
                    ElectLeadersResponseData.PartitionResult(
                        partition_id=tp.partition, error_code=api_error.error.code, error_message=api_error.message
                    )
                )
            self.send_response(request, ElectLeadersResponse(response_data))

        if not self.authorize(request.context, AclOperation.ALTER, ResourceType.CLUSTER, CLUSTER_NAME):
            top_level_error = Errors.CLUSTER_AUTHORIZATION_FAILED
            denied = ApiError(Errors.CLUSTER_AUTHORIZATION_FAILED, None)
            requested = (
                []
                if all_partitions
                else [TopicPartition(t.topic, p) for t in data.topic_partitions for p in t.partitions]
            )
            send_callback(dict.fromkeys(requested, denied))
            return
        partitions = (
            self.metadata_cache.get_all_partitions()
            if all_partitions
            else {TopicPartition(t.topic, p) for t in data.topic_partitions for p in t.partitions}
        )
        # ElectLeaders v0 has no election type: it asks for the preferred leader. A broker that is not the
        # controller answers NOT_CONTROLLER per partition (from the controller's event), as Kafka's does.
        election_type = (
            ElectionType.value_of(data.election_type) if request.header.api_version >= 1 else ElectionType.PREFERRED
        )
        self.replica_manager.elect_leaders(self.controller, partitions, election_type, send_callback, data.timeout_ms)

    def handle_alter_isr_request(self, request: Request) -> None:
        """AlterIsr (AlterPartition in 3.x, key 56) from a partition leader: answered by the controller, from its
        event thread; a broker that is not the controller answers NOT_CONTROLLER, and the sender looks again."""
        from kafka.common.requests.alter_partition_response import AlterPartitionResponse

        alter_isr_request: Any = request.body
        self.authorize_cluster_operation(request, AclOperation.CLUSTER_ACTION)
        if not self.controller.is_active:
            self.send_response(request, alter_isr_request.get_error_response(0, NotControllerException()))
            return
        self.controller.alter_partitions(
            alter_isr_request.data,
            lambda response_data: self.send_response(request, AlterPartitionResponse(response_data)),
            request.header.api_version,
        )

    def handle_describe_cluster(self, request: Request) -> None:
        listener = request.context.listener_name
        response_data = DescribeClusterResponseData(
            throttle_time_ms=0,
            cluster_id=self.cluster_id,
            controller_id=_or_minus_one(self.metadata_cache.get_controller_id()),
            cluster_authorized_operations=AUTHORIZED_OPERATIONS_OMITTED,
        )
        if request.body.data.include_cluster_authorized_operations:
            if self.authorize(request.context, AclOperation.DESCRIBE, ResourceType.CLUSTER, CLUSTER_NAME):
                response_data.cluster_authorized_operations = self.authorized_operations(request, Resource.CLUSTER)
            else:
                response_data.cluster_authorized_operations = 0
        for node in self.metadata_cache.get_alive_broker_nodes(listener):
            response_data.brokers.append(
                DescribeClusterResponseData.DescribeClusterBroker(
                    broker_id=node.id, host=node.host, port=node.port, rack=node.rack
                )
            )
        self.send_response(request, DescribeClusterResponse(response_data))

    # ---- Admin: partition reassignments ---------------------------------------------------------------

    def handle_alter_partition_reassignments_request(self, request: Request) -> None:
        """Hands the reassignments (None replicas: cancel) to the controller, which answers NOT_CONTROLLER at the
        top level when this broker is not the controller, or an error per partition."""
        from kafka.common.message import AlterPartitionReassignmentsResponseData
        from kafka.common.requests.alter_partition_reassignments_response import (
            AlterPartitionReassignmentsResponse,
        )

        self.authorize_cluster_operation(request, AclOperation.ALTER)
        data: Any = request.body.data

        def send_response_callback(result: Any) -> None:
            if isinstance(result, ApiError):
                response_data = AlterPartitionReassignmentsResponseData(
                    error_code=result.error.code, error_message=result.message
                )
            else:
                response_data = AlterPartitionReassignmentsResponseData()
                by_topic: dict[str, Any] = {}
                for tp, api_error in result.items():
                    topic_response = by_topic.get(tp.topic)
                    if topic_response is None:
                        topic_response = AlterPartitionReassignmentsResponseData.ReassignableTopicResponse(
                            name=tp.topic
                        )
                        by_topic[tp.topic] = topic_response
                        response_data.responses.append(topic_response)
                    topic_response.partitions.append(
                        AlterPartitionReassignmentsResponseData.ReassignablePartitionResponse(
                            partition_index=tp.partition,
                            error_code=api_error.error.code,
                            error_message=api_error.message,
                        )
                    )
            response_data.throttle_time_ms = 0
            self.send_response(request, AlterPartitionReassignmentsResponse(response_data))

        reassignments: dict[TopicPartition, list[int] | None] = {}
        for topic in data.topics:
            for partition in topic.partitions:
                tp = TopicPartition(topic.name, partition.partition_index)
                reassignments[tp] = None if partition.replicas is None else list(partition.replicas)
        self.controller.alter_partition_reassignments(reassignments, send_response_callback)

    def handle_list_partition_reassignments_request(self, request: Request) -> None:
        """The controller's ongoing reassignments of the partitions asked for (all when the topics are null)."""
        from kafka.common.message import ListPartitionReassignmentsResponseData
        from kafka.common.requests.list_partition_reassignments_response import ListPartitionReassignmentsResponse

        self.authorize_cluster_operation(request, AclOperation.DESCRIBE)
        data: Any = request.body.data

        def send_response_callback(result: Any) -> None:
            if isinstance(result, ApiError):
                response_data = ListPartitionReassignmentsResponseData(
                    error_code=result.error.code, error_message=result.message
                )
            else:
                response_data = ListPartitionReassignmentsResponseData()
                by_topic: dict[str, Any] = {}
                for tp, assignment in result.items():
                    topic_reassignment = by_topic.get(tp.topic)
                    if topic_reassignment is None:
                        topic_reassignment = ListPartitionReassignmentsResponseData.OngoingTopicReassignment(
                            name=tp.topic
                        )
                        by_topic[tp.topic] = topic_reassignment
                        response_data.topics.append(topic_reassignment)
                    topic_reassignment.partitions.append(
                        ListPartitionReassignmentsResponseData.OngoingPartitionReassignment(
                            partition_index=tp.partition,
                            replicas=list(assignment.replicas),
                            adding_replicas=list(assignment.adding_replicas),
                            removing_replicas=list(assignment.removing_replicas),
                        )
                    )
            response_data.throttle_time_ms = 0
            self.send_response(request, ListPartitionReassignmentsResponse(response_data))

        partitions_opt = (
            None
            if data.topics is None
            else {TopicPartition(t.name, p) for t in data.topics for p in t.partition_indexes}
        )
        self.controller.list_partition_reassignments(partitions_opt, send_response_callback)

    # ---- Transactions ---------------------------------------------------------------------------------

    def ensure_inter_broker_version(self, version: ApiVersion) -> None:
        """The transaction APIs need every broker at inter.broker.protocol.version 0.11.0 or later."""
        ibp = self.config.inter_broker_protocol_version
        if ibp < version:
            raise UnsupportedVersionException(
                f"inter.broker.protocol.version: {ibp.version} is less than the required version: {version.version}"
            )

    def handle_init_producer_id_request(self, request: Request) -> None:
        init_request: Any = request.body
        data = init_request.data
        version = request.header.api_version
        transactional_id = data.transactional_id
        ctx = request.context
        if transactional_id is not None:
            if not self.authorize(ctx, AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID, transactional_id):
                self.send_error_response(request, _exception_of(Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED))
                return
        elif not self.authorize(
            ctx, AclOperation.IDEMPOTENT_WRITE, ResourceType.CLUSTER, CLUSTER_NAME, True, False
        ) and not self.authorize_by_resource_type(ctx, AclOperation.WRITE, ResourceType.TOPIC):
            # An idempotent producer needs IdempotentWrite on the cluster, or Write on some topic (KIP-679).
            self.send_error_response(request, _exception_of(Errors.CLUSTER_AUTHORIZATION_FAILED))
            return

        def send_response_callback(result: InitProducerIdResult) -> None:
            # Clients before v4 do not know PRODUCER_FENCED; they handle INVALID_PRODUCER_EPOCH the same way.
            error = _fenced_as_invalid_epoch(result.error, version < 4)
            response_data = InitProducerIdResponseData(
                throttle_time_ms=0,
                error_code=error.code,
                producer_id=result.producer_id,
                producer_epoch=result.producer_epoch,
            )
            if self.is_trace_enabled():
                self.trace(
                    f"Completed {transactional_id}'s InitProducerIdRequest with result {result} from client "
                    f"{request.header.client_id}."
                )
            self.send_response(request, InitProducerIdResponse(response_data))

        no_id, no_epoch = data.producer_id == NO_PRODUCER_ID, data.producer_epoch == NO_PRODUCER_EPOCH
        if no_id != no_epoch:
            # A producer id without its epoch, or the reverse.
            self.send_error_response(request, _exception_of(Errors.INVALID_REQUEST))
            return
        producer_id_and_epoch = None if no_id else ProducerIdAndEpoch(data.producer_id, data.producer_epoch)
        self.txn_coordinator.handle_init_producer_id(
            transactional_id, data.transaction_timeout_ms, producer_id_and_epoch, send_response_callback
        )

    def handle_end_txn_request(self, request: Request) -> None:
        self.ensure_inter_broker_version(KAFKA_0_11_0_IV0)
        end_txn_request: Any = request.body
        data = end_txn_request.data
        version = request.header.api_version

        def send_response_callback(error: Errors) -> None:
            final_error = _fenced_as_invalid_epoch(error, version < 2)
            if self.is_trace_enabled():
                self.trace(
                    f"Completed {data.transactional_id}'s EndTxnRequest with committed: {str(data.committed).lower()}, "
                    f"errors: {error.name} from client {request.header.client_id}."
                )
            self.send_response(
                request, EndTxnResponse(EndTxnResponseData(error_code=final_error.code, throttle_time_ms=0))
            )

        txn_id = data.transactional_id
        if not self.authorize(request.context, AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID, txn_id):
            send_response_callback(Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED)
            return
        self.txn_coordinator.handle_end_transaction(
            data.transactional_id,
            data.producer_id,
            data.producer_epoch,
            end_txn_request.result(),
            send_response_callback,
        )

    def handle_write_txn_markers_request(self, request: Request) -> None:
        """Writes the commit or abort markers a transaction coordinator sends, one control batch per partition and
        marker, with acks=-1; the response waits for every marker's append. Transactional offsets of the group
        coordinator's partitions are made visible (or dropped) once their marker is written."""
        self.ensure_inter_broker_version(KAFKA_0_11_0_IV0)
        self.authorize_cluster_operation(request, AclOperation.CLUSTER_ACTION)
        write_txn_markers_request: Any = request.body
        markers = write_txn_markers_request.markers()
        errors: dict[int, dict[tuple[str, int], Errors]] = {}
        lock = threading.Lock()
        # PORT: Kafka counts down skipped markers without ever sending the response when the last marker to finish
        # was a skipped one after an append that had already completed; here whichever finishes last answers.
        num_appends = [len(markers)]

        def update_errors(producer_id: int, current_errors: Mapping[TopicPartition, Errors]) -> None:
            with lock:
                per_partition = errors.setdefault(producer_id, {})
                for tp, error in current_errors.items():
                    per_partition[(tp.topic, tp.partition)] = error

        def finish_one() -> None:
            with lock:
                num_appends[0] -= 1
                done = num_appends[0] == 0
            if done:
                self.send_response(request, WriteTxnMarkersResponse.of(errors))

        def maybe_send_response_callback(
            producer_id: int, result: TransactionResult, response_status: Mapping[TopicPartition, PartitionResponse]
        ) -> None:
            if self.is_trace_enabled():
                self.trace(
                    f"End transaction marker append for producer id {producer_id} completed with status: "
                    f"{ {tp: s.error.name for tp, s in response_status.items()} }"
                )
            update_errors(producer_id, {tp: status.error for tp, status in response_status.items()})
            successful_offsets_partitions = [
                tp
                for tp, status in response_status.items()
                if tp.topic == Topic.GROUP_METADATA_TOPIC_NAME and status.error is Errors.NONE
            ]
            if successful_offsets_partitions:
                # The marker of a transactional offset commit is written: the group coordinator materializes (or
                # drops) the pending offsets.
                try:
                    self.group_coordinator.schedule_handle_txn_completion(
                        producer_id, successful_offsets_partitions, result
                    )
                except Exception as e:
                    self.error(
                        "Received an exception while trying to update the offsets cache on transaction marker append",
                        e,
                    )
                    update_errors(
                        producer_id, dict.fromkeys(successful_offsets_partitions, Errors.UNKNOWN_SERVER_ERROR)
                    )
            finish_one()

        if not markers:
            self.send_response(request, WriteTxnMarkersResponse.of(errors))
            return
        for marker in markers:
            producer_id = marker.producer_id
            compatible: list[TopicPartition] = []
            current_errors: dict[TopicPartition, Errors] = {}
            for topic, partition in marker.partitions:
                tp = TopicPartition(topic, partition)
                magic = self.replica_manager.get_magic(tp)
                if magic is None:
                    current_errors[tp] = Errors.UNKNOWN_TOPIC_OR_PARTITION
                elif magic < MAGIC_VALUE_V2:
                    current_errors[tp] = Errors.UNSUPPORTED_FOR_MESSAGE_FORMAT
                else:
                    compatible.append(tp)
            if current_errors:
                update_errors(producer_id, current_errors)
            if not compatible:
                finish_one()
                continue
            control_type = (
                ControlRecordType.COMMIT
                if marker.transaction_result is TransactionResult.COMMIT
                else ControlRecordType.ABORT
            )
            control_records = {
                tp: MemoryRecords.with_end_transaction_marker(
                    producer_id, marker.producer_epoch, EndTransactionMarker(control_type, marker.coordinator_epoch)
                )
                for tp in compatible
            }
            self.replica_manager.append_records(
                timeout=self.config.request_timeout_ms,
                required_acks=-1,
                internal_topics_allowed=True,
                origin=Coordinator(),
                entries_per_partition=control_records,
                response_callback=functools.partial(
                    maybe_send_response_callback, producer_id, marker.transaction_result
                ),
            )

    def handle_add_partitions_to_txn_request(self, request: Request) -> None:
        """v0-3 from a transactional producer: its partitions join its transaction. v4 from another broker (KIP-890):
        several transactions at once, each to add or only to verify; one result per transaction, sent once all are
        in."""
        self.ensure_inter_broker_version(KAFKA_0_11_0_IV0)
        version = request.header.api_version
        body: Any = request.body
        if version >= 4 and not self.authorize(
            request.context, AclOperation.CLUSTER_ACTION, ResourceType.CLUSTER, CLUSTER_NAME
        ):
            self.send_error_response(request, _exception_of(Errors.CLUSTER_AUTHORIZATION_FAILED))
            return
        add_request: Any = body.normalize_request() if version < 4 else body
        txns = list(add_request.data.transactions)
        partitions_by_transaction = add_request.partitions_by_transaction()
        responses = AddPartitionsToTxnResponseData.AddPartitionsToTxnResultCollection()
        lock = threading.Lock()

        def create_response() -> AddPartitionsToTxnResponse:
            if version < 4:
                # One transaction: its result is the whole response.
                data = AddPartitionsToTxnResponseData(throttle_time_ms=0)
                for result in responses:
                    data.results_by_topic_v3_and_below = result.topic_results
                return AddPartitionsToTxnResponse(data)
            return AddPartitionsToTxnResponse(
                AddPartitionsToTxnResponseData(throttle_time_ms=0, results_by_transaction=responses)
            )

        def add_result_and_maybe_send_response(result: Any) -> None:
            with lock:
                responses.append(result)
                can_send = len(responses) == len(txns)
            if can_send:
                self.send_response(request, create_response())

        if not txns:
            # PORT: Kafka never answers a v4 request without transactions; an empty answer is sent instead.
            self.send_response(request, create_response())
            return
        for transaction in txns:
            transactional_id = transaction.transactional_id
            partitions_to_add = [TopicPartition(t, p) for t, p in partitions_by_transaction[transactional_id]]
            # Clients (v0-3) need Write on the transactional id.
            if version < 4 and not self.authorize(
                request.context, AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID, transactional_id
            ):
                add_result_and_maybe_send_response(
                    add_request.error_response_for_transaction(
                        transactional_id, Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED
                    )
                )
                continue
            # Clients also need Write on each topic; brokers (v4, ClusterAction) do not.
            authorized_topics = (
                self.filter_by_authorized(
                    request.context,
                    AclOperation.WRITE,
                    ResourceType.TOPIC,
                    [tp for tp in partitions_to_add if not Topic.is_internal(tp.topic)],
                    _topic_of,
                )
                if version < 4
                else {tp.topic for tp in partitions_to_add}
            )
            non_authorized_or_existing: dict[TopicPartition, Errors] = {}
            authorized_partitions: set[TopicPartition] = set()
            for tp in partitions_to_add:
                if tp.topic not in authorized_topics:
                    # A producer may not add an internal topic's partition (the offsets partition comes through
                    # AddOffsetsToTxn); Kafka's authorization leaves them out even without an authorizer.
                    non_authorized_or_existing[tp] = Errors.TOPIC_AUTHORIZATION_FAILED
                elif not self.metadata_cache.contains(tp):
                    non_authorized_or_existing[tp] = Errors.UNKNOWN_TOPIC_OR_PARTITION
                else:
                    authorized_partitions.add(tp)
            if non_authorized_or_existing:
                # One bad partition fails the whole transaction's request: the others were not attempted.
                partition_errors = {
                    **{(tp.topic, tp.partition): e for tp, e in non_authorized_or_existing.items()},
                    **{(tp.topic, tp.partition): Errors.OPERATION_NOT_ATTEMPTED for tp in authorized_partitions},
                }
                add_result_and_maybe_send_response(
                    AddPartitionsToTxnResponse.result_for_transaction(transactional_id, partition_errors)
                )
                continue

            def send_response_callback(error: Errors, transactional_id: str = transactional_id) -> None:
                final_error = _fenced_as_invalid_epoch(error, version < 2)
                if self.is_trace_enabled():
                    self.trace(
                        f"Completed {transactional_id}'s AddPartitionsToTxnRequest with partitions "
                        f"{partitions_by_transaction[transactional_id]}: errors: {error.name} from client "
                        f"{request.header.client_id}"
                    )
                add_result_and_maybe_send_response(
                    add_request.error_response_for_transaction(transactional_id, final_error)
                )

            if not transaction.verify_only:
                self.txn_coordinator.handle_add_partitions_to_transaction(
                    transactional_id,
                    transaction.producer_id,
                    transaction.producer_epoch,
                    authorized_partitions,
                    send_response_callback,
                )
            else:
                self.txn_coordinator.handle_verify_partitions_in_transaction(
                    transactional_id,
                    transaction.producer_id,
                    transaction.producer_epoch,
                    authorized_partitions,
                    add_result_and_maybe_send_response,
                )

    def handle_add_offsets_to_txn_request(self, request: Request) -> None:
        """The group's __consumer_offsets partition joins the transaction, before TxnOffsetCommit writes to it."""
        self.ensure_inter_broker_version(KAFKA_0_11_0_IV0)
        data: Any = request.body.data
        version = request.header.api_version
        transactional_id = data.transactional_id
        group_id = data.group_id
        offset_topic_partition = TopicPartition(
            Topic.GROUP_METADATA_TOPIC_NAME, self.group_coordinator.partition_for(group_id)
        )

        def send_response_callback(error: Errors) -> None:
            final_error = _fenced_as_invalid_epoch(error, version < 2)
            if self.is_trace_enabled():
                self.trace(
                    f"Completed {transactional_id}'s AddOffsetsToTxnRequest for group {group_id} on partition "
                    f"{offset_topic_partition}: errors: {error.name} from client {request.header.client_id}"
                )
            self.send_response(
                request,
                AddOffsetsToTxnResponse(AddOffsetsToTxnResponseData(error_code=final_error.code, throttle_time_ms=0)),
            )

        if not self.authorize(request.context, AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID, transactional_id):
            send_response_callback(Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED)
            return
        if not self.authorize(request.context, AclOperation.READ, ResourceType.GROUP, group_id):
            send_response_callback(Errors.GROUP_AUTHORIZATION_FAILED)
            return
        self.txn_coordinator.handle_add_partitions_to_transaction(
            transactional_id, data.producer_id, data.producer_epoch, {offset_topic_partition}, send_response_callback
        )

    def handle_txn_offset_commit_request(self, request: Request) -> None:
        """Offsets committed inside a transaction: the group coordinator keeps them pending until the transaction's
        marker reaches the group's partition."""
        self.ensure_inter_broker_version(KAFKA_0_11_0_IV0)
        header = request.header
        data: Any = request.body.data
        # The producer id is not authorized: Write on the transactional id stands for it, as in Kafka.
        ctx = request.context
        if not self.authorize(ctx, AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID, data.transactional_id):
            self.send_error_response(request, _exception_of(Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED))
            return
        if not self.authorize(ctx, AclOperation.READ, ResourceType.GROUP, data.group_id):
            self.send_error_response(request, _exception_of(Errors.GROUP_AUTHORIZATION_FAILED))
            return
        non_existing: dict[TopicPartition, Errors] = {}
        valid: dict[TopicPartition, Any] = {}
        authorized_topics = self.filter_by_authorized(ctx, AclOperation.READ, ResourceType.TOPIC, data.topics, _name_of)
        for topic in data.topics:
            for partition in topic.partitions:
                tp = TopicPartition(topic.name, partition.partition_index)
                if topic.name not in authorized_topics:
                    non_existing[tp] = Errors.TOPIC_AUTHORIZATION_FAILED
                elif not self.metadata_cache.contains(tp):
                    non_existing[tp] = Errors.UNKNOWN_TOPIC_OR_PARTITION
                else:
                    valid[tp] = partition

        def send_response_callback(authorized_topic_errors: Mapping[TopicPartition, Errors]) -> None:
            combined = {**authorized_topic_errors, **non_existing}
            if self.is_debug_enabled():
                for tp, error in combined.items():
                    if error is not Errors.NONE:
                        self.debug(
                            f"TxnOffsetCommit with correlation id {header.correlation_id} from client "
                            f"{header.client_id} on partition {tp} failed due to {error.exception_name()}"
                        )
            if header.api_version < 2:
                # Producers before 2.0 (v0-1) may fail on COORDINATOR_LOAD_IN_PROGRESS (KAFKA-7296); they retry
                # COORDINATOR_NOT_AVAILABLE.
                combined = {
                    tp: Errors.COORDINATOR_NOT_AVAILABLE if e is Errors.COORDINATOR_LOAD_IN_PROGRESS else e
                    for tp, e in combined.items()
                }
            self.send_response(request, TxnOffsetCommitResponse(_txn_offset_commit_response_data(combined)))

        if not valid:
            send_response_callback({})
            return
        current_timestamp = self.time.milliseconds()
        offset_metadata = {
            tp: _offset_and_metadata(partition, current_timestamp, None) for tp, partition in valid.items()
        }
        self.group_coordinator.handle_txn_commit_offsets(
            data.group_id,
            data.producer_id,
            data.producer_epoch,
            data.member_id,
            data.group_instance_id,
            data.generation_id,
            offset_metadata,
            send_response_callback,
        )

    def handle_describe_producers_request(self, request: Request) -> None:
        """The active producers of each partition asked for, from this broker's replica of it (3.7)."""
        data: Any = request.body.data
        response_data = DescribeProducersResponseData(throttle_time_ms=0)
        for topic_request in data.topics:
            topic_response = DescribeProducersResponseData.TopicResponse(name=topic_request.name)
            topic_error = _check_valid_topic(topic_request.name)
            if topic_error is None and not self.authorize(
                request.context, AclOperation.READ, ResourceType.TOPIC, topic_request.name
            ):
                topic_error = ApiError(Errors.TOPIC_AUTHORIZATION_FAILED)
            elif topic_error is None and not self.metadata_cache.contains(topic_request.name):
                topic_error = ApiError(Errors.UNKNOWN_TOPIC_OR_PARTITION, None)
            for partition_id in topic_request.partition_indexes:
                tp = TopicPartition(topic_request.name, partition_id)
                if topic_error is not None:
                    topic_response.partitions.append(
                        DescribeProducersResponseData.PartitionResponse(
                            partition_index=partition_id,
                            error_code=topic_error.error.code,
                            error_message=topic_error.message,
                        )
                    )
                else:
                    topic_response.partitions.append(self.replica_manager.active_producer_state(tp))
            response_data.topics.append(topic_response)
        self.send_response(request, DescribeProducersResponse(response_data))

    def handle_describe_transactions_request(self, request: Request) -> None:
        """The coordinator's state of each transactional id asked for (3.7)."""
        data: Any = request.body.data
        response_data = DescribeTransactionsResponseData(throttle_time_ms=0)
        ctx = request.context
        for transactional_id in data.transactional_ids:
            if not self.authorize(ctx, AclOperation.DESCRIBE, ResourceType.TRANSACTIONAL_ID, transactional_id):
                response_data.transaction_states.append(
                    DescribeTransactionsResponseData.TransactionState(
                        transactional_id=transactional_id,
                        error_code=Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED.code,
                    )
                )
                continue
            state = self.txn_coordinator.handle_describe_transactions(transactional_id)
            # Only the topics the principal may describe are shown.
            state.topics = [
                t
                for t in state.topics
                if self.authorize(ctx, AclOperation.DESCRIBE, ResourceType.TOPIC, t.topic, log_if_denied=False)
            ]
            response_data.transaction_states.append(state)
        self.send_response(request, DescribeTransactionsResponse(response_data))

    def handle_list_transactions_request(self, request: Request) -> None:
        """The transactions this coordinator knows, filtered by producer id and state (3.7)."""
        data: Any = request.body.data
        response_data = self.txn_coordinator.handle_list_transactions(
            set(data.producer_id_filters), set(data.state_filters)
        )
        response_data.throttle_time_ms = 0
        response_data.transaction_states = [
            state
            for state in response_data.transaction_states
            if self.authorize(
                request.context,
                AclOperation.DESCRIBE,
                ResourceType.TRANSACTIONAL_ID,
                state.transactional_id,
                log_if_denied=False,
            )
        ]
        self.send_response(request, ListTransactionsResponse(response_data))

    # ---- ACLs ------------------------------------------------------------------------------------------

    def handle_describe_acls(self, request: Request) -> None:
        self.authorize_cluster_operation(request, AclOperation.DESCRIBE)
        describe_acls_request: Any = request.body
        version = request.header.api_version
        if self.authorizer is None:
            data = DescribeAclsResponseData(
                throttle_time_ms=0,
                error_code=Errors.SECURITY_DISABLED.code,
                error_message="No Authorizer is configured on the broker",
            )
            self.send_response(request, DescribeAclsResponse(data, version))
            return
        returned = dict.fromkeys(self.authorizer.acls(describe_acls_request.filter()))
        data = DescribeAclsResponseData(throttle_time_ms=0, resources=DescribeAclsResponse.acls_resources(returned))
        self.send_response(request, DescribeAclsResponse(data, version))

    def handle_create_acls(self, request: Request) -> None:
        self.authorize_cluster_operation(request, AclOperation.ALTER)
        create_acls_request: Any = request.body
        if self.authorizer is None:
            self.send_error_response(request, SecurityDisabledException("No Authorizer is configured on the broker."))
            return
        all_bindings = [CreateAclsRequest.acl_binding(c) for c in create_acls_request.acl_creations()]
        error_results: dict[int, AclCreateResult] = {}
        valid_bindings: list[AclBinding] = []
        valid_index: dict[int, int] = {}
        for i, acl in enumerate(all_bindings):
            resource = acl.pattern
            error: ApiException | None = None
            if resource.resource_type is ResourceType.CLUSTER and not is_cluster_resource(resource.name):
                error = InvalidRequestException(f"The only valid name for the CLUSTER resource is {CLUSTER_NAME}")
            elif not resource.name:
                error = InvalidRequestException("Invalid empty resource name")
            if error is not None:
                self.debug(f"Failed to add acl {acl} to {resource}", error)
                error_results[i] = AclCreateResult(error)
            else:
                valid_index[i] = len(valid_bindings)
                valid_bindings.append(acl)
        create_results = self.authorizer.create_acls(request.context, valid_bindings) if valid_bindings else []

        def send_response_callback() -> None:
            results = []
            for i in range(len(all_bindings)):
                result = error_results[i] if i in error_results else create_results[valid_index[i]].result()
                creation = CreateAclsResponseData.AclCreationResult()
                if result.exception is not None:
                    api_error = ApiError.from_throwable(result.exception)
                    creation.error_code = api_error.error.code
                    creation.error_message = api_error.message
                results.append(creation)
            self.send_response(request, CreateAclsResponse(CreateAclsResponseData(throttle_time_ms=0, results=results)))

        self._when_all_done(request, create_results, send_response_callback)

    def handle_delete_acls(self, request: Request) -> None:
        self.authorize_cluster_operation(request, AclOperation.ALTER)
        delete_acls_request: Any = request.body
        if self.authorizer is None:
            self.send_error_response(request, SecurityDisabledException("No Authorizer is configured on the broker."))
            return
        delete_results = self.authorizer.delete_acls(request.context, delete_acls_request.filters())

        def send_response_callback() -> None:
            filter_results = [DeleteAclsResponse.filter_result(f.result()) for f in delete_results]
            data = DeleteAclsResponseData(throttle_time_ms=0, filter_results=filter_results)
            self.send_response(request, DeleteAclsResponse(data, request.header.api_version))

        self._when_all_done(request, delete_results, send_response_callback)

    def _when_all_done(self, request: Request, futures: Sequence[Future[Any]], callback: Callable[[], None]) -> None:
        """Runs `callback` once every future is done: at once when they already are (AclAuthorizer's always are).

        # PORT: Kafka parks the request in its alterAclsPurgatory until the futures complete or
        # connections.max.idle.ms passes; here the last future to complete sends the response."""
        remaining = [len(futures)]
        lock = threading.Lock()

        def on_done(_: Future[Any]) -> None:
            with lock:
                remaining[0] -= 1
                last = remaining[0] == 0
            if last:
                try:
                    callback()
                except Exception as e:
                    self.handle_error(request, e)

        if not futures:
            callback()
            return
        for future in futures:
            future.add_done_callback(on_done)

    def _update_record_conversion_stats(self, request: Request, tp: TopicPartition, conversion_stats: Any) -> None:
        """Marks Produce/FetchMessageConversionsPerSec with the records converted for `tp`, and sets the request's
        conversion time and temporary memory (its MessageConversionsTimeMs and TemporaryMemoryBytes)."""
        if conversion_stats is None:
            return
        conversion_count = conversion_stats.num_records_converted()
        if conversion_count > 0:
            stats = self.broker_topic_stats
            api_key = request.header.api_key
            if api_key is ApiKeys.PRODUCE:
                if stats is not None:
                    stats.topic_stats(tp.topic).produce_message_conversions_rate.mark(conversion_count)
                    stats.all_topics_stats.produce_message_conversions_rate.mark(conversion_count)
            elif api_key is ApiKeys.FETCH:
                if stats is not None:
                    stats.topic_stats(tp.topic).fetch_message_conversions_rate.mark(conversion_count)
                    stats.all_topics_stats.fetch_message_conversions_rate.mark(conversion_count)
            else:
                raise RuntimeError("Message conversion info is recorded only for Produce/Fetch requests")
            request.message_conversions_time_nanos = conversion_stats.conversion_time_nanos()
        request.temporary_memory_bytes = conversion_stats.temporary_memory_bytes()

    # ---- the handler table ----------------------------------------------------------------------------

    # The handler of each API this broker serves, in the order of Kafka 2.8's `handle`. The dispatch and the
    # advertised API table (HANDLED_APIS, from which KafkaServer builds the ApiVersionManager) both come from it.
    _HANDLERS: ClassVar[Mapping[ApiKeys, Callable[[KafkaApis, Request], None]]] = {
        ApiKeys.PRODUCE: handle_produce_request,
        ApiKeys.FETCH: handle_fetch_request,
        ApiKeys.LIST_OFFSETS: handle_list_offset_request,
        ApiKeys.METADATA: handle_topic_metadata_request,
        ApiKeys.LEADER_AND_ISR: handle_leader_and_isr_request,
        ApiKeys.STOP_REPLICA: handle_stop_replica_request,
        ApiKeys.UPDATE_METADATA: handle_update_metadata_request,
        ApiKeys.CONTROLLED_SHUTDOWN: handle_controlled_shutdown_request,
        ApiKeys.OFFSET_COMMIT: handle_offset_commit_request,
        ApiKeys.OFFSET_FETCH: handle_offset_fetch_request,
        ApiKeys.FIND_COORDINATOR: handle_find_coordinator_request,
        ApiKeys.JOIN_GROUP: handle_join_group_request,
        ApiKeys.HEARTBEAT: handle_heartbeat_request,
        ApiKeys.LEAVE_GROUP: handle_leave_group_request,
        ApiKeys.SYNC_GROUP: handle_sync_group_request,
        ApiKeys.DESCRIBE_GROUPS: handle_describe_group_request,
        ApiKeys.LIST_GROUPS: handle_list_groups_request,
        ApiKeys.API_VERSIONS: handle_api_versions_request,
        ApiKeys.CREATE_TOPICS: handle_create_topics_request,
        ApiKeys.DELETE_TOPICS: handle_delete_topics_request,
        ApiKeys.DELETE_RECORDS: handle_delete_records_request,
        ApiKeys.INIT_PRODUCER_ID: handle_init_producer_id_request,
        ApiKeys.OFFSET_FOR_LEADER_EPOCH: handle_offset_for_leader_epoch_request,
        ApiKeys.ADD_PARTITIONS_TO_TXN: handle_add_partitions_to_txn_request,
        ApiKeys.ADD_OFFSETS_TO_TXN: handle_add_offsets_to_txn_request,
        ApiKeys.END_TXN: handle_end_txn_request,
        ApiKeys.WRITE_TXN_MARKERS: handle_write_txn_markers_request,
        ApiKeys.TXN_OFFSET_COMMIT: handle_txn_offset_commit_request,
        ApiKeys.DESCRIBE_ACLS: handle_describe_acls,
        ApiKeys.CREATE_ACLS: handle_create_acls,
        ApiKeys.DELETE_ACLS: handle_delete_acls,
        ApiKeys.ALTER_CONFIGS: handle_alter_configs_request,
        ApiKeys.DESCRIBE_CONFIGS: handle_describe_configs_request,
        ApiKeys.ALTER_REPLICA_LOG_DIRS: handle_alter_replica_log_dirs_request,
        ApiKeys.DESCRIBE_LOG_DIRS: handle_describe_log_dirs_request,
        ApiKeys.CREATE_PARTITIONS: handle_create_partitions_request,
        ApiKeys.CREATE_DELEGATION_TOKEN: handle_create_token_request,
        ApiKeys.RENEW_DELEGATION_TOKEN: handle_renew_token_request,
        ApiKeys.EXPIRE_DELEGATION_TOKEN: handle_expire_token_request,
        ApiKeys.DESCRIBE_DELEGATION_TOKEN: handle_describe_tokens_request,
        ApiKeys.DELETE_GROUPS: handle_delete_groups_request,
        ApiKeys.ELECT_LEADERS: handle_elect_replica_leader,
        ApiKeys.INCREMENTAL_ALTER_CONFIGS: handle_incremental_alter_configs_request,
        ApiKeys.ALTER_PARTITION_REASSIGNMENTS: handle_alter_partition_reassignments_request,
        ApiKeys.LIST_PARTITION_REASSIGNMENTS: handle_list_partition_reassignments_request,
        ApiKeys.OFFSET_DELETE: handle_offset_delete_request,
        ApiKeys.DESCRIBE_CLIENT_QUOTAS: handle_describe_client_quotas_request,
        ApiKeys.ALTER_CLIENT_QUOTAS: handle_alter_client_quotas_request,
        ApiKeys.SASL_HANDSHAKE: handle_sasl_handshake_request,
        ApiKeys.SASL_AUTHENTICATE: handle_sasl_authenticate_request,
        ApiKeys.DESCRIBE_USER_SCRAM_CREDENTIALS: handle_describe_user_scram_credentials_request,
        ApiKeys.ALTER_USER_SCRAM_CREDENTIALS: handle_alter_user_scram_credentials_request,
        ApiKeys.ALTER_PARTITION: handle_alter_isr_request,
        ApiKeys.DESCRIBE_CLUSTER: handle_describe_cluster,
        ApiKeys.DESCRIBE_PRODUCERS: handle_describe_producers_request,
        ApiKeys.DESCRIBE_TRANSACTIONS: handle_describe_transactions_request,
        ApiKeys.LIST_TRANSACTIONS: handle_list_transactions_request,
    }
    # The keys this broker serves: ApiVersions advertises exactly these.
    HANDLED_APIS: ClassVar[frozenset[ApiKeys]] = frozenset(_HANDLERS)


class _PartitionErrorsBuilder:
    """An error per (topic, partition), grouped by topic in the order topics first appear: the body of an
    OffsetCommit or OffsetDelete response (Java's OffsetCommitResponse.Builder / OffsetDeleteResponse.Builder)."""

    __slots__ = ("_by_topic",)

    def __init__(self) -> None:
        self._by_topic: dict[str, list[tuple[int, Errors]]] = {}

    def add(self, topic: str, partition: int, error: Errors) -> None:
        self._by_topic.setdefault(topic, []).append((partition, error))

    def entries(self) -> list[tuple[str, int, Errors]]:
        return [(topic, p, e) for topic, partitions in self._by_topic.items() for p, e in partitions]

    def offset_commit_response_data(self) -> OffsetCommitResponseData:
        data = OffsetCommitResponseData(throttle_time_ms=0)
        for topic, partitions in self._by_topic.items():
            data.topics.append(
                OffsetCommitResponseData.OffsetCommitResponseTopic(
                    name=topic,
                    partitions=[
                        OffsetCommitResponseData.OffsetCommitResponsePartition(partition_index=p, error_code=e.code)
                        for p, e in partitions
                    ],
                )
            )
        return data

    def offset_delete_response_data(self) -> OffsetDeleteResponseData:
        data = OffsetDeleteResponseData(throttle_time_ms=0)
        for topic, partitions in self._by_topic.items():
            topic_response = OffsetDeleteResponseData.OffsetDeleteResponseTopic(name=topic)
            for p, e in partitions:
                topic_response.partitions.append(
                    OffsetDeleteResponseData.OffsetDeleteResponsePartition(partition_index=p, error_code=e.code)
                )
            data.topics.append(topic_response)
        return data


def _exception_of(error: Errors) -> ApiException:
    """The exception of an error that has one (every error but NONE)."""
    exception = error.exception()
    if exception is None:
        raise ValueError(f"{error.name} has no exception")
    return exception


def _java_error_message(error: Errors) -> str:
    """Java's Errors.message(): the exception's message, or the error's name for NONE (FindCoordinator v1-3
    answers a found coordinator with the message "NONE")."""
    return error.message or error.name


def _client_host(request: Request) -> str:
    """The client's address as Java prints an InetAddress without a host name ("/127.0.0.1"), which is how
    DescribeGroups and the group metadata show members' hosts."""
    return f"/{request.context.client_address}"


def _config_resource(resource: Any) -> ConfigResource:
    """The ConfigResource an AlterConfigs or IncrementalAlterConfigs request entry names."""
    return ConfigResource(ConfigResource.Type.for_id(resource.resource_type), resource.resource_name)


def _configs_authorization_error(type_id: int) -> Errors:
    if type_id == ConfigResource.Type.TOPIC.id:
        return Errors.TOPIC_AUTHORIZATION_FAILED
    return Errors.CLUSTER_AUTHORIZATION_FAILED


def _alter_configs_results(entry_class: Any, outcome: dict[ConfigResource, Any]) -> list[Any]:
    """One response entry per resource of an (incremental) alter-configs outcome; both APIs share the shape."""
    return [
        entry_class(
            error_code=api_error.error.code,
            error_message=api_error.message,
            resource_type=resource.type.id,
            resource_name=resource.name,
        )
        for resource, api_error in outcome.items()
    ]


def _offset_and_metadata(partition: Any, commit_timestamp: int, expire_timestamp: int | None) -> OffsetAndMetadata:
    """The offset to store for a partition of an OffsetCommit or TxnOffsetCommit request (no metadata: "")."""
    return OffsetAndMetadata(
        offset=partition.committed_offset,
        leader_epoch=(
            None if partition.committed_leader_epoch == NO_PARTITION_LEADER_EPOCH else partition.committed_leader_epoch
        ),
        metadata=OffsetAndMetadata.NO_METADATA
        if partition.committed_metadata is None
        else partition.committed_metadata,
        commit_timestamp=commit_timestamp,
        expire_timestamp=expire_timestamp,
    )


def _fenced_as_invalid_epoch(error: Errors, old_client: bool) -> Errors:
    """PRODUCER_FENCED as clients that predate it understand it: INVALID_PRODUCER_EPOCH, handled the same way."""
    return Errors.INVALID_PRODUCER_EPOCH if old_client and error is Errors.PRODUCER_FENCED else error


def _check_valid_topic(topic: str) -> ApiError | None:
    """The error of an illegal topic name, None for a legal one."""
    try:
        Topic.validate(topic)
        return None
    except Exception as e:
        return ApiError.from_throwable(e)


def _txn_offset_commit_response_data(errors: Mapping[TopicPartition, Errors]) -> TxnOffsetCommitResponseData:
    """A TxnOffsetCommit response body: the errors grouped by topic, in the order topics first appear."""
    data = TxnOffsetCommitResponseData(throttle_time_ms=0)
    by_topic: dict[str, Any] = {}
    for tp, error in errors.items():
        topic_response = by_topic.get(tp.topic)
        if topic_response is None:
            topic_response = TxnOffsetCommitResponseData.TxnOffsetCommitResponseTopic(name=tp.topic)
            by_topic[tp.topic] = topic_response
            data.topics.append(topic_response)
        topic_response.partitions.append(
            TxnOffsetCommitResponseData.TxnOffsetCommitResponsePartition(
                partition_index=tp.partition, error_code=error.code
            )
        )
    return data


class _SyncGroupDenied:
    """The SyncGroup result of a principal that may not read the group."""

    error = Errors.GROUP_AUTHORIZATION_FAILED
    protocol_type: str | None = None
    protocol_name: str | None = None
    member_assignment = b""


def _identity(name: str) -> str:
    return name


def _first(pair: tuple[str, Any]) -> str:
    return pair[0]


def _name_of(element: Any) -> str:
    """The `name` of a request element (a topic)."""
    return str(element.name)


def _topic_of(element: Any) -> str:
    """The `topic` of a request element or a partition."""
    return str(element.topic)


def _or_minus_one(value: int | None) -> int:
    return -1 if value is None else value


def _stale_broker_epoch() -> ApiException:
    from kafka.common.errors import StaleBrokerEpochException

    return StaleBrokerEpochException()


def _metadata_topic(name: str, error: Errors, is_internal: bool) -> Any:
    return MetadataResponseData.MetadataResponseTopic(error_code=error.code, name=name, is_internal=is_internal)


__all__ = ["ApiVersionsResponse", "KafkaApis"]
