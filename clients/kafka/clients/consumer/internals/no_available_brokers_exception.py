"""Port of clients/src/main/java/org/apache/kafka/clients/consumer/internals/NoAvailableBrokersException.java
(Kafka 3.7).

No broker could be reached to send a request to; retriable.
"""

from __future__ import annotations

from kafka.common.errors import InvalidMetadataException

__all__ = ["NoAvailableBrokersException"]


class NoAvailableBrokersException(InvalidMetadataException):
    pass
