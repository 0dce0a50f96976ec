"""Port of clients/src/main/java/org/apache/kafka/common/security/scram/ScramCredential.java (Kafka 3.7).

What a server keeps of a SCRAM user: the salt, the stored key, the server key and the iteration count (never the
password).
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["ScramCredential"]


@dataclass(frozen=True, slots=True)
class ScramCredential:
    salt: bytes = field(repr=False)
    stored_key: bytes = field(repr=False)
    server_key: bytes = field(repr=False)
    iterations: int
