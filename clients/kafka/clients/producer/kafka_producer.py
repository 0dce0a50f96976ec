"""Port of clients/src/main/java/org/apache/kafka/clients/producer/KafkaProducer.java (Kafka 3.7).

The producer: `send` runs a record through the interceptors, waits for the topic's metadata (at most
max.block.ms), serializes key and value, picks the partition (a custom partitioner, murmur2 of the
key, or the built-in sticky choice) and appends to the RecordAccumulator, returning a future. The
Sender, on the thread `kafka-producer-network-thread | {client.id}`, sends the batches. `flush`
waits for everything sent so far; `close` lets the Sender finish within a timeout, then forces it.
With a transactional.id the producer is transactional: `init_transactions`, then `begin_transaction`,
sends, `send_offsets_to_transaction` and `commit_transaction` or `abort_transaction`, each waiting at most
max.block.ms for the TransactionManager's requests.

`metrics()` returns the producer's metrics as Java's do (producer-metrics, producer-topic-metrics,
producer-node-metrics, app-info), recorded by the Sender, the accumulator, the buffer pool and the selector, and
(KafkaProducerMetrics) the time spent in flush, the transaction calls and the waits for metadata.

# PORT: no telemetry (KIP-714); no reporters.
"""

from __future__ import annotations

import functools
import logging
import threading
from collections.abc import Mapping, Sequence
from time import time_ns as _time_ns
from typing import Any, Generic, TypeVar, cast

from kafka.clients import client_utils
from kafka.clients.api_versions import ApiVersions
from kafka.clients.consumer.consumer_group_metadata import ConsumerGroupMetadata
from kafka.clients.consumer.offset_and_metadata import OffsetAndMetadata
from kafka.clients.kafka_client import KafkaClient
from kafka.clients.producer.callback import _CALLBACK_TYPES, Callback, CallbackLike, as_callback
from kafka.clients.producer.internals.buffer_pool import BufferPool
from kafka.clients.producer.internals.built_in_partitioner import BuiltInPartitioner
from kafka.clients.producer.internals.default_partitioner import DefaultPartitioner
from kafka.clients.producer.internals.future_record_metadata import FutureFailure, FutureRecordMetadata
from kafka.clients.producer.internals.kafka_producer_metrics import KafkaProducerMetrics
from kafka.clients.producer.internals.producer_batch import register_append_callbacks, register_send
from kafka.clients.producer.internals.producer_interceptors import ProducerInterceptors
from kafka.clients.producer.internals.producer_metadata import ProducerMetadata
from kafka.clients.producer.internals.record_accumulator import (
    AppendCallbacks,
    PartitionerConfig,
    RecordAccumulator,
    register_partition_setter,
)
from kafka.clients.producer.internals.record_accumulator import append_to_partition as _append_to_partition
from kafka.clients.producer.internals.sender import Sender, throttle_time_sensor
from kafka.clients.producer.internals.sender_metrics_registry import SenderMetricsRegistry
from kafka.clients.producer.internals.transaction_manager import TransactionManager
from kafka.clients.producer.partitioner import Partitioner
from kafka.clients.producer.producer_config import ProducerConfig
from kafka.clients.producer.producer_interceptor import ProducerInterceptor
from kafka.clients.producer.producer_record import _SENT_EMPTY_HEADERS, ProducerRecord
from kafka.clients.producer.producer_record import _set_headers as _set_record_headers
from kafka.clients.producer.record_metadata import RecordMetadata
from kafka.clients.producer.uniform_sticky_partitioner import UniformStickyPartitioner
from kafka.common.cluster import Cluster
from kafka.common.config.abstract_config import AbstractConfig
from kafka.common.config.config_exception import ConfigException
from kafka.common.errors import (
    ApiException,
    InvalidTopicException,
    KafkaException,
    RecordTooLargeException,
    SerializationException,
    TimeoutException,
)
from kafka.common.header.headers import Header
from kafka.common.metric import Metric
from kafka.common.metric_name import MetricName
from kafka.common.metrics.metrics import Metrics
from kafka.common.partition_info import PartitionInfo
from kafka.common.record.abstract_records import AbstractRecords
from kafka.common.record.compression_type import CompressionType
from kafka.common.record.record_batch import NO_TIMESTAMP
from kafka.common.requests.join_group_request import UNKNOWN_MEMBER_ID
from kafka.common.serialization.byte_array_serializer import ByteArraySerializer
from kafka.common.serialization.serializer import Serializer
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.app_info_parser import register_app_info, unregister_app_info
from kafka.common.utils.kafka_thread import KafkaThread
from kafka.common.utils.log_context import TRACE, LogContext
from kafka.common.utils.time import Time

K = TypeVar("K")
V = TypeVar("V")

__all__ = ["KafkaProducer"]

_INT_MAX = 2**31 - 1
_LONG_MAX = 2**63 - 1

Future = FutureRecordMetadata | FutureFailure

# More than what a one-record batch of any magic adds to the key and value of a record without headers (at most
# 93 bytes, for v2: the 61-byte batch header, 21 bytes of record overhead, two length varints of at most 5 bytes
# and the header count; legacy formats add less).
_RECORD_SIZE_MARGIN = 128
_SYSTEM_TIME = Time.SYSTEM
_UNKNOWN_PARTITION = RecordMetadata.UNKNOWN_PARTITION


