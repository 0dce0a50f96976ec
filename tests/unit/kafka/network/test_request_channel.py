"""RequestChannel, Request and the response types: the hand-off between network and request handler threads."""

from __future__ import annotations

import struct
import threading
from typing import Any

import pytest

from kafka.common.memory.simple_memory_pool import SimpleMemoryPool
from kafka.common.message import AlterConfigsRequestData, RequestHeaderData
from kafka.common.network.client_information import ClientInformation
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.protocol.message import ByteBufferAccessor
from kafka.common.requests.api_versions_request import ApiVersionsRequest
from kafka.common.requests.api_versions_response import ApiVersionsResponse
from kafka.common.requests.request_context import RequestContext
from kafka.common.requests.request_header import RequestHeader
from kafka.common.security.auth.kafka_principal import KafkaPrincipal
from kafka.common.utils.time import MockTime
from kafka.metrics.kafka_yammer_metrics import KafkaYammerMetrics
from kafka.network.request_channel import (
    CloseConnectionResponse,
    EndThrottlingResponse,
    NoOpResponse,
    Request,
    RequestChannel,
    Response,
    SendResponse,
    Session,
    ShutdownRequest,
    StartThrottlingResponse,
)
from tests.unit.kafka.network.socket_server_support import Client


class RecordingProcessor:
    """Stands where a Processor would: records the responses routed to it."""

    def __init__(self, id: int) -> None:
        self.id = id
        self.responses: list[Response] = []

    def enqueue_response(self, response: Response) -> None:
        self.responses.append(response)

    @property
    def response_queue_size(self) -> int:
        return len(self.responses)


def make_request(
    frame: bytes | None = None, processor: int = 0, time: MockTime | None = None, pool: Any = None
) -> Request:
    """A Request as a Processor builds it from a frame (without its size); an ApiVersions v3 request by default."""
    payload = bytearray(frame if frame is not None else Client.api_versions_frame(7)[4:])
    buffer = ByteBufferAccessor(memoryview(payload))
    header = RequestHeader.parse(buffer)
    context = RequestContext(
        header,
        "127.0.0.1:9092-127.0.0.1:50000-0",
        "127.0.0.1",
        KafkaPrincipal.ANONYMOUS,
        "PLAINTEXT",
        "PLAINTEXT",
        ClientInformation.EMPTY,
        False,
    )
    time = time or MockTime()
    return Request(processor, context, time.nanoseconds(), pool, buffer, None, time)


def test_request_queue_is_bounded_and_fifo() -> None:
    """send_request waits while queued.max.requests requests are queued, and requests come out in order."""
    channel = RequestChannel(2)
    first, second, third = make_request(), make_request(), make_request()
    assert channel.send_request(first, 10)
    assert channel.send_request(second, 10)
    assert not channel.send_request(third, 50)
    assert channel.request_queue_size() == 2
    assert channel.receive_request(10) is first
    assert channel.send_request(third, 10)
    assert [channel.receive_request(10), channel.receive_request(10)] == [second, third]


def test_receive_request_times_out_with_none() -> None:
    """receive_request returns None when nothing arrives within its timeout."""
    assert RequestChannel(5).receive_request(20) is None


def test_blocked_sender_goes_on_once_a_request_is_taken() -> None:
    """A sender waiting on a full queue (no timeout, as Kafka's put) proceeds when a handler takes a request."""
    channel = RequestChannel(1)
    channel.send_request(make_request())
    late = make_request()
    sender = threading.Thread(target=channel.send_request, args=(late,), name="test-sender")
    sender.start()
    try:
        sender.join(0.1)
        assert sender.is_alive()  # waiting for room
        assert channel.receive_request(1000) is not None
        sender.join(5)
        assert not sender.is_alive()
        assert channel.receive_request(1000) is late
    finally:
        channel.clear()
        sender.join(5)


