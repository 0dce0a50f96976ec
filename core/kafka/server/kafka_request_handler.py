"""Port of core/src/main/scala/kafka/server/KafkaRequestHandler.scala (Kafka 2.8).

The request handler threads (`kafka-request-handler-N`, daemon): each takes requests from the
RequestChannel's queue and passes them to the api layer (KafkaApis), until it takes a ShutdownRequest.
KafkaRequestHandlerPool starts, resizes and stops them.

# PORT: Kafka 2.8 names the threads `data-plane-kafka-request-handler-N`; this port keeps the names without
# the listener-plane prefix (see socket_server.py).
# PORT: ClientRequestGate is not in Kafka 2.8: the handlers of a starting broker hold client requests aside until
# its metadata cache has heard from the controller (see the class).
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable
from typing import Final, Protocol

from kafka.common.errors import InvalidRequestException
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.utils.kafka_thread import KafkaThread
from kafka.common.utils.time import Time
from kafka.metrics.kafka_metrics_group import KafkaMetricsGroup
from kafka.metrics.yammer.meter import Meter
from kafka.network.request_channel import Request, RequestChannel, ShutdownRequest
from kafka.utils.atomic import AtomicInteger
from kafka.utils.count_down_latch import CountDownLatch
from kafka.utils.logging import TRACE, Logging
from kafka.utils.pool import Pool
from kafka.utils.time_unit import TimeUnit

__all__ = [
    "UNGATED_APIS",
    "ApiRequestHandler",
    "BrokerTopicMetrics",
    "BrokerTopicStats",
    "ClientRequestGate",
    "KafkaRequestHandler",
    "KafkaRequestHandlerPool",
]

_handler_logger = logging.getLogger("kafka.server.KafkaRequestHandler")


class ApiRequestHandler(Protocol):
    """The api layer (KafkaApis): answers, defers or closes each request through the RequestChannel."""

    def handle(self, request: Request) -> None: ...


# What a starting broker serves before its metadata cache is ready: what the controller sends it (UpdateMetadata, the
# request the gate waits for, among them), what another broker sends it while it is the controller (AlterIsr,
# ControlledShutdown), and ApiVersions, which needs no metadata and comes first on every connection.
UNGATED_APIS: frozenset[ApiKeys] = frozenset(
    {
        ApiKeys.LEADER_AND_ISR,
        ApiKeys.STOP_REPLICA,
        ApiKeys.UPDATE_METADATA,
        ApiKeys.CONTROLLED_SHUTDOWN,
        ApiKeys.ALTER_PARTITION,  # AlterIsr in Kafka 2.8
        ApiKeys.API_VERSIONS,
    }
)


class ClientRequestGate(Logging):
    """Holds the client requests of a starting broker aside until `is_ready()` (its metadata cache knows the
    controller and the live brokers), or until `timeout_ms` has passed, then releases them into the request channel.

    # PORT: not in Kafka 2.8, whose ZooKeeper-mode broker answers Metadata from an empty cache right after start-up
    # (controller id -1, no brokers), an answer some clients wait on for a long time (librdkafka's admin client
    # waits 30 s for a controller). A KRaft broker serves clients only once its metadata has caught up; this does the
    # same for ZooKeeper mode. Processing of the listener cannot simply start later, because the controller's own
    # requests (UPDATE_METADATA among them) arrive on the same listener; so handlers park each client request here
    # instead of handling it, without waiting on it. The Processor keeps the connection muted while its request is
    # parked, so each connection's requests still go in order.

    Thread-safety: the handler threads call `park` and `maybe_open`; `_lock` guards the parked requests. `is_open`
    goes from False to True once, and is read without the lock (a handler that sees False takes the lock)."""

    logger_name = "kafka.server.KafkaRequestHandlerPool"

    def __init__(
        self,
        request_channel: RequestChannel,
        is_ready: Callable[[], bool],
        waiting_for: str,
        describe_state: Callable[[], str],
        timeout_ms: int,
        time: Time,
        log_ident: str = "",
    ) -> None:
        self._request_channel = request_channel
        self._is_ready = is_ready
        self.waiting_for = waiting_for
        self._describe_state = describe_state
        self.timeout_ms = timeout_ms
        self._time = time
        self.log_ident = log_ident
        self._start_ms = time.milliseconds()
        self._deadline_ms = self._start_ms + timeout_ms
        self._parked: deque[Request] = deque()
        self._lock = threading.Lock()
        self._released = False  # ready, or timed out: the parked requests go to the request channel
        self._closed = False
        self.is_open = False  # released, and none parked any more: requests are no longer looked at
        self.info(
            f"Holding client requests until {waiting_for} (at most {timeout_ms} ms); requests from the controller "
            "and ApiVersions are served meanwhile"
        )

    def park(self, request: Request) -> bool:
        """Keeps `request` aside if it is a client request and the gate is not open yet; False if it is to be handled
        now."""
        if self.is_open or request.header.api_key in UNGATED_APIS:
            return False
        with self._lock:
            if self.is_open or self._closed:
                return False
            self._parked.append(request)
        if _handler_logger.isEnabledFor(logging.DEBUG):
            header = request.header
            self.debug(
                f"Holding {header.api_key.name} request {header.correlation_id} from client {header.client_id} "
                f"({request.context.connection_id}) until {self.waiting_for}"
            )
        return True

    def maybe_open(self) -> None:
        """Releases the parked requests into the request channel once the broker is ready or the timeout has passed;
        what does not fit into the (full) request queue waits for the next call."""
        with self._lock:
            if self.is_open or self._closed:
                return
            if not self._released:
                waited_ms = self._time.milliseconds() - self._start_ms
                if self._is_ready():
                    self.info(
                        f"Serving client requests: {self.waiting_for} after {waited_ms} ms "
                        f"({len(self._parked)} held client requests released)"
                    )
                elif waited_ms >= self.timeout_ms:
                    self.warn(
                        f"Serving client requests although {self.waiting_for} has not happened within "
                        f"{self.timeout_ms} ms ({len(self._parked)} held client requests released): "
                        f"{self._describe_state()}"
                    )
                else:
                    return
                self._released = True
            parked = self._parked
            while parked:
                if not self._request_channel.send_request(parked[0], 0):
                    return
                parked.popleft()
            self.is_open = True

    def close(self) -> None:
        """Drops the requests still parked (the broker is shutting down; their connections are being closed)."""
        with self._lock:
            self._closed = True
            parked = list(self._parked)
            self._parked.clear()
        for request in parked:
            request.release_buffer()

    @property
    def parked_count(self) -> int:
        with self._lock:
            return len(self._parked)


class KafkaRequestHandler(Logging):
    """One request handler: a runnable whose owner (the pool) runs it on a thread of its own."""

    logger_name = "kafka.server.KafkaRequestHandler"

    def __init__(
        self,
        id: int,
        broker_id: int,
        aggregate_idle_meter: Meter,
        total_handler_threads: AtomicInteger,
        request_channel: RequestChannel,
        apis: ApiRequestHandler,
        time: Time,
        client_request_gate: ClientRequestGate | None = None,
    ) -> None:
        self.id = id
        self.broker_id = broker_id
        self.aggregate_idle_meter = aggregate_idle_meter
        self.total_handler_threads = total_handler_threads
        self.request_channel = request_channel
        self._apis = apis
        self._time = time
        self._client_request_gate = client_request_gate
        self.log_ident = f"[Kafka Request Handler {id} on Broker {broker_id}], "
        self._shutdown_complete = CountDownLatch(1)
        self._stopped = False

    def run(self) -> None:
        gate = self._client_request_gate
        while not self._stopped:
            # One idle total for the pool: each handler's idle time counts as its share of the pool's.
            start_select_time = self._time.nanoseconds()
            req = self.request_channel.receive_request(300)
            end_time = self._time.nanoseconds()
            self.aggregate_idle_meter.mark((end_time - start_select_time) // max(self.total_handler_threads.get(), 1))

            match req:
                case ShutdownRequest():
                    if self._stopped:
                        # PORT: a handler removed by resize_thread_pool must not take a pill meant for one that is
                        # still in the pool (Kafka can lose a pill so, and its shutdown then waits for ever).
                        self.request_channel.send_shutdown_request()
                    else:
                        self.debug(
                            f"Kafka request handler {self.id} on broker {self.broker_id} received shut down command"
                        )
                    self._shutdown_complete.count_down()
                    return
                case Request() if gate is not None and gate.park(req):
                    pass  # handled once the gate opens
                case Request():
                    try:
                        req.request_dequeue_time_nanos = end_time
                        if _handler_logger.isEnabledFor(TRACE):
                            self.trace(
                                f"Kafka request handler {self.id} on broker {self.broker_id} handling request {req}"
                            )
                        if self._parse_body_or_close(req):
                            self._apis.handle(req)
                    except Exception as e:
                        # PORT: Kafka exits the broker on FatalExitError here; this port has no such error type yet.
                        self.error("Exception when handling request", e)
                    finally:
                        req.release_buffer()
                case _:
                    pass
            if gate is not None:
                if gate.is_open:
                    gate = None
                else:
                    gate.maybe_open()
        self._shutdown_complete.count_down()

    def _parse_body_or_close(self, request: Request) -> bool:
        """Parses the body, which Kafka does in the network thread (see Request): a body that cannot be read closes
        the connection, with Kafka's log line, and the api layer never sees the request."""
        try:
            request.body  # noqa: B018 - parsed on first access
        except InvalidRequestException as e:
            connection_id = request.context.connection_id
            self.error(f"Closing socket for {connection_id} because of error", e)
            self.request_channel.close_connection(request, {})
            return False
        return True

    def stop(self) -> None:
        """Makes the handler leave its loop within one poll of the request queue (used when the pool shrinks)."""
        self._stopped = True

    def initiate_shutdown(self) -> None:
        self.request_channel.send_shutdown_request()

    def await_shutdown(self) -> None:
        # Waited in slices so that the waiting thread stays interruptible (Ctrl-C in the main thread).
        while not self._shutdown_complete.await_(1.0):
            pass


