"""What Kafka's ConsumerGroupState (clients/src/main/java/org/apache/kafka/common/ConsumerGroupState.java) and the
admin client's TransactionState (clients/src/main/java/org/apache/kafka/clients/admin/TransactionState.java) both
do, Kafka 3.7: a state named as on the wire, parsed leniently.

# PORT: Java writes the same parse/toString in each enum; here the two enums derive from StateEnum.
"""

from __future__ import annotations

import enum
from typing import Self

__all__ = ["StateEnum"]


class StateEnum(enum.Enum):
    """An enum of states whose values are their names on the wire (what str() gives, as Java's toString), with an
    UNKNOWN member for a name this client does not know."""

    @classmethod
    def parse(cls, name: str) -> Self:
        """The state of this name; UNKNOWN for a name the client does not know."""
        try:
            return cls(name)
        except ValueError:
            return cls["UNKNOWN"]

    def __str__(self) -> str:
        return str(self.value)