def test_send_response_goes_to_the_requests_processor_and_stamps_times() -> None:
    """A response is routed to the processor that read its request, with its completion times set."""
    time = MockTime()
    channel = RequestChannel(10, time=time)
    processors = [RecordingProcessor(0), RecordingProcessor(1)]
    for p in processors:
        channel.add_processor(p)  # type: ignore[arg-type]
    request = make_request(processor=1, time=time)
    time.sleep(5)
    response = SendResponse(request, [b"\x00\x00\x00\x00"])
    channel.send_response(response)
    assert processors[1].responses == [response]
    assert processors[0].responses == []
    assert request.response_complete_time_nanos == time.nanoseconds()
    assert request.api_local_complete_time_nanos == request.response_complete_time_nanos
    assert channel.response_queue_size() == 1


def test_throttling_responses_leave_the_request_times_alone() -> None:
    """StartThrottling and EndThrottling are routed like other responses but do not mark the request complete."""
    channel = RequestChannel(10, time=MockTime())
    processor = RecordingProcessor(0)
    channel.add_processor(processor)  # type: ignore[arg-type]
    request = make_request()
    channel.send_response(StartThrottlingResponse(request))
    channel.send_response(EndThrottlingResponse(request))
    assert [type(r) for r in processor.responses] == [StartThrottlingResponse, EndThrottlingResponse]
    assert request.response_complete_time_nanos == -1
    channel.send_response(NoOpResponse(request))
    assert request.response_complete_time_nanos != -1


def test_response_to_a_removed_processor_is_dropped() -> None:
    """Once its processor is removed, a response has nowhere to go and is dropped."""
    channel = RequestChannel(10)
    processor = RecordingProcessor(3)
    channel.add_processor(processor)  # type: ignore[arg-type]
    channel.remove_processor(3)
    channel.send_response(NoOpResponse(make_request(processor=3)))
    assert processor.responses == []


def test_close_connection_counts_errors_and_sends_a_close_response() -> None:
    """close_connection counts the request's errors per API and has the processor close the connection."""
    channel = RequestChannel(10)
    processor = RecordingProcessor(0)
    channel.add_processor(processor)  # type: ignore[arg-type]
    request = make_request()
    # The ErrorsPerSec meters are the process's (Yammer's registry): counted from what earlier tests left.
    before = {
        (api, error): channel.error_count(api, error)
        for api in (ApiKeys.API_VERSIONS, ApiKeys.FETCH)
        for error in (Errors.UNKNOWN_SERVER_ERROR, Errors.NONE)
    }
    channel.close_connection(request, {Errors.UNKNOWN_SERVER_ERROR: 2, Errors.NONE: 1})
    (response,) = processor.responses
    assert isinstance(response, CloseConnectionResponse) and response.request is request
    assert channel.error_count(ApiKeys.API_VERSIONS, Errors.UNKNOWN_SERVER_ERROR) == (
        before[(ApiKeys.API_VERSIONS, Errors.UNKNOWN_SERVER_ERROR)] + 2
    )
    assert channel.error_count(ApiKeys.API_VERSIONS, Errors.NONE) == before[(ApiKeys.API_VERSIONS, Errors.NONE)] + 1
    assert channel.error_count(ApiKeys.FETCH, Errors.NONE) == before[(ApiKeys.FETCH, Errors.NONE)]


def test_shutdown_requests_clear_and_shutdown() -> None:
    """send_shutdown_request queues a ShutdownRequest; clear and shutdown drop what is queued."""
    channel = RequestChannel(10)
    channel.send_shutdown_request()
    assert channel.receive_request(10) == ShutdownRequest()
    for _ in range(3):
        channel.send_request(make_request())
    channel.clear()
    assert channel.receive_request(0) is None
    channel.send_request(make_request())
    channel.shutdown()
    assert channel.request_queue_size() == 0


