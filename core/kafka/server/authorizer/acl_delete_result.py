"""Port of clients/src/main/java/org/apache/kafka/server/authorizer/AclDeleteResult.java (Kafka 2.8).

The outcome of one delete filter: a failure of the whole filter, or the bindings it matched, each deleted or
failed on its own.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from kafka.common.acl.acl_binding import AclBinding
from kafka.common.errors import ApiException

__all__ = ["AclBindingDeleteResult", "AclDeleteResult"]


@dataclass(frozen=True, slots=True)
class AclBindingDeleteResult:
    acl_binding: AclBinding
    exception: ApiException | None = None


class AclDeleteResult:
    __slots__ = ("acl_binding_delete_results", "exception")

    def __init__(
        self,
        acl_binding_delete_results: Collection[AclBindingDeleteResult] = (),
        exception: ApiException | None = None,
    ) -> None:
        self.acl_binding_delete_results = acl_binding_delete_results
        self.exception = exception
