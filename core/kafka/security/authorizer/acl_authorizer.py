"""Port of core/src/main/scala/kafka/security/authorizer/AclAuthorizer.scala (Kafka 2.8).

The authorizer that `authorizer.class.name=kafka.security.authorizer.AclAuthorizer` names: ACLs live in ZooKeeper
(`/kafka-acl/<ResourceType>/<name>` for literal patterns, `/kafka-acl-extended/prefixed/<ResourceType>/<name>` for
prefixed ones), every broker keeps all of them in memory, and a change written by any broker (or by
`kafka-acls.sh --authorizer-properties`) is announced under `/kafka-acl-changes` or `/kafka-acl-extended-changes`,
so that every broker reloads that one resource's ACLs within moments.

A request is allowed when its principal is a super user (`super.users`, `;`-separated), or when no ACL applies to
the resource and `allow.everyone.if.no.acl.found=true`, or when an ALLOW applies and no DENY does. An ACL applies
when its pattern matches the resource (the literal name, the literal wildcard `*`, or a prefix), its principal is
the request's or `User:*`, its host the client's address or `*`, and its operation the one asked for or ALL; an
ALLOW of READ, WRITE, DELETE or ALTER also allows DESCRIBE, and an ALLOW of ALTER_CONFIGS allows DESCRIBE_CONFIGS.
Every decision is logged to `kafka.authorizer.logger` (kafka-authorizer.log): denials of what the request asked
for at INFO, grants at DEBUG, checks done only to filter or to report authorized operations at TRACE.

Threads: request handler threads call `authorize` with no lock (they read an immutable snapshot of the cache);
ACL changes (CreateAcls, DeleteAcls, notifications on the `/kafka-acl-changes-event-process-thread` and
`/kafka-acl-extended-changes-event-process-thread` threads) hold `_lock` and replace the snapshot.

# PORT: the cache is a dict of resource pattern to its ACLs (with an index by plain tuples), and a prefixed match
# looks up the prefixes of the resource name as long as the stored prefixed patterns, where Kafka range-scans a
# sorted map; `authorize_by_resource_type` scans the cached ACLs of the resource type, where Kafka keeps an index
# of them by entry. ZooKeeper over TLS for the authorizer's own client (`authorizer.zookeeper.ssl.*`) is not
# supported.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Final

from kafka.common.acl.acl_binding import AclBinding
from kafka.common.acl.acl_binding_filter import AclBindingFilter
from kafka.common.acl.acl_operation import AclOperation
from kafka.common.acl.acl_permission_type import AclPermissionType
from kafka.common.errors import (
    ApiException,
    InvalidRequestException,
    UnknownServerException,
    UnsupportedVersionException,
)
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.resource.pattern_type import PatternType
from kafka.common.resource.resource_pattern import WILDCARD_RESOURCE, ResourcePattern
from kafka.common.resource.resource_pattern_filter import ResourcePatternFilter
from kafka.common.resource.resource_type import ResourceType
from kafka.common.security.auth.kafka_principal import KafkaPrincipal
from kafka.common.utils.security_utils import (
    authorize_by_resource_type_check_args,
    operation_name,
    parse_kafka_principal,
    resource_type,
    resource_type_name,
)
from kafka.common.utils.time import Time
from kafka.security.authorizer.acl_entry import AclEntry
from kafka.security.authorizer.authorizer_utils import validate_acl_binding
from kafka.server.authorizer.acl_create_result import AclCreateResult
from kafka.server.authorizer.acl_delete_result import AclBindingDeleteResult, AclDeleteResult
from kafka.server.authorizer.action import Action
from kafka.server.authorizer.authorizable_request_context import AuthorizableRequestContext
from kafka.server.authorizer.authorization_result import AuthorizationResult
from kafka.server.authorizer.authorizer import Authorizer
from kafka.server.authorizer.authorizer_server_info import AuthorizerServerInfo
from kafka.utils.logging import TRACE, Logging
from kafka.zk.zk_data import ZK_ACL_CHANGE_STORES, ZK_ACL_STORES, ZkAclChangeStore, ZkVersion
from kafka.zk.zk_node_change_notification_listener import NotificationHandler, ZkNodeChangeNotificationListener

if TYPE_CHECKING:
    from kafka.zk.kafka_zk_client import KafkaZkClient

__all__ = ["NO_ACLS", "AclAuthorizer", "VersionedAcls"]


@dataclass(frozen=True, slots=True)
class VersionedAcls:
    """A resource's ACLs and the version of its znode (UNKNOWN_VERSION: there is none)."""

    acls: frozenset[AclEntry]
    zk_version: int

    @property
    def exists(self) -> bool:
        return self.zk_version != ZkVersion.UNKNOWN_VERSION