def test_request_body_is_parsed_on_first_use_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """The body is parsed once, on first use, from the bytes after the header."""
    request = make_request()
    calls: list[int] = []
    parse = request.context.parse_request

    def counting_parse(buffer: Any) -> Any:
        calls.append(1)
        return parse(buffer)

    monkeypatch.setattr(request.context, "parse_request", counting_parse)
    assert calls == []
    body = request.body
    assert isinstance(body, ApiVersionsRequest)
    assert body.data.client_software_name == "kafka-port-test"
    assert request.body is body
    assert request.body_as(ApiVersionsRequest) is body
    assert request.size_of_body_in_bytes == len(body.serialize())
    assert request.size_in_bytes == request.header.size + request.size_of_body_in_bytes
    assert calls == [1]
    with pytest.raises(TypeError):
        request.body_as(ApiVersionsResponse)  # type: ignore[arg-type]


def test_release_buffer_gives_the_memory_back_once() -> None:
    """release_buffer returns the frame's bytes to the memory pool, once however often it is called."""
    frame = Client.api_versions_frame(7)[4:]
    pool = SimpleMemoryPool(1000, 1000, False)
    assert pool.try_allocate(len(frame))
    request = make_request(frame, pool=pool)
    request.body  # noqa: B018 - parse before release, as a handler does
    request.release_buffer()
    request.release_buffer()
    assert pool.available_memory() == 1000
    assert request.buffer is None
    assert request.body.data.client_software_version == "1.0"


def test_loggable_request_hides_config_values() -> None:
    """The logged form of an AlterConfigs request hides every value; the request itself is unchanged."""
    data = AlterConfigsRequestData()
    config = AlterConfigsRequestData.AlterableConfig(name="sasl.jaas.config", value="secret")
    data.resources.append(AlterConfigsRequestData.AlterConfigsResource(resource_type=4, resource_name="0"))
    data.resources[0].configs.append(config)
    header = RequestHeaderData(request_api_key=ApiKeys.ALTER_CONFIGS.id, request_api_version=1, correlation_id=3)
    header.client_id = "admin"
    frame = header.write(1) + data.write(1)
    request = make_request(frame)
    logged = request.loggable_request
    assert logged.data.resources[0].configs[0].value == "[hidden]"
    assert request.body.data.resources[0].configs[0].value == "secret"
    assert "secret" not in request.request_desc(True)


def test_build_response_send_frames_the_response() -> None:
    """build_response_send gives the framed response: size, correlation id, then the body."""
    request = make_request()
    parts = request.build_response_send(ApiVersionsResponse.default_api_versions_response())
    frame = b"".join(parts)
    size, correlation_id = struct.unpack(">ii", frame[:8])
    assert size == len(frame) - 4 and correlation_id == 7
    response = ApiVersionsResponse.parse(frame[8:], 3)
    assert response.data.error_code == 0
    assert request.response_node(ApiVersionsResponse.default_api_versions_response()) is None  # logging is off


