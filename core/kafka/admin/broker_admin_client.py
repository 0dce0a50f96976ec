"""A blocking admin client with the consumer-group part of Kafka's Admin API.

It speaks the Kafka protocol to any broker (this project's or another Kafka-compatible one): ApiVersions on
every connection to choose each request's version, Metadata for the brokers, topics and partition leaders,
FindCoordinator for a group's coordinator, and ListGroups, DescribeGroups, OffsetFetch, OffsetCommit,
DeleteGroups, OffsetDelete and ListOffsets for the operations themselves. Retriable failures (a coordinator
that is loading or not available yet, a coordinator that moved, a leader that changed, a lost connection)
are retried with `retry.backoff.ms` between tries until the operation's deadline, as Java's client does;
then the operation fails with Java's TimeoutException message.

Results read as Java's futures do: a value, or an `ExecutionException` whose cause is the Kafka error, and
`java_to_string` renders any of them as Java prints an exception (`org.apache.kafka.common.errors.X: msg`),
which the command-line tools print.

# PORT: this module stands in for org.apache.kafka.clients.admin.Admin (KafkaAdminClient and its option and
result classes) until clients/kafka/clients/admin exists. Its methods carry Admin's names snake_cased
(`list_consumer_groups`, `describe_consumer_groups`, `list_consumer_group_offsets`,
`alter_consumer_group_offsets`, `delete_consumer_groups`, `delete_consumer_group_offsets`, `list_offsets`,
`describe_topics`, `describe_cluster`), each taking the option `timeout_ms`, so that callers switch to the
real client with small edits. Unlike Java's client it has no background thread: each call blocks until
its result is known, and it talks to one broker at a time. It sends at most the request versions of Kafka
2.8's client (the ones the 2.8 tools use) and only PLAINTEXT connections.
"""

from __future__ import annotations

import enum
import functools
import itertools
import logging
import socket
import struct
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from kafka.cluster.broker import Node
from kafka.common.config.config_exception import ConfigException
from kafka.common.errors import (
    ApiException,
    InvalidGroupIdException,
    InvalidMetadataException,
    InvalidTopicException,
    KafkaException,
    NetworkException,
    TimeoutException,
    UnknownTopicOrPartitionException,
    UnsupportedVersionException,
)
from kafka.common.message import (
    ApiVersionsRequestData,
    ConsumerProtocolAssignmentData,
    DeleteGroupsRequestData,
    DescribeGroupsRequestData,
    FindCoordinatorRequestData,
    ListGroupsRequestData,
    ListOffsetsRequestData,
    MetadataRequestData,
    OffsetCommitRequestData,
    OffsetDeleteRequestData,
    OffsetFetchRequestData,
)
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.protocol.message import ByteBufferAccessor
from kafka.common.protocol.types import SchemaException
from kafka.common.requests.abstract_response import AbstractResponse
from kafka.common.requests.request_header import RequestHeader
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.time import SystemTime, Time
from kafka.utils.logging import Logging

__all__ = [
    "BrokerAdminClient",
    "ClusterDescription",
    "ConsumerGroupDescription",
    "ConsumerGroupListing",
    "ConsumerGroupState",
    "DeleteConsumerGroupOffsetsResult",
    "ExecutionException",
    "IllegalArgumentException",
    "KafkaFuture",
    "ListOffsetsResultInfo",
    "MemberAssignment",
    "MemberDescription",
    "OffsetAndMetadata",
    "OffsetSpec",
    "TopicDescription",
    "TopicPartitionInfo",
    "deserialize_assignment",
    "java_class_name",
    "java_to_string",
]

T = TypeVar("T")

# The newest version of each request Kafka 2.8's clients send.
CLIENT_MAX_VERSIONS: dict[ApiKeys, int] = {
    ApiKeys.API_VERSIONS: 3,
    ApiKeys.METADATA: 11,
    ApiKeys.FIND_COORDINATOR: 3,
    ApiKeys.LIST_GROUPS: 4,
    ApiKeys.DESCRIBE_GROUPS: 5,
    ApiKeys.DELETE_GROUPS: 2,
    ApiKeys.OFFSET_FETCH: 7,
    ApiKeys.OFFSET_COMMIT: 8,
    ApiKeys.OFFSET_DELETE: 0,
    ApiKeys.LIST_OFFSETS: 6,
}

# AdminClientConfig's defaults.
DEFAULT_CLIENT_ID_PREFIX = "adminclient-"
DEFAULT_REQUEST_TIMEOUT_MS = 30000
DEFAULT_API_TIMEOUT_MS = 60000
DEFAULT_RETRY_BACKOFF_MS = 100
CONSUMER_PROTOCOL_TYPE = "consumer"
CLIENT_SOFTWARE_NAME = "kafka-port"

_INT_CONFIGS = ("request.timeout.ms", "default.api.timeout.ms", "retry.backoff.ms")
_SECURITY_PROTOCOLS = ("PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL")
# The AdminClientConfig keys this client accepts without acting on them (they tune what it does not have:
# metrics, buffers, reconnect pacing, DNS lookup, idle connection reaping).
_ACCEPTED_CONFIGS = frozenset(
    {
        "bootstrap.servers",
        "client.id",
        "request.timeout.ms",
        "default.api.timeout.ms",
        "retry.backoff.ms",
        "security.protocol",
        "client.dns.lookup",
        "connections.max.idle.ms",
        "metadata.max.age.ms",
        "metric.reporters",
        "metrics.num.samples",
        "metrics.recording.level",
        "metrics.sample.window.ms",
        "receive.buffer.bytes",
        "send.buffer.bytes",
        "reconnect.backoff.ms",
        "reconnect.backoff.max.ms",
        "retries",
        "socket.connection.setup.timeout.ms",
        "socket.connection.setup.timeout.max.ms",
    }
)
_client_ids = itertools.count(1)
_CONFIG_LOGGER = logging.getLogger("org.apache.kafka.clients.admin.AdminClientConfig")


# -- Java's exceptions as the tools print them -----------------------------------------------------------------


