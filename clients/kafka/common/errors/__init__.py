"""Port of clients/src/main/java/org/apache/kafka/common/errors/*.java (Kafka 3.7).

Every exception class of the Java client's errors package, with the same names and the same
inheritance, so that a retriable error is an instance of RetriableException as in Java.

# PORT: Java keeps one class per file; here the whole package is one module, because each
class is only a name in a hierarchy. InvalidRecordException lives in org.apache.kafka.common
in Java and is kept here too so that every error code has its class in one place.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kafka.common.topic_partition import TopicPartition


class KafkaException(Exception):
    """Root of every error raised by this project's Kafka code."""


class ApiException(KafkaException):
    pass


class AuthenticationException(ApiException):
    pass


class AuthorizationException(ApiException):
    pass


class RetriableException(ApiException):
    pass


class AuthorizerNotReadyException(RetriableException):
    pass


class BrokerIdNotRegisteredException(ApiException):
    pass


class BrokerNotAvailableException(ApiException):
    pass


class ClusterAuthorizationException(AuthorizationException):
    pass


class ConcurrentTransactionsException(RetriableException):
    pass


class ControllerMovedException(ApiException):
    pass


class CoordinatorLoadInProgressException(RetriableException):
    pass


class CoordinatorNotAvailableException(RetriableException):
    pass


class CorruptRecordException(RetriableException):
    pass


class DelegationTokenAuthorizationException(AuthorizationException):
    pass


class DelegationTokenDisabledException(ApiException):
    pass


class DelegationTokenExpiredException(ApiException):
    pass


class DelegationTokenNotFoundException(ApiException):
    pass


class DelegationTokenOwnerMismatchException(ApiException):
    pass


class DisconnectException(RetriableException):
    pass


class DuplicateBrokerRegistrationException(ApiException):
    pass


class DuplicateResourceException(ApiException):
    pass


class DuplicateSequenceException(ApiException):
    pass


class InvalidMetadataException(RetriableException):
    pass


class ElectionNotNeededException(InvalidMetadataException):
    pass


class EligibleLeadersNotAvailableException(InvalidMetadataException):
    pass


class FeatureUpdateFailedException(ApiException):
    pass


class FencedInstanceIdException(ApiException):
    pass


class FencedLeaderEpochException(InvalidMetadataException):
    pass


class FencedMemberEpochException(ApiException):
    pass


class FetchSessionIdNotFoundException(RetriableException):
    pass


class FetchSessionTopicIdException(RetriableException):
    pass


class GroupAuthorizationException(AuthorizationException):
    """Carries the group the member was refused (Java's groupId(); None when the error came without one)."""

    def __init__(self, *args: object, group_id: str | None = None) -> None:
        super().__init__(*args)
        self.group_id = group_id

    @classmethod
    def for_group_id(cls, group_id: str | None) -> GroupAuthorizationException:
        """Java's forGroupId: the message names the group."""
        return cls(f"Not authorized to access group: {group_id}", group_id=group_id)


class GroupIdNotFoundException(ApiException):
    pass


class GroupMaxSizeReachedException(ApiException):
    pass


class GroupNotEmptyException(ApiException):
    pass


class GroupSubscribedToTopicException(ApiException):
    pass


class IllegalGenerationException(ApiException):
    pass


class IllegalSaslStateException(AuthenticationException):
    pass


class InconsistentClusterIdException(ApiException):
    pass


class InconsistentGroupProtocolException(ApiException):
    pass


class InconsistentTopicIdException(InvalidMetadataException):
    pass


class InconsistentVoterSetException(ApiException):
    pass


class IneligibleReplicaException(ApiException):
    pass


class InterruptException(KafkaException):
    pass


class InvalidCommitOffsetSizeException(ApiException):
    pass


class InvalidConfigurationException(ApiException):
    pass


class InvalidFetchSessionEpochException(RetriableException):
    pass


class InvalidFetchSizeException(ApiException):
    pass


class InvalidGroupIdException(ApiException):
    pass


class InvalidOffsetException(ApiException):
    pass


