"""Port of clients/src/main/java/org/apache/kafka/common/security/auth/KafkaPrincipal.java (Kafka 2.8).

The identity a connection authenticated as: a principal type and a name, printed as `User:alice`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

__all__ = ["KafkaPrincipal"]


@dataclass(frozen=True, slots=True)
class KafkaPrincipal:
    """A principal type and name; whether it authenticated with a delegation token does not take part in
    equality."""

    principal_type: str
    name: str
    token_authenticated: bool = field(default=False, compare=False)

    USER_TYPE: ClassVar[str] = "User"
    ANONYMOUS: ClassVar[KafkaPrincipal]

    def __str__(self) -> str:
        return f"{self.principal_type}:{self.name}"


KafkaPrincipal.ANONYMOUS = KafkaPrincipal(KafkaPrincipal.USER_TYPE, "ANONYMOUS")
