"""Port of clients/src/main/java/org/apache/kafka/clients/admin/ScramMechanism.java (Kafka 3.7).

The SCRAM mechanisms as the SCRAM credential APIs name them: a type byte on the wire and the mechanism name.
"""

from __future__ import annotations

import enum

__all__ = ["ScramMechanism"]


class ScramMechanism(enum.Enum):
    UNKNOWN = 0
    SCRAM_SHA_256 = 1
    SCRAM_SHA_512 = 2

    @property
    def type(self) -> int:
        return self.value

    @property
    def mechanism_name(self) -> str:
        return self.name.replace("_", "-")

    @staticmethod
    def from_type(type_: int) -> ScramMechanism:
        for m in ScramMechanism:
            if m.value == type_:
                return m
        return ScramMechanism.UNKNOWN

    @staticmethod
    def from_mechanism_name(mechanism_name: str) -> ScramMechanism:
        for m in ScramMechanism:
            if m is not ScramMechanism.UNKNOWN and m.mechanism_name == mechanism_name:
                return m
        return ScramMechanism.UNKNOWN
