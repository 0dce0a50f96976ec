"""Tests of kafka.security.authorizer.acl_authorizer, after Kafka 2.8's AclAuthorizerTest: the rules of authorize
(super users, allow.everyone.if.no.acl.found, allow and deny, principals, hosts, wildcard and prefixed patterns,
implied operations), ACL creation, listing and deletion, and the cache's refresh from change notifications."""

from __future__ import annotations

import logging

import pytest

from kafka.common.acl.access_control_entry import AccessControlEntry
from kafka.common.acl.access_control_entry_filter import AccessControlEntryFilter
from kafka.common.acl.acl_binding import AclBinding
from kafka.common.acl.acl_binding_filter import AclBindingFilter
from kafka.common.acl.acl_operation import AclOperation
from kafka.common.acl.acl_permission_type import AclPermissionType
from kafka.common.errors import InvalidRequestException
from kafka.common.resource.pattern_type import PatternType
from kafka.common.resource.resource_pattern import ResourcePattern
from kafka.common.resource.resource_pattern_filter import ResourcePatternFilter
from kafka.common.resource.resource_type import ResourceType
from kafka.common.security.auth.kafka_principal import KafkaPrincipal
from kafka.security.authorizer.acl_authorizer import AclAuthorizer
from kafka.server.authorizer.action import Action
from kafka.server.authorizer.authorization_result import AuthorizationResult
from kafka.zk.zk_data import ExtendedAclChangeStore, LiteralAclChangeStore
from tests.unit.kafka.security.authorizer.acl_fakes import Context, FakeAclZkClient, fake_authorizer

ALICE = KafkaPrincipal("User", "alice")
BOB = KafkaPrincipal("User", "bob")
ALLOW, DENY = AclPermissionType.ALLOW, AclPermissionType.DENY
TOPIC = ResourceType.TOPIC
LITERAL, PREFIXED = PatternType.LITERAL, PatternType.PREFIXED


def ace(
    principal: KafkaPrincipal | str, op: AclOperation, permission: AclPermissionType = ALLOW, host: str = "*"
) -> AccessControlEntry:
    return AccessControlEntry(str(principal), host, op, permission)


def add(authorizer: AclAuthorizer, resource: ResourcePattern, *entries: AccessControlEntry) -> None:
    results = authorizer.create_acls(None, [AclBinding(resource, e) for e in entries])
    assert all(f.result().exception is None for f in results)


def allowed(
    authorizer: AclAuthorizer,
    principal: KafkaPrincipal,
    op: AclOperation,
    name: str,
    resource_type: ResourceType = TOPIC,
    host: str = "192.168.0.1",
) -> bool:
    action = Action(op, ResourcePattern(resource_type, name, LITERAL), 1, True, True)
    [result] = authorizer.authorize(Context(principal, host), [action])
    return result is AuthorizationResult.ALLOWED


def test_no_acls_denies_unless_allow_everyone() -> None:
    """Without ACLs on a resource, access follows allow.everyone.if.no.acl.found."""
    assert not allowed(fake_authorizer(), ALICE, AclOperation.READ, "t")
    assert allowed(fake_authorizer(allow_everyone=True), ALICE, AclOperation.READ, "t")


def test_allow_everyone_does_not_apply_once_a_resource_has_acls() -> None:
    """allow.everyone.if.no.acl.found does not let others in to a resource that has ACLs."""
    a = fake_authorizer(allow_everyone=True)
    add(a, ResourcePattern(TOPIC, "t", LITERAL), ace(ALICE, AclOperation.READ))
    assert allowed(a, ALICE, AclOperation.READ, "t")
    assert not allowed(a, BOB, AclOperation.READ, "t")


def test_super_users_are_allowed_everything() -> None:
    """A principal listed in super.users passes every check, even against a deny."""
    a = fake_authorizer(super_users="User:admin; User:bob")
    add(a, ResourcePattern(TOPIC, "t", LITERAL), ace(BOB, AclOperation.ALL, DENY))
    assert allowed(a, BOB, AclOperation.WRITE, "t")
    admin = KafkaPrincipal("User", "admin")
    assert allowed(a, admin, AclOperation.CLUSTER_ACTION, "kafka-cluster", ResourceType.CLUSTER)
    assert not allowed(a, ALICE, AclOperation.WRITE, "t")


