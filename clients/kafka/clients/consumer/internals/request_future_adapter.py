"""Port of clients/src/main/java/org/apache/kafka/clients/consumer/internals/RequestFutureAdapter.java (Kafka 3.7).

Turns the outcome of one RequestFuture into another's (RequestFuture.compose): typically a ClientResponse
into the value the caller wants.
"""

from __future__ import annotations

import abc
from typing import TYPE_CHECKING, Generic, TypeVar

if TYPE_CHECKING:
    from kafka.clients.consumer.internals.request_future import RequestFuture

F = TypeVar("F")
T = TypeVar("T")

__all__ = ["RequestFutureAdapter"]


class RequestFutureAdapter(abc.ABC, Generic[F, T]):
    @abc.abstractmethod
    def on_success(self, value: F, future: RequestFuture[T]) -> None: ...

    def on_failure(self, e: BaseException, future: RequestFuture[T]) -> None:
        future.raise_(e)