class IllegalArgumentException(ValueError):
    """Java's java.lang.IllegalArgumentException."""


class ExecutionException(Exception):
    """Java's java.util.concurrent.ExecutionException: what getting a failed future raises; `cause` is the
    failure, and the message is the cause as Java prints it."""

    def __init__(self, cause: BaseException) -> None:
        super().__init__(java_to_string(cause))
        self.cause = cause


def java_class_name(exc: BaseException) -> str:
    """The Java class name of an exception of this project (`org.apache.kafka.common.errors.TimeoutException`)."""
    cls = type(exc)
    if cls is KafkaException:
        return "org.apache.kafka.common.KafkaException"
    if isinstance(exc, IllegalArgumentException):
        return "java.lang.IllegalArgumentException"
    if isinstance(exc, ExecutionException):
        return "java.util.concurrent.ExecutionException"
    module = cls.__module__
    if module == "kafka.common.errors":
        return f"org.apache.kafka.common.errors.{cls.__name__}"
    if module.startswith("kafka.common."):
        package = module.rsplit(".", 1)[0]
        return f"org.apache.{package}.{cls.__name__}"
    return cls.__name__


def java_to_string(exc: BaseException) -> str:
    """An exception as Java's Throwable.toString prints it: class name, then `: message` if it has one."""
    message = str(exc)
    name = java_class_name(exc)
    return f"{name}: {message}" if message else name


class KafkaFuture(Generic[T]):
    """A completed result: `get()` returns the value or raises ExecutionException with the failure."""

    def __init__(self, value: T | None = None, exception: BaseException | None = None) -> None:
        self._value = value
        self._exception = exception

    @staticmethod
    def completed(value: T) -> KafkaFuture[T]:
        return KafkaFuture(value)

    @staticmethod
    def failed(exception: BaseException) -> KafkaFuture[Any]:
        return KafkaFuture(None, exception)

    def get(self) -> T:
        if self._exception is not None:
            raise ExecutionException(self._exception)
        return self._value  # type: ignore[return-value]

    def exception(self) -> BaseException | None:
        return self._exception

    def is_completed_exceptionally(self) -> bool:
        return self._exception is not None


# -- Admin's result types ------------------------------------------------------------------------------------


class ConsumerGroupState(enum.Enum):
    """org.apache.kafka.common.ConsumerGroupState: prints as its name in the protocol (`Stable`)."""

    UNKNOWN = "Unknown"
    PREPARING_REBALANCE = "PreparingRebalance"
    COMPLETING_REBALANCE = "CompletingRebalance"
    STABLE = "Stable"
    DEAD = "Dead"
    EMPTY = "Empty"

    @classmethod
    def parse(cls, name: str) -> ConsumerGroupState:
        """The state of that exact name; UNKNOWN for any other."""
        for state in cls:
            if state.value == name:
                return state
        return cls.UNKNOWN

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True)
class OffsetAndMetadata:
    """A committed offset (org.apache.kafka.clients.consumer.OffsetAndMetadata): leader epoch None when unknown."""

    offset: int
    leader_epoch: int | None = None
    metadata: str = ""


@dataclass(frozen=True, slots=True)
class ConsumerGroupListing:
    group_id: str
    is_simple_consumer_group: bool
    state: ConsumerGroupState | None = None


@dataclass(frozen=True, slots=True)
class MemberAssignment:
    """The partitions assigned to one member, in the order its assignment lists them."""

    topic_partitions: tuple[TopicPartition, ...] = ()


@dataclass(frozen=True, slots=True)
class MemberDescription:
    consumer_id: str
    group_instance_id: str | None
    client_id: str
    host: str
    assignment: MemberAssignment = field(default_factory=MemberAssignment)


@dataclass(frozen=True, slots=True)
class ConsumerGroupDescription:
    group_id: str
    is_simple_consumer_group: bool
    members: tuple[MemberDescription, ...]
    partition_assignor: str
    state: ConsumerGroupState
    coordinator: Node


@dataclass(frozen=True, slots=True)
class TopicPartitionInfo:
    partition: int
    leader: Node | None
    replicas: tuple[Node, ...]
    isr: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class TopicDescription:
    name: str
    internal: bool
    partitions: tuple[TopicPartitionInfo, ...]


@dataclass(frozen=True, slots=True)
class ListOffsetsResultInfo:
    offset: int
    timestamp: int
    leader_epoch: int | None


@dataclass(frozen=True, slots=True)
class ClusterDescription:
    nodes: tuple[Node, ...]
    controller: Node | None
    cluster_id: str | None


@dataclass(frozen=True, slots=True)
class OffsetSpec:
    """Which offset ListOffsets looks up: the log end, the log start, or the first at or after a timestamp."""

    timestamp: int

    LATEST_TIMESTAMP = -1
    EARLIEST_TIMESTAMP = -2

    @staticmethod
    def latest() -> OffsetSpec:
        return OffsetSpec(OffsetSpec.LATEST_TIMESTAMP)

    @staticmethod
    def earliest() -> OffsetSpec:
        return OffsetSpec(OffsetSpec.EARLIEST_TIMESTAMP)

    @staticmethod
    def for_timestamp(timestamp: int) -> OffsetSpec:
        return OffsetSpec(timestamp)


class DeleteConsumerGroupOffsetsResult:
    """The outcome of an OffsetDelete: a group-level failure, or an error per partition."""

    def __init__(
        self,
        partitions: Iterable[TopicPartition],
        group_exception: BaseException | None,
        partition_errors: Mapping[TopicPartition, Errors],
    ) -> None:
        self._partitions = list(dict.fromkeys(partitions))
        self._group_exception = group_exception
        self._partition_errors = dict(partition_errors)

    def _partition_exception(self, partition: TopicPartition) -> BaseException | None:
        if self._group_exception is not None:
            return self._group_exception
        error = self._partition_errors.get(partition)
        if error is None:
            return IllegalArgumentException(
                f'Offset deletion result for partition "{partition}" was not included in the response'
            )
        return error.exception()

    def partition_result(self, partition: TopicPartition) -> KafkaFuture[None]:
        if partition not in self._partitions:
            raise IllegalArgumentException(f"Partition {partition} was not included in the original request")
        exc = self._partition_exception(partition)
        return KafkaFuture.failed(exc) if exc is not None else KafkaFuture.completed(None)

    def all(self) -> KafkaFuture[None]:
        """Fails with the group's failure, else with the first partition's error, if any."""
        if self._group_exception is not None:
            return KafkaFuture.failed(self._group_exception)
        for partition in self._partitions:
            exc = self._partition_exception(partition)
            if exc is not None:
                return KafkaFuture.failed(exc)
        return KafkaFuture.completed(None)


