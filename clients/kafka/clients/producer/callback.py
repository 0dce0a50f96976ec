"""Port of clients/src/main/java/org/apache/kafka/clients/producer/Callback.java (Kafka 3.7).

What the producer calls when a sent record is acknowledged or has failed.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import TypeAlias, cast

from kafka.clients.producer.record_metadata import RecordMetadata

__all__ = ["Callback", "CallbackLike", "as_callback"]


class Callback(ABC):
    """Completion of one send. Runs on the producer's I/O thread, so it must be quick.

    Callbacks of records bound for the same partition run in the order the records were sent.
    """

    @abstractmethod
    def on_completion(self, metadata: RecordMetadata | None, exception: BaseException | None) -> None:
        """`exception` is None on success; on failure `metadata` holds only the topic and partition (offset -1)."""


#: A Callback or a plain function taking (metadata, exception).
CallbackLike: TypeAlias = Callback | Callable[[RecordMetadata | None, BaseException | None], None]


class _FunctionCallback(Callback):
    __slots__ = ("_fn",)

    def __init__(self, fn: Callable[[RecordMetadata | None, BaseException | None], None]) -> None:
        self._fn = fn

    def on_completion(self, metadata: RecordMetadata | None, exception: BaseException | None) -> None:
        self._fn(metadata, exception)

    def __repr__(self) -> str:
        return repr(self._fn)


def as_callback(callback: CallbackLike | None) -> Callback | None:
    """A Callback for `callback`.

    # PORT: Python callers pass functions where Java passes lambdas; they are wrapped here.
    """
    if callback is None:
        return None
    # Whether a class is a Callback is remembered: the ABC's isinstance is slow for every record sent.
    kind = type(callback)
    is_callback = _CALLBACK_TYPES.get(kind)
    if is_callback is None:
        is_callback = _CALLBACK_TYPES[kind] = isinstance(callback, Callback)
    if is_callback:
        return cast(Callback, callback)
    # The cast's type as a string: subscripting Callable at run time built a new alias for every record sent.
    return _FunctionCallback(cast("Callable[[RecordMetadata | None, BaseException | None], None]", callback))


_CALLBACK_TYPES: dict[type, bool] = {}