class KafkaProducer(Generic[K, V]):
    """A thread-safe Kafka producer; share one instance between threads.

    ```
    producer = KafkaProducer({"bootstrap.servers": "localhost:9092"}, StringSerializer(), StringSerializer())
    producer.send(ProducerRecord("topic", "value", key="key")).get()
    producer.close()
    ```
    """

    JMX_PREFIX = "kafka.producer"
    NETWORK_THREAD_PREFIX = "kafka-producer-network-thread"
    PRODUCER_METRIC_GROUP_NAME = "producer-metrics"

    def __init__(
        self,
        configs: Mapping[str, Any] | ProducerConfig,
        key_serializer: Serializer[K] | None = None,
        value_serializer: Serializer[V] | None = None,
        *,
        metadata: ProducerMetadata | None = None,
        kafka_client: KafkaClient | None = None,
        interceptors: ProducerInterceptors[K, V] | None = None,
        time: Time = Time.SYSTEM,
    ) -> None:
        """Builds the producer and starts its I/O thread.

        `configs` uses Java's key names; serializers given here take precedence over key.serializer and
        value.serializer. `metadata`, `kafka_client`, `interceptors` and `time` are for tests, as in Java's
        package-private constructor.
        """
        self._sender: Sender | None = None
        self._io_thread: KafkaThread | None = None
        self._interceptors: ProducerInterceptors[K, V] | None = None
        self._key_serializer: Serializer[K] | None = None
        self._value_serializer: Serializer[V] | None = None
        self._partitioner: Partitioner | None = None
        self._metadata: ProducerMetadata | None = None
        self._metrics: Metrics | None = None
        self._producer_metrics: KafkaProducerMetrics | None = None
        self._client_id = "unknown"
        self._log = LogContext("[Producer clientId=unknown] ").logger("org.apache.kafka.clients.producer.KafkaProducer")
        # As in Java, an invalid configuration fails here, before anything is built.
        if isinstance(configs, ProducerConfig):
            config = configs
        else:
            config = ProducerConfig(
                ProducerConfig.append_serializer_to_config(configs, key_serializer, value_serializer)
            )
        try:
            self._init(config, key_serializer, value_serializer, metadata, kafka_client, interceptors, time)
        except BaseException as t:
            # Release what was built before the failure (KAFKA-2121), then report it.
            self._close(0, True)
            raise KafkaException("Failed to construct kafka producer") from t

    def _init(
        self,
        config: ProducerConfig,
        key_serializer: Serializer[K] | None,
        value_serializer: Serializer[V] | None,
        metadata: ProducerMetadata | None,
        kafka_client: KafkaClient | None,
        interceptors: ProducerInterceptors[K, V] | None,
        time: Time,
    ) -> None:
        self._producer_config = config
        self._time = time
        transactional_id = config.get_string(ProducerConfig.TRANSACTIONAL_ID_CONFIG)
        self._client_id = config.get_string(ProducerConfig.CLIENT_ID_CONFIG)
        if transactional_id is None:
            log_context = LogContext(f"[Producer clientId={self._client_id}] ")
        else:
            log_context = LogContext(f"[Producer clientId={self._client_id}, transactionalId={transactional_id}] ")
        self._log = log_context.logger("org.apache.kafka.clients.producer.KafkaProducer")
        # Whether _wakeup_sender's trace line is on (its logger's isEnabledFor(TRACE)): send_common asks it before
        # waking the sender itself (see _wakeup_sender).
        self._trace_enabled = functools.partial(logging.getLogger(self._log.name).isEnabledFor, TRACE)
        self._log.trace("Starting the Kafka producer")
        self._metrics = client_utils.create_metrics(config, self._client_id, time)
        self._producer_metrics = KafkaProducerMetrics(self._metrics)
        client_id_override = {ProducerConfig.CLIENT_ID_CONFIG: self._client_id}
        self._partitioner = AbstractConfig.configured_instance(
            config.get_class(ProducerConfig.PARTITIONER_CLASS_CONFIG), Partitioner, config.originals(client_id_override)
        )
        self._warn_if_partitioner_deprecated()
        self._partitioner_ignore_keys = config.get_boolean(ProducerConfig.PARTITIONER_IGNORE_KEYS_CONFIG)
        retry_backoff_ms = config.get_long(ProducerConfig.RETRY_BACKOFF_MS_CONFIG)
        retry_backoff_max_ms = config.get_long(ProducerConfig.RETRY_BACKOFF_MAX_MS_CONFIG)
        if key_serializer is None:
            self._key_serializer = AbstractConfig.configured_instance(
                config.get_class(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG), Serializer, None
            )
            assert self._key_serializer is not None
            self._key_serializer.configure(config.originals(client_id_override), True)
        else:
            config.ignore(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG)
            self._key_serializer = key_serializer
        if value_serializer is None:
            self._value_serializer = AbstractConfig.configured_instance(
                config.get_class(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG), Serializer, None
            )
            assert self._value_serializer is not None
            self._value_serializer.configure(config.originals(client_id_override), False)
        else:
            config.ignore(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG)
            self._value_serializer = value_serializer
        interceptor_list: list[ProducerInterceptor[K, V]] = [
            i
            for i in (
                AbstractConfig.configured_instance(c, ProducerInterceptor, config.originals(client_id_override))
                for c in config.get_list(ProducerConfig.INTERCEPTOR_CLASSES_CONFIG)
            )
            if i is not None
        ]
        self._interceptors = interceptors if interceptors is not None else ProducerInterceptors(interceptor_list)
        # Without interceptors, send skips the chain (it would do nothing).
        # PORT: _has_interceptors, _time, _partitioner, _key_serializer_is_bytes, _value_serializer_is_bytes and
        # _record_size_limit are set here only: the compiled send_common reads them once for the producer it last
        # found fit for its common case.
        self._has_interceptors = len(self._interceptors) > 0
        # Serializers that do not look at the headers are called through `serialize` directly.
        self._key_serializer_uses_headers = _uses_headers(self._key_serializer)
        self._value_serializer_uses_headers = _uses_headers(self._value_serializer)
        # ByteArraySerializer returns None and bytes as they are: send takes them without the call.
        self._key_serializer_is_bytes = type(self._key_serializer) is ByteArraySerializer
        self._value_serializer_is_bytes = type(self._value_serializer) is ByteArraySerializer
        cluster_resource_listeners = client_utils.configure_cluster_resource_listeners(
            interceptor_list, [self._key_serializer, self._value_serializer]
        )
        self._max_request_size = config.get_int(ProducerConfig.MAX_REQUEST_SIZE_CONFIG)
        self._total_memory_size = config.get_long(ProducerConfig.BUFFER_MEMORY_CONFIG)
        # Records without headers whose key and value lengths plus _RECORD_SIZE_MARGIN stay within this cannot be
        # too large, so their exact size estimate is skipped.
        self._record_size_limit = min(self._max_request_size, self._total_memory_size)
        self._compression_type = CompressionType.for_name(config.get_string(ProducerConfig.COMPRESSION_TYPE_CONFIG))
        self._max_block_time_ms = config.get_long(ProducerConfig.MAX_BLOCK_MS_CONFIG)
        delivery_timeout_ms = self._configure_delivery_timeout(config)
        self._api_versions = ApiVersions()
        self._transaction_manager = self._configure_transaction_state(config, log_context)
        # Adaptive partitioning only concerns the built-in partitioner.
        enable_adaptive_partitioning = self._partitioner is None and config.get_boolean(
            ProducerConfig.PARTITIONER_ADPATIVE_PARTITIONING_ENABLE_CONFIG
        )
        partitioner_config = PartitionerConfig(
            enable_adaptive_partitioning, config.get_long(ProducerConfig.PARTITIONER_AVAILABILITY_TIMEOUT_MS_CONFIG)
        )
        # batch.size 0 disables batching, which amounts to batches of one record.
        batch_size = max(1, config.get_int(ProducerConfig.BATCH_SIZE_CONFIG))
        self._accumulator = RecordAccumulator(
            log_context,
            batch_size,
            self._compression_type,
            _linger_ms(config),
            retry_backoff_ms,
            retry_backoff_max_ms,
            delivery_timeout_ms,
            partitioner_config,
            time,
            self._api_versions,
            self._transaction_manager,
            BufferPool(
                self._total_memory_size, batch_size, time, self.PRODUCER_METRIC_GROUP_NAME, metrics=self._metrics
            ),
            metrics=self._metrics,
            metric_grp_name=self.PRODUCER_METRIC_GROUP_NAME,
        )
        addresses = client_utils.parse_and_validate_addresses(config)
        if metadata is not None:
            self._metadata = metadata
        else:
            self._metadata = ProducerMetadata(
                retry_backoff_ms,
                retry_backoff_max_ms,
                config.get_long(ProducerConfig.METADATA_MAX_AGE_CONFIG),
                config.get_long(ProducerConfig.METADATA_MAX_IDLE_CONFIG),
                log_context,
                cluster_resource_listeners,
                Time.SYSTEM,
            )
            self._metadata.bootstrap(addresses)
        self._errors = self._metrics.sensor("errors")
        self._sender = self._new_sender(log_context, kafka_client, self._metadata)
        io_thread_name = f"{self.NETWORK_THREAD_PREFIX} | {self._client_id}"
        self._io_thread = KafkaThread(io_thread_name, self._sender.run, True)
        self._io_thread.start()
        config.log_unused()
        register_app_info(self.JMX_PREFIX, self._client_id, self._metrics, time.milliseconds())
        self._log.debug("Kafka producer started")

    def _warn_if_partitioner_deprecated(self) -> None:
        # Deprecated by KIP-794.
        if isinstance(self._partitioner, DefaultPartitioner):
            self._log.warn(
                f"DefaultPartitioner is deprecated.  Please clear {ProducerConfig.PARTITIONER_CLASS_CONFIG} "
                "configuration setting to get the default partitioning behavior"
            )
        if isinstance(self._partitioner, UniformStickyPartitioner):
            self._log.warn(
                f"UniformStickyPartitioner is deprecated.  Please clear {ProducerConfig.PARTITIONER_CLASS_CONFIG} "
                f"configuration setting and set {ProducerConfig.PARTITIONER_IGNORE_KEYS_CONFIG} to 'true' to get "
                "the uniform sticky partitioning behavior"
            )

    def _new_sender(
        self, log_context: LogContext, kafka_client: KafkaClient | None, metadata: ProducerMetadata
    ) -> Sender:
        config = self._producer_config
        max_inflight_requests = config.get_int(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION)
        request_timeout_ms = config.get_int(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG)
        assert self._metrics is not None
        metrics_registry = SenderMetricsRegistry(self._metrics)
        client: KafkaClient = (
            kafka_client
            if kafka_client is not None
            else client_utils.create_network_client(
                config,
                log_context,
                self._api_versions,
                self._time,
                max_inflight_requests,
                metadata,
                metrics=self._metrics,
                metrics_grp_prefix="producer",
                throttle_time_sensor=throttle_time_sensor(metrics_registry),
            )
        )
        acks = int(config.get_string(ProducerConfig.ACKS_CONFIG))
        return Sender(
            log_context,
            client,
            metadata,
            self._accumulator,
            max_inflight_requests == 1,
            config.get_int(ProducerConfig.MAX_REQUEST_SIZE_CONFIG),
            acks,
            config.get_int(ProducerConfig.RETRIES_CONFIG),
            self._time,
            request_timeout_ms,
            config.get_long(ProducerConfig.RETRY_BACKOFF_MS_CONFIG),
            self._transaction_manager,
            self._api_versions,
            metrics_registry,
        )

    def _configure_delivery_timeout(self, config: ProducerConfig) -> int:
        delivery_timeout_ms = config.get_int(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG)
        linger_ms = _linger_ms(config)
        request_timeout_ms = config.get_int(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG)
        linger_and_request_timeout_ms = min(linger_ms + request_timeout_ms, _INT_MAX)
        if delivery_timeout_ms < linger_and_request_timeout_ms:
            if ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG in config.originals():
                # An explicit but inconsistent setting is an error.
                raise ConfigException(
                    f"{ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG} should be equal to or larger than "
                    f"{ProducerConfig.LINGER_MS_CONFIG} + {ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG}"
                )
            # The default is raised to linger.ms + request.timeout.ms, as older clients behaved.
            delivery_timeout_ms = linger_and_request_timeout_ms
            self._log.warn(
                f"{ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG} should be equal to or larger than "
                f"{ProducerConfig.LINGER_MS_CONFIG} + {ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG}. Setting it to "
                f"{delivery_timeout_ms}."
            )
        return delivery_timeout_ms

    def _configure_transaction_state(
        self, config: ProducerConfig, log_context: LogContext
    ) -> TransactionManager | None:
        if not config.get_boolean(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG):
            # Transaction settings are not read without idempotence.
            config.ignore(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG)
            return None
        transactional_id = config.get_string(ProducerConfig.TRANSACTIONAL_ID_CONFIG)
        transaction_manager = TransactionManager(
            log_context,
            transactional_id,
            config.get_int(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG),
            config.get_long(ProducerConfig.RETRY_BACKOFF_MS_CONFIG),
            self._api_versions,
        )
        if transaction_manager.is_transactional():
            self._log.info("Instantiated a transactional producer.")
        else:
            self._log.info("Instantiated an idempotent producer.")
        return transaction_manager

    # ---- transactions ----------------------------------------------------------------------------

    def init_transactions(self) -> None:
        """Gets the producer id and epoch for transactional.id, fencing older producers with the same id and
        completing (committing or aborting) their open transaction. Call once, before any other transactional
        method. Waits at most max.block.ms (TimeoutException; calling again then waits for the same request)."""
        self._throw_if_no_transaction_manager()
        self._throw_if_producer_closed()
        assert self._transaction_manager is not None and self._sender is not None
        now = self._time.nanoseconds()
        result = self._transaction_manager.initialize_transactions()
        self._sender.wakeup()
        result.await_(self._max_block_time_ms)
        self._require_producer_metrics().record_init(self._time.nanoseconds() - now)

    def begin_transaction(self) -> None:
        """Starts a transaction: the records sent until commit or abort belong to it."""
        self._throw_if_no_transaction_manager()
        self._throw_if_producer_closed()
        assert self._transaction_manager is not None
        now = self._time.nanoseconds()
        self._transaction_manager.begin_transaction()
        self._require_producer_metrics().record_begin_txn(self._time.nanoseconds() - now)

    def send_offsets_to_transaction(
        self, offsets: Mapping[TopicPartition, OffsetAndMetadata], group_metadata: ConsumerGroupMetadata | str
    ) -> None:
        """Commits the consumer group's `offsets` with the transaction (consume-transform-produce).

        `group_metadata` is the consumer's `group_metadata()`, so that the group coordinator can refuse a
        member that was fenced; a plain group id is the deprecated form (no such check)."""
        if isinstance(group_metadata, str):
            group_metadata = ConsumerGroupMetadata(group_metadata)
        self._throw_if_invalid_group_metadata(group_metadata)
        self._throw_if_no_transaction_manager()
        self._throw_if_producer_closed()
        assert self._transaction_manager is not None and self._sender is not None
        if offsets:
            start = self._time.nanoseconds()
            result = self._transaction_manager.send_offsets_to_transaction(offsets, group_metadata)
            self._sender.wakeup()
            result.await_(self._max_block_time_ms)
            self._require_producer_metrics().record_send_offsets(self._time.nanoseconds() - start)

    def commit_transaction(self) -> None:
        """Sends the records not sent yet, then commits the transaction; waits at most max.block.ms.

        After an abortable error (KafkaException), call abort_transaction; fencing (ProducerFencedException)
        and other fatal errors leave only close()."""
        self._throw_if_no_transaction_manager()
        self._throw_if_producer_closed()
        assert self._transaction_manager is not None and self._sender is not None
        commit_start = self._time.nanoseconds()
        result = self._transaction_manager.begin_commit()
        self._sender.wakeup()
        result.await_(self._max_block_time_ms)
        self._require_producer_metrics().record_commit_txn(self._time.nanoseconds() - commit_start)

    def abort_transaction(self) -> None:
        """Aborts the transaction: its records not sent yet fail, those written are never read by read_committed
        consumers. Waits at most max.block.ms."""
        self._throw_if_no_transaction_manager()
        self._throw_if_producer_closed()
        self._log.info("Aborting incomplete transaction")
        assert self._transaction_manager is not None and self._sender is not None
        abort_start = self._time.nanoseconds()
        result = self._transaction_manager.begin_abort()
        self._sender.wakeup()
        result.await_(self._max_block_time_ms)
        self._require_producer_metrics().record_abort_txn(self._time.nanoseconds() - abort_start)

    # ---- sending ---------------------------------------------------------------------------------

    def send(self, record: ProducerRecord[K, V], callback: CallbackLike | None = None) -> Future:
        """Queues `record` and returns its future; `callback(metadata, exception)` runs on the I/O thread.

        Blocks up to max.block.ms for the topic's metadata and for buffer memory. Errors the broker would
        report (ApiException: unknown topic, record too large, timeouts...) come back through the future and
        the callback; configuration and usage errors are raised here.
        """
        # PORT: with the optional compiled module, the common case (a record without key, partition or headers, no
        # interceptors, byte-array serializers, the built-in partitioner, the topic's partitions known, the append
        # taken by the partition's open batch) is done by one call of it, with the same steps as below; it answers
        # None, having changed nothing that the code below does not set again, in every other case.
        if _send_common is not None:
            future = _send_common(self, record, callback)
            if future is not None:
                return future
        # PORT: Java's send and doSend written as one method (one call less for every record sent).
        interceptors = self._interceptors
        assert interceptors is not None
        if self._has_interceptors:
            record = interceptors.on_send(record)
        # as_callback's check written out for a class already known to be a Callback (this runs for every record).
        user_callback: Callback | None
        if callback is None or _CALLBACK_TYPES.get(type(callback)) is True:
            user_callback = callback  # type: ignore[assignment]
        else:
            user_callback = as_callback(callback)
        append_callbacks = _new_append_callbacks(
            user_callback, interceptors if self._has_interceptors else None, record.topic, record.partition
        )
        try:
            sender = self._sender
            # is_running, read directly.
            if sender is None or not sender.running:
                self._throw_if_producer_closed()
            time = self._time
            # The system clock's milliseconds read without the method call.
            now_ms = _time_ns() // 1_000_000 if time is _SYSTEM_TIME else time.milliseconds()
            metadata = self._metadata
            key_serializer = self._key_serializer
            value_serializer = self._value_serializer
            assert metadata is not None and key_serializer is not None and value_serializer is not None
            topic = record.topic
            # _wait_on_metadata's first step in one call, for the common case of a topic whose partitions are known.
            cluster, partitions_count = metadata.fetch_for_send(topic, now_ms)
            if partitions_count is not None and (record.partition is None or record.partition < partitions_count):
                remaining_wait_ms = self._max_block_time_ms
            else:
                try:
                    cluster, waited_on_metadata_ms = self._wait_on_metadata(
                        topic, record.partition, now_ms, self._max_block_time_ms
                    )
                except KafkaException as e:
                    if metadata.is_closed():
                        raise KafkaException("Producer closed while send in progress") from e
                    raise
                now_ms += waited_on_metadata_ms
                remaining_wait_ms = max(0, self._max_block_time_ms - waited_on_metadata_ms)
            key: Any = record.key
            serialized_key: bytes | None
            try:
                if self._key_serializer_is_bytes and (key is None or type(key) is bytes):
                    serialized_key = key
                elif self._key_serializer_uses_headers:
                    serialized_key = key_serializer.serialize_with_headers(topic, record.headers, record.key)
                else:
                    serialized_key = key_serializer.serialize(topic, record.key)
            except TypeError as cce:
                raise SerializationException(
                    f"Can't convert key of class {_class_name(record.key)} to class "
                    f"{_class_name(key_serializer, True)} specified in key.serializer"
                ) from cce
            value: Any = record.value
            serialized_value: bytes | None
            try:
                if self._value_serializer_is_bytes and (value is None or type(value) is bytes):
                    serialized_value = value
                elif self._value_serializer_uses_headers:
                    serialized_value = value_serializer.serialize_with_headers(topic, record.headers, record.value)
                else:
                    serialized_value = value_serializer.serialize(topic, record.value)
            except TypeError as cce:
                raise SerializationException(
                    f"Can't convert value of class {_class_name(record.value)} to class "
                    f"{_class_name(value_serializer, True)} specified in value.serializer"
                ) from cce
            # UNKNOWN_PARTITION (-1) lets the accumulator pick the sticky partition.
            if record.partition is None and self._partitioner is None and serialized_key is None:
                partition = RecordMetadata.UNKNOWN_PARTITION
            else:
                partition = self._partition(record, serialized_key, serialized_value, cluster)
            # _headers_for_send written out for a record whose headers were never asked for (most records): this
            # runs for every record sent.
            headers: tuple[Header, ...]
            if record._headers is None:
                _set_record_headers(record, _SENT_EMPTY_HEADERS)
                headers = ()
            else:
                headers = record._headers_for_send()
            # A record without headers that is far below the limits cannot fail the size check: its exact
            # estimate is only needed near them.
            if (
                headers
                or (0 if serialized_key is None else len(serialized_key))
                + (0 if serialized_value is None else len(serialized_value))
                + _RECORD_SIZE_MARGIN
                > self._record_size_limit
            ):
                serialized_size = AbstractRecords.estimate_size_in_bytes_upper_bound(
                    self._api_versions.max_usable_produce_magic(),
                    self._compression_type,
                    serialized_key,
                    serialized_value,
                    headers,
                )
                self._ensure_valid_record_size(serialized_size)
            timestamp = now_ms if record.timestamp is None else record.timestamp
            # A custom partitioner hears of new batches (and may pick another partition for them).
            abort_on_new_batch = self._partitioner is not None
            accumulator = self._accumulator
            # The compiled module's append_to_partition does the accumulator's common append in one call (it makes no
            # new batch, so abort_on_new_batch does not concern it); None otherwise, and append runs.
            if (
                _append_to_partition is None
                or (
                    result := _append_to_partition(
                        accumulator,
                        topic,
                        partition,
                        timestamp,
                        serialized_key,
                        serialized_value,
                        headers,
                        append_callbacks,
                        now_ms,
                        cluster,
                    )
                )
                is None
            ):
                result = accumulator.append(
                    topic,
                    partition,
                    timestamp,
                    serialized_key,
                    serialized_value,
                    headers,
                    append_callbacks,
                    remaining_wait_ms,
                    abort_on_new_batch,
                    now_ms,
                    cluster,
                )
            if result.abort_for_new_batch:
                prev_partition = partition
                self._on_new_batch(record.topic, cluster, prev_partition)
                partition = self._partition(record, serialized_key, serialized_value, cluster)
                if self._log.is_trace_enabled():
                    self._log.trace(
                        f"Retrying append due to new batch creation for topic {record.topic} partition {partition}. "
                        f"The old partition was {prev_partition}"
                    )
                result = self._accumulator.append(
                    record.topic,
                    partition,
                    timestamp,
                    serialized_key,
                    serialized_value,
                    headers,
                    append_callbacks,
                    remaining_wait_ms,
                    False,
                    now_ms,
                    cluster,
                )
            transaction_manager = self._transaction_manager
            # is_partition_check_needed, read directly.
            if transaction_manager is not None and transaction_manager.partition_check_needed:
                appended_tp = append_callbacks.topic_partition()
                assert appended_tp is not None
                transaction_manager.maybe_add_partition(appended_tp)
            if result.batch_is_full or result.new_batch_created:
                self._wakeup_sender(record.topic, append_callbacks)
            assert result.future is not None
            return result.future
        except ApiException as e:
            # Errors the broker could have reported go into the future (and the callback).
            self._log.debug("Exception occurred during message send:", e)
            if user_callback is not None:
                tp = append_callbacks.topic_partition()
                null_metadata = RecordMetadata(tp, -1, -1, NO_TIMESTAMP, -1, -1) if tp is not None else None
                user_callback.on_completion(null_metadata, e)
            self._errors.record()
            interceptors.on_send_error(record, append_callbacks.topic_partition(), e)
            if self._transaction_manager is not None:
                self._transaction_manager.maybe_transition_to_error_state(e)
            return FutureFailure(e)
        except BaseException as e:
            # Everything else is raised, after the interceptors hear of it.
            if isinstance(e, KafkaException | InterruptedError):
                self._errors.record()
            interceptors.on_send_error(record, append_callbacks.topic_partition(), e)
            raise

    def _wakeup_sender(self, topic: str, append_callbacks: _AppendCallbacks) -> None:
        """Wakes the sender up: the record's batch is full or new."""
        # PORT: the compiled send_common calls this only while the trace line is on (_trace_enabled); otherwise it
        # does what this does without the call: it calls the sender's wakeup unless the sender's _wakeup_pending is
        # already set (when wakeup does nothing).
        if self._log.is_trace_enabled():
            self._log.trace(
                f"Waking up the sender since topic {topic} partition {append_callbacks.get_partition()} "
                "is either full or getting a new batch"
            )
        assert self._sender is not None
        self._sender.wakeup()

    def _throw_if_producer_closed(self) -> None:
        if self._sender is None or not self._sender.is_running():
            raise RuntimeError("Cannot perform operation after producer has been closed")

    def _on_new_batch(self, topic: str, cluster: Cluster, prev_partition: int) -> None:
        assert self._partitioner is not None
        self._partitioner.on_new_batch(topic, cluster, prev_partition)

    def _wait_on_metadata(
        self, topic: str, partition: int | None, now_ms: int, max_wait_ms: int
    ) -> tuple[Cluster, int]:
        """The cluster once it knows `topic` (and `partition`), and how long that took; at most `max_wait_ms`."""
        metadata = self._metadata
        assert metadata is not None and self._sender is not None
        # Keep the topic in the metadata (and its idle expiry fresh).
        cluster = metadata.fetch()
        if topic in cluster.invalid_topics:
            raise InvalidTopicException(f"Invalid topics: [{topic}]")
        metadata.add(topic, now_ms)
        partitions_count = cluster.partition_count_for_topic(topic)
        if partitions_count is not None and (partition is None or partition < partitions_count):
            return cluster, 0
        remaining_wait_ms = max_wait_ms
        elapsed = 0
        now_nanos = self._time.nanoseconds()
        # Ask until the topic (and the partition, which may be newly added) is known or the time is up.
        while True:
            if self._log.is_trace_enabled():
                if partition is not None:
                    self._log.trace(f"Requesting metadata update for partition {partition} of topic {topic}.")
                else:
                    self._log.trace(f"Requesting metadata update for topic {topic}.")
            metadata.add(topic, now_ms + elapsed)
            version = metadata.request_update_for_topic(topic)
            self._sender.wakeup()
            try:
                metadata.await_update(version, remaining_wait_ms)
            except TimeoutException:
                raise TimeoutException(f"Topic {topic} not present in metadata after {max_wait_ms} ms.") from None
            cluster = metadata.fetch()
            elapsed = self._time.milliseconds() - now_ms
            if elapsed >= max_wait_ms:
                if partitions_count is None:
                    raise TimeoutException(f"Topic {topic} not present in metadata after {max_wait_ms} ms.")
                raise TimeoutException(
                    f"Partition {partition} of topic {topic} with partition count {partitions_count} is not present "
                    f"in metadata after {max_wait_ms} ms."
                )
            metadata.maybe_throw_exception_for_topic(topic)
            remaining_wait_ms = max_wait_ms - elapsed
            partitions_count = cluster.partition_count_for_topic(topic)
            if partitions_count is not None and (partition is None or partition < partitions_count):
                self._require_producer_metrics().record_metadata_wait(self._time.nanoseconds() - now_nanos)
                return cluster, elapsed

    def _ensure_valid_record_size(self, size: int) -> None:
        if size > self._max_request_size:
            raise RecordTooLargeException(
                f"The message is {size} bytes when serialized which is larger than {self._max_request_size}, which "
                f"is the value of the {ProducerConfig.MAX_REQUEST_SIZE_CONFIG} configuration."
            )
        if size > self._total_memory_size:
            raise RecordTooLargeException(
                f"The message is {size} bytes when serialized which is larger than the total memory buffer you have "
                f"configured with the {ProducerConfig.BUFFER_MEMORY_CONFIG} configuration."
            )

    def flush(self, timeout_ms: int | None = None) -> None:
        """Makes every queued record sendable now and waits until all sent so far are complete.

        # PORT: Java's flush() has no timeout; `timeout_ms` (default: none) bounds the wait here and raises
        TimeoutException when records are still incomplete then.
        """
        self._log.trace("Flushing accumulated records in producer.")
        start = self._time.nanoseconds()
        self._accumulator.begin_flush()
        assert self._sender is not None
        self._sender.wakeup()
        try:
            completed = self._accumulator.await_flush_completion(timeout_ms)
        finally:
            self._require_producer_metrics().record_flush(self._time.nanoseconds() - start)
        if not completed:
            raise TimeoutException(f"Flush did not complete within {timeout_ms} ms.")

    def partitions_for(self, topic: str) -> Sequence[PartitionInfo]:
        """The partitions of `topic`, waiting up to max.block.ms for its metadata."""
        if topic is None:
            raise ValueError("topic cannot be null")
        cluster, _ = self._wait_on_metadata(topic, None, self._time.milliseconds(), self._max_block_time_ms)
        return cluster.partitions_for_topic(topic)

    def metrics(self) -> Mapping[MetricName, Metric]:
        """The producer's metrics by name (a snapshot of the map; each Metric's metric_value() is read live)."""
        return self._metrics.metrics() if self._metrics is not None else {}

    def client_instance_id(self, timeout_ms: int) -> Any:
        raise RuntimeError(
            f"Telemetry is not enabled. Set config `{ProducerConfig.ENABLE_METRICS_PUSH_CONFIG}` to `true`."
        )

    # ---- closing ---------------------------------------------------------------------------------

    def close(self, timeout_ms: int | None = None) -> None:
        """Sends what is queued and waits up to `timeout_ms` (forever when None) for it, then forces the rest.

        Records still incomplete after the timeout fail with "Producer is closed forcefully.". Called from a
        callback (the I/O thread) the timeout is taken as 0, since the thread cannot wait for itself.
        """
        self._close(_LONG_MAX if timeout_ms is None else timeout_ms, False)

    def __enter__(self) -> KafkaProducer[K, V]:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _close(self, timeout_ms: int, swallow_exception: bool) -> None:
        if timeout_ms < 0:
            raise ValueError("The timeout cannot be negative.")
        self._log.info(f"Closing the Kafka producer with timeoutMillis = {timeout_ms} ms.")
        first_exception: BaseException | None = None
        io_thread = self._io_thread
        sender = self._sender
        invoked_from_callback = threading.current_thread() is io_thread
        if timeout_ms > 0:
            if invoked_from_callback:
                self._log.warn(
                    f"Overriding close timeout {timeout_ms} ms to 0 ms in order to prevent useless blocking due to "
                    "self-join. This means you have incorrectly invoked close with a non-zero timeout from the "
                    "producer call-back."
                )
            else:
                # Let the Sender finish what is queued and in flight.
                close_timer = self._time_or_system().timer(min(timeout_ms, _LONG_MAX))
                if sender is not None:
                    sender.initiate_close()
                    close_timer.update()
                if io_thread is not None:
                    io_thread.join(_join_timeout(close_timer.remaining_ms()))
                    close_timer.update()
        if sender is not None and io_thread is not None and io_thread.is_alive():
            self._log.info(
                "Proceeding to force close the producer since pending requests could not be completed within "
                f"timeout {timeout_ms} ms."
            )
            sender.force_close()
            # The I/O thread cannot join itself.
            if not invoked_from_callback:
                io_thread.join()
        for closeable, name in (
            (self._interceptors, "producer interceptors"),
            (self._producer_metrics, "producer metrics wrapper"),
            (self._key_serializer, "producer keySerializer"),
            (self._value_serializer, "producer valueSerializer"),
            (self._partitioner, "producer partitioner"),
        ):
            if closeable is None:
                continue
            try:
                closeable.close()
            except BaseException as e:
                self._log.warn(f"Failed to close {name}", e)
                if first_exception is None:
                    first_exception = e
        if self._metrics is not None:
            try:
                self._metrics.close()
            except BaseException as e:
                self._log.warn("Failed to close producer metrics", e)
                if first_exception is None:
                    first_exception = e
        unregister_app_info(self.JMX_PREFIX, self._client_id, self._metrics)
        if first_exception is not None and not swallow_exception:
            raise KafkaException("Failed to close kafka producer") from first_exception
        self._log.debug("Kafka producer has been closed")

    def _time_or_system(self) -> Time:
        return getattr(self, "_time", Time.SYSTEM)

    # ---- partitions ------------------------------------------------------------------------------

    def _partition(
        self,
        record: ProducerRecord[K, V],
        serialized_key: bytes | None,
        serialized_value: bytes | None,
        cluster: Cluster,
    ) -> int:
        if record.partition is not None:
            return record.partition
        if self._partitioner is not None:
            custom_partition = self._partitioner.partition(
                record.topic, record.key, serialized_key, record.value, serialized_value, cluster
            )
            if custom_partition < 0:
                raise ValueError(
                    f"The partitioner generated an invalid partition number: {custom_partition}. Partition number "
                    "should always be non-negative."
                )
            return custom_partition
        if serialized_key is not None and not self._partitioner_ignore_keys:
            return BuiltInPartitioner.partition_for_key(serialized_key, len(cluster.partitions_for_topic(record.topic)))
        return RecordMetadata.UNKNOWN_PARTITION

    @staticmethod
    def _throw_if_invalid_group_metadata(group_metadata: ConsumerGroupMetadata | None) -> None:
        if group_metadata is None:
            raise ValueError("Consumer group metadata could not be null")
        if group_metadata.generation_id > 0 and group_metadata.member_id == UNKNOWN_MEMBER_ID:
            raise ValueError(f"Passed in group metadata {group_metadata} has generationId > 0 but member.id ")

    def _require_producer_metrics(self) -> KafkaProducerMetrics:
        assert self._producer_metrics is not None
        return self._producer_metrics

    def _throw_if_no_transaction_manager(self) -> None:
        if self._transaction_manager is None:
            raise RuntimeError(
                "Cannot use transactional methods without enabling transactions by setting the "
                f"{ProducerConfig.TRANSACTIONAL_ID_CONFIG} configuration property"
            )

    @property
    def client_id(self) -> str:
        return self._client_id


