"""Port of clients/src/main/java/org/apache/kafka/common/KafkaFuture.java and
clients/src/main/java/org/apache/kafka/common/internals/KafkaFutureImpl.java (Kafka 3.7).

The future the admin client hands out for each result: completed once, by a value or by a failure, from any
thread; `get` waits for it. Dependent futures (`then_apply`, `when_complete`, `all_of`) complete when their
source does.

# PORT: both Java classes live in this one module (KafkaFutureImpl is the only KafkaFuture there is). Java's
checked exceptions become Python ones with the same roles:
- `get` of a failed future raises ExecutionException, whose `cause` (and `__cause__`) is the failure, as Java's
  `ExecutionException.getCause()`;
- `get` of a cancelled future raises concurrent.futures.CancelledError (Java's CancellationException);
- `get(timeout_ms)` that runs out raises the built-in TimeoutError (Java's java.util.concurrent.TimeoutException,
  which is not Kafka's TimeoutException).
Timeouts are in milliseconds, as the producer's futures take them. There is no toCompletionStage: Python code
that wants a concurrent.futures.Future can use `when_complete`.
Callbacks of dependent futures run on the thread that completes the source (or at once, on the caller's
thread, if the source is already complete), as CompletableFuture's do.
"""

from __future__ import annotations

import abc
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import CancelledError
from time import monotonic as _monotonic
from typing import Any, Generic, TypeVar

from kafka.common.utils.utils import java_to_string

__all__ = ["ExecutionException", "KafkaFuture", "KafkaFutureImpl"]

T = TypeVar("T")
R = TypeVar("R")


class ExecutionException(Exception):
    """Raised by `get` when the future failed; `cause` is the failure (Java's
    java.util.concurrent.ExecutionException). The message is the cause as Java prints it."""

    JAVA_CLASS_NAME = "java.util.concurrent.ExecutionException"

    def __init__(self, cause: BaseException) -> None:
        super().__init__(java_to_string(cause))
        self.cause = cause
        self.__cause__ = cause


class KafkaFuture(abc.ABC, Generic[T]):
    """A result that may not be known yet."""

    @staticmethod
    def completed_future(value: R) -> KafkaFuture[R]:
        """A future that already holds `value`."""
        future: KafkaFutureImpl[R] = KafkaFutureImpl()
        future.complete(value)
        return future

    @staticmethod
    def all_of(*futures: KafkaFuture[Any] | Iterable[KafkaFuture[Any]]) -> KafkaFuture[None]:
        """A future that completes (with None) when every given future has; if any failed, it fails with the
        failure of the first of them in the order given. Takes futures or one iterable of futures."""
        flat: list[KafkaFuture[Any]] = []
        for f in futures:
            if isinstance(f, KafkaFuture):
                flat.append(f)
            else:
                flat.extend(f)
        result: KafkaFutureImpl[None] = KafkaFutureImpl()
        if not flat:
            result.complete(None)
            return result
        lock = threading.Lock()
        remaining = [len(flat)]

        def on_one_done(_value: Any, _exc: BaseException | None) -> None:
            with lock:
                remaining[0] -= 1
                last = remaining[0] == 0
            if not last:
                return
            for f in flat:
                failure = f._failure()
                if failure is not None:
                    result.complete_exceptionally(failure)
                    return
            result.complete(None)

        for f in flat:
            f.when_complete(on_one_done)
        return result

    @abc.abstractmethod
    def then_apply(self, function: Callable[[T], R]) -> KafkaFuture[R]:
        """A future of `function(value)` once this one succeeds; a failure of this future, or an exception raised
        by `function`, fails it."""

    @abc.abstractmethod
    def when_complete(self, action: Callable[[T | None, BaseException | None], Any]) -> KafkaFuture[T]:
        """Calls `action(value, None)` or `action(None, failure)` when this future completes; the returned future
        completes as this one did, or with the exception `action` raised (if this one succeeded)."""

    @abc.abstractmethod
    def complete(self, new_value: T) -> bool:
        """Completes with `new_value`; False if already complete."""

    @abc.abstractmethod
    def complete_exceptionally(self, new_exception: BaseException) -> bool:
        """Completes with a failure; False if already complete."""

    @abc.abstractmethod
    def cancel(self, may_interrupt_if_running: bool = False) -> bool:
        """Completes as cancelled; False if already complete."""

    @abc.abstractmethod
    def get(self, timeout_ms: int | None = None) -> T:
        """The value, waiting at most `timeout_ms` (forever when None). Raises ExecutionException (failed),
        CancelledError (cancelled) or TimeoutError (not complete in time)."""

    @abc.abstractmethod
    def get_now(self, value_if_absent: T) -> T:
        """The value if complete, `value_if_absent` otherwise; raises as `get` for a failed future."""

    @abc.abstractmethod
    def is_cancelled(self) -> bool: ...

    @abc.abstractmethod
    def is_completed_exceptionally(self) -> bool:
        """Whether it completed by a failure or by cancellation."""

    @abc.abstractmethod
    def is_done(self) -> bool: ...

    @abc.abstractmethod
    def _failure(self) -> BaseException | None:
        """The failure (a CancelledError when cancelled) of a completed future; None if it succeeded."""