def deserialize_assignment(data: bytes) -> list[TopicPartition]:
    """The partitions of a consumer-protocol assignment (ConsumerProtocol.deserializeAssignment): a version,
    then a ConsumerProtocolAssignment at that version (at most the newest one known)."""
    if len(data) < 2:
        raise SchemaException("Buffer underflow while parsing consumer protocol's assignment")
    version = struct.unpack_from(">h", data)[0]
    if version < 0:
        raise SchemaException(f"Unsupported assignment version: {version}")
    version = min(version, ConsumerProtocolAssignmentData.HIGHEST_SUPPORTED_VERSION)
    try:
        assignment = ConsumerProtocolAssignmentData().read(ByteBufferAccessor(data, 2), version)
    except Exception as e:
        raise SchemaException("Buffer underflow while parsing consumer protocol's assignment") from e
    return [TopicPartition(tp.topic, p) for tp in assignment.assigned_partitions for p in tp.partitions]


# -- the client -----------------------------------------------------------------------------------------------


class _Retry(Exception):
    """A try failed in a way worth trying again (within the deadline)."""

    def __init__(self, cause: BaseException, connected: bool = True) -> None:
        super().__init__(str(cause))
        self.cause = cause
        self.connected = connected


class _CoordinatorMoved(Exception):
    """The group's coordinator answered NOT_COORDINATOR (or is loading): look it up again."""


@dataclass
class _Cluster:
    nodes: dict[int, Node]
    controller_id: int
    cluster_id: str | None
    # topic -> (error, internal, partitions as (partition, leader id, replica ids, isr ids))
    topics: dict[str, tuple[Errors, bool, list[tuple[int, int, list[int], list[int]]]]]


class _Connection:
    """One socket to one broker, with the API versions that broker announced."""

    def __init__(self, host: str, port: int, client_id: str, timeout_ms: int) -> None:
        self.host = host
        self.port = port
        self._client_id = client_id
        self._correlation_ids = itertools.count()
        self._sock = socket.create_connection((host, port), timeout=max(timeout_ms, 1) / 1000)
        self._sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.api_versions: dict[int, tuple[int, int]] = {}

    def send(self, api_key: ApiKeys, version: int, data: Any, timeout_ms: int) -> Any:
        """Sends a request and returns the response data; OSError or TimeoutError on connection trouble."""
        header = RequestHeader.of(api_key, version, self._client_id, next(self._correlation_ids))
        payload = header.write() + data.write(version)
        self._sock.settimeout(max(timeout_ms, 1) / 1000)
        self._sock.sendall(struct.pack(">i", len(payload)) + payload)
        size = struct.unpack(">i", self._recv_exact(4))[0]
        frame = self._recv_exact(size)
        return AbstractResponse.parse_response(frame, header).data

    def _recv_exact(self, n: int) -> bytes:
        chunks = bytearray()
        while len(chunks) < n:
            chunk = self._sock.recv(n - len(chunks))
            if not chunk:
                raise ConnectionResetError(f"Connection to {self.host}:{self.port} was closed by the broker")
            chunks += chunk
        return bytes(chunks)

    def close(self) -> None:
        try:
            self._sock.close()
        except OSError:
            pass


