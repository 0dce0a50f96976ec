"""Tests of authorization in kafka.server.kafka_apis, after Kafka 2.8's KafkaApisTest and AuthorizerIntegrationTest:
with an AclAuthorizer (over an in-memory ZooKeeper) every request is checked where Kafka checks it; Metadata hides
what the principal may not describe; authorized operations come from the ACLs; CreateAcls, DescribeAcls and
DeleteAcls reach the authorizer (SECURITY_DISABLED without one). The requests come from User:ANONYMOUS."""

from __future__ import annotations

from kafka.common.acl.access_control_entry import AccessControlEntry
from kafka.common.acl.acl_binding import AclBinding
from kafka.common.acl.acl_operation import AclOperation
from kafka.common.acl.acl_permission_type import AclPermissionType
from kafka.common.message import (
    CreateAclsRequestData,
    DeleteAclsRequestData,
    DescribeAclsRequestData,
    DescribeGroupsRequestData,
    JoinGroupRequestData,
    LeaderAndIsrRequestData,
    MetadataRequestData,
)
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.create_acls_request import CreateAclsRequest
from kafka.common.resource.pattern_type import PatternType
from kafka.common.resource.resource_pattern import ResourcePattern
from kafka.common.resource.resource_type import ResourceType
from kafka.security.authorizer.acl_authorizer import AclAuthorizer
from tests.unit.kafka.security.authorizer.acl_fakes import fake_authorizer
from tests.unit.kafka.server.test_kafka_apis import Harness, _commit_data, _harness

ANONYMOUS = "User:ANONYMOUS"


def _with_acls(*bindings: tuple[ResourceType, str, AclOperation]) -> tuple[Harness, AclAuthorizer]:
    h = _harness({"t": 2, "u": 1})
    authorizer = fake_authorizer()
    acls = [
        AclBinding(
            ResourcePattern(rt, name, PatternType.LITERAL),
            AccessControlEntry(ANONYMOUS, "*", op, AclPermissionType.ALLOW),
        )
        for rt, name, op in bindings
    ]
    assert all(f.result().exception is None for f in authorizer.create_acls(None, acls))
    h.apis.authorizer = authorizer
    return h, authorizer


def _metadata(h: Harness, topics: list[str] | None, version: int = 10) -> object:
    return h.handle(
        ApiKeys.METADATA,
        version,
        MetadataRequestData(
            topics=None if topics is None else [MetadataRequestData.MetadataRequestTopic(name=t) for t in topics],
            allow_auto_topic_creation=False,
            include_cluster_authorized_operations=True,
            include_topic_authorized_operations=True,
        ),
    )


def test_metadata_hides_topics_without_describe() -> None:
    """A listing of all topics leaves out the undescribable ones; asked by name they are TOPIC_AUTHORIZATION_FAILED;
    authorized operations are those the ACLs (and their implications) allow."""
    h, _ = _with_acls((ResourceType.TOPIC, "t", AclOperation.READ))
    everything = _metadata(h, None)
    assert [t.name for t in everything.data.topics] == ["t"]  # type: ignore[attr-defined]
    # READ (3) and the DESCRIBE (8) it implies.
    assert everything.data.topics[0].topic_authorized_operations == (1 << 3) | (1 << 8)  # type: ignore[attr-defined]
    assert everything.data.cluster_authorized_operations == 0  # type: ignore[attr-defined]
    named = _metadata(h, ["t", "u"])
    errors = {t.name: t.error_code for t in named.data.topics}  # type: ignore[attr-defined]
    assert errors == {"t": 0, "u": Errors.TOPIC_AUTHORIZATION_FAILED.code}


