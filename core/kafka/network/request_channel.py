"""Port of core/src/main/scala/kafka/network/RequestChannel.scala (Kafka 2.8).

The hand-off between the network threads and the request handler threads: one bounded queue of
received requests (filled by every Processor, drained by the KafkaRequestHandlers) and, per Processor,
a queue of responses, which the RequestChannel fills and whose Processor it wakes. Also the request
and response types that travel through them, and the request log (`kafka.request.logger`, debug).

The per-API request metrics (`kafka.network:type=RequestMetrics`, one RequestMetrics per API name, plus
FetchConsumer and FetchFollower) are kept here as in Kafka, with the RequestChannel's queue size gauges.
"""

from __future__ import annotations

import base64
import json
import logging
import queue
import threading
import urllib.parse
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Generic, Protocol, TypeVar

from kafka.common.errors import KafkaException
from kafka.common.network.client_information import ClientInformation
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.protocol.message import ByteBufferAccessor, Message
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.abstract_response import AbstractResponse
from kafka.common.requests.envelope_response import EnvelopeResponse
from kafka.common.requests.request_and_size import RequestAndSize
from kafka.common.requests.request_context import RequestContext
from kafka.common.requests.request_header import RequestHeader
from kafka.common.security.auth.kafka_principal import KafkaPrincipal
from kafka.common.utils.time import Time
from kafka.metrics.kafka_metrics_group import KafkaMetricsGroup
from kafka.metrics.kafka_yammer_metrics import KafkaYammerMetrics
from kafka.metrics.yammer.gauge import Gauge
from kafka.metrics.yammer.histogram import Histogram, update_histograms
from kafka.metrics.yammer.meter import Meter
from kafka.utils.logging import TRACE, Logging
from kafka.utils.time_unit import TimeUnit

if TYPE_CHECKING:
    from kafka.network.socket_server import Processor

__all__ = [
    "BaseRequest",
    "CloseConnectionResponse",
    "EndThrottlingResponse",
    "NoOpResponse",
    "Request",
    "RequestChannel",
    "RequestChannelMetrics",
    "RequestMetrics",
    "Response",
    "SendResponse",
    "Session",
    "ShutdownRequest",
    "StartThrottlingResponse",
    "is_request_logging_enabled",
]

REQUEST_QUEUE_SIZE_METRIC = "RequestQueueSize"
RESPONSE_QUEUE_SIZE_METRIC = "ResponseQueueSize"
PROCESSOR_METRIC_TAG = "processor"

_request_logger = logging.getLogger("kafka.request.logger")

T = TypeVar("T")


class _Channel(Logging):
    # The companion object's own logging (Scala `object RequestChannel extends Logging`).
    logger_name = "kafka.network.RequestChannel$"


_channel_log = _Channel()
_channel_logger = logging.getLogger(_Channel.logger_name)
_request_channel_logger = logging.getLogger("kafka.network.RequestChannel")
# Read once per response: a module constant, since reading an Enum member through its class is a lookup each time.
_FETCH: Final = ApiKeys.FETCH


def is_request_logging_enabled() -> bool:
    """Whether `kafka.request.logger` logs at debug, the level of its "Completed request:" lines."""
    return _request_logger.isEnabledFor(logging.DEBUG)