class BrokerAdminClient(Logging):
    """The consumer-group subset of Kafka's Admin client, blocking. Create with `BrokerAdminClient.create`."""

    logger_name = "org.apache.kafka.clients.admin.KafkaAdminClient"

    def __init__(self, config: Mapping[str, str], time: Time | None = None) -> None:
        self._time = time if time is not None else SystemTime()
        # Checked in Java's order: the configuration's values first, then the bootstrap addresses.
        if config.get("bootstrap.servers") is None:
            raise ConfigException('Missing required configuration "bootstrap.servers" which has no default value.')
        protocol = config.get("security.protocol", "PLAINTEXT").strip().upper()
        if protocol not in _SECURITY_PROTOCOLS:
            raise ConfigException(
                "security.protocol",
                config.get("security.protocol"),
                "String must be one of: " + ", ".join(_SECURITY_PROTOCOLS),
            )
        ints = {key: _int_config(config, key) for key in _INT_CONFIGS}
        if protocol != "PLAINTEXT":
            raise ConfigException("security.protocol", protocol, "this admin client connects with PLAINTEXT only")
        self._bootstrap = _parse_bootstrap(config["bootstrap.servers"])
        self._request_timeout_ms = ints["request.timeout.ms"] or DEFAULT_REQUEST_TIMEOUT_MS
        self._default_api_timeout_ms = ints["default.api.timeout.ms"] or DEFAULT_API_TIMEOUT_MS
        retry_backoff = ints["retry.backoff.ms"]
        self._retry_backoff_ms = DEFAULT_RETRY_BACKOFF_MS if retry_backoff is None else retry_backoff
        self.client_id = config.get("client.id") or f"{DEFAULT_CLIENT_ID_PREFIX}{next(_client_ids)}"
        self.log_ident = f"[AdminClient clientId={self.client_id}] "
        for key in config:
            if key not in _ACCEPTED_CONFIGS:
                _CONFIG_LOGGER.warning("The configuration '%s' was supplied but isn't a known config.", key)
        self._connections: dict[tuple[str, int], _Connection] = {}
        self._nodes: dict[int, Node] = {}
        self._closed = False

    @classmethod
    def create(cls, props: Mapping[str, str], time: Time | None = None) -> BrokerAdminClient:
        """Admin.create: a client for `props`, or KafkaException("Failed to create new KafkaAdminClient")
        caused by the configuration problem."""
        try:
            return cls(props, time)
        except KafkaException as e:
            raise KafkaException("Failed to create new KafkaAdminClient") from e

    def close(self) -> None:
        self._closed = True
        for connection in self._connections.values():
            connection.close()
        self._connections.clear()

    def __enter__(self) -> BrokerAdminClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the Admin API ---------------------------------------------------------------------------------------

    def list_consumer_groups(
        self, states: Iterable[ConsumerGroupState] = (), timeout_ms: int | None = None
    ) -> list[ConsumerGroupListing]:
        """The consumer groups of every broker (those in `states` when given); raises ExecutionException with
        the first broker's failure, as `listConsumerGroups(...).all().get()` does."""
        deadline = self._deadline(timeout_ms)
        state_names = [str(s) for s in states]
        try:
            cluster = self._run_call("findAllBrokers", deadline, lambda remaining: self._metadata([], remaining))
        except Exception as e:
            failure = KafkaException("Failed to find brokers to send ListGroups")
            failure.__cause__ = e
            raise ExecutionException(failure) from None
        listings: list[ConsumerGroupListing] = []
        errors: list[BaseException] = []
        for node in cluster.nodes.values():
            try:
                groups = self._run_call(
                    "listConsumerGroups",
                    deadline,
                    functools.partial(self._list_groups, node, state_names),
                )
            except Exception as e:
                errors.append(e)
                continue
            for group_id, protocol_type, group_state in groups:
                if protocol_type == CONSUMER_PROTOCOL_TYPE or protocol_type == "":
                    state = ConsumerGroupState.parse(group_state) if group_state else None
                    listings.append(ConsumerGroupListing(group_id, protocol_type == "", state))
        if errors:
            raise ExecutionException(errors[0])
        return listings

    def describe_consumer_groups(
        self, group_ids: Iterable[str], timeout_ms: int | None = None
    ) -> dict[str, KafkaFuture[ConsumerGroupDescription]]:
        result: dict[str, KafkaFuture[ConsumerGroupDescription]] = {}
        for group_id in dict.fromkeys(group_ids):
            deadline = self._deadline(timeout_ms)
            result[group_id] = self._group_future(
                group_id,
                functools.partial(self._describe_group, group_id),
                "describeConsumerGroups",
                deadline,
            )
        return result

    def list_consumer_group_offsets(
        self, group_id: str, timeout_ms: int | None = None
    ) -> dict[TopicPartition, OffsetAndMetadata]:
        """The committed offsets of a group (`listConsumerGroupOffsets(g).partitionsToOffsetAndMetadata().get()`)."""
        deadline = self._deadline(timeout_ms)
        return self._group_future(
            group_id,
            lambda node, remaining: self._offset_fetch(group_id, node, remaining),
            "listConsumerGroupOffsets",
            deadline,
        ).get()

    def alter_consumer_group_offsets(
        self, group_id: str, offsets: Mapping[TopicPartition, OffsetAndMetadata], timeout_ms: int | None = None
    ) -> None:
        """Commits `offsets` for the group; raises ExecutionException with the first partition's error
        (`alterConsumerGroupOffsets(...).all().get()`)."""
        deadline = self._deadline(timeout_ms)
        errors = self._group_future(
            group_id,
            lambda node, remaining: self._offset_commit(group_id, offsets, node, remaining),
            "commitOffsets",
            deadline,
        ).get()
        for partition in offsets:
            error = errors.get(partition)
            if error is None:
                raise ExecutionException(
                    IllegalArgumentException(f'Alter offset for partition "{partition}" was not attempted')
                )
            if error is not Errors.NONE:
                raise ExecutionException(error.exception() or KafkaException(error.name))

    def delete_consumer_groups(
        self, group_ids: Iterable[str], timeout_ms: int | None = None
    ) -> dict[str, KafkaFuture[None]]:
        result: dict[str, KafkaFuture[None]] = {}
        for group_id in dict.fromkeys(group_ids):
            deadline = self._deadline(timeout_ms)
            result[group_id] = self._group_future(
                group_id,
                functools.partial(self._delete_group, group_id),
                "deleteConsumerGroups",
                deadline,
            )
        return result

    def delete_consumer_group_offsets(
        self, group_id: str, partitions: Iterable[TopicPartition], timeout_ms: int | None = None
    ) -> DeleteConsumerGroupOffsetsResult:
        wanted = list(dict.fromkeys(partitions))
        deadline = self._deadline(timeout_ms)
        future = self._group_future(
            group_id,
            lambda node, remaining: self._offset_delete(group_id, wanted, node, remaining),
            "deleteConsumerGroupOffsets",
            deadline,
        )
        exc = future.exception()
        return DeleteConsumerGroupOffsetsResult(wanted, exc, {} if exc is not None else future.get())

    def list_offsets(
        self, topic_partition_offsets: Mapping[TopicPartition, OffsetSpec], timeout_ms: int | None = None
    ) -> dict[TopicPartition, ListOffsetsResultInfo]:
        """The offset each partition's spec asks for; raises ExecutionException with the first partition's
        failure (`listOffsets(...).all().get()`)."""
        deadline = self._deadline(timeout_ms)
        pending = dict(topic_partition_offsets)
        results: dict[TopicPartition, ListOffsetsResultInfo | BaseException] = {}
        tries = 0
        while pending:
            tries += 1
            topics = sorted({tp.topic for tp in pending})
            try:
                cluster = self._run_call("listOffsets-metadata", deadline, functools.partial(self._metadata, topics))
            except Exception as e:
                for tp in pending:
                    results[tp] = e
                break
            by_leader: dict[int, dict[TopicPartition, OffsetSpec]] = {}
            for tp, spec in pending.items():
                topic = cluster.topics.get(tp.topic)
                if topic is None:
                    results[tp] = UnknownTopicOrPartitionException(f"Topic {tp.topic} not found.")
                    continue
                error, _, partitions = topic
                if error is not Errors.NONE:
                    results[tp] = error.exception() or KafkaException(error.name)
                    continue
                leader = next((p[1] for p in partitions if p[0] == tp.partition), None)
                if leader is None:
                    results[tp] = UnknownTopicOrPartitionException("This server does not host this topic-partition.")
                elif leader < 0 or leader not in cluster.nodes:
                    results[tp] = Errors.LEADER_NOT_AVAILABLE.exception() or KafkaException("LEADER_NOT_AVAILABLE")
                else:
                    by_leader.setdefault(leader, {})[tp] = spec
            retry: dict[TopicPartition, OffsetSpec] = {}
            for leader, specs in by_leader.items():
                node = cluster.nodes[leader]
                try:
                    answers = self._run_call(
                        "listOffsets on broker " + str(leader),
                        deadline,
                        functools.partial(self._list_offsets, node, specs),
                    )
                except Exception as e:
                    for tp in specs:
                        results[tp] = e
                    continue
                for tp in specs:
                    answer = answers.get(tp)
                    if answer is None:
                        results[tp] = ApiException(f"The response from broker {leader} did not contain a result")
                    elif isinstance(answer, InvalidMetadataException):
                        retry[tp] = specs[tp]
                    else:
                        results[tp] = answer
            pending = retry
            if pending:
                now = self._time.milliseconds()
                if now >= deadline:
                    for tp in pending:
                        results[tp] = TimeoutException(
                            f"Call(callName=listOffsets on broker, deadlineMs={deadline}, tries={tries}, "
                            f"nextAllowedTryMs={now + self._retry_backoff_ms}) timed out at {now} "
                            f"after {tries} attempt(s)"
                        )
                    break
                self._time.sleep(min(self._retry_backoff_ms, deadline - now))
        offsets: dict[TopicPartition, ListOffsetsResultInfo] = {}
        for tp in topic_partition_offsets:
            outcome = results[tp]
            if isinstance(outcome, BaseException):
                raise ExecutionException(outcome)
            offsets[tp] = outcome
        return offsets

    def describe_topics(
        self, topic_names: Iterable[str], timeout_ms: int | None = None
    ) -> dict[str, KafkaFuture[TopicDescription]]:
        names = list(dict.fromkeys(topic_names))
        result: dict[str, KafkaFuture[TopicDescription]] = {}
        valid = []
        for name in names:
            if not name:
                result[name] = KafkaFuture.failed(
                    InvalidTopicException(f"The given topic name '{name}' cannot be represented in a request.")
                )
            else:
                valid.append(name)
        if not valid:
            return result
        deadline = self._deadline(timeout_ms)
        try:
            cluster = self._run_call("describeTopics", deadline, lambda remaining: self._metadata(valid, remaining))
        except Exception as e:
            for name in valid:
                result[name] = KafkaFuture.failed(e)
            return result
        for name in valid:
            topic = cluster.topics.get(name)
            if topic is None:
                result[name] = KafkaFuture.failed(UnknownTopicOrPartitionException(f"Topic {name} not found."))
                continue
            error, internal, partitions = topic
            if error is not Errors.NONE:
                result[name] = KafkaFuture.failed(error.exception() or KafkaException(error.name))
                continue
            infos = []
            for partition, leader, replicas, isr in sorted(partitions):
                infos.append(
                    TopicPartitionInfo(
                        partition,
                        cluster.nodes.get(leader),
                        tuple(cluster.nodes.get(r, Node(r, "", -1)) for r in replicas),
                        tuple(cluster.nodes.get(r, Node(r, "", -1)) for r in isr),
                    )
                )
            result[name] = KafkaFuture.completed(TopicDescription(name, internal, tuple(infos)))
        return result

    def describe_cluster(self, timeout_ms: int | None = None) -> ClusterDescription:
        deadline = self._deadline(timeout_ms)
        try:
            cluster = self._run_call("listNodes", deadline, lambda remaining: self._metadata([], remaining))
        except Exception as e:
            raise ExecutionException(e) from None
        return ClusterDescription(
            tuple(cluster.nodes.values()), cluster.nodes.get(cluster.controller_id), cluster.cluster_id
        )

    # -- calls, retries and deadlines ------------------------------------------------------------------------

    def _deadline(self, timeout_ms: int | None) -> int:
        return self._time.milliseconds() + (self._default_api_timeout_ms if timeout_ms is None else timeout_ms)

    def _run_call(self, call_name: str, deadline_ms: int, attempt: Callable[[int], T]) -> T:
        """Runs `attempt(request_timeout_ms)` until it succeeds, fails for good, or the deadline passes."""
        tries = 0
        ever_connected = False
        while True:
            if self._closed:
                raise KafkaException("The AdminClient is closed")
            now = self._time.milliseconds()
            remaining = deadline_ms - now
            if remaining <= 0 and tries > 0:
                next_try = now + self._retry_backoff_ms
                if not ever_connected:
                    raise TimeoutException(f"Timed out waiting for a node assignment. Call: {call_name}")
                raise TimeoutException(
                    f"Call(callName={call_name}, deadlineMs={deadline_ms}, tries={tries}, "
                    f"nextAllowedTryMs={next_try}) timed out at {now} after {tries} attempt(s)"
                )
            tries += 1
            try:
                return attempt(max(1, min(self._request_timeout_ms, remaining)))
            except _Retry as e:
                ever_connected = ever_connected or e.connected
                self.debug(f"Call {call_name} failed on try {tries}, retrying: {e.cause}")
                now = self._time.milliseconds()
                if now < deadline_ms:
                    self._time.sleep(min(self._retry_backoff_ms, deadline_ms - now))

    def _group_future(
        self, group_id: str, op: Callable[[Node, int], T], call_name: str, deadline_ms: int
    ) -> KafkaFuture[T]:
        """Finds the group's coordinator and runs `op` on it, finding it again when it moves."""
        moves = 0
        while True:
            try:
                node = self._run_call(
                    "findCoordinator", deadline_ms, lambda remaining: self._find_coordinator(group_id, remaining)
                )
            except Exception as e:
                return KafkaFuture.failed(e)
            try:
                return KafkaFuture.completed(self._run_call(call_name, deadline_ms, functools.partial(op, node)))
            except _CoordinatorMoved:
                self.debug(f"The coordinator of group {group_id} moved; looking it up again")
                moves += 1
                now = self._time.milliseconds()
                if now >= deadline_ms:
                    return KafkaFuture.failed(
                        TimeoutException(
                            f"Call(callName={call_name}, deadlineMs={deadline_ms}, tries={moves}, "
                            f"nextAllowedTryMs={now + self._retry_backoff_ms}) timed out at {now} "
                            f"after {moves} attempt(s)"
                        )
                    )
                self._time.sleep(min(self._retry_backoff_ms, deadline_ms - now))
                continue
            except Exception as e:
                return KafkaFuture.failed(e)

    @staticmethod
    def _check_group_error(error: Errors) -> None:
        """A loading or unavailable coordinator is retried; any other error fails the call."""
        if error in (Errors.COORDINATOR_LOAD_IN_PROGRESS, Errors.COORDINATOR_NOT_AVAILABLE):
            raise _Retry(error.exception() or KafkaException(error.name))
        if error is not Errors.NONE:
            raise error.exception() or KafkaException(error.name)

    # -- connections -----------------------------------------------------------------------------------------

    def _connect(self, host: str, port: int, timeout_ms: int) -> _Connection:
        key = (host, port)
        connection = self._connections.get(key)
        if connection is not None:
            return connection
        try:
            connection = _Connection(host, port, self.client_id, timeout_ms)
        except OSError as e:
            self.debug(f"Connection to node at {host}:{port} could not be established: {e}")
            raise _Retry(NetworkException(f"Connection to {host}:{port} failed: {e}"), connected=False) from None
        try:
            self._api_versions(connection, timeout_ms)
        except BaseException:
            connection.close()
            raise
        self._connections[key] = connection
        return connection

    def _any_connection(self, timeout_ms: int) -> _Connection:
        """A connection to any broker: an open one, else the first known broker or bootstrap server that accepts."""
        connection = next(iter(self._connections.values()), None)
        if connection is not None:
            return connection
        candidates = [(n.host or "", n.port) for n in self._nodes.values()] + list(self._bootstrap)
        last: _Retry | None = None
        for host, port in dict.fromkeys(candidates):
            try:
                return self._connect(host, port, timeout_ms)
            except _Retry as e:
                last = e
        assert last is not None
        raise last

    def _node_connection(self, node: Node, timeout_ms: int) -> _Connection:
        return self._connect(node.host or "", node.port, timeout_ms)

    def _drop(self, connection: _Connection) -> None:
        connection.close()
        self._connections.pop((connection.host, connection.port), None)

    def _send(
        self,
        connection: _Connection,
        api_key: ApiKeys,
        build: Callable[[int], Any],
        timeout_ms: int,
        min_version: int = 0,
        max_version: int | None = None,
    ) -> tuple[Any, int]:
        """Sends the request `build(version)` at the newest version both sides know; returns (response, version)."""
        version = self._usable_version(connection, api_key, min_version, max_version)
        data = build(version)
        try:
            return connection.send(api_key, version, data, timeout_ms), version
        except TimeoutError:
            self._drop(connection)
            raise _Retry(TimeoutException(f"Timed out waiting for a response from {connection.host}")) from None
        except OSError as e:
            self._drop(connection)
            raise _Retry(NetworkException(f"Connection to {connection.host}:{connection.port} failed: {e}")) from None

    def _usable_version(
        self, connection: _Connection, api_key: ApiKeys, min_version: int, max_version: int | None
    ) -> int:
        ours_max = min(CLIENT_MAX_VERSIONS.get(api_key, api_key.latest_version(False)), api_key.latest_version(False))
        if max_version is not None:
            ours_max = min(ours_max, max_version)
        ours_min = max(min_version, api_key.oldest_version)
        theirs = connection.api_versions.get(api_key.id)
        if theirs is None:
            raise UnsupportedVersionException(f"The broker does not support {api_key.name}")
        low, high = max(ours_min, theirs[0]), min(ours_max, theirs[1])
        if low > high:
            raise UnsupportedVersionException(
                f"The broker does not support {api_key.name} with version in range [{ours_min},{ours_max}]. "
                f"The supported range is [{theirs[0]},{theirs[1]}]."
            )
        return high

    def _api_versions(self, connection: _Connection, timeout_ms: int) -> None:
        """Asks the broker which versions it serves, stepping down to a version it knows if it must."""
        version = CLIENT_MAX_VERSIONS[ApiKeys.API_VERSIONS]
        for _ in range(2):
            data = ApiVersionsRequestData()
            if version >= 3:
                data.client_software_name = CLIENT_SOFTWARE_NAME
                data.client_software_version = _software_version()
            try:
                response = connection.send(ApiKeys.API_VERSIONS, version, data, timeout_ms)
            except OSError as e:
                raise _Retry(NetworkException(f"ApiVersions to {connection.host} failed: {e}")) from None
            error = Errors.for_code(response.error_code)
            if error is Errors.UNSUPPORTED_VERSION:
                theirs = next((k for k in response.api_keys if k.api_key == ApiKeys.API_VERSIONS.id), None)
                if theirs is not None and theirs.max_version < version:
                    version = theirs.max_version
                    continue
            if error is not Errors.NONE:
                raise error.exception() or KafkaException(error.name)
            connection.api_versions = {k.api_key: (k.min_version, k.max_version) for k in response.api_keys}
            return
        raise UnsupportedVersionException("The broker does not support any ApiVersions version this client knows")

    # -- one try of each request -----------------------------------------------------------------------------

    def _metadata(self, topics: list[str] | None, timeout_ms: int) -> _Cluster:
        connection = self._any_connection(timeout_ms)

        def build(version: int) -> Any:
            data = MetadataRequestData()
            if topics is None:
                data.topics = None if version >= 1 else []
            else:
                data.topics = [MetadataRequestData.MetadataRequestTopic(name=t) for t in topics]
            if version >= 4:
                data.allow_auto_topic_creation = False
            return data

        # v0 cannot ask for no topics (an empty list means all of them); any version asks for named ones.
        response, _ = self._send(connection, ApiKeys.METADATA, build, timeout_ms, min_version=1 if topics == [] else 0)
        nodes = {b.node_id: Node(b.node_id, b.host, b.port, b.rack) for b in response.brokers}
        if not nodes:
            raise _Retry(KafkaException("Metadata fetch failed due to missing broker list"))
        self._nodes = nodes
        topic_map: dict[str, tuple[Errors, bool, list[tuple[int, int, list[int], list[int]]]]] = {}
        for t in response.topics:
            partitions = [
                (p.partition_index, p.leader_id, list(p.replica_nodes), list(p.isr_nodes)) for p in t.partitions
            ]
            topic_map[t.name] = (Errors.for_code(t.error_code), bool(t.is_internal), partitions)
        return _Cluster(nodes, response.controller_id, response.cluster_id, topic_map)

    def _find_coordinator(self, group_id: str, timeout_ms: int) -> Node:
        connection = self._any_connection(timeout_ms)

        def build(version: int) -> Any:
            data = FindCoordinatorRequestData(key=group_id)
            if version >= 1:
                data.key_type = 0
            return data

        response, _ = self._send(connection, ApiKeys.FIND_COORDINATOR, build, timeout_ms)
        self._check_group_error(Errors.for_code(response.error_code))
        return Node(response.node_id, response.host, response.port)

    def _list_groups(self, node: Node, states: list[str], timeout_ms: int) -> list[tuple[str, str, str]]:
        connection = self._node_connection(node, timeout_ms)
        if states:
            version = self._usable_version(connection, ApiKeys.LIST_GROUPS, 0, None)
            if version < 4:
                raise UnsupportedVersionException(
                    f"The broker only supports ListGroups v{version}, but we need v4 or newer to request groups "
                    "by states."
                )

        def build(version: int) -> Any:
            data = ListGroupsRequestData()
            if version >= 4:
                data.states_filter = list(states)
            return data

        response, version = self._send(connection, ApiKeys.LIST_GROUPS, build, timeout_ms)
        self._check_group_error(Errors.for_code(response.error_code))
        return [(g.group_id, g.protocol_type, g.group_state if version >= 4 else "") for g in response.groups]

    def _describe_group(self, group_id: str, node: Node, timeout_ms: int) -> ConsumerGroupDescription:
        connection = self._node_connection(node, timeout_ms)
        response, _ = self._send(
            connection, ApiKeys.DESCRIBE_GROUPS, lambda v: DescribeGroupsRequestData(groups=[group_id]), timeout_ms
        )
        groups = list(response.groups)
        if not groups:
            raise InvalidGroupIdException(f"No consumer group found for GroupId: {group_id}")
        if len(groups) > 1 or groups[0].group_id != group_id:
            ids = ", ".join(g.group_id for g in groups)
            raise InvalidGroupIdException(f"DescribeConsumerGroup request for GroupId: {group_id} returned [{ids}]")
        group = groups[0]
        error = Errors.for_code(group.error_code)
        if error is Errors.NOT_COORDINATOR:
            raise _CoordinatorMoved()
        self._check_group_error(error)
        protocol_type = group.protocol_type
        if protocol_type not in (CONSUMER_PROTOCOL_TYPE, ""):
            raise IllegalArgumentException(f"GroupId {group_id} is not a consumer group ({protocol_type}).")
        members = []
        for m in group.members:
            partitions: list[TopicPartition] = []
            if m.member_assignment:
                partitions = list(dict.fromkeys(deserialize_assignment(bytes(m.member_assignment))))
            members.append(
                MemberDescription(
                    m.member_id, m.group_instance_id, m.client_id, m.client_host, MemberAssignment(tuple(partitions))
                )
            )
        return ConsumerGroupDescription(
            group_id,
            protocol_type == "",
            tuple(members),
            group.protocol_data,
            ConsumerGroupState.parse(group.group_state),
            node,
        )

    def _offset_fetch(self, group_id: str, node: Node, timeout_ms: int) -> dict[TopicPartition, OffsetAndMetadata]:
        connection = self._node_connection(node, timeout_ms)

        def build(version: int) -> Any:
            data = OffsetFetchRequestData(group_id=group_id, topics=None)
            if version >= 7:
                data.require_stable = False
            return data

        try:
            response, _ = self._send(connection, ApiKeys.OFFSET_FETCH, build, timeout_ms, min_version=2)
        except UnsupportedVersionException as e:
            raise UnsupportedVersionException(
                "The broker only supports OffsetFetchRequest v1, but we need v2 or newer to request all topic "
                "partitions."
            ) from e
        partition_errors = [Errors.for_code(p.error_code) for t in response.topics for p in t.partitions]
        error = Errors.for_code(response.error_code)
        if error is Errors.NOT_COORDINATOR or Errors.NOT_COORDINATOR in partition_errors:
            raise _CoordinatorMoved()
        self._check_group_error(error)
        offsets: dict[TopicPartition, OffsetAndMetadata] = {}
        for t in response.topics:
            for p in t.partitions:
                tp = TopicPartition(t.name, p.partition_index)
                partition_error = Errors.for_code(p.error_code)
                if partition_error is not Errors.NONE:
                    self.warn(f"Skipping return offset for {tp} due to error {partition_error.name}.")
                elif p.committed_offset >= 0:
                    epoch = p.committed_leader_epoch
                    offsets[tp] = OffsetAndMetadata(
                        p.committed_offset, None if epoch is None or epoch < 0 else epoch, p.metadata or ""
                    )
        return offsets

    def _offset_commit(
        self, group_id: str, offsets: Mapping[TopicPartition, OffsetAndMetadata], node: Node, timeout_ms: int
    ) -> dict[TopicPartition, Errors]:
        connection = self._node_connection(node, timeout_ms)

        def build(version: int) -> Any:
            data = OffsetCommitRequestData(group_id=group_id)
            if version >= 1:
                data.generation_id_or_member_epoch = -1
                data.member_id = ""
            by_topic: dict[str, Any] = {}
            for tp, oam in offsets.items():
                topic = by_topic.get(tp.topic)
                if topic is None:
                    topic = by_topic[tp.topic] = OffsetCommitRequestData.OffsetCommitRequestTopic(name=tp.topic)
                    data.topics.append(topic)
                partition = OffsetCommitRequestData.OffsetCommitRequestPartition(
                    partition_index=tp.partition, committed_offset=oam.offset, committed_metadata=oam.metadata
                )
                if version >= 6:
                    partition.committed_leader_epoch = -1 if oam.leader_epoch is None else oam.leader_epoch
                topic.partitions.append(partition)
            return data

        response, _ = self._send(connection, ApiKeys.OFFSET_COMMIT, build, timeout_ms)
        errors = {
            TopicPartition(t.name, p.partition_index): Errors.for_code(p.error_code)
            for t in response.topics
            for p in t.partitions
        }
        moved = {Errors.NOT_COORDINATOR, Errors.COORDINATOR_LOAD_IN_PROGRESS, Errors.COORDINATOR_NOT_AVAILABLE}
        if moved.intersection(errors.values()):
            raise _CoordinatorMoved()
        return errors

    def _delete_group(self, group_id: str, node: Node, timeout_ms: int) -> None:
        connection = self._node_connection(node, timeout_ms)
        response, _ = self._send(
            connection, ApiKeys.DELETE_GROUPS, lambda v: DeleteGroupsRequestData(groups_names=[group_id]), timeout_ms
        )
        result = next((r for r in response.results if r.group_id == group_id), None)
        if result is None:
            raise IllegalArgumentException(f"Could not find group {group_id} in the response")
        error = Errors.for_code(result.error_code)
        if error is Errors.NOT_COORDINATOR:
            raise _CoordinatorMoved()
        self._check_group_error(error)

    def _offset_delete(
        self, group_id: str, partitions: list[TopicPartition], node: Node, timeout_ms: int
    ) -> dict[TopicPartition, Errors]:
        connection = self._node_connection(node, timeout_ms)

        def build(version: int) -> Any:
            data = OffsetDeleteRequestData(group_id=group_id)
            by_topic: dict[str, Any] = {}
            for tp in partitions:
                topic = by_topic.get(tp.topic)
                if topic is None:
                    topic = by_topic[tp.topic] = OffsetDeleteRequestData.OffsetDeleteRequestTopic(name=tp.topic)
                    data.topics.append(topic)
                topic.partitions.append(
                    OffsetDeleteRequestData.OffsetDeleteRequestPartition(partition_index=tp.partition)
                )
            return data

        response, _ = self._send(connection, ApiKeys.OFFSET_DELETE, build, timeout_ms)
        errors = {
            TopicPartition(t.name, p.partition_index): Errors.for_code(p.error_code)
            for t in response.topics
            for p in t.partitions
        }
        group_error = Errors.for_code(response.error_code)
        if group_error is Errors.NOT_COORDINATOR or Errors.NOT_COORDINATOR in errors.values():
            raise _CoordinatorMoved()
        self._check_group_error(group_error)
        return errors

    def _list_offsets(
        self, node: Node, specs: Mapping[TopicPartition, OffsetSpec], timeout_ms: int
    ) -> dict[TopicPartition, ListOffsetsResultInfo | BaseException]:
        connection = self._node_connection(node, timeout_ms)

        def build(version: int) -> Any:
            data = ListOffsetsRequestData(replica_id=-1)
            if version >= 2:
                data.isolation_level = 0
            by_topic: dict[str, Any] = {}
            for tp, spec in specs.items():
                topic = by_topic.get(tp.topic)
                if topic is None:
                    topic = by_topic[tp.topic] = ListOffsetsRequestData.ListOffsetsTopic(name=tp.topic)
                    data.topics.append(topic)
                topic.partitions.append(
                    ListOffsetsRequestData.ListOffsetsPartition(partition_index=tp.partition, timestamp=spec.timestamp)
                )
            return data

        response, version = self._send(connection, ApiKeys.LIST_OFFSETS, build, timeout_ms, min_version=1)
        answers: dict[TopicPartition, ListOffsetsResultInfo | BaseException] = {}
        for t in response.topics:
            for p in t.partitions:
                tp = TopicPartition(t.name, p.partition_index)
                error = Errors.for_code(p.error_code)
                if error is not Errors.NONE:
                    answers[tp] = error.exception() or KafkaException(error.name)
                else:
                    epoch = p.leader_epoch if version >= 4 and p.leader_epoch >= 0 else None
                    answers[tp] = ListOffsetsResultInfo(p.offset, p.timestamp, epoch)
        return answers


