"""Port of clients/src/main/java/org/apache/kafka/common/security/scram/internals/ScramMechanism.java (Kafka 3.7).

The SCRAM mechanisms Kafka serves, with the hash and HMAC each uses and the fewest iterations each accepts.
"""

from __future__ import annotations

import enum

__all__ = ["ScramMechanism"]


class ScramMechanism(enum.Enum):
    SCRAM_SHA_256 = ("SHA-256", "sha256", 4096)
    SCRAM_SHA_512 = ("SHA-512", "sha512", 4096)

    def __init__(self, hash_algorithm: str, hashlib_name: str, min_iterations: int) -> None:
        self.hash_algorithm = hash_algorithm
        self.hashlib_name = hashlib_name
        self.min_iterations = min_iterations

    @property
    def mechanism_name(self) -> str:
        """`SCRAM-SHA-256` or `SCRAM-SHA-512`."""
        return "SCRAM-" + self.hash_algorithm

    @staticmethod
    def for_mechanism_name(mechanism_name: str) -> ScramMechanism | None:
        return _BY_NAME.get(mechanism_name)

    @staticmethod
    def mechanism_names() -> list[str]:
        return list(_BY_NAME)

    @staticmethod
    def is_scram(mechanism_name: str) -> bool:
        return mechanism_name in _BY_NAME


_BY_NAME = {m.mechanism_name: m for m in ScramMechanism}
