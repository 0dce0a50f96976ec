"""Port of clients/src/main/java/org/apache/kafka/clients/producer/internals/Sender.java (Kafka 3.7).

The producer's I/O loop, run on the thread `kafka-producer-network-thread | {client.id}`: each pass
asks the accumulator which leaders have sendable data, connects to them, drains batches into one
produce request per node, expires batches past delivery.timeout.ms, and polls the network client,
whose completions handle the produce responses (complete, retry, split on MESSAGE_TOO_LARGE, fail).
For an idempotent or transactional producer it first sends the TransactionManager's requests, one at a
time and each to its coordinator (FindCoordinator, InitProducerId, AddPartitionsToTxn, AddOffsetsToTxn,
TxnOffsetCommit, EndTxn), and bumps the epoch when asked to. On close it keeps sending until the
accumulator is empty and no request is in flight, then aborts a transaction left open, unless forced.

Its sensors (SenderMetrics, SenderMetricsRegistry's names) are recorded per drained batch and per request.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from kafka.clients.metadata import LeaderIdAndEpoch
from kafka.clients.producer.internals.producer_batch import ProducerBatch
from kafka.clients.producer.internals.sender_metrics_registry import SenderMetricsRegistry
from kafka.common.errors import (
    AuthenticationException,
    ClusterAuthorizationException,
    FencedLeaderEpochException,
    InvalidMetadataException,
    InvalidRecordException,
    KafkaException,
    NotLeaderOrFollowerException,
    TimeoutException,
    TopicAuthorizationException,
    TransactionAbortedException,
    TransactionalIdAuthorizationException,
    UnknownTopicOrPartitionException,
)
from kafka.common.message import ProduceRequestData
from kafka.common.metrics.internals.metric_functions import MeasurableFn
from kafka.common.metrics.metrics import Metrics
from kafka.common.metrics.stats.avg import Avg
from kafka.common.metrics.stats.max import Max
from kafka.common.metrics.stats.meter import Meter as MeterStat
from kafka.common.node import Node
from kafka.common.protocol.errors import Errors
from kafka.common.requests.find_coordinator_request import CoordinatorType
from kafka.common.requests.produce_request import ProduceRequest
from kafka.common.requests.produce_response import INVALID_OFFSET, PartitionResponse, RecordError
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.log_context import LogContext
from kafka.common.utils.time import Time

if TYPE_CHECKING:
    from kafka.clients.api_versions import ApiVersions
    from kafka.clients.client_response import ClientResponse
    from kafka.clients.kafka_client import KafkaClient
    from kafka.clients.producer.internals.producer_metadata import ProducerMetadata
    from kafka.clients.producer.internals.record_accumulator import RecordAccumulator
    from kafka.clients.producer.internals.transaction_manager import TransactionManager, TxnRequestHandler
    from kafka.common.metrics.sensor import Sensor

__all__ = ["Sender", "SenderMetrics", "throttle_time_sensor"]

_LONG_MAX = 2**63 - 1


class Sender:
    """The Runnable of the producer's I/O thread. `running`/`force_close` are set from other threads."""

    def __init__(
        self,
        log_context: LogContext,
        client: KafkaClient,
        metadata: ProducerMetadata,
        accumulator: RecordAccumulator,
        guarantee_message_order: bool,
        max_request_size: int,
        acks: int,
        retries: int,
        time: Time,
        request_timeout_ms: int,
        retry_backoff_ms: int,
        transaction_manager: TransactionManager | None,
        api_versions: ApiVersions,
        metrics_registry: SenderMetricsRegistry | None = None,
    ) -> None:
        """# PORT: Java takes the metrics registry after `retries`; here it is a trailing argument, and without one
        the sensors go to a registry of their own."""
        self._log = log_context.logger("org.apache.kafka.clients.producer.internals.Sender")
        self._client = client
        self._accumulator = accumulator
        self._metadata = metadata
        self._guarantee_message_order = guarantee_message_order
        self._max_request_size = max_request_size
        # Public: KafkaProducer.send reads it for every record, without is_running's call.
        self.running = True
        self._force_close = False
        self._acks = acks
        self._retries = retries
        self._time = time
        if metrics_registry is None:
            metrics_registry = SenderMetricsRegistry(Metrics(time=time))
        self._sensors = SenderMetrics(metrics_registry, metadata, client, time)
        self._request_timeout_ms = request_timeout_ms
        self._retry_backoff_ms = retry_backoff_ms
        self._api_versions = api_versions
        self._transaction_manager = transaction_manager
        # Per partition, the batches sent and not yet answered, oldest first (for delivery timeouts).
        self._in_flight_batches: dict[TopicPartition, list[ProducerBatch]] = {}
        # Whether a wakeup was written and the loop has not started a new pass since (see wakeup).
        self._wakeup_pending = False

    def in_flight_batches(self, tp: TopicPartition) -> list[ProducerBatch]:
        return list(self._in_flight_batches.get(tp, ()))

    def _maybe_remove_from_inflight_batches(self, batch: ProducerBatch) -> None:
        batches = self._in_flight_batches.get(batch.topic_partition)
        if batches is not None:
            for i, b in enumerate(batches):
                if b is batch:
                    del batches[i]
                    break
            if not batches:
                del self._in_flight_batches[batch.topic_partition]

    def _maybe_remove_and_deallocate_batch(self, batch: ProducerBatch) -> None:
        self._maybe_remove_from_inflight_batches(batch)
        self._accumulator.deallocate(batch)

    def _get_expired_inflight_batches(self, now: int) -> list[ProducerBatch]:
        expired_batches: list[ProducerBatch] = []
        delivery_timeout_ms = self._accumulator.get_delivery_timeout_ms()
        for tp in list(self._in_flight_batches):
            partition_in_flight_batches = self._in_flight_batches[tp]
            while partition_in_flight_batches:
                batch = partition_in_flight_batches[0]
                if batch.has_reached_delivery_timeout(delivery_timeout_ms, now):
                    del partition_in_flight_batches[0]
                    # Expiry runs before the poll that would complete the batch, so it cannot be done yet.
                    if not batch.is_done():
                        expired_batches.append(batch)
                    else:
                        raise RuntimeError(
                            f"{batch.topic_partition} batch created at {batch.created_ms} gets unexpected final "
                            f"state {batch.final_state()}"
                        )
                else:
                    self._accumulator.maybe_update_next_batch_expiry_time(batch)
                    break
            if not partition_in_flight_batches:
                del self._in_flight_batches[tp]
        return expired_batches

    def _add_to_inflight_batches_list(self, batches: Sequence[ProducerBatch]) -> None:
        for batch in batches:
            self._in_flight_batches.setdefault(batch.topic_partition, []).append(batch)

    def add_to_inflight_batches(self, batches: Mapping[int, Sequence[ProducerBatch]]) -> None:
        for batch_list in batches.values():
            self._add_to_inflight_batches_list(batch_list)

    def _has_pending_transactional_requests(self) -> bool:
        tm = self._transaction_manager
        return tm is not None and tm.has_pending_requests() and tm.has_ongoing_transaction()

    # ---- the loop --------------------------------------------------------------------------------

    def run(self) -> None:
        self._log.debug("Starting Kafka producer I/O thread.")
        tm = self._transaction_manager
        if tm is not None:
            tm.set_poison_state_on_invalid_transition(True)
        while self.running:
            self._run_once_logging_errors()
        self._log.debug("Beginning shutdown of Kafka producer I/O thread, sending remaining records.")
        # No new records are accepted; send what is queued and wait for what is in flight.
        while not self._force_close and (
            self._accumulator.has_undrained()
            or self._client.in_flight_request_count() > 0
            or self._has_pending_transactional_requests()
        ):
            self._run_once_logging_errors()
        # A transaction still open (neither committed nor aborted through the queue) is aborted.
        while not self._force_close and tm is not None and tm.has_ongoing_transaction():
            if not tm.is_completing():
                self._log.info("Aborting incomplete transaction due to shutdown")
                try:
                    # Errors here must not stop the rest of the shutdown.
                    tm.begin_abort()
                except Exception as e:
                    self._log.error("Error in kafka producer I/O thread while aborting transaction: ", e)
            self._run_once_logging_errors()
        if self._force_close:
            # Fail whatever is left, waking every thread waiting on a future.
            if tm is not None:
                self._log.debug("Aborting incomplete transactional requests due to forced shutdown")
                tm.close()
            self._log.debug("Aborting incomplete batches due to forced shutdown")
            self._accumulator.abort_incomplete_batches()
        try:
            self._client.close()
        except Exception as e:
            self._log.error("Failed to close network client", e)
        self._log.debug("Shutdown of Kafka producer I/O thread has completed.")

    def _run_once_logging_errors(self) -> None:
        try:
            self.run_once()
        except Exception as e:
            self._log.error("Uncaught error in kafka producer I/O thread: ", e)

    def run_once(self) -> None:
        """One pass: producer id housekeeping, then send what is ready and poll the network."""
        # Wakeups from now on are written again (see wakeup).
        self._wakeup_pending = False
        tm = self._transaction_manager
        if tm is not None:
            try:
                tm.maybe_resolve_sequences()
                last_error = tm.last_error()
                # Nothing is sent once the producer has a fatal error.
                if tm.has_fatal_error():
                    if last_error is not None:
                        self._maybe_abort_batches(last_error)
                    self._client.poll(self._retry_backoff_ms, self._time.milliseconds())
                    return
                if tm.has_abortable_error() and self._should_handle_authorization_error(last_error):
                    return
                # Queue InitProducerId when a (new) producer id is needed; it goes out below.
                tm.bump_idempotent_epoch_and_reset_id_if_needed()
                if self._maybe_send_and_poll_transactional_request():
                    return
            except AuthenticationException as e:
                # Already logged where it happened; fail the pending requests.
                self._log.trace("Authentication exception while processing transactional request", e)
                tm.authentication_failed(e)
        current_time_ms = self._time.milliseconds()
        poll_timeout = self._send_producer_data(current_time_ms)
        self._client.poll(poll_timeout, current_time_ms)

    def _should_handle_authorization_error(self, exception: BaseException | None) -> bool:
        """An authorization failure of InitProducerId fails the batches and lets the producer try again later."""
        tm = self._transaction_manager
        if isinstance(exception, TransactionalIdAuthorizationException | ClusterAuthorizationException):
            assert tm is not None
            tm.fail_pending_requests(AuthenticationException(str(exception)))
            self._maybe_abort_batches(exception)
            tm.transition_to_uninitialized(exception)
            return True
        return False

    def _send_producer_data(self, now: int) -> int:
        metadata_snapshot = self._metadata.fetch_metadata_snapshot()
        result = self._accumulator.ready(metadata_snapshot, now)
        # Data waits for partitions without a known leader: refresh their topics.
        if result.unknown_leader_topics:
            # They may also have expired from the metadata: add them back.
            for topic in result.unknown_leader_topics:
                self._metadata.add(topic, now)
            self._log.debug(
                "Requesting metadata update due to unknown leader topics from the batched records: "
                f"{_java_set(result.unknown_leader_topics)}"
            )
            self._metadata.request_update(False)
        # Keep only the nodes that can take a request now.
        not_ready_timeout = _LONG_MAX
        for node in list(result.ready_nodes):
            if not self._client.ready(node, now):
                # Only the ready time moves on: how long data has waited for this node.
                self._accumulator.update_node_latency_stats(node.id, now, False)
                result.ready_nodes.discard(node)
                not_ready_timeout = min(not_ready_timeout, self._client.poll_delay_ms(node, now))
            else:
                self._accumulator.update_node_latency_stats(node.id, now, True)
        batches = self._accumulator.drain(metadata_snapshot, result.ready_nodes, self._max_request_size, now)
        self.add_to_inflight_batches(batches)
        if self._guarantee_message_order:
            # One request per partition at a time.
            for batch_list in batches.values():
                for batch in batch_list:
                    self._accumulator.mute_partition(batch.topic_partition)
        self._accumulator.reset_next_batch_expiry_time()
        expired_inflight_batches = self._get_expired_inflight_batches(now)
        expired_batches = self._accumulator.expired_batches(now)
        expired_batches.extend(expired_inflight_batches)
        if expired_batches and self._log.is_trace_enabled():
            self._log.trace(f"Expired {len(expired_batches)} batches in accumulator")
        tm = self._transaction_manager
        for expired_batch in expired_batches:
            error_message = (
                f"Expiring {expired_batch.record_count} record(s) for {expired_batch.topic_partition}:"
                f"{now - expired_batch.created_ms} ms has passed since batch creation"
            )
            self._fail_batch(expired_batch, TimeoutException(error_message), False)
            if tm is not None and expired_batch.in_retry():
                # Its sequence may or may not have been written: hold the partition until that is known.
                tm.mark_sequence_unresolved(expired_batch)
        # With nodes ready and data to send, poll without waiting so the loop sends again at once; otherwise
        # wait until the earliest linger/backoff/expiry, not counting nodes that cannot take data (that
        # would spin).
        poll_timeout = min(result.next_ready_check_delay_ms, not_ready_timeout)
        poll_timeout = min(poll_timeout, self._accumulator.next_expiry_time_ms() - now)
        poll_timeout = max(poll_timeout, 0)
        if result.ready_nodes:
            if self._log.is_trace_enabled():
                self._log.trace(f"Nodes with data ready to send: {_java_set(str(n) for n in result.ready_nodes)}")
            poll_timeout = 0
        self._sensors.update_produce_request_metrics(batches)
        self._send_produce_requests(batches, now)
        return poll_timeout

    def _maybe_send_and_poll_transactional_request(self) -> bool:
        """Sends the TransactionManager's next request if there is one; True if it did work."""
        tm = self._transaction_manager
        assert tm is not None
        if tm.has_in_flight_request():
            # One such request at a time: wait for its answer.
            self._client.poll(self._retry_backoff_ms, self._time.milliseconds())
            return True
        if tm.has_abortable_error() or tm.is_aborting():
            if self._accumulator.has_incomplete():
                # The batches not sent yet fail with the error behind the abort (or as aborted).
                exception = tm.last_error()
                if exception is None:
                    exception = TransactionAbortedException()
                self._accumulator.abort_undrained_batches(exception)
        next_request_handler = tm.next_request(self._accumulator.has_incomplete())
        if next_request_handler is None:
            return False
        request_builder = next_request_handler.request_builder()
        target_node: Node | None = None
        try:
            coordinator_type = next_request_handler.coordinator_type()
            target_node = (
                tm.coordinator(coordinator_type)
                if coordinator_type is not None
                else self._client.least_loaded_node(self._time.milliseconds())
            )
            if target_node is not None:
                if not self._await_node_ready(target_node, coordinator_type):
                    if self._log.is_trace_enabled():
                        self._log.trace(
                            f"Target node {target_node} not ready within request timeout, will retry when node is "
                            "ready."
                        )
                    self._maybe_find_coordinator_and_retry(next_request_handler)
                    return True
            elif coordinator_type is not None:
                if self._log.is_trace_enabled():
                    self._log.trace(
                        f"Coordinator not known for {coordinator_type.name}, will retry "
                        f"{request_builder.api_key.name} after finding coordinator."
                    )
                self._maybe_find_coordinator_and_retry(next_request_handler)
                return True
            else:
                self._log.trace("No nodes available to send requests, will poll and retry when until a node is ready.")
                tm.retry(next_request_handler)
                self._client.poll(self._retry_backoff_ms, self._time.milliseconds())
                return True
            if next_request_handler.is_retry():
                self._time.sleep(next_request_handler.retry_backoff_ms())
            current_time_ms = self._time.milliseconds()
            client_request = self._client.new_client_request(
                target_node.id_string,
                request_builder,
                current_time_ms,
                True,
                self._request_timeout_ms,
                next_request_handler,
            )
            self._log.debug(
                f"Sending transactional request {request_builder} to node {target_node} with correlation ID "
                f"{client_request.correlation_id}"
            )
            self._client.send(client_request, current_time_ms)
            tm.set_in_flight_correlation_id(client_request.correlation_id)
            self._client.poll(self._retry_backoff_ms, self._time.milliseconds())
            return True
        except OSError as e:
            self._log.debug(
                f"Disconnect from {target_node} while trying to send request {request_builder}. Going to back off "
                "and retry.",
                e,
            )
            self._maybe_find_coordinator_and_retry(next_request_handler)
            return True

    def _maybe_find_coordinator_and_retry(self, next_request_handler: TxnRequestHandler) -> None:
        tm = self._transaction_manager
        assert tm is not None
        if next_request_handler.needs_coordinator():
            tm.lookup_coordinator(next_request_handler)
        else:
            # Requests to any broker: back off here so that having no node does not spin.
            self._time.sleep(self._retry_backoff_ms)
            self._metadata.request_update(False)
        tm.retry(next_request_handler)

    def _maybe_abort_batches(self, exception: BaseException) -> None:
        if self._accumulator.has_incomplete():
            self._log.error("Aborting producer batches due to fatal error", exception)
            self._accumulator.abort_batches(exception)

    def initiate_close(self) -> None:
        """Stops accepting records and lets the loop finish what is queued and in flight."""
        # The accumulator closes first, so that no append can slip in after the loop's last pass.
        self._accumulator.close()
        self.running = False
        self._wakeup_pending = True
        self._client.wakeup()

    def force_close(self) -> None:
        """Stops the loop at once, failing what is queued and in flight."""
        self._force_close = True
        self.initiate_close()

    def is_running(self) -> bool:
        return self.running

    def _await_node_ready(self, node: Node, coordinator_type: CoordinatorType | None) -> bool:
        """Whether `node` became ready within request.timeout.ms; a ready transaction coordinator tells the
        TransactionManager, which then knows its InitProducerId versions."""
        if self._await_ready(node):
            if coordinator_type is CoordinatorType.TRANSACTION:
                assert self._transaction_manager is not None
                self._transaction_manager.handle_coordinator_ready()
            return True
        return False

    def _await_ready(self, node: Node) -> bool:
        """NetworkClientUtils.awaitReady: poll until `node` is ready or request.timeout.ms passes."""
        client = self._client
        timeout_ms = self._request_timeout_ms
        start_time = self._time.milliseconds()
        client.poll(0, start_time)
        if client.is_ready(node, start_time) or client.ready(node, start_time):
            return True
        attempt_start_time = self._time.milliseconds()
        while not client.is_ready(node, attempt_start_time) and attempt_start_time - start_time < timeout_ms:
            if client.connection_failed(node):
                raise OSError(f"Connection to {node} failed.")
            poll_timeout = timeout_ms - (attempt_start_time - start_time)
            # This poll may block long: wakeups (a metadata request) must interrupt it (see wakeup).
            self._wakeup_pending = False
            client.poll(poll_timeout, attempt_start_time)
            auth_exception = client.authentication_exception(node)
            if auth_exception is not None:
                raise auth_exception
            attempt_start_time = self._time.milliseconds()
        return client.is_ready(node, attempt_start_time)

    # ---- produce responses -----------------------------------------------------------------------

    def _handle_produce_response(
        self, response: ClientResponse, batches: Mapping[TopicPartition, ProducerBatch], now: int
    ) -> None:
        request_header = response.request_header
        correlation_id = request_header.correlation_id
        if response.was_timed_out:
            if self._log.is_trace_enabled():
                self._log.trace(
                    f"Cancelled request with header {request_header} due to the last request to node "
                    f"{response.destination} timed out"
                )
            for batch in batches.values():
                self._complete_batch(
                    batch,
                    PartitionResponse(
                        Errors.REQUEST_TIMED_OUT,
                        error_message=f"Disconnected from node {response.destination} due to timeout",
                    ),
                    correlation_id,
                    now,
                    None,
                )
        elif response.was_disconnected:
            if self._log.is_trace_enabled():
                self._log.trace(
                    f"Cancelled request with header {request_header} due to node {response.destination} being "
                    "disconnected"
                )
            for batch in batches.values():
                self._complete_batch(
                    batch,
                    PartitionResponse(
                        Errors.NETWORK_EXCEPTION, error_message=f"Disconnected from node {response.destination}"
                    ),
                    correlation_id,
                    now,
                    None,
                )
        elif response.version_mismatch is not None:
            self._log.warn(
                f"Cancelled request {response} due to a version mismatch with node {response.destination}",
                response.version_mismatch,
            )
            for batch in batches.values():
                self._complete_batch(batch, PartitionResponse(Errors.UNSUPPORTED_VERSION), correlation_id, now, None)
        else:
            if self._log.is_trace_enabled():
                self._log.trace(
                    f"Received produce response from node {response.destination} with correlation id {correlation_id}"
                )
            body = response.response_body
            if body is not None:
                data = body.data
                partitions_with_updated_leader_info: dict[TopicPartition, LeaderIdAndEpoch] = {}
                for r in data.responses:
                    for p in r.partition_responses:
                        tp = TopicPartition(r.name, p.index)
                        part_resp = PartitionResponse(
                            Errors.for_code(p.error_code),
                            p.base_offset,
                            INVALID_OFFSET,
                            p.log_append_time_ms,
                            p.log_start_offset,
                            [RecordError(e.batch_index, e.batch_index_error_message) for e in p.record_errors],
                            p.error_message,
                            p.current_leader,
                        )
                        sent_batch = batches.get(tp)
                        if sent_batch is None:
                            # A broker answering for a partition we did not send to: nothing to complete.
                            self._log.warn(f"Received produce response for {tp}, which was not in the request")
                            continue
                        self._complete_batch(
                            sent_batch, part_resp, correlation_id, now, partitions_with_updated_leader_info
                        )
                if partitions_with_updated_leader_info:
                    leader_nodes = [
                        Node(e.node_id, e.host, e.port, e.rack)
                        for e in data.node_endpoints
                        if Node(e.node_id, e.host, e.port, e.rack) != Node.no_node()
                    ]
                    updated_partitions = self._metadata.update_partition_leadership(
                        partitions_with_updated_leader_info, leader_nodes
                    )
                    if self._log.is_trace_enabled():
                        for part in updated_partitions:
                            self._log.debug(f"For {part} leader was updated.")
                self._sensors.record_latency(response.destination, response.request_latency_ms)
            else:
                # acks=0: no response; every batch counts as done.
                for batch in batches.values():
                    self._complete_batch(batch, PartitionResponse(Errors.NONE), correlation_id, now, None)

    def _complete_batch(
        self,
        batch: ProducerBatch,
        response: PartitionResponse,
        correlation_id: int,
        now: int,
        partitions_with_updated_leader_info: dict[TopicPartition, LeaderIdAndEpoch] | None,
    ) -> None:
        error = response.error
        tm = self._transaction_manager
        if (
            error is Errors.MESSAGE_TOO_LARGE
            and batch.record_count > 1
            and not batch.is_done()
            and (batch.magic() >= 2 or batch.is_compressed())
        ):
            # Too large: split and send the pieces again, without spending a retry.
            self._log.warn(
                f"Got error produce response in correlation id {correlation_id} on topic-partition "
                f"{batch.topic_partition}, splitting and retrying ({self._retries - batch.attempts()} attempts left). "
                f"Error: {_format_err_msg(response)}"
            )
            if tm is not None:
                tm.remove_in_flight_batch(batch)
            self._accumulator.split_and_reenqueue(batch)
            self._maybe_remove_and_deallocate_batch(batch)
            self._sensors.record_batch_split()
        elif error is not Errors.NONE:
            if self._can_retry(batch, response, now):
                self._log.warn(
                    f"Got error produce response with correlation id {correlation_id} on topic-partition "
                    f"{batch.topic_partition}, retrying ({self._retries - batch.attempts() - 1} attempts left). "
                    f"Error: {_format_err_msg(response)}"
                )
                self._reenqueue_batch(batch, now)
            elif error is Errors.DUPLICATE_SEQUENCE_NUMBER:
                # Written before, but the broker no longer has its offset: report success without one.
                self._complete_batch_success(batch, response)
            else:
                # Sequences are adjusted only if retries were left: with none, the batch may have been written.
                self._fail_batch_response(batch, response, batch.attempts() < self._retries)
            exception = error.exception()
            if isinstance(exception, InvalidMetadataException):
                if isinstance(exception, UnknownTopicOrPartitionException):
                    self._log.warn(
                        f"Received unknown topic or partition error in produce request on partition "
                        f"{batch.topic_partition}. The topic-partition may not exist or the user may not have "
                        "Describe access to it"
                    )
                else:
                    self._log.warn(
                        f"Received invalid metadata error in produce request on partition {batch.topic_partition} "
                        f"due to {_exc_str(error.exception(response.error_message))}. Going to request metadata "
                        "update now"
                    )
                if isinstance(exception, NotLeaderOrFollowerException | FencedLeaderEpochException):
                    current_leader = response.current_leader
                    self._log.debug(
                        f"For {batch.topic_partition}, received error {error.name}, with leaderIdAndEpoch "
                        f"{current_leader}"
                    )
                    if (
                        partitions_with_updated_leader_info is not None
                        and current_leader is not None
                        and current_leader.leader_id != -1
                        and current_leader.leader_epoch != -1
                    ):
                        partitions_with_updated_leader_info[batch.topic_partition] = LeaderIdAndEpoch(
                            current_leader.leader_id, current_leader.leader_epoch
                        )
                self._metadata.request_update(False)
        else:
            self._complete_batch_success(batch, response)
        # The partition may send again.
        if self._guarantee_message_order:
            self._accumulator.unmute_partition(batch.topic_partition)

    def _reenqueue_batch(self, batch: ProducerBatch, current_time_ms: int) -> None:
        self._accumulator.reenqueue(batch, current_time_ms)
        self._maybe_remove_from_inflight_batches(batch)
        self._sensors.record_retries(batch.topic_partition.topic, batch.record_count)

    def _complete_batch_success(self, batch: ProducerBatch, response: PartitionResponse) -> None:
        tm = self._transaction_manager
        if tm is not None:
            tm.handle_completed_batch(batch, response)
        if batch.complete(response.base_offset, response.log_append_time):
            self._maybe_remove_and_deallocate_batch(batch)

    def _fail_batch_response(
        self, batch: ProducerBatch, response: PartitionResponse, adjust_sequence_numbers: bool
    ) -> None:
        top_level_exception: BaseException
        if response.error is Errors.TOPIC_AUTHORIZATION_FAILED:
            top_level_exception = TopicAuthorizationException(
                f"Not authorized to access topics: [{batch.topic_partition.topic}]"
            )
        elif response.error is Errors.CLUSTER_AUTHORIZATION_FAILED:
            top_level_exception = ClusterAuthorizationException("The producer is not authorized to do idempotent sends")
        else:
            top_level_exception = _exception_of(response.error, response.error_message)
        if not response.record_errors:
            self._fail_batch(batch, top_level_exception, adjust_sequence_numbers)
            return
        record_error_map: dict[int, BaseException] = {}
        for record_error in response.record_errors:
            # One partition-level code for all records: INVALID_RECORD with the message telling them apart.
            if record_error.message is not None:
                error_message = record_error.message
            elif response.error_message is not None:
                error_message = response.error_message
            else:
                error_message = response.error.message or ""
            # With a single failed record the partition-level error is unambiguous.
            if len(response.record_errors) == 1:
                record_error_map[record_error.batch_index] = _exception_of(response.error, error_message)
            else:
                record_error_map[record_error.batch_index] = InvalidRecordException(error_message)

        def record_exceptions(batch_index: int) -> BaseException:
            exception = record_error_map.get(batch_index)
            if exception is not None:
                return exception
            # The other records were fine but go down with their batch.
            return KafkaException(
                "Failed to append record because it was part of a batch which had one more more invalid records"
            )

        self._fail_batch_with(batch, top_level_exception, record_exceptions, adjust_sequence_numbers)

    def _fail_batch(
        self, batch: ProducerBatch, top_level_exception: BaseException, adjust_sequence_numbers: bool
    ) -> None:
        self._fail_batch_with(batch, top_level_exception, lambda _index: top_level_exception, adjust_sequence_numbers)

    def _fail_batch_with(
        self,
        batch: ProducerBatch,
        top_level_exception: BaseException,
        record_exceptions: Callable[[int], BaseException],
        adjust_sequence_numbers: bool,
    ) -> None:
        self._sensors.record_errors(batch.topic_partition.topic, batch.record_count)
        if batch.complete_exceptionally(top_level_exception, record_exceptions):
            tm = self._transaction_manager
            if tm is not None:
                try:
                    tm.handle_failed_batch(batch, top_level_exception, adjust_sequence_numbers)
                except Exception as e:
                    # An invalid transition here must not stop the batch from being released.
                    self._log.debug("Encountered error when transaction manager was handling a failed batch", e)
            self._maybe_remove_and_deallocate_batch(batch)

    def _can_retry(self, batch: ProducerBatch, response: PartitionResponse, now: int) -> bool:
        tm = self._transaction_manager
        return (
            not batch.has_reached_delivery_timeout(self._accumulator.get_delivery_timeout_ms(), now)
            and batch.attempts() < self._retries
            and not batch.is_done()
            and (response.error.retriable if tm is None else tm.can_retry(response, batch))
        )

    def _send_produce_requests(self, collated: Mapping[int, Sequence[ProducerBatch]], now: int) -> None:
        for destination, batches in collated.items():
            self._send_produce_request(now, destination, self._acks, self._request_timeout_ms, batches)

    def _send_produce_request(
        self, now: int, destination: int, acks: int, timeout: int, batches: Sequence[ProducerBatch]
    ) -> None:
        if not batches:
            return
        records_by_partition: dict[TopicPartition, ProducerBatch] = {}
        # The oldest record format among the batches decides the request version.
        min_used_magic = self._api_versions.max_usable_produce_magic()
        for batch in batches:
            if batch.magic() < min_used_magic:
                min_used_magic = batch.magic()
        data = ProduceRequestData(acks=acks, timeout_ms=timeout)
        tm = self._transaction_manager
        if tm is not None and tm.is_transactional():
            data.transactional_id = tm.transactional_id()
        tpd = data.topic_data
        for batch in batches:
            tp = batch.topic_partition
            records: Any = batch.records()
            # A broker that cannot take the format the batch was built in (metadata was out of date): convert.
            if not records.has_matching_magic(min_used_magic):
                records = records.down_convert(min_used_magic, 0, self._time).records()
            tp_data = tpd.find(tp.topic)
            if tp_data is None:
                tp_data = ProduceRequestData.TopicProduceData(name=tp.topic)
                tpd.append(tp_data)
            tp_data.partition_data.append(ProduceRequestData.PartitionProduceData(index=tp.partition, records=records))
            records_by_partition[tp] = batch
        request_builder = ProduceRequest.for_magic(min_used_magic, data)
        time = self._time

        def callback(response: ClientResponse) -> None:
            self._handle_produce_response(response, records_by_partition, time.milliseconds())

        node_id = str(destination)
        client_request = self._client.new_client_request(
            node_id, request_builder, now, acks != 0, self._request_timeout_ms, callback
        )
        self._client.send(client_request, now)
        if self._log.is_trace_enabled():
            self._log.trace(f"Sent produce request to {node_id}: {request_builder}")

    def wakeup(self) -> None:
        """Makes the loop's current or next poll return at once.

        # PORT: Java's Selector.wakeup costs nothing while a wakeup is already pending; ours writes a byte to a
        socket each time, and with the GIL each write also hands the interpreter to this thread. `send` wakes the
        Sender for every record while batches are queued, so a wakeup is skipped while one is pending: the flag
        is set before the byte is written and cleared at the start of each loop pass, before the pass looks at
        the accumulator, the metadata and the network (and before each poll of a wait for a node to be ready). A
        wakeup skipped because the flag is still set is thus followed by a poll that returns at once or by a pass
        that sees what the caller did.
        """
        if not self._wakeup_pending:
            self._wakeup_pending = True
            self._client.wakeup()