class InvalidPartitionsException(ApiException):
    pass


class InvalidPidMappingException(ApiException):
    pass


class InvalidPrincipalTypeException(ApiException):
    pass


class InvalidProducerEpochException(ApiException):
    pass


class InvalidRecordException(ApiException):
    pass


class InvalidRegistrationException(ApiException):
    pass


class InvalidReplicaAssignmentException(ApiException):
    pass


class InvalidReplicationFactorException(ApiException):
    pass


class InvalidRequestException(ApiException):
    pass


class InvalidRequiredAcksException(ApiException):
    pass


class InvalidSessionTimeoutException(ApiException):
    pass


class InvalidTimestampException(ApiException):
    pass


class InvalidTopicException(ApiException):
    """Carries the invalid topics (Java's invalidTopics(); empty when the error came without them)."""

    def __init__(self, *args: object, invalid_topics: Iterable[str] = ()) -> None:
        super().__init__(*args)
        self.invalid_topics: set[str] = set(invalid_topics)

    @classmethod
    def for_topics(cls, topics: Iterable[str]) -> InvalidTopicException:
        """Java's InvalidTopicException(Set<String>): the message names the topics."""
        topic_set = set(topics)
        return cls(f"Invalid topics: [{', '.join(sorted(topic_set))}]", invalid_topics=topic_set)


class InvalidTxnStateException(ApiException):
    pass


class InvalidTxnTimeoutException(ApiException):
    pass


class InvalidUpdateVersionException(ApiException):
    pass


class KafkaStorageException(InvalidMetadataException):
    pass


class LeaderNotAvailableException(InvalidMetadataException):
    pass


class ListenerNotFoundException(InvalidMetadataException):
    pass


class LogDirNotFoundException(ApiException):
    pass


class MemberIdRequiredException(ApiException):
    pass


class MismatchedEndpointTypeException(ApiException):
    pass


class NetworkException(InvalidMetadataException):
    pass


class NewLeaderElectedException(ApiException):
    pass


class NoReassignmentInProgressException(ApiException):
    pass


class NotControllerException(RetriableException):
    pass


class NotCoordinatorException(RetriableException):
    pass


class NotEnoughReplicasAfterAppendException(RetriableException):
    pass


class NotEnoughReplicasException(RetriableException):
    pass


class NotLeaderForPartitionException(InvalidMetadataException):
    pass


class NotLeaderOrFollowerException(NotLeaderForPartitionException):
    pass


class OffsetMetadataTooLarge(ApiException):
    pass


class OffsetMovedToTieredStorageException(ApiException):
    pass


class OffsetNotAvailableException(RetriableException):
    pass


class OffsetOutOfRangeException(InvalidOffsetException):
    pass


class OperationNotAttemptedException(ApiException):
    pass


class OutOfOrderSequenceException(ApiException):
    pass


class PolicyViolationException(ApiException):
    pass


class PositionOutOfRangeException(ApiException):
    pass


class PreferredLeaderNotAvailableException(InvalidMetadataException):
    pass


class PrincipalDeserializationException(ApiException):
    pass


class ProducerFencedException(ApiException):
    pass


class ReassignmentInProgressException(ApiException):
    pass


class RebalanceInProgressException(ApiException):
    pass


class RecordBatchTooLargeException(ApiException):
    pass


class SerializationException(KafkaException):
    pass


class RecordDeserializationException(SerializationException):
    """A record the consumer could not deserialize, with its partition and offset (Java's topicPartition() and
    offset()), so that the application can seek past it."""

    def __init__(
        self, partition: TopicPartition, offset: int, message: str, cause: BaseException | None = None
    ) -> None:
        super().__init__(message)
        self.topic_partition = partition
        self.offset = offset
        self.__cause__ = cause


class RecordTooLargeException(ApiException):
    """Carries the partitions whose next record is larger than the fetch size, with the offsets of those records
    (Java's recordTooLargePartitions(); empty when the error came without them)."""

    def __init__(self, *args: object, record_too_large_partitions: Mapping[TopicPartition, int] | None = None) -> None:
        super().__init__(*args)
        self.record_too_large_partitions: dict[TopicPartition, int] = dict(record_too_large_partitions or {})


