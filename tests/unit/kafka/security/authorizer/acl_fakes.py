"""An in-memory stand-in for the ACL part of KafkaZkClient, with ZooKeeper's versions and sequential change
notifications, and an AclAuthorizer over it (no ZooKeeper needed)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from kafka.common.resource.pattern_type import PatternType
from kafka.common.resource.resource_pattern import ResourcePattern
from kafka.common.resource.resource_type import ResourceType
from kafka.common.security.auth.kafka_principal import KafkaPrincipal
from kafka.common.utils.security_utils import parse_kafka_principal, resource_type_name
from kafka.common.utils.time import MockTime
from kafka.security.authorizer.acl_authorizer import NO_ACLS, AclAuthorizer, VersionedAcls
from kafka.security.authorizer.acl_entry import AclEntry
from kafka.zk.zk_data import ResourceZNode, ZkAclStore


class FakeAclZkClient:
    def __init__(self) -> None:
        self.nodes: dict[str, tuple[bytes, int]] = {}  # path -> (data, version)
        self.notifications: list[tuple[str, bytes]] = []
        self.conflicts_to_inject = 0
        self.closed = False

    def get_versioned_acls_for_resource(self, resource: ResourcePattern) -> VersionedAcls:
        node = self.nodes.get(ResourceZNode.path(resource))
        if node is None:
            return NO_ACLS
        return VersionedAcls(frozenset(ResourceZNode.decode(node[0])), node[1])

    def conditional_set_acls_for_resource(
        self, resource: ResourcePattern, acls: Iterable[AclEntry], expected_version: int
    ) -> tuple[bool, int]:
        path = ResourceZNode.path(resource)
        node = self.nodes.get(path)
        if self.conflicts_to_inject:
            self.conflicts_to_inject -= 1
            return False, -2
        if node is None or node[1] != expected_version:
            return False, -2
        self.nodes[path] = (ResourceZNode.encode(acls), node[1] + 1)
        return True, node[1] + 1

    def create_acls_for_resource_if_not_exists(
        self, resource: ResourcePattern, acls: Iterable[AclEntry]
    ) -> tuple[bool, int]:
        path = ResourceZNode.path(resource)
        if path in self.nodes:
            return False, -2
        self.nodes[path] = (ResourceZNode.encode(acls), 0)
        return True, 0

    def conditional_delete(self, resource: ResourcePattern, expected_version: int) -> bool:
        path = ResourceZNode.path(resource)
        node = self.nodes.get(path)
        if node is not None and node[1] != expected_version and expected_version >= 0:
            return False
        self.nodes.pop(path, None)
        return True

    def create_acl_change_notification(self, resource: ResourcePattern) -> None:
        store = ZkAclStore.of(resource.pattern_type).change_store
        self.notifications.append((store.acl_change_path, store.encode(resource)))

    def get_resource_types(self, pattern_type: PatternType) -> list[str]:
        root = ZkAclStore.of(pattern_type).acl_path + "/"
        return sorted({p[len(root) :].split("/")[0] for p in self.nodes if p.startswith(root)})

    def get_resource_names(self, pattern_type: PatternType, resource_type: ResourceType) -> list[str]:
        root = ZkAclStore.of(pattern_type).path(resource_type) + "/"
        return [p[len(root) :] for p in self.nodes if p.startswith(root)]

    def close(self) -> None:
        self.closed = True


@dataclass
class Context:
    """An AuthorizableRequestContext."""

    principal: KafkaPrincipal
    client_address: str | None = "192.168.0.1"
    api_key: int = 0

    def request_type(self) -> int:
        return self.api_key

    def request_version(self) -> int:
        return 0

    def client_id(self) -> str | None:
        return "client"

    def correlation_id(self) -> int:
        return 1


def fake_authorizer(
    zk: FakeAclZkClient | None = None, super_users: str = "", allow_everyone: bool = False
) -> AclAuthorizer:
    """An AclAuthorizer over `zk` (a new fake when None), configured as `configure` would, and loaded."""
    authorizer = AclAuthorizer(MockTime())
    authorizer.zk_client = zk if zk is not None else FakeAclZkClient()  # type: ignore[assignment]
    authorizer.super_users = frozenset(parse_kafka_principal(s.strip()) for s in super_users.split(";") if s.strip())
    authorizer.should_allow_everyone_if_no_acl_is_found = allow_everyone
    authorizer.load_cache()
    return authorizer


def path_of(resource_type: ResourceType, name: str) -> str:
    return f"/kafka-acl/{resource_type_name(resource_type)}/{name}"
