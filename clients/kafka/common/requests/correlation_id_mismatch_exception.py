"""Port of clients/src/main/java/org/apache/kafka/common/requests/CorrelationIdMismatchException.java (Kafka 3.7).

Raised by a client when a response does not carry the correlation id of the request it was read for.
"""

from __future__ import annotations


class CorrelationIdMismatchException(RuntimeError):
    """# PORT: Java's class extends IllegalStateException, whose closest Python counterpart is RuntimeError."""

    def __init__(self, message: str, request_correlation_id: int, response_correlation_id: int) -> None:
        super().__init__(message)
        self.request_correlation_id = request_correlation_id
        self.response_correlation_id = response_correlation_id
