"""Port of clients/src/main/java/org/apache/kafka/common/requests/ApiError.java (Kafka 3.7).

An error code together with an optional message, as many responses carry them side by side.
"""

from __future__ import annotations

from kafka.common.errors import ApiException
from kafka.common.protocol.errors import Errors


def exception_message(e: BaseException) -> str | None:
    """What Java's Throwable.getMessage() would give: None for an exception raised without a message."""
    if not e.args:
        return None
    return str(e)


class _DefaultMessage:
    """Marks 'the error's default message' in ApiError's constructor."""

    __slots__ = ()


DEFAULT_MESSAGE = _DefaultMessage()


class ApiError:
    """An `Errors` member and a message (None when the default message of the error is enough)."""

    __slots__ = ("_error", "_message")

    NONE: ApiError

    def __init__(self, error: Errors | int, message: str | _DefaultMessage | None = DEFAULT_MESSAGE) -> None:
        """`ApiError(error)` carries the error's default message, as Java's one-argument constructor does;
        `error` may also be a code."""
        err = error if isinstance(error, Errors) else Errors.for_code(error)
        self._error = err
        self._message = err.message if isinstance(message, _DefaultMessage) else message

    @classmethod
    def from_throwable(cls, e: BaseException) -> ApiError:
        """The error for an exception. The message is left out when it is the error's default one, and always
        for UNKNOWN_SERVER_ERROR so that internal details do not reach clients.

        # PORT: Java first unwraps CompletionException/ExecutionException; Python futures raise the original
        exception, so there is nothing to unwrap."""
        error = Errors.for_exception(e)
        text = exception_message(e)
        if error is Errors.UNKNOWN_SERVER_ERROR or error.message == text:
            return cls(error, None)
        return cls(error, text)

    def is_(self, error: Errors) -> bool:
        return self._error is error

    def is_failure(self) -> bool:
        return not self.is_success()

    def is_success(self) -> bool:
        return self._error is Errors.NONE

    @property
    def error(self) -> Errors:
        return self._error

    @property
    def message(self) -> str | None:
        """The message, or None; see message_with_fallback()."""
        return self._message

    def message_with_fallback(self) -> str | None:
        """The message if there is one, else the error's default message."""
        return self._error.message if self._message is None else self._message

    def exception(self) -> ApiException | None:
        return self._error.exception(self._message)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ApiError):
            return NotImplemented
        return self._error is other._error and self._message == other._message

    def __hash__(self) -> int:
        return hash((self._error, self._message))

    def __repr__(self) -> str:
        return f"ApiError(error={self._error.name}, message={self._message})"


ApiError.NONE = ApiError(Errors.NONE, None)
