"""Port of clients/src/main/java/org/apache/kafka/server/authorizer/AclCreateResult.java (Kafka 2.8)."""

from __future__ import annotations

from typing import ClassVar

from kafka.common.errors import ApiException

__all__ = ["AclCreateResult"]


class AclCreateResult:
    """The outcome of creating one ACL binding: None for success, else the ApiException."""

    SUCCESS: ClassVar[AclCreateResult]

    __slots__ = ("exception",)

    def __init__(self, exception: ApiException | None = None) -> None:
        self.exception = exception


AclCreateResult.SUCCESS = AclCreateResult()
