"""Port of the generated clients/src/main/java/org/apache/kafka/common/message/ApiMessageType.java (Kafka 3.7).

One member per API key of the protocol (all 75 of Kafka 3.7, KRaft-only ones included), with the
request and response data classes generated from our `.spec` files, their version ranges and the
listeners that serve them. `ApiKeys` (kafka.common.protocol.api_keys) is the subset a ZooKeeper-mode
broker serves.
"""

from __future__ import annotations

import enum
from functools import cached_property
from typing import Any

from kafka.common.message.generator import load_module
from kafka.common.message.spec import MessageSpec, Versions, load_spec


class ListenerType(enum.Enum):
    ZK_BROKER = "zkBroker"
    BROKER = "broker"
    CONTROLLER = "controller"


class ApiMessageType(enum.Enum):
    """Members are (api key, message name); everything else is read from the specs on first use."""

    PRODUCE = (0, "Produce")
    FETCH = (1, "Fetch")
    LIST_OFFSETS = (2, "ListOffsets")
    METADATA = (3, "Metadata")
    LEADER_AND_ISR = (4, "LeaderAndIsr")
    STOP_REPLICA = (5, "StopReplica")
    UPDATE_METADATA = (6, "UpdateMetadata")
    CONTROLLED_SHUTDOWN = (7, "ControlledShutdown")
    OFFSET_COMMIT = (8, "OffsetCommit")
    OFFSET_FETCH = (9, "OffsetFetch")
    FIND_COORDINATOR = (10, "FindCoordinator")
    JOIN_GROUP = (11, "JoinGroup")
    HEARTBEAT = (12, "Heartbeat")
    LEAVE_GROUP = (13, "LeaveGroup")
    SYNC_GROUP = (14, "SyncGroup")
    DESCRIBE_GROUPS = (15, "DescribeGroups")
    LIST_GROUPS = (16, "ListGroups")
    SASL_HANDSHAKE = (17, "SaslHandshake")
    API_VERSIONS = (18, "ApiVersions")
    CREATE_TOPICS = (19, "CreateTopics")
    DELETE_TOPICS = (20, "DeleteTopics")
    DELETE_RECORDS = (21, "DeleteRecords")
    INIT_PRODUCER_ID = (22, "InitProducerId")
    OFFSET_FOR_LEADER_EPOCH = (23, "OffsetForLeaderEpoch")
    ADD_PARTITIONS_TO_TXN = (24, "AddPartitionsToTxn")
    ADD_OFFSETS_TO_TXN = (25, "AddOffsetsToTxn")
    END_TXN = (26, "EndTxn")
    WRITE_TXN_MARKERS = (27, "WriteTxnMarkers")
    TXN_OFFSET_COMMIT = (28, "TxnOffsetCommit")
    DESCRIBE_ACLS = (29, "DescribeAcls")
    CREATE_ACLS = (30, "CreateAcls")
    DELETE_ACLS = (31, "DeleteAcls")
    DESCRIBE_CONFIGS = (32, "DescribeConfigs")
    ALTER_CONFIGS = (33, "AlterConfigs")
    ALTER_REPLICA_LOG_DIRS = (34, "AlterReplicaLogDirs")
    DESCRIBE_LOG_DIRS = (35, "DescribeLogDirs")
    SASL_AUTHENTICATE = (36, "SaslAuthenticate")
    CREATE_PARTITIONS = (37, "CreatePartitions")
    CREATE_DELEGATION_TOKEN = (38, "CreateDelegationToken")
    RENEW_DELEGATION_TOKEN = (39, "RenewDelegationToken")
    EXPIRE_DELEGATION_TOKEN = (40, "ExpireDelegationToken")
    DESCRIBE_DELEGATION_TOKEN = (41, "DescribeDelegationToken")
    DELETE_GROUPS = (42, "DeleteGroups")
    ELECT_LEADERS = (43, "ElectLeaders")
    INCREMENTAL_ALTER_CONFIGS = (44, "IncrementalAlterConfigs")
    ALTER_PARTITION_REASSIGNMENTS = (45, "AlterPartitionReassignments")
    LIST_PARTITION_REASSIGNMENTS = (46, "ListPartitionReassignments")
    OFFSET_DELETE = (47, "OffsetDelete")
    DESCRIBE_CLIENT_QUOTAS = (48, "DescribeClientQuotas")
    ALTER_CLIENT_QUOTAS = (49, "AlterClientQuotas")
    DESCRIBE_USER_SCRAM_CREDENTIALS = (50, "DescribeUserScramCredentials")
    ALTER_USER_SCRAM_CREDENTIALS = (51, "AlterUserScramCredentials")
    VOTE = (52, "Vote")
    BEGIN_QUORUM_EPOCH = (53, "BeginQuorumEpoch")
    END_QUORUM_EPOCH = (54, "EndQuorumEpoch")
    DESCRIBE_QUORUM = (55, "DescribeQuorum")
    ALTER_PARTITION = (56, "AlterPartition")
    UPDATE_FEATURES = (57, "UpdateFeatures")
    ENVELOPE = (58, "Envelope")
    FETCH_SNAPSHOT = (59, "FetchSnapshot")
    DESCRIBE_CLUSTER = (60, "DescribeCluster")
    DESCRIBE_PRODUCERS = (61, "DescribeProducers")
    BROKER_REGISTRATION = (62, "BrokerRegistration")
    BROKER_HEARTBEAT = (63, "BrokerHeartbeat")
    UNREGISTER_BROKER = (64, "UnregisterBroker")
    DESCRIBE_TRANSACTIONS = (65, "DescribeTransactions")
    LIST_TRANSACTIONS = (66, "ListTransactions")
    ALLOCATE_PRODUCER_IDS = (67, "AllocateProducerIds")
    CONSUMER_GROUP_HEARTBEAT = (68, "ConsumerGroupHeartbeat")
    CONSUMER_GROUP_DESCRIBE = (69, "ConsumerGroupDescribe")
    CONTROLLER_REGISTRATION = (70, "ControllerRegistration")
    GET_TELEMETRY_SUBSCRIPTIONS = (71, "GetTelemetrySubscriptions")
    PUSH_TELEMETRY = (72, "PushTelemetry")
    ASSIGN_REPLICAS_TO_DIRS = (73, "AssignReplicasToDirs")
    LIST_CLIENT_METRICS_RESOURCES = (74, "ListClientMetricsResources")

    def __init__(self, api_key: int, message_name: str) -> None:
        self.api_key = api_key
        self.message_name = message_name

    @cached_property
    def request_spec(self) -> MessageSpec:
        return load_spec(self.message_name + "Request")

    @cached_property
    def response_spec(self) -> MessageSpec:
        return load_spec(self.message_name + "Response")

    @cached_property
    def request_class(self) -> Any:
        return getattr(load_module(self.message_name + "Request"), self.message_name + "RequestData")

    @cached_property
    def response_class(self) -> Any:
        return getattr(load_module(self.message_name + "Response"), self.message_name + "ResponseData")

    def new_request(self) -> Any:
        return self.request_class()

    def new_response(self) -> Any:
        return self.response_class()

    @property
    def lowest_supported_version(self) -> int:
        return self.request_spec.valid_versions.lowest

    @property
    def highest_supported_version(self) -> int:
        """The highest version, counting one marked unstable (see latest_version_unstable)."""
        return self.request_spec.valid_versions.highest

    @property
    def latest_version_unstable(self) -> bool:
        return bool(self.request_spec.latest_version_unstable)

    @property
    def flexible_versions(self) -> Versions:
        return self.request_spec.flexible_versions

    @property
    def listeners(self) -> frozenset[ListenerType]:
        return frozenset(ListenerType(x) for x in (self.request_spec.listeners or []))

    def in_scope(self, listener: ListenerType) -> bool:
        return listener in self.listeners

    def request_header_version(self, version: int) -> int:
        """RequestHeader v2 for flexible versions, v1 otherwise; ControlledShutdown v0 uses v0."""
        if self.flexible_versions.contains(version):
            return 2
        if self is ApiMessageType.CONTROLLED_SHUTDOWN and version == 0:
            return 0
        return 1

    def response_header_version(self, version: int) -> int:
        """ResponseHeader v1 for flexible versions, v0 otherwise; ApiVersions always uses v0, so that a
        client that does not know the broker's versions yet can read the answer."""
        if self is ApiMessageType.API_VERSIONS:
            return 0
        return 1 if self.flexible_versions.contains(version) else 0

    @classmethod
    def from_api_key(cls, api_key: int) -> ApiMessageType:
        member = _BY_KEY.get(api_key)
        if member is None:
            raise ValueError(f"Unsupported API key {api_key}")
        return member


_BY_KEY: dict[int, ApiMessageType] = {m.api_key: m for m in ApiMessageType}