def test_group_apis_need_the_group_acl() -> None:
    """JoinGroup needs Read on the group, DescribeGroups Describe; OffsetCommit also Read on each topic."""
    h, authorizer = _with_acls((ResourceType.GROUP, "other", AclOperation.READ))
    join = h.handle(
        ApiKeys.JOIN_GROUP,
        5,
        JoinGroupRequestData(
            group_id="g", session_timeout_ms=10000, rebalance_timeout_ms=10000, member_id="", protocol_type="consumer"
        ),
    )
    assert join.data.error_code == Errors.GROUP_AUTHORIZATION_FAILED.code
    assert h.coordinator.calls == []
    described = h.handle(ApiKeys.DESCRIBE_GROUPS, 5, DescribeGroupsRequestData(groups=["g"]))
    assert described.data.groups[0].error_code == Errors.GROUP_AUTHORIZATION_FAILED.code

    acl = AclBinding(
        ResourcePattern(ResourceType.GROUP, "g", PatternType.LITERAL),
        AccessControlEntry(ANONYMOUS, "*", AclOperation.READ, AclPermissionType.ALLOW),
    )
    authorizer.create_acls(None, [acl])
    commit = h.handle(ApiKeys.OFFSET_COMMIT, 8, _commit_data({"t": [0]}))
    assert commit.data.topics[0].partitions[0].error_code == Errors.TOPIC_AUTHORIZATION_FAILED.code


def test_inter_broker_requests_need_cluster_action() -> None:
    """LeaderAndIsr from a principal without ClusterAction is answered CLUSTER_AUTHORIZATION_FAILED."""
    h, _ = _with_acls()
    response = h.handle(
        ApiKeys.LEADER_AND_ISR, 5, LeaderAndIsrRequestData(controller_id=1, controller_epoch=1, broker_epoch=10)
    )
    assert response.data.error_code == Errors.CLUSTER_AUTHORIZATION_FAILED.code


def test_acl_apis_through_kafka_apis() -> None:
    """CreateAcls and DeleteAcls need Alter on the cluster, DescribeAcls Describe (which Alter implies); ACLs are
    created, listed and deleted; a cluster resource not named kafka-cluster is refused."""
    h, authorizer = _with_acls((ResourceType.CLUSTER, "kafka-cluster", AclOperation.ALTER))
    binding = AclBinding(
        ResourcePattern(ResourceType.TOPIC, "x", PatternType.PREFIXED),
        AccessControlEntry("User:alice", "*", AclOperation.WRITE, AclPermissionType.ALLOW),
    )
    bad = AclBinding(
        ResourcePattern(ResourceType.CLUSTER, "other", PatternType.LITERAL),
        AccessControlEntry("User:alice", "*", AclOperation.ALTER, AclPermissionType.ALLOW),
    )
    creations = [CreateAclsRequest.acl_creation(b) for b in (binding, bad)]
    created = h.handle(ApiKeys.CREATE_ACLS, 3, CreateAclsRequestData(creations=creations))
    assert [r.error_code for r in created.data.results] == [0, Errors.INVALID_REQUEST.code]
    assert binding in authorizer.acls(binding.to_filter())

    describe = DescribeAclsRequestData(
        resource_type_filter=ResourceType.TOPIC.code,
        resource_name_filter=None,
        pattern_type_filter=PatternType.ANY.code,
        principal_filter=None,
        host_filter=None,
        operation=AclOperation.ANY.code,
        permission_type=AclPermissionType.ANY.code,
    )
    # Alter on the cluster implies Describe; a principal without cluster ACLs may not describe them.
    nobody, _ = _with_acls()
    assert nobody.handle(ApiKeys.DESCRIBE_ACLS, 3, describe).data.error_code == Errors.CLUSTER_AUTHORIZATION_FAILED.code
    listed = h.handle(ApiKeys.DESCRIBE_ACLS, 3, describe)
    assert [(r.resource_name, r.pattern_type) for r in listed.data.resources] == [("x", PatternType.PREFIXED.code)]

    from kafka.common.requests.delete_acls_request import DeleteAclsRequest

    deleted = h.handle(
        ApiKeys.DELETE_ACLS,
        3,
        DeleteAclsRequestData(filters=[DeleteAclsRequest.delete_acls_filter(binding.to_filter())]),
    )
    assert [m.resource_name for m in deleted.data.filter_results[0].matching_acls] == ["x"]
    assert authorizer.acls(binding.to_filter()) == []


def test_acl_apis_without_authorizer_are_security_disabled() -> None:
    """Without an authorizer the ACL APIs answer SECURITY_DISABLED."""
    h = _harness()
    describe = DescribeAclsRequestData(
        resource_type_filter=ResourceType.ANY.code,
        pattern_type_filter=PatternType.ANY.code,
        operation=AclOperation.ANY.code,
        permission_type=AclPermissionType.ANY.code,
    )
    assert h.handle(ApiKeys.DESCRIBE_ACLS, 1, describe).data.error_code == Errors.SECURITY_DISABLED.code
