"""Port of clients/src/main/java/org/apache/kafka/server/authorizer/AuthorizationResult.java (Kafka 2.8)."""

from __future__ import annotations

import enum

__all__ = ["AuthorizationResult"]


class AuthorizationResult(enum.Enum):
    ALLOWED = 0
    DENIED = 1
