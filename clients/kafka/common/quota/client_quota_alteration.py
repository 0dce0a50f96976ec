"""Port of clients/src/main/java/org/apache/kafka/common/quota/ClientQuotaAlteration.java (Kafka 3.7).

The quota changes of one entity: each Op sets a quota key to a value, or removes it (value None).
"""

from __future__ import annotations

from collections.abc import Iterable

from kafka.common.quota.client_quota_entity import ClientQuotaEntity

__all__ = ["ClientQuotaAlteration"]


class ClientQuotaAlteration:
    class Op:
        """Set `key` to `value`, or remove `key` when value is None."""

        __slots__ = ("_key", "_value")

        def __init__(self, key: str, value: float | None) -> None:
            self._key = key
            self._value = None if value is None else float(value)

        def key(self) -> str:
            return self._key

        def value(self) -> float | None:
            return self._value

        def __eq__(self, other: object) -> bool:
            return isinstance(other, ClientQuotaAlteration.Op) and (self._key, self._value) == (
                other._key,
                other._value,
            )

        def __hash__(self) -> int:
            return hash((self._key, self._value))

        def __repr__(self) -> str:
            value = "null" if self._value is None else repr(self._value)
            return f"ClientQuotaAlteration.Op(key={self._key}, value={value})"

    __slots__ = ("_entity", "_ops")

    def __init__(self, entity: ClientQuotaEntity, ops: Iterable[ClientQuotaAlteration.Op]) -> None:
        self._entity = entity
        self._ops = tuple(ops)

    def entity(self) -> ClientQuotaEntity:
        return self._entity

    def ops(self) -> tuple[ClientQuotaAlteration.Op, ...]:
        return self._ops

    def __repr__(self) -> str:
        ops = ", ".join(repr(o) for o in self._ops)
        return f"ClientQuotaAlteration(entity={self._entity}, ops=[{ops}])"
