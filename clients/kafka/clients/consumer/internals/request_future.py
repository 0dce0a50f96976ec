"""Port of clients/src/main/java/org/apache/kafka/clients/consumer/internals/RequestFuture.java (Kafka 3.7).

The result of an asynchronous request of the consumer: completed once, with a value or an exception, by
whichever thread handles the response; listeners run on that thread, in the order they were added (a
listener added after completion runs at once). `compose` and `chain` build one future from another.
ConsumerNetworkClient.poll(future) drives the network until the future is done.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from kafka.clients.consumer.internals.no_available_brokers_exception import NoAvailableBrokersException
from kafka.clients.consumer.internals.request_future_adapter import RequestFutureAdapter
from kafka.clients.consumer.internals.request_future_listener import RequestFutureListener
from kafka.common.errors import RetriableException
from kafka.common.protocol.errors import Errors

T = TypeVar("T")
S = TypeVar("S")

__all__ = ["RequestFuture"]

_INCOMPLETE = object()


class _Failure:
    __slots__ = ("exception",)

    def __init__(self, exception: BaseException) -> None:
        self.exception = exception


class RequestFuture(Generic[T]):
    """Thread-safe; completion happens once.

    # PORT: Java's `raise` is `raise_` (a Python keyword otherwise); a failure is any BaseException (Java's
    RuntimeException), told apart from a value that happens to be an exception."""

    def __init__(self) -> None:
        self._result: Any = _INCOMPLETE
        self._lock = threading.Lock()
        self._listeners: deque[RequestFutureListener[T]] = deque()
        self._completed = threading.Event()

    def is_done(self) -> bool:
        return self._result is not _INCOMPLETE

    def await_done(self, timeout_ms: int) -> bool:
        return self._completed.wait(max(0, timeout_ms) / 1000)

    def value(self) -> T:
        if not self.succeeded():
            raise RuntimeError("Attempt to retrieve value from future which hasn't successfully completed")
        return self._result

    def succeeded(self) -> bool:
        return self.is_done() and not self.failed()

    def failed(self) -> bool:
        return isinstance(self._result, _Failure)

    def is_retriable(self) -> bool:
        return isinstance(self.exception(), RetriableException)

    def exception(self) -> BaseException:
        result = self._result
        if not isinstance(result, _Failure):
            raise RuntimeError("Attempt to retrieve exception from future which hasn't failed")
        return result.exception

    def should_block(self) -> bool:
        """ConsumerNetworkClient's poll condition: block while not done."""
        return not self.is_done()

    def complete(self, value: T) -> None:
        try:
            if isinstance(value, BaseException):
                raise ValueError("The argument to complete can not be an instance of RuntimeException")
            self._set(value)
            self._fire_success()
        finally:
            self._completed.set()

    def raise_(self, e: BaseException | Errors) -> None:
        """Fails the future with `e` (or the exception of an Errors value)."""
        try:
            if e is None:
                raise ValueError("The exception passed to raise must not be null")
            exception = e.exception() if isinstance(e, Errors) else e
            assert exception is not None
            self._set(_Failure(exception))
            self._fire_failure()
        finally:
            self._completed.set()

    def _set(self, result: Any) -> None:
        with self._lock:
            if self._result is not _INCOMPLETE:
                raise RuntimeError("Invalid attempt to complete a request future which is already complete")
            self._result = result

    def _poll_listener(self) -> RequestFutureListener[T] | None:
        try:
            return self._listeners.popleft()
        except IndexError:
            return None

    def _fire_success(self) -> None:
        value = self.value()
        while (listener := self._poll_listener()) is not None:
            listener.on_success(value)

    def _fire_failure(self) -> None:
        exception = self.exception()
        while (listener := self._poll_listener()) is not None:
            listener.on_failure(exception)

    def add_listener(self, listener: RequestFutureListener[T]) -> None:
        self._listeners.append(listener)
        if self.failed():
            self._fire_failure()
        elif self.succeeded():
            self._fire_success()

    def add_callbacks(self, on_success: Callable[[T], None], on_failure: Callable[[BaseException], None]) -> None:
        """# PORT: an anonymous RequestFutureListener in Java."""
        self.add_listener(_CallbackListener(on_success, on_failure))

    def compose(self, adapter: RequestFutureAdapter[T, S]) -> RequestFuture[S]:
        """A future completed through `adapter` from this one's outcome."""
        adapted: RequestFuture[S] = RequestFuture()
        self.add_callbacks(lambda value: adapter.on_success(value, adapted), lambda e: adapter.on_failure(e, adapted))
        return adapted

    def chain(self, future: RequestFuture[T]) -> None:
        """Completes `future` with this one's outcome."""
        self.add_callbacks(future.complete, future.raise_)

    @staticmethod
    def failure(e: BaseException) -> RequestFuture[Any]:
        future: RequestFuture[Any] = RequestFuture()
        future.raise_(e)
        return future

    @staticmethod
    def void_success() -> RequestFuture[None]:
        future: RequestFuture[None] = RequestFuture()
        future.complete(None)
        return future

    @staticmethod
    def coordinator_not_available() -> RequestFuture[Any]:
        exception = Errors.COORDINATOR_NOT_AVAILABLE.exception()
        assert exception is not None
        return RequestFuture.failure(exception)

    @staticmethod
    def no_brokers_available() -> RequestFuture[Any]:
        return RequestFuture.failure(NoAvailableBrokersException())

    def __repr__(self) -> str:
        if not self.is_done():
            state = "incomplete"
        elif self.failed():
            state = f"failed={self.exception()!r}"
        else:
            state = f"value={self._result!r}"
        return f"RequestFuture({state})"


class _CallbackListener(RequestFutureListener[T]):
    __slots__ = ("_on_success", "_on_failure")

    def __init__(self, on_success: Callable[[T], None], on_failure: Callable[[BaseException], None]) -> None:
        self._on_success = on_success
        self._on_failure = on_failure

    def on_success(self, value: T) -> None:
        self._on_success(value)

    def on_failure(self, e: BaseException) -> None:
        self._on_failure(e)