def _software_version() -> str:
    from importlib import metadata

    try:
        return metadata.version("kafka-port")
    except metadata.PackageNotFoundError:
        return "unknown"


def _int_config(config: Mapping[str, str], key: str) -> int | None:
    raw = config.get(key)
    if raw is None:
        return None
    try:
        value = int(raw.strip())
    except ValueError:
        raise ConfigException(key, raw, "Not a number of type INT") from None
    if value < 0:
        raise ConfigException(key, value, "Value must be at least 0")
    return value


def _parse_bootstrap(servers: str) -> list[tuple[str, int]]:
    """ClientUtils.parseAndValidateAddresses: `host:port` entries, comma-separated (IPv6 hosts bracketed)."""
    addresses = []
    for url in (u.strip() for u in servers.split(",")):
        if not url:
            continue
        host, sep, port = url.rpartition(":")
        host = host[1:-1] if host.startswith("[") and host.endswith("]") else host
        if not sep or not host or not port.isdigit():
            raise ConfigException(f"Invalid url in bootstrap.servers: {url}")
        try:
            socket.getaddrinfo(host, int(port))
        except (OSError, UnicodeError):
            continue  # Java skips an address it cannot resolve, and fails only when none is left
        addresses.append((host, int(port)))
    if not addresses:
        raise ConfigException("No resolvable bootstrap urls given in bootstrap.servers")
    return addresses
