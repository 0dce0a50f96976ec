"""Port of clients/src/main/java/org/apache/kafka/clients/consumer/RetriableCommitFailedException.java (Kafka 3.7).

An asynchronous commit that failed with a retriable error; committing again may succeed.
"""

from __future__ import annotations

from kafka.common.errors import RetriableException

__all__ = ["RetriableCommitFailedException"]


class RetriableCommitFailedException(RetriableException):
    def __init__(self, message_or_cause: str | BaseException) -> None:
        if isinstance(message_or_cause, BaseException):
            super().__init__(
                "Offset commit failed with a retriable exception. You should retry committing the latest consumed "
                "offsets."
            )
            self.__cause__ = message_or_cause
        else:
            super().__init__(message_or_cause)