def test_deny_wins_over_allow() -> None:
    """A DENY that applies wins over any ALLOW, also over a wildcard-principal ALLOW."""
    a = fake_authorizer()
    add(a, ResourcePattern(TOPIC, "t", LITERAL), ace("User:*", AclOperation.READ), ace(ALICE, AclOperation.READ, DENY))
    assert not allowed(a, ALICE, AclOperation.READ, "t")
    assert allowed(a, BOB, AclOperation.READ, "t")


def test_hosts() -> None:
    """An ACL with a host applies only to clients from that address; `*` to every address."""
    a = fake_authorizer()
    add(a, ResourcePattern(TOPIC, "t", LITERAL), ace(ALICE, AclOperation.READ, host="10.0.0.1"))
    assert allowed(a, ALICE, AclOperation.READ, "t", host="10.0.0.1")
    assert not allowed(a, ALICE, AclOperation.READ, "t", host="10.0.0.2")
    add(a, ResourcePattern(TOPIC, "t", LITERAL), ace(ALICE, AclOperation.WRITE, DENY, host="10.0.0.2"))
    add(a, ResourcePattern(TOPIC, "t", LITERAL), ace(ALICE, AclOperation.WRITE))
    assert allowed(a, ALICE, AclOperation.WRITE, "t", host="10.0.0.1")
    assert not allowed(a, ALICE, AclOperation.WRITE, "t", host="10.0.0.2")


@pytest.mark.parametrize("granted", [AclOperation.READ, AclOperation.WRITE, AclOperation.DELETE, AclOperation.ALTER])
def test_describe_is_implied(granted: AclOperation) -> None:
    """Allowing Read, Write, Delete or Alter also allows Describe, and nothing else."""
    a = fake_authorizer()
    add(a, ResourcePattern(TOPIC, "t", LITERAL), ace(ALICE, granted))
    assert allowed(a, ALICE, AclOperation.DESCRIBE, "t")
    others = {AclOperation.READ, AclOperation.WRITE, AclOperation.DELETE, AclOperation.ALTER} - {granted}
    assert not any(allowed(a, ALICE, op, "t") for op in others)


def test_describe_configs_is_implied_by_alter_configs_and_deny_describe_is_not_undone() -> None:
    """AlterConfigs implies DescribeConfigs; a DENY of Describe is not lifted by an implying ALLOW."""
    a = fake_authorizer()
    add(a, ResourcePattern(TOPIC, "t", LITERAL), ace(ALICE, AclOperation.ALTER_CONFIGS), ace(ALICE, AclOperation.READ))
    assert allowed(a, ALICE, AclOperation.DESCRIBE_CONFIGS, "t")
    add(a, ResourcePattern(TOPIC, "t", LITERAL), ace(ALICE, AclOperation.DESCRIBE, DENY))
    assert not allowed(a, ALICE, AclOperation.DESCRIBE, "t")


def test_all_operation_and_wildcard_resource() -> None:
    """ALL matches every operation; a literal `*` resource matches every topic."""
    a = fake_authorizer()
    add(a, ResourcePattern(TOPIC, "*", LITERAL), ace(ALICE, AclOperation.ALL))
    assert allowed(a, ALICE, AclOperation.CREATE, "anything")
    assert not allowed(a, ALICE, AclOperation.READ, "anything", ResourceType.GROUP)


def test_prefixed_patterns() -> None:
    """A prefixed ACL applies to every name starting with its prefix; a prefixed DENY wins over a literal ALLOW."""
    a = fake_authorizer()
    add(a, ResourcePattern(TOPIC, "orders-", PREFIXED), ace(ALICE, AclOperation.WRITE))
    assert allowed(a, ALICE, AclOperation.WRITE, "orders-eu")
    assert not allowed(a, ALICE, AclOperation.WRITE, "order")
    add(a, ResourcePattern(TOPIC, "orders-secret", LITERAL), ace(BOB, AclOperation.WRITE))
    add(a, ResourcePattern(TOPIC, "orders-s", PREFIXED), ace(BOB, AclOperation.WRITE, DENY))
    assert not allowed(a, BOB, AclOperation.WRITE, "orders-secret")


def test_only_literal_resources_are_authorized() -> None:
    """Authorizing a prefixed resource is a programming error."""
    a = fake_authorizer()
    action = Action(AclOperation.READ, ResourcePattern(TOPIC, "t", PREFIXED), 1, True, True)
    with pytest.raises(ValueError, match="Only literal resources"):
        a.authorize(Context(ALICE), [action])