class KafkaFutureImpl(KafkaFuture[T]):
    """The KafkaFuture implementation: a condition variable over the outcome, and callbacks run on completion."""

    __slots__ = ("_cond", "_done", "_value", "_exception", "_cancelled", "_callbacks")

    def __init__(self) -> None:
        self._cond = threading.Condition(threading.Lock())
        self._done = False
        self._value: T | None = None
        self._exception: BaseException | None = None
        self._cancelled = False
        self._callbacks: list[Callable[[], None]] = []

    # -- completion -------------------------------------------------------------------------------------------

    def _finish(self, value: T | None, exception: BaseException | None, cancelled: bool) -> bool:
        with self._cond:
            if self._done:
                return False
            self._value = value
            self._exception = exception
            self._cancelled = cancelled
            self._done = True
            callbacks = self._callbacks
            self._callbacks = []
            self._cond.notify_all()
        for callback in callbacks:
            callback()
        return True

    def complete(self, new_value: T) -> bool:
        return self._finish(new_value, None, False)

    def complete_exceptionally(self, new_exception: BaseException) -> bool:
        if not isinstance(new_exception, BaseException):
            raise TypeError(f"not an exception: {new_exception!r}")
        return self._finish(None, new_exception, False)

    def cancel(self, may_interrupt_if_running: bool = False) -> bool:
        return self._finish(None, CancelledError(), True)

    def _on_done(self, callback: Callable[[], None]) -> None:
        with self._cond:
            if not self._done:
                self._callbacks.append(callback)
                return
        callback()

    def _failure(self) -> BaseException | None:
        return self._exception

    # -- dependent futures ------------------------------------------------------------------------------------

    def then_apply(self, function: Callable[[T], R]) -> KafkaFuture[R]:
        applied: KafkaFutureImpl[R] = KafkaFutureImpl()

        def run() -> None:
            if self._exception is not None:
                applied.complete_exceptionally(self._exception)
                return
            try:
                result = function(self._value)  # type: ignore[arg-type]
            except BaseException as e:
                applied.complete_exceptionally(e)
                return
            applied.complete(result)

        self._on_done(run)
        return applied

    def when_complete(self, action: Callable[[T | None, BaseException | None], Any]) -> KafkaFuture[T]:
        dependent: KafkaFutureImpl[T] = KafkaFutureImpl()

        def run() -> None:
            value, exception = self._value, self._exception
            try:
                action(value, exception)
            except BaseException as e:
                dependent.complete_exceptionally(exception if exception is not None else e)
                return
            if exception is not None:
                dependent.complete_exceptionally(exception)
            else:
                dependent.complete(value)  # type: ignore[arg-type]

        self._on_done(run)
        return dependent

    # -- reading ----------------------------------------------------------------------------------------------

    def _outcome(self) -> T:
        if self._cancelled:
            raise CancelledError()
        if self._exception is not None:
            if isinstance(self._exception, CancelledError):
                raise CancelledError() from self._exception
            raise ExecutionException(self._exception)
        return self._value  # type: ignore[return-value]

    def get(self, timeout_ms: int | None = None) -> T:
        with self._cond:
            if not self._done:
                if timeout_ms is None:
                    while not self._done:
                        self._cond.wait()
                else:
                    deadline = _monotonic() + max(0, timeout_ms) / 1000.0
                    while not self._done:
                        remaining = deadline - _monotonic()
                        if remaining <= 0:
                            raise TimeoutError(f"Timed out waiting {timeout_ms} ms for the future to complete")
                        self._cond.wait(remaining)
        return self._outcome()

    def get_now(self, value_if_absent: T) -> T:
        if not self._done:
            return value_if_absent
        return self._outcome()

    def is_cancelled(self) -> bool:
        return self._cancelled or (self._done and isinstance(self._exception, CancelledError))

    def is_completed_exceptionally(self) -> bool:
        return self._done and self._exception is not None

    def is_done(self) -> bool:
        return self._done

    def __repr__(self) -> str:
        done = self._done
        value = self._value if done else None
        exception = self._exception if done else None
        shown_done = str(exception is not None or value is not None).lower()
        return f"KafkaFuture{{value={value},exception={exception},done={shown_done}}}"

    __str__ = __repr__
