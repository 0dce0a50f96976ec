"""Port of clients/src/main/java/org/apache/kafka/common/requests/AbstractRequest.java (Kafka 3.7).

The base of every request class: a generated XxxRequestData body and the version it is (to be) written
at, serialisation with a header, the error response a broker sends when it cannot serve the request,
and `parse_request`, which reads the body of any API.
"""

from __future__ import annotations

import abc
import importlib
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Self, TypeVar, overload

from kafka.common.errors import UnsupportedVersionException
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.protocol.message import ByteBufferAccessor
from kafka.common.protocol.types import Buffer
from kafka.common.requests import request_utils
from kafka.common.requests.request_and_size import RequestAndSize

if TYPE_CHECKING:
    from kafka.common.requests.abstract_response import AbstractResponse
    from kafka.common.requests.request_header import RequestHeader

DEFAULT_THROTTLE_TIME = 0

T = TypeVar("T", bound="AbstractRequest[Any]")
R = TypeVar("R", bound="AbstractResponse | None", covariant=True)


class AbstractRequest(abc.ABC, Generic[R]):
    """A request body of one API at one version; `R` is the API's response class."""

    API_KEY: ClassVar[ApiKeys]

    def __init__(self, data: Any, version: int) -> None:
        api_key = self.API_KEY
        # PORT: Java's isVersionSupported counts an unstable last version as supported; ours needs the flag.
        if not api_key.is_version_supported(version):
            raise UnsupportedVersionException(f"The {api_key.name} protocol does not support version {version}")
        self._data = data
        self._version = version

    @property
    def data(self) -> Any:
        """The generated XxxRequestData."""
        return self._data

    @property
    def version(self) -> int:
        return self._version

    @property
    def api_key(self) -> ApiKeys:
        return self.API_KEY

    def to_send(self, header: RequestHeader) -> list[Any]:
        """The framed request (4-byte size, header, body) as parts for a scatter/gather write."""
        return request_utils.build_send(header.data, header.header_version, self._data, self._version)

    def serialize_with_header(self, header: RequestHeader, size_prefix: bool = False) -> bytes:
        """Header and body as bytes; without the 4-byte size unless `size_prefix`, as Java's (used for envelopes)."""
        if header.api_key is not self.API_KEY:
            raise ValueError(f"Could not build request {self.API_KEY.name} with header api key {header.api_key.name}")
        if header.api_version != self._version:
            raise ValueError(
                f"Could not build request version {self._version} with header version {header.api_version}"
            )
        return request_utils.serialize(header.data, header.header_version, self._data, self._version, size_prefix)

    def serialize(self) -> bytes:
        """The body alone."""
        return self._data.write(self._version)

    def size_in_bytes(self) -> int:
        return self._data.size(self._version)

    @overload
    def get_error_response(self, e: BaseException, /) -> R: ...

    @overload
    def get_error_response(self, throttle_time_ms: int, e: BaseException, /) -> R: ...

    def get_error_response(self, *args: Any) -> R:
        """The response telling the client that this request failed with `e`: `get_error_response(e)` or
        `get_error_response(throttle_time_ms, e)`. None only for a produce request with acks=0.

        # PORT: Java overloads getErrorResponse; here one method takes either form and subclasses implement
        `_get_error_response(throttle_time_ms, e)`."""
        if len(args) == 1:
            return self._get_error_response(DEFAULT_THROTTLE_TIME, args[0])
        throttle_time_ms, e = args
        return self._get_error_response(throttle_time_ms, e)

    @abc.abstractmethod
    def _get_error_response(self, throttle_time_ms: int, e: BaseException) -> R:
        """The error response of this API for `e`, with `throttle_time_ms` where the response has that field."""

    def error_counts(self, e: BaseException) -> dict[Errors, int]:
        """The error counts of the error response for `e` (for request metrics)."""
        response = self._get_error_response(0, e)
        if response is None:
            raise RuntimeError(f"Error counts could not be obtained for request {self}")
        return response.error_counts()

    @classmethod
    def parse(cls, buffer: ByteBufferAccessor | Buffer, version: int) -> Self:
        """Reads a body of this API at `version`; a ByteBufferAccessor is left after it."""
        data = cls.API_KEY.message_type.new_request().read(buffer, version)
        return cls(data, version)

    @staticmethod
    def parse_request(api_key: ApiKeys, api_version: int, buffer: ByteBufferAccessor | Buffer) -> RequestAndSize:
        """Reads the body of a request of any API. Bytes after the body are ignored, as in Java (librdkafka sends
        four extra bytes after an ApiVersions v0 request); malformed data raises InvalidRequestException."""
        accessor = buffer if isinstance(buffer, ByteBufferAccessor) else ByteBufferAccessor(buffer)
        size = accessor.remaining()
        return RequestAndSize(request_class(api_key).parse(accessor, api_version), size)

    def to_string(self, verbose: bool = True) -> str:
        return repr(self._data)

    def __str__(self) -> str:
        return self.to_string(True)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(version={self._version}, data={self._data!r})"


