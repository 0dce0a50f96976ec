"""Port of clients/src/main/java/org/apache/kafka/clients/admin/ScramCredentialInfo.java (Kafka 3.7).

What can be known of a user's SCRAM credential: its mechanism and iteration count.
"""

from __future__ import annotations

from dataclasses import dataclass

from kafka.clients.admin.scram_mechanism import ScramMechanism

__all__ = ["ScramCredentialInfo"]


@dataclass(frozen=True, slots=True)
class ScramCredentialInfo:
    mechanism: ScramMechanism
    iterations: int

    def __str__(self) -> str:
        return f"ScramCredentialInfo{{mechanism={self.mechanism.name}, iterations={self.iterations}}}"