class KafkaRequestHandlerPool(KafkaMetricsGroup, Logging):
    """`num_threads` request handlers on daemon threads named `kafka-request-handler-{id}`."""

    logger_name = "kafka.server.KafkaRequestHandlerPool"

    def __init__(
        self,
        broker_id: int,
        request_channel: RequestChannel,
        apis: ApiRequestHandler,
        time: Time,
        num_threads: int,
        request_handler_avg_idle_metric_name: str = "RequestHandlerAvgIdlePercent",
        log_and_thread_name_prefix: str = "data-plane",
        client_request_gate: ClientRequestGate | None = None,
    ) -> None:
        self.broker_id = broker_id
        self.request_channel = request_channel
        self.apis = apis
        self._time = time
        self._thread_pool_size = AtomicInteger(num_threads)
        self.request_handler_avg_idle_metric_name = request_handler_avg_idle_metric_name
        # Idle nanoseconds of the pool, each handler's divided by the pool size: its mean rate per nanosecond is
        # the pool's idle fraction.
        self.aggregate_idle_meter = self.new_meter(
            request_handler_avg_idle_metric_name, "percent", TimeUnit.NANOSECONDS
        )
        self.log_ident = f"[{log_and_thread_name_prefix} Kafka Request Handler on Broker {broker_id}], "
        # PORT: see ClientRequestGate; None serves every request at once, as Kafka does.
        self.client_request_gate = client_request_gate
        self.runnables: list[KafkaRequestHandler] = []
        self._lock = threading.RLock()  # `this.synchronized`
        for i in range(num_threads):
            self.create_handler(i)

    def create_handler(self, id: int) -> None:
        with self._lock:
            handler = KafkaRequestHandler(
                id,
                self.broker_id,
                self.aggregate_idle_meter,
                self._thread_pool_size,
                self.request_channel,
                self.apis,
                self._time,
                self.client_request_gate,
            )
            self.runnables.append(handler)
            KafkaThread.daemon_thread(f"kafka-request-handler-{id}", handler.run).start()

    def resize_thread_pool(self, new_size: int) -> None:
        with self._lock:
            current_size = self._thread_pool_size.get()
            self.info(f"Resizing request handler thread pool size from {current_size} to {new_size}")
            if new_size > current_size:
                for i in range(current_size, new_size):
                    self.create_handler(i)
            elif new_size < current_size:
                for i in range(1, current_size - new_size + 1):
                    self.runnables.pop(current_size - i).stop()
            self._thread_pool_size.set(new_size)

    def shutdown(self) -> None:
        """Sends every handler a ShutdownRequest, then waits for all of them to stop."""
        with self._lock:
            self.info("shutting down")
            for handler in self.runnables:
                handler.initiate_shutdown()
            for handler in self.runnables:
                handler.await_shutdown()
            if self.client_request_gate is not None:
                self.client_request_gate.close()
            self.info("shut down completely")


