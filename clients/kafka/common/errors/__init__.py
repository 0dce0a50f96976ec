"""Port of clients/src/main/java/org/apache/kafka/common/errors/*.java (Kafka 3.7).

Every exception class of the Java client's errors package, with the same names and the same
inheritance, so that a retriable error is an instance of RetriableException as in Java.

# PORT: Java keeps one class per file; here the whole package is one module, because each
class is only a name in a hierarchy. InvalidRecordException lives in org.apache.kafka.common
in Java and is kept here too so that every error code has its class in one place.
"""

from __future__ import annotations


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
    pass


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
    pass


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
    pass


class RecordTooLargeException(ApiException):
    pass


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
    pass


class TimeoutException(RetriableException):
    pass


class TopicAuthorizationException(AuthorizationException):
    pass


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
