"""What the broker's metrics cost on the produce and fetch paths (issue 16: at most a few percent of throughput).

    .venv/bin/python -m tests.bench.metrics_cost_bench [--rounds 3] [--out .benchmarks/metrics_cost_bench.json]
    .venv/bin/python -m tests.bench.metrics_cost_bench --micro-only

Two measures:
- per response, the recording itself, timed in this process: what a Produce and a consumer Fetch response record when
  their response is sent (RequestsPerSec and the time/size histograms of Request.update_request_metrics), and the
  BrokerTopicMetrics meters the produce and fetch paths mark, in microseconds per request;
- end to end: two brokers from the bin scripts, one as shipped and one started with KAFKA_PORT_BENCH_METRICS_OFF=1
  (read by kafka.network.socket_server only: the processors then record neither RequestMetrics nor their Selector's
  sensors), driven alternately by the same librdkafka workloads: 100-byte records produced and consumed in batches
  (../shared/bench/perf_clients.py), and one-record produce requests (linger.ms=0, one in flight), which stress the
  per-request path most. Prints the medians and the ratio on / off of each.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
import timeit
from functools import partial
from pathlib import Path
from typing import Any

METRICS_OFF_ENV = "KAFKA_PORT_BENCH_METRICS_OFF"


def _request(api_key: Any, version: int) -> Any:
    """A Request as a Processor builds it, for an API whose body the recording does not parse."""
    from kafka.common.network.client_information import ClientInformation
    from kafka.common.protocol.message import ByteBufferAccessor
    from kafka.common.requests.request_context import RequestContext
    from kafka.common.requests.request_header import RequestHeader
    from kafka.common.security.auth.kafka_principal import KafkaPrincipal
    from kafka.network.request_channel import Request

    header = RequestHeader.of(api_key, version, "bench", 1)
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
    request = Request(0, context, time.monotonic_ns(), None, ByteBufferAccessor(memoryview(bytearray(8))))
    request.request_dequeue_time_nanos = request.start_time_nanos + 20_000
    request.api_local_complete_time_nanos = request.start_time_nanos + 300_000
    request.response_complete_time_nanos = request.start_time_nanos + 310_000
    request.response_dequeue_time_nanos = request.start_time_nanos + 320_000
    return request


def micro(number: int = 20_000) -> dict[str, float]:
    """Microseconds per request of the metrics recorded for one Produce and one consumer Fetch."""
    from kafka.common.protocol.api_keys import ApiKeys
    from kafka.network.request_channel import RequestChannelMetrics
    from kafka.server.kafka_request_handler import BrokerTopicStats

    metrics = RequestChannelMetrics([ApiKeys.PRODUCE, ApiKeys.FETCH])
    stats = BrokerTopicStats()
    produce = _request(ApiKeys.PRODUCE, 9)
    fetch = _request(ApiKeys.FETCH, 12)
    end = produce.start_time_nanos + 400_000
    out: dict[str, float] = {}
    for name, request in (("produce_request_metrics_us", produce), ("fetch_request_metrics_us", fetch)):
        seconds = min(timeit.repeat(partial(request._record_request_metrics, metrics, end), number=number, repeat=3))
        out[name] = round(seconds / number * 1e6, 2)
    topic = stats.topic_stats("bench")
    all_topics = stats.all_topics_stats

    def produce_marks() -> None:
        # ReplicaManager's append: request counts, then bytes and messages in, per topic and for all topics.
        topic.total_produce_request_rate.mark()
        all_topics.total_produce_request_rate.mark()
        topic.bytes_in_rate.mark(1000)
        all_topics.bytes_in_rate.mark(1000)
        topic.messages_in_rate.mark(10)
        all_topics.messages_in_rate.mark(10)

    def fetch_marks() -> None:
        topic.total_fetch_request_rate.mark()
        all_topics.total_fetch_request_rate.mark()
        stats.update_bytes_out("bench", False, False, 1000)

    for name, fn in (("produce_topic_meters_us", produce_marks), ("fetch_topic_meters_us", fetch_marks)):
        seconds = min(timeit.repeat(fn, number=number, repeat=3))
        out[name] = round(seconds / number * 1e6, 2)
    metrics.close()
    stats.close()
    return out


def one_record_requests(bootstrap: str, seconds: float = 5.0) -> dict[str, float]:
    """Produce requests of one 100-byte record each (linger.ms=0, one in flight, acks=1) for `seconds`: requests/s."""
    from confluent_kafka import Producer
    from confluent_kafka.admin import AdminClient, NewTopic

    topic = f"metrics-cost-{os.getpid()}-{time.monotonic_ns()}"
    admin = AdminClient({"bootstrap.servers": bootstrap})
    admin.create_topics([NewTopic(topic, 1, 1)])[topic].result(30)
    producer = Producer(
        {"bootstrap.servers": bootstrap, "acks": "1", "linger.ms": 0, "max.in.flight.requests.per.connection": 1}
    )
    payload = b"x" * 100
    done = [0]

    def delivered(err: Any, _msg: Any) -> None:
        if err is None:
            done[0] += 1

    producer.produce(topic, payload, on_delivery=delivered)  # the connection and metadata, before the clock
    producer.flush(30)
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        # One record at a time: each is its own request.
        producer.produce(topic, payload, on_delivery=delivered)
        producer.flush(10)
    elapsed = time.perf_counter() - start
    return {"requests_per_s": round((done[0] - 1) / elapsed, 1)}


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--msgs", type=int, default=200_000, help="100-byte records per perf_clients run")
    ap.add_argument("--seconds", type=float, default=5.0, help="length of each one-record-request run")
    ap.add_argument("--out", default=".benchmarks/metrics_cost_bench.json")
    ap.add_argument("--micro-only", action="store_true", help="only the in-process recording costs")
    args = ap.parse_args(argv)
    results: dict[str, Any] = {"micro": micro()}
    print("recording per request (us):", results["micro"], flush=True)
    if not args.micro_only:
        results.update(end_to_end(args.rounds, args.msgs, args.seconds))
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=1))
    return 0


def end_to_end(rounds: int, msgs: int, seconds: float) -> dict[str, Any]:
    from tests.bench.broker_bench import perf
    from tests.integration.broker import BrokerProcess
    from tests.integration.zookeeper import ZooKeeperServer

    work = Path(tempfile.mkdtemp(prefix="metrics-cost-bench-"))
    (work / "zk").mkdir()
    zk = ZooKeeperServer(work / "zk")
    zk.start()
    results: dict[str, Any] = {"on": {}, "off": {}}
    brokers: dict[str, BrokerProcess] = {}
    try:
        for who in ("on", "off"):
            (work / who).mkdir()
            broker = BrokerProcess(work / who, f"{zk.connect_string}/metrics-cost-{who}")
            if who == "off":
                os.environ[METRICS_OFF_ENV] = "1"
            try:
                broker.start()
            finally:
                os.environ.pop(METRICS_OFF_ENV, None)
            brokers[who] = broker
        for _ in range(rounds):
            for who in ("on", "off"):
                bootstrap = brokers[who].bootstrap
                r = perf(bootstrap, msgs, 100)
                results[who].setdefault("100B", []).append(r)
                o = one_record_requests(bootstrap, seconds)
                results[who].setdefault("one_record_requests", []).append(o)
                print(who, r, o, flush=True)
    finally:
        for broker in brokers.values():
            broker.stop()
        zk.stop()
    shutil.rmtree(work, ignore_errors=True)  # kept when the run failed, for the brokers' logs

    def med(who: str, case: str, key: str) -> float:
        return float(statistics.median(r[key] for r in results[who][case]))

    print("\n| case | metrics on | metrics off | on / off |\n|---|---|---|---|")
    for case, key, what in (
        ("100B", "produce_MB_s", "100-byte records, produce MB/s"),
        ("100B", "consume_MB_s", "100-byte records, consume MB/s"),
        ("one_record_requests", "requests_per_s", "one-record produce requests/s"),
    ):
        on, off = med("on", case, key), med("off", case, key)
        results.setdefault("ratios", {})[f"{case}.{key}"] = round(on / off, 3)
        print(f"| {what} | {on} | {off} | {on / off:.3f} |")
    return results


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
