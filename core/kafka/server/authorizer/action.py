"""Port of clients/src/main/java/org/apache/kafka/server/authorizer/Action.java (Kafka 2.8).

One thing to authorize: an operation on a literal resource pattern, how many times the request names that
resource, and whether an allow or a deny is worth an audit log line at the normal levels.
"""

from __future__ import annotations

from dataclasses import dataclass

from kafka.common.acl.acl_operation import AclOperation
from kafka.common.resource.resource_pattern import ResourcePattern

__all__ = ["Action"]


@dataclass(frozen=True, slots=True)
class Action:
    operation: AclOperation
    resource_pattern: ResourcePattern
    resource_reference_count: int
    log_if_allowed: bool
    log_if_denied: bool

    def __str__(self) -> str:
        return (
            f"Action(, resourcePattern='{self.resource_pattern}', operation='{self.operation.name}', "
            f"resourceReferenceCount='{self.resource_reference_count}', "
            f"logIfAllowed='{str(self.log_if_allowed).lower()}', logIfDenied='{str(self.log_if_denied).lower()}')"
        )
