"""Port of clients/src/main/java/org/apache/kafka/common/protocol/ApiKeys.java (Kafka 3.7).

The API keys a ZooKeeper-mode broker serves: the 62 keys of Kafka 3.7 whose definitions list the
`zkBroker` listener. Each member carries Java's flags: whether it is a cluster action (sent by the
controller or other brokers), the oldest record format its inter-broker use needs, and whether a
broker forwards it to the controller.

# PORT: Java's ApiKeys lists all 75 keys and filters by listener; here the KRaft-only keys stay in
ApiMessageType only, so that nothing in ApiKeys is an API this broker could never serve.
"""

from __future__ import annotations

import enum

from kafka.common.message.api_message_type import ApiMessageType, ListenerType
from kafka.common.message.spec import Versions


class ApiKeys(enum.Enum):
    """Members are (message type, cluster action, min inter-broker magic, forwardable)."""

    PRODUCE = (ApiMessageType.PRODUCE, False, 0, False)
    FETCH = (ApiMessageType.FETCH, False, 0, False)
    LIST_OFFSETS = (ApiMessageType.LIST_OFFSETS, False, 0, False)
    METADATA = (ApiMessageType.METADATA, False, 0, False)
    LEADER_AND_ISR = (ApiMessageType.LEADER_AND_ISR, True, 0, False)
    STOP_REPLICA = (ApiMessageType.STOP_REPLICA, True, 0, False)
    UPDATE_METADATA = (ApiMessageType.UPDATE_METADATA, True, 0, False)
    CONTROLLED_SHUTDOWN = (ApiMessageType.CONTROLLED_SHUTDOWN, True, 0, False)
    OFFSET_COMMIT = (ApiMessageType.OFFSET_COMMIT, False, 0, False)
    OFFSET_FETCH = (ApiMessageType.OFFSET_FETCH, False, 0, False)
    FIND_COORDINATOR = (ApiMessageType.FIND_COORDINATOR, False, 0, False)
    JOIN_GROUP = (ApiMessageType.JOIN_GROUP, False, 0, False)
    HEARTBEAT = (ApiMessageType.HEARTBEAT, False, 0, False)
    LEAVE_GROUP = (ApiMessageType.LEAVE_GROUP, False, 0, False)
    SYNC_GROUP = (ApiMessageType.SYNC_GROUP, False, 0, False)
    DESCRIBE_GROUPS = (ApiMessageType.DESCRIBE_GROUPS, False, 0, False)
    LIST_GROUPS = (ApiMessageType.LIST_GROUPS, False, 0, False)
    SASL_HANDSHAKE = (ApiMessageType.SASL_HANDSHAKE, False, 0, False)
    API_VERSIONS = (ApiMessageType.API_VERSIONS, False, 0, False)
    CREATE_TOPICS = (ApiMessageType.CREATE_TOPICS, False, 0, True)
    DELETE_TOPICS = (ApiMessageType.DELETE_TOPICS, False, 0, True)
    DELETE_RECORDS = (ApiMessageType.DELETE_RECORDS, False, 0, False)
    INIT_PRODUCER_ID = (ApiMessageType.INIT_PRODUCER_ID, False, 0, False)
    OFFSET_FOR_LEADER_EPOCH = (ApiMessageType.OFFSET_FOR_LEADER_EPOCH, False, 0, False)
    ADD_PARTITIONS_TO_TXN = (ApiMessageType.ADD_PARTITIONS_TO_TXN, False, 2, False)
    ADD_OFFSETS_TO_TXN = (ApiMessageType.ADD_OFFSETS_TO_TXN, False, 2, False)
    END_TXN = (ApiMessageType.END_TXN, False, 2, False)
    WRITE_TXN_MARKERS = (ApiMessageType.WRITE_TXN_MARKERS, True, 2, False)
    TXN_OFFSET_COMMIT = (ApiMessageType.TXN_OFFSET_COMMIT, False, 2, False)
    DESCRIBE_ACLS = (ApiMessageType.DESCRIBE_ACLS, False, 0, False)
    CREATE_ACLS = (ApiMessageType.CREATE_ACLS, False, 0, True)
    DELETE_ACLS = (ApiMessageType.DELETE_ACLS, False, 0, True)
    DESCRIBE_CONFIGS = (ApiMessageType.DESCRIBE_CONFIGS, False, 0, False)
    ALTER_CONFIGS = (ApiMessageType.ALTER_CONFIGS, False, 0, True)
    ALTER_REPLICA_LOG_DIRS = (ApiMessageType.ALTER_REPLICA_LOG_DIRS, False, 0, False)
    DESCRIBE_LOG_DIRS = (ApiMessageType.DESCRIBE_LOG_DIRS, False, 0, False)
    SASL_AUTHENTICATE = (ApiMessageType.SASL_AUTHENTICATE, False, 0, False)
    CREATE_PARTITIONS = (ApiMessageType.CREATE_PARTITIONS, False, 0, True)
    CREATE_DELEGATION_TOKEN = (ApiMessageType.CREATE_DELEGATION_TOKEN, False, 0, True)
    RENEW_DELEGATION_TOKEN = (ApiMessageType.RENEW_DELEGATION_TOKEN, False, 0, True)
    EXPIRE_DELEGATION_TOKEN = (ApiMessageType.EXPIRE_DELEGATION_TOKEN, False, 0, True)
    DESCRIBE_DELEGATION_TOKEN = (ApiMessageType.DESCRIBE_DELEGATION_TOKEN, False, 0, False)
    DELETE_GROUPS = (ApiMessageType.DELETE_GROUPS, False, 0, False)
    ELECT_LEADERS = (ApiMessageType.ELECT_LEADERS, False, 0, True)
    INCREMENTAL_ALTER_CONFIGS = (ApiMessageType.INCREMENTAL_ALTER_CONFIGS, False, 0, True)
    ALTER_PARTITION_REASSIGNMENTS = (ApiMessageType.ALTER_PARTITION_REASSIGNMENTS, False, 0, True)
    LIST_PARTITION_REASSIGNMENTS = (ApiMessageType.LIST_PARTITION_REASSIGNMENTS, False, 0, True)
    OFFSET_DELETE = (ApiMessageType.OFFSET_DELETE, False, 0, False)
    DESCRIBE_CLIENT_QUOTAS = (ApiMessageType.DESCRIBE_CLIENT_QUOTAS, False, 0, False)
    ALTER_CLIENT_QUOTAS = (ApiMessageType.ALTER_CLIENT_QUOTAS, False, 0, True)
    DESCRIBE_USER_SCRAM_CREDENTIALS = (ApiMessageType.DESCRIBE_USER_SCRAM_CREDENTIALS, False, 0, False)
    ALTER_USER_SCRAM_CREDENTIALS = (ApiMessageType.ALTER_USER_SCRAM_CREDENTIALS, False, 0, True)
    ALTER_PARTITION = (ApiMessageType.ALTER_PARTITION, True, 0, False)
    UPDATE_FEATURES = (ApiMessageType.UPDATE_FEATURES, True, 0, True)
    ENVELOPE = (ApiMessageType.ENVELOPE, True, 0, False)
    DESCRIBE_CLUSTER = (ApiMessageType.DESCRIBE_CLUSTER, False, 0, False)
    DESCRIBE_PRODUCERS = (ApiMessageType.DESCRIBE_PRODUCERS, False, 0, False)
    DESCRIBE_TRANSACTIONS = (ApiMessageType.DESCRIBE_TRANSACTIONS, False, 0, False)
    LIST_TRANSACTIONS = (ApiMessageType.LIST_TRANSACTIONS, False, 0, False)
    ALLOCATE_PRODUCER_IDS = (ApiMessageType.ALLOCATE_PRODUCER_IDS, True, 0, True)
    CONSUMER_GROUP_HEARTBEAT = (ApiMessageType.CONSUMER_GROUP_HEARTBEAT, False, 0, False)
    CONSUMER_GROUP_DESCRIBE = (ApiMessageType.CONSUMER_GROUP_DESCRIBE, False, 0, False)

    def __init__(self, message_type: ApiMessageType, cluster_action: bool, min_magic: int, forwardable: bool) -> None:
        self.message_type = message_type
        self.id = message_type.api_key
        self.cluster_action = cluster_action
        self.min_required_inter_broker_magic = min_magic
        self.forwardable = forwardable
        # (oldest, latest, latest stable, serves every version): is_version_enabled's answer for each request,
        # worked out on first use (the spec is loaded then, not at import).
        self._enabled_bounds: tuple[int, int, int, bool] | None = None

    @property
    def api_name(self) -> str:
        """The name Kafka prints for this API, e.g. Produce."""
        return self.message_type.message_name

    @property
    def oldest_version(self) -> int:
        return self.message_type.lowest_supported_version

    def latest_version(self, enable_unstable_last_version: bool = True) -> int:
        """The newest version; with False, a last version marked unstable does not count (as in Java, the
        default counts it: only what a broker advertises leaves it out)."""
        hi = self.message_type.highest_supported_version
        if self.message_type.latest_version_unstable and not enable_unstable_last_version:
            hi -= 1
        return hi

    @property
    def flexible_versions(self) -> Versions:
        return self.message_type.flexible_versions

    def is_version_supported(self, version: int) -> bool:
        return self.oldest_version <= version <= self.latest_version()

    def is_version_enabled(self, version: int, enable_unstable_last_version: bool) -> bool:
        """Whether a broker serves `version`. ApiVersions accepts every version: a client sends its newest
        and the broker answers an unknown one in the v0 layout."""
        bounds = self._enabled_bounds
        if bounds is None:
            bounds = self._enabled_bounds = (
                self.oldest_version,
                self.latest_version(True),
                self.latest_version(False),
                self is ApiKeys.API_VERSIONS,
            )
        if bounds[3]:
            return True
        return bounds[0] <= version <= (bounds[1] if enable_unstable_last_version else bounds[2])

    def is_version_deprecated(self, version: int) -> bool:
        deprecated = self.message_type.request_spec.deprecated_versions
        return deprecated is not None and deprecated.contains(version)

    def is_version_flexible(self, version: int) -> bool:
        return self.flexible_versions.contains(version)

    def request_header_version(self, version: int) -> int:
        return self.message_type.request_header_version(version)

    def response_header_version(self, version: int) -> int:
        return self.message_type.response_header_version(version)

    def in_scope(self, listener: ListenerType) -> bool:
        return self.message_type.in_scope(listener)

    def has_valid_version(self, enable_unstable_last_version: bool = False) -> bool:
        """False for an API whose only version is unstable (3.7's ConsumerGroupDescribe)."""
        return self.oldest_version <= self.latest_version(enable_unstable_last_version)

    @classmethod
    def for_id(cls, api_key: int) -> ApiKeys:
        member = _BY_ID.get(api_key)
        if member is None:
            raise ValueError(f"Unexpected api key: {api_key}")
        return member

    @classmethod
    def has_id(cls, api_key: int) -> bool:
        return api_key in _BY_ID

    @classmethod
    def zk_broker_apis(cls) -> list[ApiKeys]:
        return list(cls)


_BY_ID: dict[int, ApiKeys] = {k.id: k for k in ApiKeys}