def test_response_node_shows_file_records_by_size_without_reading_them(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With request logging on, a Fetch response's records appear as recordsSizeInBytes, as Kafka's converters
    write them; a FileRecords slice is measured, never read (the log line must not cost a read of the data)."""
    import logging

    from kafka.common.message import FetchResponseData
    from kafka.common.record.file_records import FileRecords
    from kafka.common.requests.fetch_response import FetchResponse

    path = tmp_path / "00000000000000000000.log"
    path.write_bytes(b"x" * 1000)
    log = FileRecords.open(path, file_already_exists=True)
    records = log.slice(100, 700)
    monkeypatch.setattr(FileRecords, "read_bytes", lambda self: pytest.fail("records were read"))
    partition = FetchResponseData.PartitionData(partition_index=2, high_watermark=5, records=records)
    topic = FetchResponseData.FetchableTopicResponse(topic="t", partitions=[partition])
    response = FetchResponse(FetchResponseData(responses=[topic]))
    logger = logging.getLogger("kafka.request.logger")
    level = logger.level
    logger.setLevel(logging.DEBUG)  # setLevel, not the attribute: it also clears isEnabledFor's cache
    try:
        node = make_request().response_node(response)
    finally:
        logger.setLevel(level)
    (partition_node,) = node["responses"][0]["partitions"]
    assert partition_node["partitionIndex"] == 2 and partition_node["highWatermark"] == 5
    assert partition_node["recordsSizeInBytes"] == 700 and "records" not in partition_node
    assert node["responses"][0]["topic"] == "t"
    log.close()


def test_session_sanitized_user() -> None:
    """The session's sanitized user percent-encodes what cannot appear in metric tags or ZooKeeper paths."""
    session = Session(KafkaPrincipal("User", "alice smith*~"), "127.0.0.1")
    assert session.sanitized_user == "alice%20smith%2A%7E"
    assert Session(KafkaPrincipal("User", "bob.b-c_d"), None).sanitized_user == "bob.b-c_d"


def test_request_metrics_names_and_queue_gauges() -> None:
    """RequestMetrics registers Kafka's MBeans per request name; RequestsPerSec carries the version; the queue size
    gauges read the channel."""
    channel = RequestChannel(10)
    try:
        registry = KafkaYammerMetrics.default_registry()
        names = {n.mbean_name for n in registry.all_metrics()}
        assert "kafka.network:type=RequestMetrics,name=TotalTimeMs,request=Produce" in names
        assert "kafka.network:type=RequestMetrics,name=MessageConversionsTimeMs,request=Fetch" in names
        assert "kafka.network:type=RequestMetrics,name=LocalTimeMs,request=FetchConsumer" in names
        assert "kafka.network:type=RequestMetrics,name=MessageConversionsTimeMs,request=Metadata" not in names
        produce = channel.metrics["Produce"]
        before = produce.request_rate(9).count
        produce.request_rate(9).mark()
        assert produce.request_rate(9).count == before + 1
        assert "kafka.network:type=RequestMetrics,name=RequestsPerSec,request=Produce,version=9" in {
            n.mbean_name for n in registry.all_metrics()
        }
        gauge = next(
            m
            for n, m in registry.all_metrics().items()
            if n.mbean_name == "kafka.network:type=RequestChannel,name=RequestQueueSize"
        )
        channel.send_request(make_request())
        assert gauge.value() == 1  # type: ignore[union-attr]
    finally:
        channel.shutdown()


def test_request_metrics_record_each_interval_in_rounded_milliseconds() -> None:
    """The time histograms get each interval in whole milliseconds, rounded half up (Math.round), never negative."""
    from kafka.network.request_channel import RequestChannelMetrics

    metrics = RequestChannelMetrics([ApiKeys.API_VERSIONS])
    try:
        request = make_request()
        m = metrics["ApiVersions"]
        request.start_time_nanos = 10_000_000
        request.request_dequeue_time_nanos = 10_000_000 + 1_499_999  # 1.499999 ms -> 1
        request.api_local_complete_time_nanos = request.request_dequeue_time_nanos + 2_500_000  # 2.5 ms -> 3
        request.response_complete_time_nanos = request.api_local_complete_time_nanos - 7  # negative -> 0
        request.response_dequeue_time_nanos = request.response_complete_time_nanos + 499_999  # -> 0
        end = request.response_dequeue_time_nanos + 4_000_000  # -> 4
        request.api_throttle_time_ms = 6
        hists = {
            "queue": m.request_queue_time_hist,
            "local": m.local_time_hist,
            "remote": m.remote_time_hist,
            "throttle": m.throttle_time_hist,
            "response_queue": m.response_queue_time_hist,
            "send": m.response_send_time_hist,
            "total": m.total_time_hist,
        }
        sums = {k: (h.count, h.sum) for k, h in hists.items()}
        request._record_request_metrics(metrics, end)
        got = {k: (h.count - sums[k][0], h.sum - sums[k][1]) for k, h in hists.items()}
        total = round((end - request.start_time_nanos) / 1e6)
        assert got == {
            "queue": (1, 1),
            "local": (1, 3),
            "remote": (1, 0),
            "throttle": (1, 6),
            "response_queue": (1, 0),
            "send": (1, 4),
            "total": (1, total),
        }
    finally:
        metrics.close()