class BrokerTopicMetrics(KafkaMetricsGroup):
    """The `kafka.server:type=BrokerTopicMetrics` meters of one topic (`name`), or of all topics (None): the all-
    topics ones exist from the start, a topic's only once marked."""

    MESSAGES_IN_PER_SEC: Final = "MessagesInPerSec"
    BYTES_IN_PER_SEC: Final = "BytesInPerSec"
    BYTES_OUT_PER_SEC: Final = "BytesOutPerSec"
    BYTES_REJECTED_PER_SEC: Final = "BytesRejectedPerSec"
    REPLICATION_BYTES_IN_PER_SEC: Final = "ReplicationBytesInPerSec"
    REPLICATION_BYTES_OUT_PER_SEC: Final = "ReplicationBytesOutPerSec"
    FAILED_PRODUCE_REQUESTS_PER_SEC: Final = "FailedProduceRequestsPerSec"
    FAILED_FETCH_REQUESTS_PER_SEC: Final = "FailedFetchRequestsPerSec"
    TOTAL_PRODUCE_REQUESTS_PER_SEC: Final = "TotalProduceRequestsPerSec"
    TOTAL_FETCH_REQUESTS_PER_SEC: Final = "TotalFetchRequestsPerSec"
    FETCH_MESSAGE_CONVERSIONS_PER_SEC: Final = "FetchMessageConversionsPerSec"
    PRODUCE_MESSAGE_CONVERSIONS_PER_SEC: Final = "ProduceMessageConversionsPerSec"
    REASSIGNMENT_BYTES_IN_PER_SEC: Final = "ReassignmentBytesInPerSec"
    REASSIGNMENT_BYTES_OUT_PER_SEC: Final = "ReassignmentBytesOutPerSec"
    NO_KEY_COMPACTED_TOPIC_RECORDS_PER_SEC: Final = "NoKeyCompactedTopicRecordsPerSec"
    INVALID_MAGIC_NUMBER_RECORDS_PER_SEC: Final = "InvalidMagicNumberRecordsPerSec"
    INVALID_MESSAGE_CRC_RECORDS_PER_SEC: Final = "InvalidMessageCrcRecordsPerSec"
    INVALID_OFFSET_OR_SEQUENCE_RECORDS_PER_SEC: Final = "InvalidOffsetOrSequenceRecordsPerSec"

    _EVENT_TYPES: Final = {
        MESSAGES_IN_PER_SEC: "messages",
        BYTES_IN_PER_SEC: "bytes",
        BYTES_OUT_PER_SEC: "bytes",
        BYTES_REJECTED_PER_SEC: "bytes",
        FAILED_PRODUCE_REQUESTS_PER_SEC: "requests",
        FAILED_FETCH_REQUESTS_PER_SEC: "requests",
        TOTAL_PRODUCE_REQUESTS_PER_SEC: "requests",
        TOTAL_FETCH_REQUESTS_PER_SEC: "requests",
        FETCH_MESSAGE_CONVERSIONS_PER_SEC: "requests",
        PRODUCE_MESSAGE_CONVERSIONS_PER_SEC: "requests",
        NO_KEY_COMPACTED_TOPIC_RECORDS_PER_SEC: "requests",
        INVALID_MAGIC_NUMBER_RECORDS_PER_SEC: "requests",
        INVALID_MESSAGE_CRC_RECORDS_PER_SEC: "requests",
        INVALID_OFFSET_OR_SEQUENCE_RECORDS_PER_SEC: "requests",
    }
    _ALL_TOPICS_ONLY: Final = {
        REPLICATION_BYTES_IN_PER_SEC: "bytes",
        REPLICATION_BYTES_OUT_PER_SEC: "bytes",
        REASSIGNMENT_BYTES_IN_PER_SEC: "bytes",
        REASSIGNMENT_BYTES_OUT_PER_SEC: "bytes",
    }

    def __init__(self, name: str | None) -> None:
        self.name = name
        self.tags: dict[str, str] = {} if name is None else {"topic": name}
        self._event_types = dict(self._EVENT_TYPES)
        if name is None:
            self._event_types.update(self._ALL_TOPICS_ONLY)
        self._lock = threading.Lock()
        self._meters: dict[str, Meter] = {}
        if name is None:
            for metric_type in self._event_types:
                self.meter(metric_type)

    def meter(self, metric_type: str) -> Meter:
        """The meter of `metric_type`, created (registered) on first use."""
        meter = self._meters.get(metric_type)
        if meter is None:
            with self._lock:
                meter = self._meters.get(metric_type)
                if meter is None:
                    meter = self.new_meter(metric_type, self._event_types[metric_type], TimeUnit.SECONDS, self.tags)
                    self._meters[metric_type] = meter
        return meter

    def has_meter(self, metric_type: str) -> bool:
        return metric_type in self._event_types

    # The meters below are marked for every produce and fetch (the topic's and the all-topics' one each): the meter
    # is read from the dict here, and meter() called only to create it (first use, or after close_metric).

    @property
    def messages_in_rate(self) -> Meter:
        meter = self._meters.get(self.MESSAGES_IN_PER_SEC)
        return meter if meter is not None else self.meter(self.MESSAGES_IN_PER_SEC)

    @property
    def bytes_in_rate(self) -> Meter:
        meter = self._meters.get(self.BYTES_IN_PER_SEC)
        return meter if meter is not None else self.meter(self.BYTES_IN_PER_SEC)

    @property
    def bytes_out_rate(self) -> Meter:
        meter = self._meters.get(self.BYTES_OUT_PER_SEC)
        return meter if meter is not None else self.meter(self.BYTES_OUT_PER_SEC)

    @property
    def bytes_rejected_rate(self) -> Meter:
        meter = self._meters.get(self.BYTES_REJECTED_PER_SEC)
        return meter if meter is not None else self.meter(self.BYTES_REJECTED_PER_SEC)

    @property
    def failed_produce_request_rate(self) -> Meter:
        meter = self._meters.get(self.FAILED_PRODUCE_REQUESTS_PER_SEC)
        return meter if meter is not None else self.meter(self.FAILED_PRODUCE_REQUESTS_PER_SEC)

    @property
    def failed_fetch_request_rate(self) -> Meter:
        meter = self._meters.get(self.FAILED_FETCH_REQUESTS_PER_SEC)
        return meter if meter is not None else self.meter(self.FAILED_FETCH_REQUESTS_PER_SEC)

    @property
    def total_produce_request_rate(self) -> Meter:
        meter = self._meters.get(self.TOTAL_PRODUCE_REQUESTS_PER_SEC)
        return meter if meter is not None else self.meter(self.TOTAL_PRODUCE_REQUESTS_PER_SEC)

    @property
    def total_fetch_request_rate(self) -> Meter:
        meter = self._meters.get(self.TOTAL_FETCH_REQUESTS_PER_SEC)
        return meter if meter is not None else self.meter(self.TOTAL_FETCH_REQUESTS_PER_SEC)

    @property
    def fetch_message_conversions_rate(self) -> Meter:
        meter = self._meters.get(self.FETCH_MESSAGE_CONVERSIONS_PER_SEC)
        return meter if meter is not None else self.meter(self.FETCH_MESSAGE_CONVERSIONS_PER_SEC)

    @property
    def produce_message_conversions_rate(self) -> Meter:
        meter = self._meters.get(self.PRODUCE_MESSAGE_CONVERSIONS_PER_SEC)
        return meter if meter is not None else self.meter(self.PRODUCE_MESSAGE_CONVERSIONS_PER_SEC)

    @property
    def no_key_compacted_topic_records_rate(self) -> Meter:
        meter = self._meters.get(self.NO_KEY_COMPACTED_TOPIC_RECORDS_PER_SEC)
        return meter if meter is not None else self.meter(self.NO_KEY_COMPACTED_TOPIC_RECORDS_PER_SEC)

    @property
    def invalid_magic_number_records_rate(self) -> Meter:
        meter = self._meters.get(self.INVALID_MAGIC_NUMBER_RECORDS_PER_SEC)
        return meter if meter is not None else self.meter(self.INVALID_MAGIC_NUMBER_RECORDS_PER_SEC)

    @property
    def invalid_message_crc_records_rate(self) -> Meter:
        meter = self._meters.get(self.INVALID_MESSAGE_CRC_RECORDS_PER_SEC)
        return meter if meter is not None else self.meter(self.INVALID_MESSAGE_CRC_RECORDS_PER_SEC)

    @property
    def invalid_offset_or_sequence_records_rate(self) -> Meter:
        meter = self._meters.get(self.INVALID_OFFSET_OR_SEQUENCE_RECORDS_PER_SEC)
        return meter if meter is not None else self.meter(self.INVALID_OFFSET_OR_SEQUENCE_RECORDS_PER_SEC)

    def close_metric(self, metric_type: str) -> None:
        with self._lock:
            if self._meters.pop(metric_type, None) is not None:
                self.remove_metric(metric_type, self.tags)

    def close(self) -> None:
        for metric_type in list(self._meters):
            self.close_metric(metric_type)