class ReplicaNotAvailableException(InvalidMetadataException):
    pass


class ResourceNotFoundException(ApiException):
    pass


class SaslAuthenticationException(AuthenticationException):
    pass


class SecurityDisabledException(ApiException):
    pass


class SnapshotNotFoundException(ApiException):
    pass


class SslAuthenticationException(AuthenticationException):
    pass


class StaleBrokerEpochException(ApiException):
    pass


class StaleMemberEpochException(ApiException):
    pass


class TelemetryTooLargeException(ApiException):
    pass


class ThrottlingQuotaExceededException(RetriableException):
    """Carries the time the broker asks the client to wait (Java's throttleTimeMs(); 0 when the error came
    without it)."""

    def __init__(self, *args: object, throttle_time_ms: int = 0) -> None:
        super().__init__(*args)
        self.throttle_time_ms = throttle_time_ms


class TimeoutException(RetriableException):
    pass


class TopicAuthorizationException(AuthorizationException):
    """Carries the topics the client was refused (Java's unauthorizedTopics(); empty when the error came without
    them)."""

    def __init__(self, *args: object, unauthorized_topics: Iterable[str] = ()) -> None:
        super().__init__(*args)
        self.unauthorized_topics: set[str] = set(unauthorized_topics)

    @classmethod
    def for_topics(cls, topics: Iterable[str]) -> TopicAuthorizationException:
        """Java's TopicAuthorizationException(Set<String>): the message names the topics."""
        topic_set = set(topics)
        return cls(f"Not authorized to access topics: [{', '.join(sorted(topic_set))}]", unauthorized_topics=topic_set)


class TopicDeletionDisabledException(ApiException):
    pass


class TopicExistsException(ApiException):
    pass


class TransactionAbortedException(ApiException):
    pass


class TransactionCoordinatorFencedException(ApiException):
    pass


class TransactionalIdAuthorizationException(AuthorizationException):
    pass


class TransactionalIdNotFoundException(ApiException):
    pass


class UnacceptableCredentialException(ApiException):
    pass


class UnknownControllerIdException(ApiException):
    pass


class UnknownLeaderEpochException(RetriableException):
    pass


class UnknownMemberIdException(ApiException):
    pass


class UnknownProducerIdException(OutOfOrderSequenceException):
    pass


class UnknownServerException(ApiException):
    pass


class UnknownSubscriptionIdException(ApiException):
    pass


class UnknownTopicIdException(InvalidMetadataException):
    pass


class UnknownTopicOrPartitionException(InvalidMetadataException):
    pass


class UnreleasedInstanceIdException(ApiException):
    pass


class UnstableOffsetCommitException(RetriableException):
    pass


class UnsupportedAssignorException(ApiException):
    pass


class UnsupportedByAuthenticationException(ApiException):
    pass


class UnsupportedCompressionTypeException(ApiException):
    pass


class UnsupportedEndpointTypeException(ApiException):
    pass


class UnsupportedForMessageFormatException(ApiException):
    pass


class UnsupportedSaslMechanismException(AuthenticationException):
    pass


class UnsupportedVersionException(ApiException):
    pass


class WakeupException(KafkaException):
    pass


# Scala's kafka.common package (core) and Java's org.apache.kafka.common (clients) both map to
# kafka.common here; the core-side exceptions a broker raises live below.


class InconsistentBrokerMetadataException(KafkaException):
    """meta.properties differs between log dirs (Scala kafka.common.InconsistentBrokerMetadataException)."""


class InconsistentBrokerIdException(KafkaException):
    """broker.id in the config differs from meta.properties (Scala kafka.common.InconsistentBrokerIdException)."""


# InconsistentClusterIdException exists in Java's errors (above) and serves for the Scala one too.


class GenerateBrokerIdException(KafkaException):
    """broker.id generation from /brokers/seqid failed (Scala kafka.common.GenerateBrokerIdException)."""