class BaseRequest:
    """What a request handler takes from the request queue: a Request, or the ShutdownRequest pill.

    # PORT: Kafka's `sealed trait`; a plain base class rather than an ABC, because isinstance against an ABC (as
    # in the handler's `match`) is markedly slower, and it runs for every request."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class ShutdownRequest(BaseRequest):
    """The poison pill a request handler stops on (Kafka's `case object ShutdownRequest`)."""


@dataclass(frozen=True, slots=True)
class Session:
    """Who sent a request and from where: the authenticated principal and the client's IP address."""

    principal: KafkaPrincipal
    client_address: str | None

    @property
    def sanitized_user(self) -> str:
        """The principal name made safe for metric tags and ZooKeeper paths (Kafka's Sanitizer.sanitize):
        letters, digits, '.', '-' and '_' stay, everything else is percent-encoded as UTF-8."""
        return urllib.parse.quote(self.principal.name, safe="").replace("~", "%7E")


class _Releasable(Protocol):
    """The memory pool a request's bytes were accounted against (kafka.common.memory.MemoryPool)."""

    def release(self, size_bytes: int) -> None: ...


class Request(BaseRequest):
    """A request read by Processor `processor`, waiting for, or being served by, a request handler.

    `buffer` holds the request frame (a ByteBufferAccessor over a memoryview of the frame's bytearray)
    positioned just after the header. The timestamps are written by the threads the request passes
    through and read when the response has been sent, for the request log.

    # PORT: Kafka parses the body in the network thread, when the Request is built. Here `body` is parsed on
    # first use, which is by the request handler thread (KafkaRequestHandler parses it before calling the
    # apis, and closes the connection when it cannot be parsed, which is Kafka's outcome too), so that the
    # network threads only move bytes. ApiVersions bodies, and every body when request logging is on, are
    # still parsed in the network thread, as Kafka does.
    """

    __slots__ = (
        "processor",
        "context",
        "start_time_nanos",
        "memory_pool",
        "buffer",
        "envelope",
        "request_dequeue_time_nanos",
        "api_local_complete_time_nanos",
        "response_complete_time_nanos",
        "response_dequeue_time_nanos",
        "message_conversions_time_nanos",
        "api_throttle_time_ms",
        "temporary_memory_bytes",
        "record_network_thread_time_callback",
        "request_log",
        "metrics",
        "_session",
        "_time",
        "_body_and_size",
        "_buffer_size",
    )

    def __init__(
        self,
        processor: int,
        context: RequestContext,
        start_time_nanos: int,
        memory_pool: _Releasable | None,
        buffer: ByteBufferAccessor,
        envelope: Request | None = None,
        time: Time = Time.SYSTEM,
        metrics: RequestChannelMetrics | None = None,
    ) -> None:
        self.processor = processor
        self.metrics = metrics
        self.context = context
        self.start_time_nanos = start_time_nanos
        self.memory_pool = memory_pool
        self.buffer: ByteBufferAccessor | None = buffer
        self.envelope = envelope
        # Written by handler, purgatory and network threads; a Python attribute store is atomic.
        self.request_dequeue_time_nanos = -1
        self.api_local_complete_time_nanos = -1
        self.response_complete_time_nanos = -1
        self.response_dequeue_time_nanos = -1
        self.message_conversions_time_nanos = 0
        self.api_throttle_time_ms = 0
        self.temporary_memory_bytes = 0
        self.record_network_thread_time_callback: Callable[[int], None] | None = None
        self._session: Session | None = None
        self._time = time
        self._body_and_size: RequestAndSize | None = None
        self._buffer_size = len(buffer.buffer)
        # Built now, before the api layer may change the request (a produce request's records are patched in
        # place), so that the log shows what the client sent.
        self.request_log: Any = _request_node(self.loggable_request) if is_request_logging_enabled() else None
        if _channel_logger.isEnabledFor(TRACE):
            _channel_log.trace(f"Processor {processor} received request: {self.request_desc(True)}")

    @property
    def session(self) -> Session:
        """Who sent the request, from where (made on first use; Kafka makes it with the request)."""
        session = self._session
        if session is None:
            session = self._session = Session(self.context.principal, self.context.client_address)
        return session

    @property
    def header(self) -> RequestHeader:
        return self.context.header

    def _body_and_size_or_parse(self) -> RequestAndSize:
        # No lock: the first use is always by the one thread holding the request (the network thread for
        # ApiVersions and request logging, else the handler thread), before it is handed on through a queue.
        result = self._body_and_size
        if result is None:
            if self.buffer is None:
                raise KafkaException(f"The buffer of {self} was released before its body was parsed")
            result = self._body_and_size = self.context.parse_request(self.buffer)
        return result

    @property
    def body(self) -> AbstractRequest[Any]:
        """The parsed request body; parsed on first use. Raises InvalidRequestException for a malformed body."""
        return self._body_and_size_or_parse().request

    def body_as(self, request_class: type[AbstractRequest[Any]]) -> Any:
        """The body, checked to be a `request_class` (Kafka's `body[T]`); TypeError otherwise."""
        body = self.body
        if not isinstance(body, request_class):
            raise TypeError(f"Expected request with type {request_class.__name__}, but found {type(body).__name__}")
        return body

    @property
    def size_of_body_in_bytes(self) -> int:
        return self._body_and_size_or_parse().size

    @property
    def size_in_bytes(self) -> int:
        return self.header.size + self.size_of_body_in_bytes

    @property
    def is_forwarded(self) -> bool:
        return self.envelope is not None

    def build_response_send(self, abstract_response: AbstractResponse) -> list[Any]:
        """The framed response as parts for the network thread (wrapped in an EnvelopeResponse when this request
        came forwarded inside an envelope)."""
        if self.envelope is not None:
            payload = self.context.build_response_envelope_payload(abstract_response)
            return self.envelope.context.build_response_send(EnvelopeResponse.of(payload, Errors.NONE))
        return self.context.build_response_send(abstract_response)

    def response_node(self, response: AbstractResponse) -> Any:
        """The response as it appears in the request log, or None when request logging is off."""
        if is_request_logging_enabled():
            return _message_node(response.data)
        return None

    def header_for_logging_or_throttling(self) -> RequestHeader:
        return self.envelope.context.header if self.envelope is not None else self.context.header

    def request_desc(self, details: bool) -> str:
        forward = f"Forwarded request: {self.envelope.context} " if self.envelope is not None else ""
        return f"{forward}{self.header} -- {self.loggable_request.to_string(details)}"

    @property
    def loggable_request(self) -> AbstractRequest[Any]:
        """The body with config values hidden, for logs.

        # PORT: Kafka hides only the values KafkaConfig.loggableValue calls sensitive (passwords and unknown
        # names); until the port's KafkaConfig offers that, every value of an AlterConfigs or
        # IncrementalAlterConfigs request is hidden."""
        body = self.body
        if body.api_key in (ApiKeys.ALTER_CONFIGS, ApiKeys.INCREMENTAL_ALTER_CONFIGS):
            data = body.data.duplicate()
            for resource in data.resources:
                for config in resource.configs:
                    config.value = _HIDDEN
            return type(body)(data, body.version)
        return body

    def request_thread_time_nanos(self) -> int:
        if self.api_local_complete_time_nanos == -1:
            self.api_local_complete_time_nanos = self._time.nanoseconds()
        return max(self.api_local_complete_time_nanos - self.request_dequeue_time_nanos, 0)

    def update_request_metrics(self, network_thread_time_nanos: int, response: Response) -> None:
        """Called by the network thread once the response is sent (or dropped): reports the network thread time
        and writes the request log line."""
        end_time_nanos = self._time.nanoseconds()
        metrics = self.metrics
        if metrics is not None:
            self._record_request_metrics(metrics, end_time_nanos)
        callback = self.record_network_thread_time_callback
        if callback is not None:
            callback(network_thread_time_nanos)
        if not is_request_logging_enabled():
            return
        request_queue_time_ms = _nanos_to_ms(self.request_dequeue_time_nanos - self.start_time_nanos)
        api_local_time_ms = _nanos_to_ms(self.api_local_complete_time_nanos - self.request_dequeue_time_nanos)
        api_remote_time_ms = _nanos_to_ms(self.response_complete_time_nanos - self.api_local_complete_time_nanos)
        response_queue_time_ms = _nanos_to_ms(self.response_dequeue_time_nanos - self.response_complete_time_nanos)
        response_send_time_ms = _nanos_to_ms(end_time_nanos - self.response_dequeue_time_nanos)
        message_conversions_time_ms = _nanos_to_ms(self.message_conversions_time_nanos)
        total_time_ms = _nanos_to_ms(end_time_nanos - self.start_time_nanos)
        desc: dict[str, Any] = {
            "isForwarded": self.is_forwarded,
            "requestHeader": _request_header_node(self.header),
            "request": self.request_log if self.request_log is not None else "",
            "response": response.response_log if response.response_log is not None else "",
            "connection": self.context.connection_id,
            "totalTimeMs": total_time_ms,
            "requestQueueTimeMs": request_queue_time_ms,
            "localTimeMs": api_local_time_ms,
            "remoteTimeMs": api_remote_time_ms,
            "throttleTimeMs": self.api_throttle_time_ms,
            "responseQueueTimeMs": response_queue_time_ms,
            "sendTimeMs": response_send_time_ms,
            "securityProtocol": self.context.security_protocol,
            "principal": str(self.session.principal),
            "listener": self.context.listener_name.value,
            "clientInformation": _client_info_node(self.context.client_information),
        }
        if self.temporary_memory_bytes > 0:
            desc["temporaryMemoryBytes"] = self.temporary_memory_bytes
        if message_conversions_time_ms > 0:
            desc["messageConversionsTime"] = message_conversions_time_ms
        _request_logger.debug("Completed request:" + json.dumps(desc, separators=(",", ":"), default=str))

    def _record_request_metrics(self, metrics: RequestChannelMetrics, end_time_nanos: int) -> None:
        """Updates the RequestMetrics of the request's API (and, for a fetch, FetchConsumer or FetchFollower).

        Cheap on purpose (it runs for every response): the times are worked out once, and the metrics' clock is read
        once for all the updates."""
        header = self.header
        api_key = header.api_key
        if self.api_local_complete_time_nanos == -1:
            self.api_local_complete_time_nanos = self.response_complete_time_nanos
        m = metrics.get(api_key.api_name)
        if m is None:
            return
        start = self.start_time_nanos
        dequeue = self.request_dequeue_time_nanos
        local_complete = self.api_local_complete_time_nanos
        response_complete = self.response_complete_time_nanos
        response_dequeue = self.response_dequeue_time_nanos
        body = self._body_and_size
        # Each interval in whole milliseconds, never negative, rounded half up as Java's Math.round (written out:
        # a helper function would be seven Python calls a response).
        queue_ns = dequeue - start
        local_ns = local_complete - dequeue
        remote_ns = response_complete - local_complete
        response_queue_ns = response_dequeue - response_complete
        send_ns = end_time_nanos - response_dequeue
        total_ns = end_time_nanos - start
        times = (
            (queue_ns + 500_000) // 1_000_000 if queue_ns > 0 else 0,
            (local_ns + 500_000) // 1_000_000 if local_ns > 0 else 0,
            (remote_ns + 500_000) // 1_000_000 if remote_ns > 0 else 0,
            self.api_throttle_time_ms,
            (response_queue_ns + 500_000) // 1_000_000 if response_queue_ns > 0 else 0,
            (send_ns + 500_000) // 1_000_000 if send_ns > 0 else 0,
            (total_ns + 500_000) // 1_000_000 if total_ns > 0 else 0,
            body.size if body is not None else 0,
        )
        if m.message_conversions_time_hist is not None:
            conversion_ns = self.message_conversions_time_nanos
            conversions: tuple[int, int] | None = (
                (conversion_ns + 500_000) // 1_000_000 if conversion_ns > 0 else 0,
                self.temporary_memory_bytes,
            )
        else:
            conversions = None
        now_ns = m._nanoseconds()  # RequestMetrics.clock_nanoseconds
        version = header.api_version
        if api_key is _FETCH:
            from_follower = body is not None and getattr(body.request, "is_from_follower", _false)()
            fetch_metrics = metrics.get(
                RequestMetrics.FOLLOW_FETCH_METRIC_NAME if from_follower else RequestMetrics.CONSUMER_FETCH_METRIC_NAME
            )
            if fetch_metrics is not None:
                fetch_metrics.record(version, times, conversions, now_ns)
        m.record(version, times, conversions, now_ns)

    def release_buffer(self) -> None:
        """Gives the frame's bytes back to the memory pool (once)."""
        if self.envelope is not None:
            self.envelope.release_buffer()
        elif self.buffer is not None:
            if self.memory_pool is not None:
                self.memory_pool.release(self._buffer_size)
            # PORT: Kafka drops its reference to the ByteBuffer; the parsed body may still view these bytes
            # (records), which Python keeps alive for as long as they are referenced.
            self.buffer = None

    def __repr__(self) -> str:
        return (
            f"Request(processor={self.processor}, connectionId={self.context.connection_id}, "
            f"session={self.session}, listenerName={self.context.listener_name.value}, "
            f"securityProtocol={self.context.security_protocol}, buffer={self.buffer is not None}, "
            f"envelope={self.envelope})"
        )


class Response:
    """What a request handler (or a purgatory) hands back to the network thread for a request.

    # PORT: Kafka's `sealed abstract class`; a plain base class for the same reason as BaseRequest."""

    __slots__ = ("request",)

    def __init__(self, request: Request) -> None:
        self.request = request

    @property
    def processor(self) -> int:
        return self.request.processor

    @property
    def response_log(self) -> Any:
        return None

    @property
    def on_complete(self) -> Callable[[list[Any]], None] | None:
        return None


class SendResponse(Response):
    """A response to write to the client: `response_send` is the framed response as parts (bytes, memoryviews and
    FileRecords); `on_complete_callback` is called with them once they are all written."""

    __slots__ = ("response_send", "response_log_value", "on_complete_callback")

    def __init__(
        self,
        request: Request,
        response_send: list[Any],
        response_log_value: Any = None,
        on_complete_callback: Callable[[list[Any]], None] | None = None,
    ) -> None:
        super().__init__(request)
        self.response_send = response_send
        self.response_log_value = response_log_value
        self.on_complete_callback = on_complete_callback

    @property
    def response_log(self) -> Any:
        return self.response_log_value

    @property
    def on_complete(self) -> Callable[[list[Any]], None] | None:
        return self.on_complete_callback

    def __repr__(self) -> str:
        return (
            f"Response(type=Send, request={self.request}, send={send_size(self.response_send)} bytes, "
            f"asString={self.response_log_value})"
        )


class NoOpResponse(Response):
    """No answer is due (a produce with acks=0): the network thread only reads the connection's next request."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"Response(type=NoOp, request={self.request})"


class CloseConnectionResponse(Response):
    """The request failed in a way the client is not told about: the network thread closes the connection."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"Response(type=CloseConnection, request={self.request})"


class StartThrottlingResponse(Response):
    """The client is being throttled: its connection stays muted until EndThrottlingResponse."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"Response(type=StartThrottling, request={self.request})"


class EndThrottlingResponse(Response):
    """The client's throttle time is over."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"Response(type=EndThrottling, request={self.request})"


def send_size(parts: list[Any]) -> int:
    """The number of bytes of a response's parts."""
    total = 0
    for part in parts:
        if isinstance(part, memoryview):
            total += part.nbytes
        elif isinstance(part, (bytes, bytearray)):
            total += len(part)
        else:
            total += part.size_in_bytes()
    return total


class RequestMetrics(KafkaMetricsGroup):
    """The `kafka.network:type=RequestMetrics` meters and histograms of one request name (`request` tag)."""

    CONSUMER_FETCH_METRIC_NAME: Final = "FetchConsumer"
    FOLLOW_FETCH_METRIC_NAME: Final = "FetchFollower"
    REQUESTS_PER_SEC: Final = "RequestsPerSec"
    REQUEST_QUEUE_TIME_MS: Final = "RequestQueueTimeMs"
    LOCAL_TIME_MS: Final = "LocalTimeMs"
    REMOTE_TIME_MS: Final = "RemoteTimeMs"
    THROTTLE_TIME_MS: Final = "ThrottleTimeMs"
    RESPONSE_QUEUE_TIME_MS: Final = "ResponseQueueTimeMs"
    RESPONSE_SEND_TIME_MS: Final = "ResponseSendTimeMs"
    TOTAL_TIME_MS: Final = "TotalTimeMs"
    REQUEST_BYTES: Final = "RequestBytes"
    MESSAGE_CONVERSIONS_TIME_MS: Final = "MessageConversionsTimeMs"
    TEMPORARY_MEMORY_BYTES: Final = "TemporaryMemoryBytes"
    ERRORS_PER_SEC: Final = "ErrorsPerSec"

    def __init__(self, name: str) -> None:
        self.name = name
        self.tags = {"request": name}
        self._lock = threading.Lock()
        self._request_rates: dict[int, Meter] = {}
        self.request_queue_time_hist = self.new_histogram(self.REQUEST_QUEUE_TIME_MS, True, self.tags)
        self.local_time_hist = self.new_histogram(self.LOCAL_TIME_MS, True, self.tags)
        self.remote_time_hist = self.new_histogram(self.REMOTE_TIME_MS, True, self.tags)
        self.throttle_time_hist = self.new_histogram(self.THROTTLE_TIME_MS, True, self.tags)
        self.response_queue_time_hist = self.new_histogram(self.RESPONSE_QUEUE_TIME_MS, True, self.tags)
        self.response_send_time_hist = self.new_histogram(self.RESPONSE_SEND_TIME_MS, True, self.tags)
        self.total_time_hist = self.new_histogram(self.TOTAL_TIME_MS, True, self.tags)
        self.request_bytes_hist = self.new_histogram(self.REQUEST_BYTES, True, self.tags)
        produce_or_fetch = name in (ApiKeys.FETCH.api_name, ApiKeys.PRODUCE.api_name)
        self.message_conversions_time_hist: Histogram | None = (
            self.new_histogram(self.MESSAGE_CONVERSIONS_TIME_MS, True, self.tags) if produce_or_fetch else None
        )
        self.temp_memory_bytes_hist: Histogram | None = (
            self.new_histogram(self.TEMPORARY_MEMORY_BYTES, True, self.tags) if produce_or_fetch else None
        )
        self._error_meters: dict[Errors, Meter] = {}
        # In the order of the `times` that `record` takes.
        self._time_hists = (
            self.request_queue_time_hist,
            self.local_time_hist,
            self.remote_time_hist,
            self.throttle_time_hist,
            self.response_queue_time_hist,
            self.response_send_time_hist,
            self.total_time_hist,
            self.request_bytes_hist,
        )
        # Produce and Fetch also record the conversion time and temporary memory, after the `times`.
        self._conversion_hists = (
            (self.message_conversions_time_hist, self.temp_memory_bytes_hist)
            if self.message_conversions_time_hist is not None and self.temp_memory_bytes_hist is not None
            else None
        )
        self._time_and_conversion_hists = self._time_hists + (self._conversion_hists or ())
        self._nanoseconds = KafkaYammerMetrics.default_registry().time.nanoseconds

    def clock_nanoseconds(self) -> int:
        """The time by the metrics' clock, read once per response for all its updates."""
        return self._nanoseconds()

    def record(self, version: int, times: tuple[int, ...], conversions: tuple[int, int] | None, now_ns: int) -> None:
        """One response: RequestsPerSec of its version, the time histograms and RequestBytes from `times` (request
        queue, local, remote, throttle, response queue, response send, total, request bytes), and for Produce and
        Fetch the conversion time and temporary memory from `conversions`."""
        meter = self._request_rates.get(version)
        if meter is None:
            meter = self.request_rate(version)
        meter.mark(1, now_ns)
        if conversions is not None and self._conversion_hists is not None:
            update_histograms(self._time_and_conversion_hists, times + conversions, now_ns)
        else:
            update_histograms(self._time_hists, times, now_ns)

    def request_rate(self, version: int) -> Meter:
        """The RequestsPerSec meter of one version of the request (tags request, version)."""
        meter = self._request_rates.get(version)
        if meter is None:
            with self._lock:
                meter = self._request_rates.get(version)
                if meter is None:
                    tags = {"request": self.name, "version": str(version)}
                    meter = self.new_meter(self.REQUESTS_PER_SEC, "requests", TimeUnit.SECONDS, tags)
                    self._request_rates[version] = meter
        return meter

    def mark_error_meter(self, error: Errors, count: int) -> None:
        """Counts `count` responses with `error` (ErrorsPerSec, tags request and error; NONE included, as Kafka)."""
        meter = self._error_meters.get(error)
        if meter is None:
            with self._lock:
                meter = self._error_meters.get(error)
                if meter is None:
                    tags = {"request": self.name, "error": error.name}
                    meter = self.new_meter(self.ERRORS_PER_SEC, "requests", TimeUnit.SECONDS, tags)
                    self._error_meters[error] = meter
        meter.mark(count)

    def error_count(self, error: Errors) -> int:
        """The ErrorsPerSec count of `error` (the registry's meter, which earlier channels of the process share)."""
        tags = {"request": self.name, "error": error.name}
        meter = KafkaYammerMetrics.default_registry().get(self.metric_name(self.ERRORS_PER_SEC, tags))
        return meter.count if isinstance(meter, Meter) else 0

    def remove_metrics(self) -> None:
        with self._lock:
            for version in self._request_rates:
                self.remove_metric(self.REQUESTS_PER_SEC, {"request": self.name, "version": str(version)})
            self._request_rates.clear()
            for error in self._error_meters:
                self.remove_metric(self.ERRORS_PER_SEC, {"request": self.name, "error": error.name})
            self._error_meters.clear()
        for metric_name in (
            self.REQUEST_QUEUE_TIME_MS,
            self.LOCAL_TIME_MS,
            self.REMOTE_TIME_MS,
            self.THROTTLE_TIME_MS,
            self.RESPONSE_QUEUE_TIME_MS,
            self.RESPONSE_SEND_TIME_MS,
            self.TOTAL_TIME_MS,
            self.REQUEST_BYTES,
        ):
            self.remove_metric(metric_name, self.tags)
        if self.message_conversions_time_hist is not None:
            self.remove_metric(self.MESSAGE_CONVERSIONS_TIME_MS, self.tags)
        if self.temp_memory_bytes_hist is not None:
            self.remove_metric(self.TEMPORARY_MEMORY_BYTES, self.tags)


class RequestChannelMetrics:
    """The RequestMetrics of every API a ZooKeeper-mode broker serves, and of FetchConsumer and FetchFollower
    (RequestChannel.Metrics in Kafka)."""

    def __init__(self, enabled_apis: list[ApiKeys] | None = None) -> None:
        apis = ApiKeys.zk_broker_apis() if enabled_apis is None else enabled_apis
        names = [api.api_name for api in apis] + [
            RequestMetrics.CONSUMER_FETCH_METRIC_NAME,
            RequestMetrics.FOLLOW_FETCH_METRIC_NAME,
        ]
        self._metrics = {name: RequestMetrics(name) for name in names}

    def get(self, name: str) -> RequestMetrics | None:
        return self._metrics.get(name)

    def __getitem__(self, name: str) -> RequestMetrics:
        return self._metrics[name]

    def close(self) -> None:
        for m in self._metrics.values():
            m.remove_metrics()


class RequestChannel(KafkaMetricsGroup, Logging):
    """The bounded queue of requests for the handlers, and the routing of responses to their Processor.

    Thread-safety: any thread may send requests and responses; `add_processor`/`remove_processor` are called
    under the SocketServer's lock. No lock of this class is held while calling into a Processor."""

    logger_name = "kafka.network.RequestChannel"

    def __init__(self, queue_size: int, metric_name_prefix: str = "", time: Time = Time.SYSTEM) -> None:
        self.queue_size = queue_size
        self.metric_name_prefix = metric_name_prefix
        self._time = time
        self._request_queue: ArrayBlockingQueue[BaseRequest] = ArrayBlockingQueue(queue_size)
        self._processors: dict[int, Processor] = {}
        self.metrics = RequestChannelMetrics()
        self.request_queue_size_metric_name = metric_name_prefix + REQUEST_QUEUE_SIZE_METRIC
        self.response_queue_size_metric_name = metric_name_prefix + RESPONSE_QUEUE_SIZE_METRIC
        # PORT: a later RequestChannel of the process (a broker restarted in tests) takes the queue size gauges
        # over, and a channel removes them at shutdown if they are still its own; Kafka registers them once.
        self._queue_size_gauges: dict[str, Gauge] = {}
        for gauge_name, fn in (
            (self.request_queue_size_metric_name, self._request_queue.size),
            (self.response_queue_size_metric_name, self.response_queue_size),
        ):
            self.remove_metric(gauge_name)
            self._queue_size_gauges[gauge_name] = self.new_gauge(gauge_name, fn)

    def add_processor(self, processor: Processor) -> None:
        if self._processors.setdefault(processor.id, processor) is not processor:
            self.warn(f"Unexpected processor with processorId {processor.id}")
        self.new_gauge(
            self.response_queue_size_metric_name,
            lambda: processor.response_queue_size,
            {PROCESSOR_METRIC_TAG: str(processor.id)},
        )

    def remove_processor(self, processor_id: int) -> None:
        self._processors.pop(processor_id, None)
        self.remove_metric(self.response_queue_size_metric_name, {PROCESSOR_METRIC_TAG: str(processor_id)})

    def send_request(self, request: Request, timeout_ms: int | None = None) -> bool:
        """Queues a request for the handlers, waiting while the queue is full: without a timeout until there is
        room (as Kafka), else for at most `timeout_ms`; False if it timed out.

        # PORT: the timeout lets a Processor stop waiting when it is shut down (Kafka's put cannot be left)."""
        return self._request_queue.put(request, None if timeout_ms is None else timeout_ms / 1000)

    def send_response(self, response: Response) -> None:
        """Hands a response to the Processor that read its request, and wakes that Processor."""
        if _request_channel_logger.isEnabledFor(TRACE):
            header = response.request.header_for_logging_or_throttling()
            api, client = header.api_key.name, header.client_id
            match response:
                case SendResponse():
                    message = f"Sending {api} response to client {client} of {send_size(response.response_send)} bytes."
                case NoOpResponse():
                    message = f"Not sending {api} response to client {client} as it's not required."
                case CloseConnectionResponse():
                    message = f"Closing connection for client {client} due to error during {api}."
                case StartThrottlingResponse():
                    message = f"Notifying channel throttling has started for client {client} for {api}"
                case _:
                    message = f"Notifying channel throttling has ended for client {client} for {api}"
            self.trace(message)

        # Only one of these is sent per request; the throttling ones may come in addition and leave the times be.
        if isinstance(response, (SendResponse, NoOpResponse, CloseConnectionResponse)):
            request = response.request
            time_nanos = self._time.nanoseconds()
            request.response_complete_time_nanos = time_nanos
            if request.api_local_complete_time_nanos == -1:
                request.api_local_complete_time_nanos = time_nanos

        processor = self._processors.get(response.processor)
        # A removed (shut down) Processor has closed its connections: the response has nowhere to go.
        if processor is not None:
            processor.enqueue_response(response)

    def close_connection(self, request: Request, error_counts: Mapping[Errors, int]) -> None:
        """Closes the request's connection instead of answering (the client expects no response, e.g. a produce
        with acks=0 that failed), counting the errors first. (RequestHandlerHelper.closeConnection in 2.8.)"""
        self.update_error_metrics(request.header.api_key, error_counts)
        self.send_response(CloseConnectionResponse(request))

    def receive_request(self, timeout_ms: int | None = None) -> BaseRequest | None:
        """The next request; waits at most `timeout_ms` (None: until there is one) and returns None on timeout."""
        return self._request_queue.poll(None if timeout_ms is None else timeout_ms / 1000)

    def update_error_metrics(self, api_key: ApiKeys, errors: Mapping[Errors, int]) -> None:
        m = self.metrics.get(api_key.api_name)
        if m is not None:
            for error, count in errors.items():
                m.mark_error_meter(error, count)

    def error_count(self, api_key: ApiKeys, error: Errors) -> int:
        """How many times `error` was counted for `api_key` (the ErrorsPerSec meter's count)."""
        m = self.metrics.get(api_key.api_name)
        return 0 if m is None else m.error_count(error)

    def request_queue_size(self) -> int:
        return self._request_queue.size()

    def response_queue_size(self) -> int:
        return sum(p.response_queue_size for p in list(self._processors.values()))

    def clear(self) -> None:
        """Drops every queued request."""
        self._request_queue.clear()

    def shutdown(self) -> None:
        self.clear()
        self.metrics.close()
        registry = KafkaYammerMetrics.default_registry()
        for gauge_name, gauge in self._queue_size_gauges.items():
            if registry.get(self.metric_name(gauge_name)) is gauge:
                self.remove_metric(gauge_name)

    def send_shutdown_request(self) -> None:
        """Queues one ShutdownRequest (one per handler to stop), waiting for room as Kafka's put does."""
        self._request_queue.put(ShutdownRequest(), None)


class ArrayBlockingQueue(Generic[T]):
    """A bounded FIFO for many producers and consumers (Java's ArrayBlockingQueue, as Kafka's request queue).

    # PORT: queue.Queue runs a Python-level Condition for every put and get; this keeps the items in the C-coded
    # queue.SimpleQueue and takes a Condition only when a producer must wait for room. Producers racing at the
    # limit may pass it by one item each (here: one per network thread)."""

    __slots__ = ("_capacity", "_items", "_not_full", "_waiting_producers")

    def __init__(self, capacity: int) -> None:
        if capacity <= 0:
            raise ValueError(f"capacity must be positive: {capacity}")
        self._capacity = capacity
        self._items: queue.SimpleQueue[T] = queue.SimpleQueue()
        self._not_full = threading.Condition(threading.Lock())
        self._waiting_producers = 0

    def put(self, item: T, timeout: float | None) -> bool:
        """Adds `item`, waiting for room at most `timeout` seconds (None: as long as it takes); False on timeout."""
        if self._items.qsize() >= self._capacity:
            with self._not_full:
                self._waiting_producers += 1
                try:
                    if not self._not_full.wait_for(self._has_room, timeout):
                        return False
                finally:
                    self._waiting_producers -= 1
        self._items.put(item)
        return True

    def _has_room(self) -> bool:
        return self._items.qsize() < self._capacity

    def poll(self, timeout: float | None) -> T | None:
        """The oldest item, waiting at most `timeout` seconds (None: until there is one); None on timeout."""
        try:
            item = self._items.get(True, timeout)
        except queue.Empty:
            return None
        # A producer counts itself under the lock before it checks for room, so one that is about to wait is
        # either seen here or sees the room this get made.
        if self._waiting_producers:
            with self._not_full:
                self._not_full.notify()
        return item

    def size(self) -> int:
        return self._items.qsize()

    def clear(self) -> None:
        while True:
            try:
                self._items.get_nowait()
            except queue.Empty:
                break
        with self._not_full:
            self._not_full.notify_all()


# ---- the request log ------------------------------------------------------------------------------

_HIDDEN = "[hidden]"


def _nanos_to_ms(nanos: int) -> float:
    """Milliseconds with microsecond precision, never negative."""
    return max(nanos, 0) // 1000 / 1000


def _false() -> bool:
    return False


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(word[:1].upper() + word[1:] for word in rest)


def _json_node(value: Any) -> Any:
    if isinstance(value, Message):
        node: dict[str, Any] = {}
        for name in value._FIELDS:
            item = getattr(value, name)
            if name == "records" and item is not None:
                # As Kafka's JSON converters without record serialisation: only the size of the records (a
                # FileRecords slice is not read for it).
                size_in_bytes = getattr(item, "size_in_bytes", None)
                node["recordsSizeInBytes"] = size_in_bytes() if size_in_bytes is not None else memoryview(item).nbytes
            else:
                node[_camel(name)] = _json_node(item)
        return node
    if isinstance(value, list):
        return [_json_node(item) for item in value]
    if value is None or isinstance(value, (int, float, str, bool)):
        return value
    if isinstance(value, (bytes, bytearray, memoryview)):
        return base64.b64encode(bytes(value)).decode("ascii")
    if hasattr(value, "to_bytes"):  # Uuid
        return str(value)
    return value


def _message_node(data: Any) -> Any:
    """A request or response body as the request log shows it: its fields by camelCase name.

    # PORT: Kafka writes these with the generated XxxJsonConverter classes; ours walk the generated data's fields,
    # with Kafka's field names and records shown by size."""
    return _json_node(data)


def _request_node(request: AbstractRequest[Any]) -> Any:
    return _message_node(request.data)


def _request_header_node(header: RequestHeader) -> dict[str, Any]:
    node: dict[str, Any] = {
        "requestApiKey": header.api_key.id,
        "requestApiVersion": header.api_version,
        "correlationId": header.correlation_id,
    }
    if header.header_version >= 1:
        node["clientId"] = header.client_id
    node["requestApiKeyName"] = header.api_key.name
    return node


def _client_info_node(client_info: ClientInformation) -> dict[str, str]:
    return {"softwareName": client_info.software_name, "softwareVersion": client_info.software_version}