class _AppendCallbacks(AppendCallbacks):
    """Tells the interceptors and then the user's callback; remembers the partition the accumulator chose."""

    __slots__ = ("_interceptors", "_partition", "_record_partition", "_topic", "_topic_partition", "_user_callback")

    def __init__(
        self,
        user_callback: Callback | None,
        interceptors: ProducerInterceptors[Any, Any] | None,
        topic: str | None,
        record_partition: int | None,
    ) -> None:
        # PORT: the record's topic and partition rather than the record (Java's constructor takes the record and
        # keeps only these two): the record itself must not live as long as its batch. new_append_callbacks (below)
        # sets the same six slots.
        self._user_callback = user_callback
        # None when the producer has no interceptors.
        self._interceptors = interceptors
        self._topic = topic
        self._record_partition = record_partition
        self._partition = RecordMetadata.UNKNOWN_PARTITION
        self._topic_partition: TopicPartition | None = None

    def on_completion(self, metadata: RecordMetadata | None, exception: BaseException | None) -> None:
        if metadata is None:
            tp = self.topic_partition()
            if tp is not None:
                metadata = RecordMetadata(tp, -1, -1, NO_TIMESTAMP, -1, -1)
        if self._interceptors is not None:
            self._interceptors.on_acknowledgement(metadata, exception)
        if self._user_callback is not None:
            self._user_callback.on_completion(metadata, exception)

    def set_partition(self, partition: int) -> None:
        assert partition != _UNKNOWN_PARTITION
        self._partition = partition

    def get_partition(self) -> int:
        return self._partition

    def topic_partition(self) -> TopicPartition | None:
        if self._topic_partition is None and self._topic is not None:
            if self._partition != RecordMetadata.UNKNOWN_PARTITION:
                self._topic_partition = TopicPartition(self._topic, self._partition)
            elif self._record_partition is not None:
                self._topic_partition = TopicPartition(self._topic, self._record_partition)
            else:
                self._topic_partition = TopicPartition(self._topic, RecordMetadata.UNKNOWN_PARTITION)
        return self._topic_partition


