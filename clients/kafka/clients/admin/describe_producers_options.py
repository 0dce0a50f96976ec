"""Port of clients/src/main/java/org/apache/kafka/clients/admin/DescribeProducersOptions.java (Kafka 3.7).

Options of describeProducers: the broker to ask (any replica of the partitions; None: each partition's leader).
See AbstractOptions for how the getter/setter methods work.
"""

from __future__ import annotations

from typing import Any, Self, overload

from kafka.clients.admin.abstract_options import UNSET, AbstractOptions

__all__ = ["DescribeProducersOptions"]


class DescribeProducersOptions(AbstractOptions):
    """Options of describeProducers."""

    def __init__(self, broker_id: int | None = None, timeout_ms: int | None = None) -> None:
        super().__init__(timeout_ms)
        self._broker_id = broker_id

    @overload
    def broker_id(self) -> int | None: ...

    @overload
    def broker_id(self, broker_id: int) -> Self: ...

    def broker_id(self, broker_id: Any = UNSET) -> Any:
        """The broker whose replicas are described (None: the leaders); with an argument, sets it."""
        if broker_id is UNSET:
            return self._broker_id
        self._broker_id = broker_id
        return self

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, DescribeProducersOptions)
            and self._broker_id == other._broker_id
            and self._timeout_ms == other._timeout_ms
        )

    def __hash__(self) -> int:
        return hash((self._broker_id, self._timeout_ms))
