"""Port of clients/src/main/java/org/apache/kafka/clients/consumer/internals/TopicMetadataFetcher.java
(Kafka 3.7).

The topic metadata `partitions_for` and `list_topics` return: a metadata request of its own (not the
consumer's Metadata), retried with backoff while it reports retriable errors.
"""

from __future__ import annotations

from kafka.clients import common_client_configs
from kafka.clients.client_response import ClientResponse
from kafka.clients.consumer.internals.consumer_network_client import ConsumerNetworkClient
from kafka.clients.consumer.internals.request_future import RequestFuture
from kafka.common.errors import InvalidTopicException, KafkaException, TimeoutException, TopicAuthorizationException
from kafka.common.partition_info import PartitionInfo
from kafka.common.protocol.errors import Errors
from kafka.common.requests.metadata_request import MetadataRequestBuilder
from kafka.common.requests.metadata_response import MetadataResponse
from kafka.common.utils.exponential_backoff import ExponentialBackoff
from kafka.common.utils.log_context import LogContext
from kafka.common.utils.time import Timer

__all__ = ["TopicMetadataFetcher"]


class TopicMetadataFetcher:
    def __init__(
        self, log_context: LogContext, client: ConsumerNetworkClient, retry_backoff_ms: int, retry_backoff_max_ms: int
    ) -> None:
        self._log = log_context.logger("org.apache.kafka.clients.consumer.internals.TopicMetadataFetcher")
        self._client = client
        self._retry_backoff = ExponentialBackoff(
            retry_backoff_ms,
            common_client_configs.RETRY_BACKOFF_EXP_BASE,
            retry_backoff_max_ms,
            common_client_configs.RETRY_BACKOFF_JITTER,
        )

    def get_topic_metadata(
        self, topic: str, allow_auto_topic_creation: bool, timer: Timer
    ) -> list[PartitionInfo] | None:
        """The partitions of `topic`, or None when it does not exist."""
        request = MetadataRequestBuilder([topic], allow_auto_topic_creation)
        return self._get_topic_metadata(request, timer).get(topic)

    def get_all_topic_metadata(self, timer: Timer) -> dict[str, list[PartitionInfo]]:
        return self._get_topic_metadata(MetadataRequestBuilder.all_topics(), timer)

    def _get_topic_metadata(self, request: MetadataRequestBuilder, timer: Timer) -> dict[str, list[PartitionInfo]]:
        # No topics asked for: no round trip.
        if not request.is_all_topics() and request.empty_topic_list():
            return {}
        attempts = 0
        while True:
            future = self._send_metadata_request(request)
            self._client.poll_future(future, timer)
            if future.failed() and not future.is_retriable():
                raise future.exception()
            if future.succeeded():
                response = future.value().response_body
                assert isinstance(response, MetadataResponse)
                cluster = response.build_cluster()
                if cluster.unauthorized_topics:
                    raise TopicAuthorizationException.for_topics(cluster.unauthorized_topics)
                should_retry = False
                errors = response.errors()
                if errors:
                    # Fatal errors are raised; retriable ones retried.
                    self._log.debug(f"Topic metadata fetch included errors: { {t: e.name for t, e in errors.items()} }")
                    for topic, error in errors.items():
                        if error is Errors.INVALID_TOPIC_EXCEPTION:
                            raise InvalidTopicException(f"Topic '{topic}' is invalid")
                        if error is Errors.UNKNOWN_TOPIC_OR_PARTITION:
                            # Left out of the result.
                            continue
                        if error.retriable:
                            should_retry = True
                        else:
                            raise KafkaException(
                                f"Unexpected error fetching metadata for topic {topic}"
                            ) from error.exception()
                if not should_retry:
                    return {topic: list(cluster.partitions_for_topic(topic)) for topic in cluster.topics}
            timer.sleep(self._retry_backoff.backoff(attempts))
            attempts += 1
            if not timer.not_expired():
                break
        raise TimeoutException("Timeout expired while fetching topic metadata")

    def _send_metadata_request(self, request: MetadataRequestBuilder) -> RequestFuture[ClientResponse]:
        node = self._client.least_loaded_node()
        if node is None:
            return RequestFuture.no_brokers_available()
        return self._client.send(node, request)
