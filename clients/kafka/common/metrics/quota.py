"""Port of clients/src/main/java/org/apache/kafka/common/metrics/Quota.java (Kafka 2.8)."""

from __future__ import annotations

from kafka.common.config.config_exception import java_str

__all__ = ["Quota"]


class Quota:
    """An upper or lower bound on the value of a metric."""

    __slots__ = ("_bound", "_upper")

    def __init__(self, bound: float, upper: bool) -> None:
        self._bound = float(bound)
        self._upper = upper

    @staticmethod
    def upper_bound(upper_bound: float) -> Quota:
        return Quota(upper_bound, True)

    @staticmethod
    def lower_bound(lower_bound: float) -> Quota:
        return Quota(lower_bound, False)

    def is_upper_bound(self) -> bool:
        return self._upper

    def bound(self) -> float:
        return self._bound

    def acceptable(self, value: float) -> bool:
        """Whether `value` is within the bound (NaN never is)."""
        return (self._upper and value <= self._bound) or (not self._upper and value >= self._bound)

    def __hash__(self) -> int:
        return hash((self._bound, self._upper))

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, Quota):
            return NotImplemented
        return self._bound == other._bound and self._upper == other._upper

    def __repr__(self) -> str:
        return ("upper=" if self._upper else "lower=") + java_str(self._bound)
