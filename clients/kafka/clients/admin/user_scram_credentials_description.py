"""Port of clients/src/main/java/org/apache/kafka/clients/admin/UserScramCredentialsDescription.java (Kafka 3.7).

A user and the mechanisms and iterations of its SCRAM credentials.
"""

from __future__ import annotations

from dataclasses import dataclass

from kafka.clients.admin.scram_credential_info import ScramCredentialInfo

__all__ = ["UserScramCredentialsDescription"]


@dataclass(frozen=True, slots=True)
class UserScramCredentialsDescription:
    name: str
    credential_infos: list[ScramCredentialInfo]