# A successful batch's compiled callback loop calls the user's callback itself when there are no interceptors; with
# the compiled module, the per-record instances are made by it too (the class's constructor otherwise).
_new_append_callbacks = register_append_callbacks(_AppendCallbacks)
# The accumulator sets the chosen partition through the slot (set_partition's assignment; the partition it chooses
# is never UNKNOWN_PARTITION).
register_partition_setter(_AppendCallbacks, cast(Any, _AppendCallbacks.__dict__["_partition"]).__set__)
# send's common case in one call of the compiled module (None without it): see send.
_send_common = register_send(_CALLBACK_TYPES, _SENT_EMPTY_HEADERS, _RECORD_SIZE_MARGIN)


def _uses_headers(serializer: Serializer[Any] | None) -> bool:
    """Whether the serializer has its own serialize_with_headers (the base one only calls serialize)."""
    return serializer is not None and type(serializer).serialize_with_headers is not Serializer.serialize_with_headers


def _linger_ms(config: ProducerConfig) -> int:
    return min(config.get_long(ProducerConfig.LINGER_MS_CONFIG), _INT_MAX)


def _join_timeout(remaining_ms: int) -> float | None:
    # Thread.join takes seconds; very long waits are unbounded joins.
    return None if remaining_ms >= _INT_MAX else remaining_ms / 1000


def _class_name(value: Any, is_instance: bool = False) -> str:
    cls = type(value)
    return f"{cls.__module__}.{cls.__qualname__}" if is_instance or value is not None else "null"
