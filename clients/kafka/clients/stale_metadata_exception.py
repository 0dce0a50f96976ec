"""Port of clients/src/main/java/org/apache/kafka/clients/StaleMetadataException.java (Kafka 3.7).

Raised inside the clients when cached metadata cannot serve a request and must be refreshed first; as an
InvalidMetadataException it is retriable.
"""

from __future__ import annotations

from kafka.common.errors import InvalidMetadataException

__all__ = ["StaleMetadataException"]


class StaleMetadataException(InvalidMetadataException):
    """The metadata is out of date: refresh it and try again."""