NO_ACLS: Final = VersionedAcls(frozenset(), ZkVersion.UNKNOWN_VERSION)

_IMPLIED_BY: Final[dict[AclOperation, tuple[AclOperation, ...]]] = {
    AclOperation.DESCRIBE: (
        AclOperation.DESCRIBE,
        AclOperation.READ,
        AclOperation.WRITE,
        AclOperation.DELETE,
        AclOperation.ALTER,
    ),
    AclOperation.DESCRIBE_CONFIGS: (AclOperation.DESCRIBE_CONFIGS, AclOperation.ALTER_CONFIGS),
}


def _api_exception(e: BaseException) -> ApiException:
    return e if isinstance(e, ApiException) else UnknownServerException(str(e))


class _AclChangedNotificationHandler(NotificationHandler):
    """Reloads the one resource a change notification names."""

    def __init__(self, authorizer: AclAuthorizer, change_store: ZkAclChangeStore) -> None:
        self._authorizer = authorizer
        self._change_store = change_store

    def process_notification(self, notification_message: bytes) -> None:
        self._authorizer._process_acl_change_notification(self._change_store.decode(notification_message))


class AclAuthorizer(Authorizer, Logging):
    """See the module docstring."""

    logger_name = "kafka.security.authorizer.AclAuthorizer"

    CONFIG_PREFIX: ClassVar[str] = "authorizer."
    ZK_URL_PROP: ClassVar[str] = "authorizer.zookeeper.url"
    ZK_CONNECTION_TIME_OUT_PROP: ClassVar[str] = "authorizer.zookeeper.connection.timeout.ms"
    ZK_SESSION_TIME_OUT_PROP: ClassVar[str] = "authorizer.zookeeper.session.timeout.ms"
    ZK_MAX_IN_FLIGHT_REQUESTS: ClassVar[str] = "authorizer.zookeeper.max.in.flight.requests"
    SUPER_USERS_PROP: ClassVar[str] = "super.users"
    ALLOW_EVERYONE_IF_NO_ACL_IS_FOUND_PROP: ClassVar[str] = "allow.everyone.if.no.acl.found"
    WILDCARD_HOST: ClassVar[str] = "*"

    def __init__(self, time: Time = Time.SYSTEM) -> None:
        import logging

        self.authorizer_logger = logging.getLogger("kafka.authorizer.logger")
        self.time = time
        self.super_users: frozenset[KafkaPrincipal] = frozenset()
        self.should_allow_everyone_if_no_acl_is_found = False
        self.zk_client: KafkaZkClient | None = None
        self._acl_change_listeners: list[ZkNodeChangeNotificationListener] = []
        self.extended_acl_support = True
        # Replaced whole (never mutated) under _lock, read without it.
        self._acl_cache: dict[ResourcePattern, VersionedAcls] = {}
        # The same ACLs keyed by plain tuples, for the request path's lookups; `_prefix_lengths` holds, per
        # resource type, the lengths of its prefixed patterns (only those prefixes of a name are looked up).
        self._acl_index: dict[tuple[ResourceType, PatternType, str], frozenset[AclEntry]] = {}
        self._prefix_lengths: dict[ResourceType, tuple[int, ...]] = {}
        self._lock = threading.RLock()
        # Version conflicts in ZooKeeper are retried this many times (another writer changed the same resource).
        self.max_update_retries = 10
        self._retry_backoff_ms = 100
        self._retry_backoff_jitter_ms = 50

    # -- life cycle --------------------------------------------------------------------------------------

    def configure(self, configs: Mapping[str, Any]) -> None:
        """Reads super.users and allow.everyone.if.no.acl.found, connects its own ZooKeeper client (to
        `authorizer.zookeeper.url`, else the broker's `zookeeper.connect`), creates the ACL paths, starts the
        change listeners and then loads every ACL (in that order, so no change falls between the two)."""
        from kafka.server.kafka_config import KAFKA_2_0_IV1, KafkaConfig
        from kafka.zk.kafka_zk_client import KafkaZkClient

        props = {k: (v if isinstance(v, str) else str(v)) for k, v in configs.items() if v is not None}
        super_users = props.get(AclAuthorizer.SUPER_USERS_PROP, "")
        self.super_users = frozenset(parse_kafka_principal(s.strip()) for s in super_users.split(";") if s.strip())
        self.should_allow_everyone_if_no_acl_is_found = (
            props.get(AclAuthorizer.ALLOW_EVERYONE_IF_NO_ACL_IS_FOUND_PROP, "false").strip().lower() == "true"
        )
        kafka_config = KafkaConfig.from_props(props, do_log=False)
        zk_url = props.get(AclAuthorizer.ZK_URL_PROP) or kafka_config.zk_connect
        if not zk_url:
            raise ValueError("zookeeper.connect (or authorizer.zookeeper.url) must be set for AclAuthorizer")
        connection_timeout_ms = int(
            props.get(AclAuthorizer.ZK_CONNECTION_TIME_OUT_PROP, kafka_config.zk_connection_timeout_ms)
        )
        session_timeout_ms = int(props.get(AclAuthorizer.ZK_SESSION_TIME_OUT_PROP, kafka_config.zk_session_timeout_ms))
        max_in_flight = int(props.get(AclAuthorizer.ZK_MAX_IN_FLIGHT_REQUESTS, kafka_config.zk_max_in_flight_requests))
        self.zk_client = KafkaZkClient.apply(
            zk_url,
            kafka_config.zk_enable_secure_acls,
            session_timeout_ms,
            connection_timeout_ms,
            max_in_flight,
            self.time,
            "kafka.security",
            "AclAuthorizer",
            name="ACL authorizer",
        )
        self.zk_client.create_acl_paths()
        self.extended_acl_support = kafka_config.inter_broker_protocol_version >= KAFKA_2_0_IV1
        self.start_zk_change_listeners()
        self.load_cache()

    def start(self, server_info: AuthorizerServerInfo) -> dict[Any, Future[None]]:
        """Everything is loaded by `configure`: every listener may start at once."""
        futures: dict[Any, Future[None]] = {}
        for endpoint in server_info.endpoints:
            future: Future[None] = Future()
            future.set_result(None)
            futures[endpoint] = future
        return futures

    def close(self) -> None:
        for listener in self._acl_change_listeners:
            listener.close()
        self._acl_change_listeners = []
        if self.zk_client is not None:
            self.zk_client.close()

    # -- authorization -----------------------------------------------------------------------------------

    def authorize(
        self, request_context: AuthorizableRequestContext, actions: Sequence[Action]
    ) -> list[AuthorizationResult]:
        return [self._authorize_action(request_context, action) for action in actions]

    def _authorize_action(self, request_context: AuthorizableRequestContext, action: Action) -> AuthorizationResult:
        resource = action.resource_pattern
        if resource.pattern_type is not PatternType.LITERAL:
            raise ValueError(f"Only literal resources are supported. Got: {resource.pattern_type.name}")
        principal = request_context.principal
        if principal.token_authenticated or type(principal) is not KafkaPrincipal:
            principal = KafkaPrincipal(principal.principal_type, principal.name)
        host = request_context.client_address or ""
        authorized = self.is_super_user(principal) or self._acls_allow_access(action, principal, host)
        self.log_audit_message(request_context, action, authorized)
        return AuthorizationResult.ALLOWED if authorized else AuthorizationResult.DENIED

    def _acls_allow_access(self, action: Action, principal: KafkaPrincipal, host: str) -> bool:
        resource = action.resource_pattern
        acls = self._matching_acls(resource)
        if not acls:
            self.authorizer_logger.debug(
                f"No acl found for resource {resource}, authorized = "
                f"{str(self.should_allow_everyone_if_no_acl_is_found).lower()}"
            )
            return self.should_allow_everyone_if_no_acl_is_found
        op = action.operation
        if self._matching_acl_exists(op, resource, principal, host, AclPermissionType.DENY, acls):
            return False
        return any(
            self._matching_acl_exists(allow_op, resource, principal, host, AclPermissionType.ALLOW, acls)
            for allow_op in _IMPLIED_BY.get(op, (op,))
        )

    def authorize_by_resource_type(
        self, request_context: AuthorizableRequestContext, op: AclOperation, resource_type: ResourceType
    ) -> AuthorizationResult:
        """Whether the principal may do `op` on some resource of the type: a literal `*` DENY refuses,
        allow.everyone.if.no.acl.found allows, else an ALLOW that no DENY of the same name or of a shorter prefix
        dominates."""
        authorize_by_resource_type_check_args(op, resource_type)
        principal = KafkaPrincipal(request_context.principal.principal_type, request_context.principal.name)
        if self.is_super_user(principal):
            return AuthorizationResult.ALLOWED
        principal_str, host = str(principal), request_context.client_address or ""
        action = Action(op, ResourcePattern(resource_type, "NONE", PatternType.UNKNOWN), 0, True, True)
        deny: dict[PatternType, set[str]] = {PatternType.LITERAL: set(), PatternType.PREFIXED: set()}
        allow: dict[PatternType, set[str]] = {PatternType.LITERAL: set(), PatternType.PREFIXED: set()}
        for resource, versioned in self._acl_cache.items():
            if resource.resource_type is not resource_type:
                continue
            for acl in versioned.acls:
                if (
                    acl.principal in (principal_str, AclEntry.WILDCARD_PRINCIPAL_STRING)
                    and acl.host in (host, AclEntry.WILDCARD_HOST)
                    and acl.operation in (op, AclOperation.ALL)
                ):
                    names = deny if acl.permission_type is AclPermissionType.DENY else allow
                    names[resource.pattern_type].add(resource.name)

        def dominated(name: str) -> bool:
            return any(name[:i] in deny[PatternType.PREFIXED] for i in range(1, len(name) + 1))

        if WILDCARD_RESOURCE in deny[PatternType.LITERAL]:
            authorized = False
        elif self.should_allow_everyone_if_no_acl_is_found:
            authorized = True
        elif not deny[PatternType.LITERAL] and not deny[PatternType.PREFIXED]:
            authorized = bool(allow[PatternType.LITERAL] or allow[PatternType.PREFIXED])
        else:
            authorized = any(not dominated(p) for p in allow[PatternType.PREFIXED]) or any(
                name == WILDCARD_RESOURCE or (name not in deny[PatternType.LITERAL] and not dominated(name))
                for name in allow[PatternType.LITERAL]
            )
        self.log_audit_message(request_context, action, authorized)
        return AuthorizationResult.ALLOWED if authorized else AuthorizationResult.DENIED

    def is_super_user(self, principal: KafkaPrincipal) -> bool:
        if principal in self.super_users:
            self.authorizer_logger.debug(
                f"principal = {principal} is a super user, allowing operation without checking acls."
            )
            return True
        return False

    def _matching_acls(self, resource: ResourcePattern) -> list[AclEntry]:
        """The ACLs that apply to a literal resource: prefixed ones, the type's wildcard, the exact name's."""
        index, prefix_lengths = self._acl_index, self._prefix_lengths  # replaced together, read once
        rt, name = resource.resource_type, resource.name
        found: list[AclEntry] = []
        for length in prefix_lengths.get(rt, ()):
            if length <= len(name):
                prefixed = index.get((rt, PatternType.PREFIXED, name[:length]))
                if prefixed is not None:
                    found.extend(prefixed)
        wildcard = index.get((rt, PatternType.LITERAL, WILDCARD_RESOURCE))
        if wildcard is not None:
            found.extend(wildcard)
        if name != WILDCARD_RESOURCE:
            literal = index.get((rt, PatternType.LITERAL, name))
            if literal is not None:
                found.extend(literal)
        return found

    def _matching_acl_exists(
        self,
        op: AclOperation,
        resource: ResourcePattern,
        principal: KafkaPrincipal,
        host: str,
        permission_type: AclPermissionType,
        acls: Iterable[AclEntry],
    ) -> bool:
        for acl in acls:
            if (
                acl.permission_type is permission_type
                and (acl.kafka_principal == principal or acl.kafka_principal == AclEntry.WILDCARD_PRINCIPAL)
                and (acl.operation is op or acl.operation is AclOperation.ALL)
                and (acl.host == host or acl.host == AclEntry.WILDCARD_HOST)
            ):
                self.authorizer_logger.debug(
                    f"operation = {op.name} on resource = {resource} from host = {host} is {permission_type.name} "
                    f"based on acl = {acl}"
                )
                return True
        return False

    def log_audit_message(self, request_context: AuthorizableRequestContext, action: Action, authorized: bool) -> None:
        if authorized:
            level = 10 if action.log_if_allowed else TRACE  # DEBUG, else TRACE
        else:
            level = 20 if action.log_if_denied else TRACE  # INFO, else TRACE
        if not self.authorizer_logger.isEnabledFor(level):
            return
        pattern = action.resource_pattern
        request_type = request_context.request_type()
        try:
            api_key: Any = ApiKeys.for_id(request_type).name
        except Exception:
            api_key = request_type
        self.authorizer_logger.log(
            level,
            f"Principal = {request_context.principal} is {'Allowed' if authorized else 'Denied'} "
            f"Operation = {operation_name(action.operation)} from host = {request_context.client_address} on "
            f"resource = {resource_type_name(pattern.resource_type)}{AclEntry.RESOURCE_SEPARATOR}"
            f"{pattern.pattern_type.name}{AclEntry.RESOURCE_SEPARATOR}{pattern.name} for request = {api_key} "
            f"with resourceRefCount = {action.resource_reference_count}",
        )

    # -- ACL management ----------------------------------------------------------------------------------

    def create_acls(
        self, request_context: AuthorizableRequestContext | None, acl_bindings: Sequence[AclBinding]
    ) -> list[Future[AclCreateResult]]:
        """Adds the bindings, resource by resource; each binding's result says whether its resource was written."""
        results: list[AclCreateResult | None] = [None] * len(acl_bindings)
        to_create: dict[ResourcePattern, list[tuple[AclBinding, int]]] = {}
        for i, binding in enumerate(acl_bindings):
            try:
                if not self.extended_acl_support and binding.pattern.pattern_type is PatternType.PREFIXED:
                    raise UnsupportedVersionException(
                        "Adding ACLs on prefixed resource patterns requires inter.broker.protocol.version of "
                        "2.0-IV1 or greater"
                    )
                validate_acl_binding(binding)
                to_create.setdefault(binding.pattern, []).append((binding, i))
            except Exception as e:
                results[i] = AclCreateResult(InvalidRequestException(f"Failed to create ACL: {e}"))
        if to_create:
            with self._lock:
                for resource, bindings in to_create.items():
                    try:
                        new_acls = frozenset(AclEntry(b.entry) for b, _ in bindings)

                        def add(current: frozenset[AclEntry], new: frozenset[AclEntry] = new_acls) -> frozenset[Any]:
                            return current | new

                        self._update_resource_acls(resource, add)
                        for _, i in bindings:
                            results[i] = AclCreateResult.SUCCESS
                    except Exception as e:
                        self.error(f"Failed to create ACLs for {resource}", e)
                        for _, i in bindings:
                            results[i] = AclCreateResult(_api_exception(e))
        return [_completed(r if r is not None else AclCreateResult.SUCCESS) for r in results]

    def delete_acls(
        self, request_context: AuthorizableRequestContext | None, acl_binding_filters: Sequence[AclBindingFilter]
    ) -> list[Future[AclDeleteResult]]:
        """Removes every ACL that a filter matches; a binding matched by several filters is reported by the first."""
        deleted_bindings: dict[AclBinding, int] = {}
        delete_exceptions: dict[AclBinding, ApiException] = {}
        filters = list(enumerate(acl_binding_filters))
        with self._lock:
            resources: dict[ResourcePattern, None] = dict.fromkeys(self._acl_cache)
            for _, f in filters:
                if f.pattern_filter.matches_at_most_one():
                    resources.update(dict.fromkeys(self._filter_to_resources(f.pattern_filter)))
            for resource in resources:
                matching = [(i, f) for i, f in filters if f.pattern_filter.matches(resource)]
                if not matching:
                    continue
                being_deleted: dict[AclBinding, int] = {}

                def remove(
                    current: frozenset[AclEntry],
                    resource: ResourcePattern = resource,
                    matching: list[tuple[int, AclBindingFilter]] = matching,
                    being_deleted: dict[AclBinding, int] = being_deleted,
                ) -> frozenset[AclEntry]:
                    to_remove = set()
                    for acl in current:
                        for i, f in matching:
                            if f.entry_filter.matches(acl.ace):
                                binding = AclBinding(resource, acl.ace)
                                deleted_bindings.setdefault(binding, i)
                                being_deleted.setdefault(binding, i)
                                to_remove.add(acl)
                    return current - to_remove

                try:
                    self._update_resource_acls(resource, remove)
                except Exception as e:
                    self.error(f"Failed to delete ACLs for {resource}", e)
                    for binding in being_deleted:
                        delete_exceptions.setdefault(binding, _api_exception(e))
        by_filter: dict[int, list[AclBindingDeleteResult]] = {}
        for binding, i in deleted_bindings.items():
            by_filter.setdefault(i, []).append(AclBindingDeleteResult(binding, delete_exceptions.get(binding)))
        return [_completed(AclDeleteResult(by_filter.get(i, []))) for i in range(len(acl_binding_filters))]

    def acls(self, filter: AclBindingFilter) -> list[AclBinding]:
        bindings = []
        for resource, versioned in self._acl_cache.items():
            for acl in versioned.acls:
                binding = AclBinding(resource, acl.ace)
                if filter.matches(binding):
                    bindings.append(binding)
        return bindings

    @staticmethod
    def _filter_to_resources(f: ResourcePatternFilter) -> list[ResourcePattern]:
        assert f.name is not None
        if f.pattern_type in (PatternType.LITERAL, PatternType.PREFIXED):
            return [ResourcePattern(f.resource_type, f.name, f.pattern_type)]
        if f.pattern_type is PatternType.ANY:
            return [
                ResourcePattern(f.resource_type, f.name, PatternType.LITERAL),
                ResourcePattern(f.resource_type, f.name, PatternType.PREFIXED),
            ]
        raise ValueError(f"Cannot determine matching resources for patternType {f}")

    # -- the cache and ZooKeeper -------------------------------------------------------------------------

    def load_cache(self) -> None:
        zk = self._zk()
        with self._lock:
            for store in ZK_ACL_STORES:
                for type_name in zk.get_resource_types(store.pattern_type):
                    rt = resource_type(type_name)
                    if rt.is_unknown:
                        self.warn(f"Ignoring unknown ResourceType: {type_name}")
                        continue
                    for name in zk.get_resource_names(store.pattern_type, rt):
                        resource = ResourcePattern(rt, name, store.pattern_type)
                        self._update_cache(resource, zk.get_versioned_acls_for_resource(resource))

    def start_zk_change_listeners(self) -> None:
        zk = self._zk()
        for change_store in ZK_ACL_CHANGE_STORES:
            listener = ZkNodeChangeNotificationListener(
                zk,
                change_store.acl_change_path,
                ZkAclChangeStore.SEQUENCE_NUMBER_PREFIX,
                _AclChangedNotificationHandler(self, change_store),
            )
            listener.init()
            self._acl_change_listeners.append(listener)

    def _process_acl_change_notification(self, resource: ResourcePattern) -> None:
        with self._lock:
            self._update_cache(resource, self._zk().get_versioned_acls_for_resource(resource))

    def _update_resource_acls(
        self, resource: ResourcePattern, get_new_acls: Callable[[frozenset[AclEntry]], frozenset[AclEntry]]
    ) -> bool:
        """Writes `get_new_acls(current)` with a conditional update, re-reading and retrying on a version conflict;
        announces the change. Called with _lock held."""
        zk = self._zk()
        current = self._acl_cache.get(resource) or zk.get_versioned_acls_for_resource(resource)
        new_versioned: VersionedAcls | None = None
        retries = 0
        while new_versioned is None and retries <= self.max_update_retries:
            new_acls = frozenset(get_new_acls(current.acls))
            if new_acls:
                if current.exists:
                    succeeded, version = zk.conditional_set_acls_for_resource(resource, new_acls, current.zk_version)
                else:
                    succeeded, version = zk.create_acls_for_resource_if_not_exists(resource, new_acls)
            else:
                self.trace(f"Deleting path for {resource} because it had no ACLs remaining")
                succeeded, version = zk.conditional_delete(resource, current.zk_version), 0
            if not succeeded:
                self.trace(
                    f"Failed to update ACLs for {resource}. Used version {current.zk_version}. "
                    "Reading data and retrying update."
                )
                self.time.sleep(self._retry_backoff_ms + random.randrange(self._retry_backoff_jitter_ms))
                current = zk.get_versioned_acls_for_resource(resource)
                retries += 1
            else:
                new_versioned = VersionedAcls(new_acls, version if new_acls else ZkVersion.UNKNOWN_VERSION)
        if new_versioned is None:
            raise RuntimeError(
                f"Failed to update ACLs for {resource} after trying a maximum of {self.max_update_retries} times"
            )
        if new_versioned.acls != current.acls:
            self.info(f"Updated ACLs for {resource} with new version {new_versioned.zk_version}")
            self.debug(f"Updated ACLs for {resource} to {new_versioned}")
            self._update_cache(resource, new_versioned)
            zk.create_acl_change_notification(resource)
            return True
        self.debug(f"Updated ACLs for {resource}, no change was made")
        self._update_cache(resource, new_versioned)
        return False

    def _update_cache(self, resource: ResourcePattern, versioned_acls: VersionedAcls) -> None:
        """Replaces the snapshot with one where `resource` has `versioned_acls` (or none). Called with _lock held."""
        cache = dict(self._acl_cache)
        index = dict(self._acl_index)
        key = (resource.resource_type, resource.pattern_type, resource.name)
        if versioned_acls.acls:
            cache[resource] = versioned_acls
            index[key] = versioned_acls.acls
        else:
            cache.pop(resource, None)
            index.pop(key, None)
        lengths: dict[ResourceType, set[int]] = {}
        for rt, pattern_type, name in index:
            if pattern_type is PatternType.PREFIXED:
                lengths.setdefault(rt, set()).add(len(name))
        self._acl_cache = cache
        # Readers take the two without the lock: one of them a moment older is harmless, as an update that came a
        # moment later would be.
        self._acl_index, self._prefix_lengths = index, {rt: tuple(sorted(ls)) for rt, ls in lengths.items()}

    def _zk(self) -> KafkaZkClient:
        if self.zk_client is None:
            raise RuntimeError("AclAuthorizer is not configured")
        return self.zk_client


def _completed(value: Any) -> Future[Any]:
    future: Future[Any] = Future()
    future.set_result(value)
    return future
