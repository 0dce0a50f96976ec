"""Port of core/src/main/scala/kafka/log/CorruptIndexException.scala (Kafka 2.8).

Raised by an index's sanity check; the log then rebuilds the index from its segment.
"""

from __future__ import annotations


class CorruptIndexException(RuntimeError):
    """An index file whose content cannot be right (for example a size that is not a whole number of entries).

    # PORT: Kafka's class extends java.lang.RuntimeException, not KafkaException; RuntimeError is the
    closest Python base and keeps it outside `except KafkaException` handlers, as in Kafka.
    """
