"""Port of clients/src/main/java/org/apache/kafka/server/authorizer/Authorizer.java (Kafka 2.8).

The interface a broker's authorizer implements (named by `authorizer.class.name`): it is configured with the
broker's configs, started with the broker's endpoints, answers `authorize` for the request handlers on their own
threads, and creates, deletes and lists ACLs for CreateAcls, DeleteAcls and DescribeAcls.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import Future
from typing import Any

from kafka.common.acl.access_control_entry_filter import AccessControlEntryFilter
from kafka.common.acl.acl_binding import AclBinding
from kafka.common.acl.acl_binding_filter import AclBindingFilter
from kafka.common.acl.acl_operation import AclOperation
from kafka.common.acl.acl_permission_type import AclPermissionType
from kafka.common.resource.pattern_type import PatternType
from kafka.common.resource.resource_pattern import WILDCARD_RESOURCE, ResourcePattern
from kafka.common.resource.resource_pattern_filter import ResourcePatternFilter
from kafka.common.resource.resource_type import ResourceType
from kafka.common.utils.security_utils import authorize_by_resource_type_check_args, parse_kafka_principal
from kafka.server.authorizer.acl_create_result import AclCreateResult
from kafka.server.authorizer.acl_delete_result import AclDeleteResult
from kafka.server.authorizer.action import Action
from kafka.server.authorizer.authorizable_request_context import AuthorizableRequestContext
from kafka.server.authorizer.authorization_result import AuthorizationResult
from kafka.server.authorizer.authorizer_server_info import AuthorizerServerInfo

__all__ = ["Authorizer"]


class Authorizer(ABC):
    def configure(self, configs: Mapping[str, Any]) -> None:  # noqa: B027  (Java's Configurable, optional)
        """Takes the broker's configs (all of them, as strings and values)."""

    @abstractmethod
    def start(self, server_info: AuthorizerServerInfo) -> Mapping[Any, Future[None]]:
        """Starts loading; the future of each endpoint completes when that listener may accept requests."""

    @abstractmethod
    def authorize(
        self, request_context: AuthorizableRequestContext, actions: Sequence[Action]
    ) -> list[AuthorizationResult]:
        """One result per action, in order."""

    @abstractmethod
    def create_acls(
        self, request_context: AuthorizableRequestContext, acl_bindings: Sequence[AclBinding]
    ) -> list[Future[AclCreateResult]]: ...

    @abstractmethod
    def delete_acls(
        self, request_context: AuthorizableRequestContext, acl_binding_filters: Sequence[AclBindingFilter]
    ) -> list[Future[AclDeleteResult]]: ...

    @abstractmethod
    def acls(self, filter: AclBindingFilter) -> Iterable[AclBinding]:
        """The ACL bindings that match `filter`."""

    def close(self) -> None:  # noqa: B027  (Java's Closeable, optional)
        """Releases what the authorizer holds."""

    def authorize_by_resource_type(
        self, request_context: AuthorizableRequestContext, op: AclOperation, resource_type: ResourceType
    ) -> AuthorizationResult:
        """ALLOWED if the principal may do `op` on at least one resource of `resource_type` from its host (an
        allow that no deny of the same or a shorter pattern dominates), as Java's default method decides it."""
        authorize_by_resource_type_check_args(op, resource_type)
        # A principal allowed on every resource of the type (a super user, or no ACLs with
        # allow.everyone.if.no.acl.found) is answered at once.
        probe = Action(op, ResourcePattern(resource_type, "hardcode", PatternType.LITERAL), 0, True, False)
        if self.authorize(request_context, [probe])[0] is AuthorizationResult.ALLOWED:
            return AuthorizationResult.ALLOWED
        acl_filter = AclBindingFilter(
            ResourcePatternFilter(resource_type, None, PatternType.ANY), AccessControlEntryFilter.ANY
        )
        deny: dict[PatternType, set[str]] = {PatternType.LITERAL: set(), PatternType.PREFIXED: set()}
        allow: dict[PatternType, set[str]] = {PatternType.LITERAL: set(), PatternType.PREFIXED: set()}
        has_wildcard_allow = False
        principal = request_context.principal
        host = request_context.client_address
        for binding in self.acls(acl_filter):
            entry = binding.entry
            if entry.host not in (host, "*"):
                continue
            if entry.principal != "User:*" and parse_kafka_principal(entry.principal) != principal:
                continue
            if entry.operation not in (op, AclOperation.ALL):
                continue
            pattern = binding.pattern
            if pattern.pattern_type not in (PatternType.LITERAL, PatternType.PREFIXED):
                continue
            if entry.permission_type is AclPermissionType.DENY:
                if pattern.pattern_type is PatternType.LITERAL and pattern.name == WILDCARD_RESOURCE:
                    return AuthorizationResult.DENIED
                deny[pattern.pattern_type].add(pattern.name)
            elif entry.permission_type is AclPermissionType.ALLOW:
                if pattern.pattern_type is PatternType.LITERAL and pattern.name == WILDCARD_RESOURCE:
                    has_wildcard_allow = True
                    continue
                allow[pattern.pattern_type].add(pattern.name)
        if has_wildcard_allow:
            return AuthorizationResult.ALLOWED
        for pattern_type, names in allow.items():
            for name in names:
                if pattern_type is PatternType.LITERAL and name in deny[PatternType.LITERAL]:
                    continue
                if not any(name[:i] in deny[PatternType.PREFIXED] for i in range(1, len(name) + 1)):
                    return AuthorizationResult.ALLOWED
        return AuthorizationResult.DENIED