def test_create_writes_kafka_json_and_a_change_notification() -> None:
    """ACLs are stored as Kafka 2.8 writes them and each change is announced in its store's change path."""
    zk = FakeAclZkClient()
    a = fake_authorizer(zk)
    add(a, ResourcePattern(TOPIC, "t", LITERAL), ace(ALICE, AclOperation.READ))
    add(a, ResourcePattern(ResourceType.GROUP, "g-", PREFIXED), ace(ALICE, AclOperation.READ))
    assert zk.nodes["/kafka-acl/Topic/t"] == (
        b'{"version":1,"acls":[{"principal":"User:alice","permissionType":"Allow","operation":"Read","host":"*"}]}',
        0,
    )
    assert "/kafka-acl-extended/prefixed/Group/g-" in zk.nodes
    assert zk.notifications == [
        ("/kafka-acl-changes", b"TOPIC:t"),
        (
            "/kafka-acl-extended-changes",
            b'{"version":1,"resourceType":"GROUP","name":"g-","patternType":"PREFIXED"}',
        ),
    ]


def test_create_rejects_unknown_elements_and_retries_version_conflicts() -> None:
    """A binding with UNKNOWN elements fails alone; a write that loses a version race is retried."""
    zk = FakeAclZkClient()
    a = fake_authorizer(zk)
    add(a, ResourcePattern(TOPIC, "t", LITERAL), ace(ALICE, AclOperation.READ))
    zk.conflicts_to_inject = 2
    bad = AclBinding(ResourcePattern(TOPIC, "t", LITERAL), ace(ALICE, AclOperation.UNKNOWN))
    good = AclBinding(ResourcePattern(TOPIC, "t", LITERAL), ace(BOB, AclOperation.READ))
    results = [f.result() for f in a.create_acls(None, [bad, good])]
    assert isinstance(results[0].exception, InvalidRequestException)
    assert results[1].exception is None
    assert zk.nodes["/kafka-acl/Topic/t"][1] == 1
    assert allowed(a, BOB, AclOperation.READ, "t")


def test_acls_and_delete_by_filter() -> None:
    """acls() lists what a filter matches (MATCH: everything that applies to a name); delete removes it, and the
    znode of a resource left without ACLs."""
    zk = FakeAclZkClient()
    a = fake_authorizer(zk)
    add(a, ResourcePattern(TOPIC, "t", LITERAL), ace(ALICE, AclOperation.READ), ace(BOB, AclOperation.WRITE))
    add(a, ResourcePattern(TOPIC, "*", LITERAL), ace(ALICE, AclOperation.DESCRIBE))
    add(a, ResourcePattern(TOPIC, "t", PREFIXED), ace(ALICE, AclOperation.ALTER))
    add(a, ResourcePattern(ResourceType.GROUP, "t", LITERAL), ace(ALICE, AclOperation.READ))
    match_t = AclBindingFilter(ResourcePatternFilter(TOPIC, "t", PatternType.MATCH), AccessControlEntryFilter.ANY)
    assert len(a.acls(match_t)) == 4
    assert len(a.acls(AclBindingFilter.ANY)) == 5

    alice_on_literal_t = AclBindingFilter(
        ResourcePatternFilter(TOPIC, "t", LITERAL),
        AccessControlEntryFilter("User:alice", None, AclOperation.ANY, AclPermissionType.ANY),
    )
    [result] = [f.result() for f in a.delete_acls(None, [alice_on_literal_t])]
    assert [r.acl_binding.entry for r in result.acl_binding_delete_results] == [ace(ALICE, AclOperation.READ)]
    assert not allowed(a, ALICE, AclOperation.READ, "t")
    assert allowed(a, BOB, AclOperation.WRITE, "t")

    everything_on_t = AclBindingFilter(ResourcePatternFilter(TOPIC, "t", LITERAL), AccessControlEntryFilter.ANY)
    [result] = [f.result() for f in a.delete_acls(None, [everything_on_t])]
    assert len(result.acl_binding_delete_results) == 1
    assert "/kafka-acl/Topic/t" not in zk.nodes