class Builder(abc.ABC, Generic[T]):
    """Port of AbstractRequest.Builder: makes a request once the version to send is known."""

    def __init__(
        self,
        api_key: ApiKeys,
        oldest_allowed_version: int | None = None,
        latest_allowed_version: int | None = None,
        enable_unstable_last_version: bool = False,
    ) -> None:
        """Without versions, any version the API has; with one version, exactly that one."""
        self.api_key = api_key
        if oldest_allowed_version is None:
            oldest_allowed_version = api_key.oldest_version
            latest_allowed_version = api_key.latest_version(enable_unstable_last_version)
        elif latest_allowed_version is None:
            latest_allowed_version = oldest_allowed_version
        self.oldest_allowed_version = oldest_allowed_version
        self.latest_allowed_version = latest_allowed_version

    def build(self, version: int | None = None) -> T:
        """The request at `version`, by default the latest allowed one."""
        return self._build(self.latest_allowed_version if version is None else version)

    @abc.abstractmethod
    def _build(self, version: int) -> T: ...


class DataBuilder(Builder[T]):
    """A builder that wraps a ready data object in the request class (most of Java's per-API Builders)."""

    def __init__(
        self,
        request_class: type[T],
        data: Any,
        oldest_allowed_version: int | None = None,
        latest_allowed_version: int | None = None,
        enable_unstable_last_version: bool = False,
    ) -> None:
        super().__init__(
            request_class.API_KEY, oldest_allowed_version, latest_allowed_version, enable_unstable_last_version
        )
        self.request_class = request_class
        self.data = data

    def _build(self, version: int) -> T:
        return self.request_class(self.data, version)

    def __str__(self) -> str:
        return repr(self.data)


