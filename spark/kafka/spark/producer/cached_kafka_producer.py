"""Port of connector/kafka-0-10-sql/src/main/scala/org/apache/spark/sql/kafka010/producer/CachedKafkaProducer.scala
and InternalKafkaProducerPool.scala (Spark 4).

The producers of a Python worker process, one per distinct configuration, kept between tasks: PySpark reuses its
worker processes, and a producer (its I/O thread, connections and metadata) costs more to start than a small
task takes to write. They are closed when the process exits.

# PORT: Spark counts users of each producer and closes one idle past spark.kafka.producer.cache.timeout; a Python
worker runs one task at a time, so a producer here is never shared by two tasks at once and stays until exit.
Transactional producers are not pooled (KafkaTransactionalWriteTask owns its producer).
"""

from __future__ import annotations

import atexit
import threading
from collections.abc import Mapping
from typing import Any

from kafka.clients.producer.kafka_producer import KafkaProducer
from kafka.common.serialization.byte_array_serializer import ByteArraySerializer

__all__ = ["acquire", "close_all", "new_producer"]

_lock = threading.Lock()
_producers: dict[tuple[tuple[str, str], ...], KafkaProducer[bytes, bytes]] = {}


def _key(config: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    return tuple(sorted((k, str(v)) for k, v in config.items()))


def new_producer(config: Mapping[str, Any]) -> KafkaProducer[bytes, bytes]:
    return KafkaProducer(dict(config), ByteArraySerializer(), ByteArraySerializer())


def acquire(config: Mapping[str, Any]) -> KafkaProducer[bytes, bytes]:
    """The process's producer for `config`, created on first use."""
    key = _key(config)
    with _lock:
        producer = _producers.get(key)
        if producer is None:
            producer = _producers[key] = new_producer(config)
        return producer


def invalidate(config: Mapping[str, Any]) -> None:
    """Closes and forgets the producer for `config` (after it failed)."""
    with _lock:
        producer = _producers.pop(_key(config), None)
    if producer is not None:
        producer.close(0)


def close_all() -> None:
    with _lock:
        producers = list(_producers.values())
        _producers.clear()
    for producer in producers:
        producer.close()


atexit.register(close_all)
