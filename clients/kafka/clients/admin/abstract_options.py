"""Port of clients/src/main/java/org/apache/kafka/clients/admin/AbstractOptions.java (Kafka 3.7).

The base of every XxxOptions class: the call's timeout.

# PORT: Java's option classes pair a fluent setter `x(value)` (returning the options) with a getter `x()`; here
one method does both, as `x()` reads and `x(value)` sets and returns the options. Where Java's getter has its own
name (`shouldValidateOnly()`), both names exist. Every option can also be given to the constructor by keyword.
"""

from __future__ import annotations

from typing import Any, Self, overload

__all__ = ["UNSET", "AbstractOptions"]


class _Unset:
    """The marker of "no argument" for the getter/setter methods (None is a valid timeout)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "UNSET"


UNSET: Any = _Unset()


class AbstractOptions:
    """Options common to all admin calls."""

    def __init__(self, timeout_ms: int | None = None) -> None:
        self._timeout_ms = timeout_ms

    @overload
    def timeout_ms(self) -> int | None: ...

    @overload
    def timeout_ms(self, timeout_ms: int | None) -> Self: ...

    def timeout_ms(self, timeout_ms: Any = UNSET) -> Any:
        """The call's timeout in ms (None: the client's default.api.timeout.ms); with an argument, sets it."""
        if timeout_ms is UNSET:
            return self._timeout_ms
        self._timeout_ms = timeout_ms
        return self

    def __repr__(self) -> str:
        fields = ", ".join(f"{k.lstrip('_')}={v!r}" for k, v in vars(self).items())
        return f"{type(self).__name__}({fields})"