class BrokerTopicStats(Logging):
    """The per-topic and all-topics BrokerTopicMetrics of a broker."""

    logger_name = "kafka.server.BrokerTopicStats"

    def __init__(self) -> None:
        self._stats: Pool[str, BrokerTopicMetrics] = Pool(BrokerTopicMetrics)
        self.all_topics_stats = BrokerTopicMetrics(None)

    def topic_stats(self, topic: str) -> BrokerTopicMetrics:
        return self._stats.get_and_maybe_put(topic)

    def update_replication_bytes_in(self, value: int) -> None:
        self.all_topics_stats.meter(BrokerTopicMetrics.REPLICATION_BYTES_IN_PER_SEC).mark(value)

    def _update_replication_bytes_out(self, value: int) -> None:
        self.all_topics_stats.meter(BrokerTopicMetrics.REPLICATION_BYTES_OUT_PER_SEC).mark(value)

    def update_reassignment_bytes_in(self, value: int) -> None:
        self.all_topics_stats.meter(BrokerTopicMetrics.REASSIGNMENT_BYTES_IN_PER_SEC).mark(value)

    def update_reassignment_bytes_out(self, value: int) -> None:
        self.all_topics_stats.meter(BrokerTopicMetrics.REASSIGNMENT_BYTES_OUT_PER_SEC).mark(value)

    def remove_old_leader_metrics(self, topic: str) -> None:
        """Drops the topic's meters only a leader marks."""
        topic_metrics = self._stats.get(topic)
        if topic_metrics is not None:
            for metric_type in (
                BrokerTopicMetrics.MESSAGES_IN_PER_SEC,
                BrokerTopicMetrics.BYTES_IN_PER_SEC,
                BrokerTopicMetrics.BYTES_REJECTED_PER_SEC,
                BrokerTopicMetrics.FAILED_PRODUCE_REQUESTS_PER_SEC,
                BrokerTopicMetrics.TOTAL_PRODUCE_REQUESTS_PER_SEC,
                BrokerTopicMetrics.PRODUCE_MESSAGE_CONVERSIONS_PER_SEC,
                BrokerTopicMetrics.REPLICATION_BYTES_OUT_PER_SEC,
                BrokerTopicMetrics.REASSIGNMENT_BYTES_OUT_PER_SEC,
            ):
                topic_metrics.close_metric(metric_type)

    def remove_old_follower_metrics(self, topic: str) -> None:
        """Drops the topic's meters only a follower marks (as in Kafka 2.8, the replication meters exist for all
        topics only, so a topic has none to drop yet)."""
        topic_metrics = self._stats.get(topic)
        if topic_metrics is not None:
            for metric_type in (
                BrokerTopicMetrics.REPLICATION_BYTES_IN_PER_SEC,
                BrokerTopicMetrics.REASSIGNMENT_BYTES_IN_PER_SEC,
            ):
                topic_metrics.close_metric(metric_type)

    def remove_metrics(self, topic: str) -> None:
        metrics = self._stats.remove(topic)
        if metrics is not None:
            metrics.close()

    def update_bytes_out(self, topic: str, is_follower: bool, is_reassignment: bool, value: int) -> None:
        if is_follower:
            if is_reassignment:
                self.update_reassignment_bytes_out(value)
            self._update_replication_bytes_out(value)
        else:
            self.topic_stats(topic).bytes_out_rate.mark(value)
            self.all_topics_stats.bytes_out_rate.mark(value)

    def close(self) -> None:
        self.all_topics_stats.close()
        for metrics in self._stats.values:
            metrics.close()
        self.info("Broker and topic stats closed")