def test_change_notifications_and_load_refresh_the_cache() -> None:
    """A change another broker made reaches this one's cache through the notification; a new authorizer loads
    every stored ACL."""
    zk = FakeAclZkClient()
    writer, reader = fake_authorizer(zk), fake_authorizer(zk)
    literal = ResourcePattern(TOPIC, "t", LITERAL)
    prefixed = ResourcePattern(TOPIC, "p", PREFIXED)
    add(writer, literal, ace(ALICE, AclOperation.READ))
    add(writer, prefixed, ace(ALICE, AclOperation.WRITE))
    assert not allowed(reader, ALICE, AclOperation.READ, "t")
    for path, data in zk.notifications:
        store = LiteralAclChangeStore if path == LiteralAclChangeStore.acl_change_path else ExtendedAclChangeStore
        reader._process_acl_change_notification(store.decode(data))
    assert allowed(reader, ALICE, AclOperation.READ, "t")
    assert allowed(reader, ALICE, AclOperation.WRITE, "pq")
    assert allowed(fake_authorizer(zk), ALICE, AclOperation.WRITE, "pq")


def test_audit_log(caplog: pytest.LogCaptureFixture) -> None:
    """Denials a request asked for are logged at INFO to kafka.authorizer.logger with Kafka's wording; denials
    only used to filter are TRACE."""
    a = fake_authorizer()
    caplog.set_level(logging.DEBUG, logger="kafka.authorizer.logger")
    allowed(a, ALICE, AclOperation.WRITE, "t")
    [record] = [r for r in caplog.records if r.levelno == logging.INFO]
    assert record.getMessage() == (
        "Principal = User:alice is Denied Operation = Write from host = 192.168.0.1 on resource = Topic:LITERAL:t "
        "for request = PRODUCE with resourceRefCount = 1"
    )
    caplog.clear()
    action = Action(AclOperation.READ, ResourcePattern(TOPIC, "t", LITERAL), 1, True, False)
    a.authorize(Context(ALICE), [action])
    assert not [r for r in caplog.records if r.levelno >= logging.INFO]


def test_authorize_by_resource_type() -> None:
    """Write on some topic (not denied by a dominating prefix) is enough; a wildcard DENY refuses."""
    a = fake_authorizer()
    ctx = Context(ALICE)
    assert a.authorize_by_resource_type(ctx, AclOperation.WRITE, TOPIC) is AuthorizationResult.DENIED
    add(a, ResourcePattern(TOPIC, "abc", LITERAL), ace(ALICE, AclOperation.WRITE))
    assert a.authorize_by_resource_type(ctx, AclOperation.WRITE, TOPIC) is AuthorizationResult.ALLOWED
    add(a, ResourcePattern(TOPIC, "a", PREFIXED), ace(ALICE, AclOperation.WRITE, DENY))
    assert a.authorize_by_resource_type(ctx, AclOperation.WRITE, TOPIC) is AuthorizationResult.DENIED
    add(a, ResourcePattern(TOPIC, "x", PREFIXED), ace(ALICE, AclOperation.WRITE))
    assert a.authorize_by_resource_type(ctx, AclOperation.WRITE, TOPIC) is AuthorizationResult.ALLOWED
    add(a, ResourcePattern(TOPIC, "*", LITERAL), ace(ALICE, AclOperation.WRITE, DENY))
    assert a.authorize_by_resource_type(ctx, AclOperation.WRITE, TOPIC) is AuthorizationResult.DENIED


def test_authorize_by_resource_type_super_users_and_allow_everyone() -> None:
    """Super users and allow.everyone.if.no.acl.found allow; a literal `*` DENY still refuses the latter."""
    assert (
        fake_authorizer(super_users="User:alice").authorize_by_resource_type(Context(ALICE), AclOperation.WRITE, TOPIC)
        is AuthorizationResult.ALLOWED
    )
    a = fake_authorizer(allow_everyone=True)
    add(a, ResourcePattern(TOPIC, "other", LITERAL), ace(BOB, AclOperation.WRITE))
    assert a.authorize_by_resource_type(Context(ALICE), AclOperation.WRITE, TOPIC) is AuthorizationResult.ALLOWED
    add(a, ResourcePattern(TOPIC, "*", LITERAL), ace("User:*", AclOperation.WRITE, DENY))
    assert a.authorize_by_resource_type(Context(ALICE), AclOperation.WRITE, TOPIC) is AuthorizationResult.DENIED
