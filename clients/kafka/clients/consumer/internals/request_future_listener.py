"""Port of clients/src/main/java/org/apache/kafka/clients/consumer/internals/RequestFutureListener.java (Kafka 3.7).

What a RequestFuture tells when it completes.
"""

from __future__ import annotations

import abc
from typing import Generic, TypeVar

T = TypeVar("T", contravariant=True)

__all__ = ["RequestFutureListener"]


class RequestFutureListener(abc.ABC, Generic[T]):
    @abc.abstractmethod
    def on_success(self, value: T) -> None: ...

    @abc.abstractmethod
    def on_failure(self, e: BaseException) -> None: ...