# The class of each API, as Java's parseRequest switch names them; modules are imported on first use.
_REQUEST_CLASSES: dict[ApiKeys, str] = {
    ApiKeys.PRODUCE: "ProduceRequest",
    ApiKeys.FETCH: "FetchRequest",
    ApiKeys.LIST_OFFSETS: "ListOffsetsRequest",
    ApiKeys.METADATA: "MetadataRequest",
    ApiKeys.LEADER_AND_ISR: "LeaderAndIsrRequest",
    ApiKeys.STOP_REPLICA: "StopReplicaRequest",
    ApiKeys.UPDATE_METADATA: "UpdateMetadataRequest",
    ApiKeys.CONTROLLED_SHUTDOWN: "ControlledShutdownRequest",
    ApiKeys.OFFSET_COMMIT: "OffsetCommitRequest",
    ApiKeys.OFFSET_FETCH: "OffsetFetchRequest",
    ApiKeys.FIND_COORDINATOR: "FindCoordinatorRequest",
    ApiKeys.JOIN_GROUP: "JoinGroupRequest",
    ApiKeys.HEARTBEAT: "HeartbeatRequest",
    ApiKeys.LEAVE_GROUP: "LeaveGroupRequest",
    ApiKeys.SYNC_GROUP: "SyncGroupRequest",
    ApiKeys.DESCRIBE_GROUPS: "DescribeGroupsRequest",
    ApiKeys.LIST_GROUPS: "ListGroupsRequest",
    ApiKeys.SASL_HANDSHAKE: "SaslHandshakeRequest",
    ApiKeys.API_VERSIONS: "ApiVersionsRequest",
    ApiKeys.CREATE_TOPICS: "CreateTopicsRequest",
    ApiKeys.DELETE_TOPICS: "DeleteTopicsRequest",
    ApiKeys.DELETE_RECORDS: "DeleteRecordsRequest",
    ApiKeys.INIT_PRODUCER_ID: "InitProducerIdRequest",
    ApiKeys.OFFSET_FOR_LEADER_EPOCH: "OffsetsForLeaderEpochRequest",
    ApiKeys.ADD_PARTITIONS_TO_TXN: "AddPartitionsToTxnRequest",
    ApiKeys.ADD_OFFSETS_TO_TXN: "AddOffsetsToTxnRequest",
    ApiKeys.END_TXN: "EndTxnRequest",
    ApiKeys.WRITE_TXN_MARKERS: "WriteTxnMarkersRequest",
    ApiKeys.TXN_OFFSET_COMMIT: "TxnOffsetCommitRequest",
    ApiKeys.DESCRIBE_ACLS: "DescribeAclsRequest",
    ApiKeys.CREATE_ACLS: "CreateAclsRequest",
    ApiKeys.DELETE_ACLS: "DeleteAclsRequest",
    ApiKeys.DESCRIBE_CONFIGS: "DescribeConfigsRequest",
    ApiKeys.ALTER_CONFIGS: "AlterConfigsRequest",
    ApiKeys.ALTER_REPLICA_LOG_DIRS: "AlterReplicaLogDirsRequest",
    ApiKeys.DESCRIBE_LOG_DIRS: "DescribeLogDirsRequest",
    ApiKeys.SASL_AUTHENTICATE: "SaslAuthenticateRequest",
    ApiKeys.CREATE_PARTITIONS: "CreatePartitionsRequest",
    ApiKeys.CREATE_DELEGATION_TOKEN: "CreateDelegationTokenRequest",
    ApiKeys.RENEW_DELEGATION_TOKEN: "RenewDelegationTokenRequest",
    ApiKeys.EXPIRE_DELEGATION_TOKEN: "ExpireDelegationTokenRequest",
    ApiKeys.DESCRIBE_DELEGATION_TOKEN: "DescribeDelegationTokenRequest",
    ApiKeys.DELETE_GROUPS: "DeleteGroupsRequest",
    ApiKeys.ELECT_LEADERS: "ElectLeadersRequest",
    ApiKeys.INCREMENTAL_ALTER_CONFIGS: "IncrementalAlterConfigsRequest",
    ApiKeys.ALTER_PARTITION_REASSIGNMENTS: "AlterPartitionReassignmentsRequest",
    ApiKeys.LIST_PARTITION_REASSIGNMENTS: "ListPartitionReassignmentsRequest",
    ApiKeys.OFFSET_DELETE: "OffsetDeleteRequest",
    ApiKeys.DESCRIBE_CLIENT_QUOTAS: "DescribeClientQuotasRequest",
    ApiKeys.ALTER_CLIENT_QUOTAS: "AlterClientQuotasRequest",
    ApiKeys.DESCRIBE_USER_SCRAM_CREDENTIALS: "DescribeUserScramCredentialsRequest",
    ApiKeys.ALTER_USER_SCRAM_CREDENTIALS: "AlterUserScramCredentialsRequest",
    ApiKeys.ALTER_PARTITION: "AlterPartitionRequest",
    ApiKeys.UPDATE_FEATURES: "UpdateFeaturesRequest",
    ApiKeys.ENVELOPE: "EnvelopeRequest",
    ApiKeys.DESCRIBE_CLUSTER: "DescribeClusterRequest",
    ApiKeys.DESCRIBE_PRODUCERS: "DescribeProducersRequest",
    ApiKeys.DESCRIBE_TRANSACTIONS: "DescribeTransactionsRequest",
    ApiKeys.LIST_TRANSACTIONS: "ListTransactionsRequest",
    ApiKeys.ALLOCATE_PRODUCER_IDS: "AllocateProducerIdsRequest",
    ApiKeys.CONSUMER_GROUP_HEARTBEAT: "ConsumerGroupHeartbeatRequest",
    ApiKeys.CONSUMER_GROUP_DESCRIBE: "ConsumerGroupDescribeRequest",
}


def class_module_name(class_name: str) -> str:
    """The module of a request/response class: OffsetsForLeaderEpochRequest -> offsets_for_leader_epoch_request."""
    out = []
    for i, ch in enumerate(class_name):
        if ch.isupper() and i > 0:
            out.append("_")
        out.append(ch.lower())
    return "".join(out)


def _load(class_name: str) -> Any:
    module = importlib.import_module(f"kafka.common.requests.{class_module_name(class_name)}")
    return getattr(module, class_name)


_loaded_requests: dict[ApiKeys, type[AbstractRequest[Any]]] = {}


def request_class(api_key: ApiKeys) -> type[AbstractRequest[Any]]:
    """The AbstractRequest subclass of an API."""
    cls = _loaded_requests.get(api_key)
    if cls is None:
        cls = _load(_REQUEST_CLASSES[api_key])
        _loaded_requests[api_key] = cls
    return cls