def _format_err_msg(response: PartitionResponse) -> str:
    suffix = "" if not response.error_message else f". Error Message: {response.error_message}"
    return f"{response.error.name}{suffix}"


def _exception_of(error: Errors, message: str | None) -> BaseException:
    exception = error.exception(message)
    return exception if exception is not None else KafkaException(message or error.name)


def _exc_str(e: BaseException | None) -> str:
    if e is None:
        return "null"
    message = str(e)
    return f"{type(e).__name__}: {message}" if message else type(e).__name__


def _java_set(items: Any) -> str:
    return "[" + ", ".join(str(i) for i in items) + "]"


def throttle_time_sensor(metrics: SenderMetricsRegistry) -> Sensor:
    """Sender.throttleTimeSensor: the sensor the producer's NetworkClient records each response's throttle time in
    (produce-throttle-time-avg/max)."""
    sensor = metrics.sensor("produce-throttle-time")
    sensor.add(metrics.produce_throttle_time_avg, Avg())
    sensor.add(metrics.produce_throttle_time_max, Max())
    return sensor


class SenderMetrics:
    """Java's Sender.SenderMetrics: the producer's sensors, recorded once per batch or per request (never per
    record).

    # PORT: record-size-avg/max are registered but not recorded: Java records each batch's largest record size,
    # which it updates on every append; MemoryRecordsBuilder does not keep it, so it would be a per-record cost on
    # the append path (see ProducerBatch)."""

    def __init__(
        self, metrics: SenderMetricsRegistry, metadata: ProducerMetadata, client: KafkaClient, time: Time
    ) -> None:
        self._metrics = metrics
        self._time = time
        self.batch_size_sensor = metrics.sensor("batch-size")
        self.batch_size_sensor.add(metrics.batch_size_avg, Avg())
        self.batch_size_sensor.add(metrics.batch_size_max, Max())
        self.compression_rate_sensor = metrics.sensor("compression-rate")
        self.compression_rate_sensor.add(metrics.compression_rate_avg, Avg())
        self.queue_time_sensor = metrics.sensor("queue-time")
        self.queue_time_sensor.add(metrics.record_queue_time_avg, Avg())
        self.queue_time_sensor.add(metrics.record_queue_time_max, Max())
        self.request_time_sensor = metrics.sensor("request-time")
        self.request_time_sensor.add(metrics.request_latency_avg, Avg())
        self.request_time_sensor.add(metrics.request_latency_max, Max())
        self.records_per_request_sensor = metrics.sensor("records-per-request")
        self.records_per_request_sensor.add(MeterStat(metrics.record_send_rate, metrics.record_send_total))
        self.records_per_request_sensor.add(metrics.records_per_request_avg, Avg())
        self.retry_sensor = metrics.sensor("record-retries")
        self.retry_sensor.add(MeterStat(metrics.record_retry_rate, metrics.record_retry_total))
        self.error_sensor = metrics.sensor("errors")
        self.error_sensor.add(MeterStat(metrics.record_error_rate, metrics.record_error_total))
        self.max_record_size_sensor = metrics.sensor("record-size")
        self.max_record_size_sensor.add(metrics.record_size_max, Max())
        self.max_record_size_sensor.add(metrics.record_size_avg, Avg())
        metrics.add_metric(
            metrics.requests_in_flight, MeasurableFn(lambda config, now: client.in_flight_request_count())
        )
        metrics.add_metric(
            metrics.metadata_age, MeasurableFn(lambda config, now: (now - metadata.last_successful_update()) / 1000.0)
        )
        self.batch_split_sensor = metrics.sensor("batch-split-rate")
        self.batch_split_sensor.add(MeterStat(metrics.batch_split_rate, metrics.batch_split_total))
        # Per topic, the sensors of its batches (found by name in Java; kept here to spare the lookups).
        self._topic_sensors: dict[str, tuple[Sensor, Sensor, Sensor]] = {}

    def _maybe_register_topic_metrics(self, topic: str) -> tuple[Sensor, Sensor, Sensor]:
        sensors = self._topic_sensors.get(topic)
        if sensors is not None:
            return sensors
        m = self._metrics
        tags = {"topic": topic}
        record_count = m.sensor(f"topic.{topic}.records-per-batch")
        record_count.add(MeterStat(m.topic_record_send_rate(tags), m.topic_record_send_total(tags)))
        byte_rate = m.sensor(f"topic.{topic}.bytes")
        byte_rate.add(MeterStat(m.topic_byte_rate(tags), m.topic_byte_total(tags)))
        compression_rate = m.sensor(f"topic.{topic}.compression-rate")
        compression_rate.add(m.topic_compression_rate(tags), Avg())
        m.sensor(f"topic.{topic}.record-retries").add(
            MeterStat(m.topic_record_retry_rate(tags), m.topic_record_retry_total(tags))
        )
        m.sensor(f"topic.{topic}.record-errors").add(
            MeterStat(m.topic_record_error_rate(tags), m.topic_record_error_total(tags))
        )
        sensors = (record_count, byte_rate, compression_rate)
        self._topic_sensors[topic] = sensors
        return sensors

    def update_produce_request_metrics(self, batches: Mapping[int, Sequence[ProducerBatch]]) -> None:
        now = self._time.milliseconds()
        for node_batch in batches.values():
            records = 0
            for batch in node_batch:
                topic_record_count, topic_byte_rate, topic_compression_rate = self._maybe_register_topic_metrics(
                    batch.topic_partition.topic
                )
                size = batch.estimated_size_in_bytes()
                compression_ratio = batch.compression_ratio()
                topic_record_count.record(batch.record_count, now)
                topic_byte_rate.record(size, now)
                topic_compression_rate.record(compression_ratio, now)
                self.batch_size_sensor.record(size, now)
                self.queue_time_sensor.record(batch.queue_time_ms(), now)
                self.compression_rate_sensor.record(compression_ratio, now)
                records += batch.record_count
            self.records_per_request_sensor.record(records, now)

    def record_retries(self, topic: str, count: int) -> None:
        now = self._time.milliseconds()
        self.retry_sensor.record(count, now)
        sensor = self._metrics.get_sensor(f"topic.{topic}.record-retries")
        if sensor is not None:
            sensor.record(count, now)

    def record_errors(self, topic: str, count: int) -> None:
        now = self._time.milliseconds()
        self.error_sensor.record(count, now)
        sensor = self._metrics.get_sensor(f"topic.{topic}.record-errors")
        if sensor is not None:
            sensor.record(count, now)

    def record_latency(self, node: str, latency: int) -> None:
        now = self._time.milliseconds()
        self.request_time_sensor.record(latency, now)
        if node:
            sensor = self._metrics.get_sensor(f"node-{node}.latency")
            if sensor is not None:
                sensor.record(latency, now)

    def record_batch_split(self) -> None:
        self.batch_split_sensor.record()
