"""Tests of kafka.common.resource and kafka.common.acl filters, after Java's ResourcePatternFilterTest and
AclBindingTest: which patterns and entries a filter matches, and which filters match at most one binding."""

from __future__ import annotations

import pytest

from kafka.common.acl.access_control_entry import AccessControlEntry
from kafka.common.acl.access_control_entry_filter import AccessControlEntryFilter
from kafka.common.acl.acl_binding import AclBinding
from kafka.common.acl.acl_binding_filter import AclBindingFilter
from kafka.common.acl.acl_operation import AclOperation
from kafka.common.acl.acl_permission_type import AclPermissionType
from kafka.common.resource.pattern_type import PatternType
from kafka.common.resource.resource_pattern import ResourcePattern
from kafka.common.resource.resource_pattern_filter import ResourcePatternFilter
from kafka.common.resource.resource_type import ResourceType
from kafka.common.utils.security_utils import operation, operation_name, parse_kafka_principal, resource_type

TOPIC = ResourceType.TOPIC


@pytest.mark.parametrize(
    ("filter_", "pattern", "expected"),
    [
        (
            ResourcePatternFilter(TOPIC, "Name", PatternType.LITERAL),
            ResourcePattern(TOPIC, "Name", PatternType.LITERAL),
            True,
        ),
        (
            ResourcePatternFilter(TOPIC, "Name", PatternType.LITERAL),
            ResourcePattern(TOPIC, "*", PatternType.LITERAL),
            False,
        ),
        (
            ResourcePatternFilter(TOPIC, "Name", PatternType.MATCH),
            ResourcePattern(TOPIC, "*", PatternType.LITERAL),
            True,
        ),
        (
            ResourcePatternFilter(TOPIC, "Name", PatternType.MATCH),
            ResourcePattern(TOPIC, "Na", PatternType.PREFIXED),
            True,
        ),
        (
            ResourcePatternFilter(TOPIC, "Name", PatternType.MATCH),
            ResourcePattern(TOPIC, "Nx", PatternType.PREFIXED),
            False,
        ),
        (
            ResourcePatternFilter(TOPIC, "Name", PatternType.ANY),
            ResourcePattern(TOPIC, "Name", PatternType.PREFIXED),
            True,
        ),
        (
            ResourcePatternFilter(TOPIC, "Name", PatternType.ANY),
            ResourcePattern(TOPIC, "Na", PatternType.PREFIXED),
            False,
        ),
        (
            ResourcePatternFilter(ResourceType.ANY, None, PatternType.ANY),
            ResourcePattern(ResourceType.GROUP, "g", PatternType.LITERAL),
            True,
        ),
        (
            ResourcePatternFilter(ResourceType.GROUP, None, PatternType.ANY),
            ResourcePattern(TOPIC, "g", PatternType.LITERAL),
            False,
        ),
    ],
)
def test_pattern_filter_matches(filter_: ResourcePatternFilter, pattern: ResourcePattern, expected: bool) -> None:
    """LITERAL/PREFIXED filters match their exact pattern, ANY any pattern type of the name, MATCH every pattern
    that applies to the name."""
    assert filter_.matches(pattern) is expected


def test_binding_filter_and_indefinite_fields() -> None:
    """A binding's own filter matches it and at most one binding; ANY fields are indefinite."""
    binding = AclBinding(
        ResourcePattern(TOPIC, "t", PatternType.LITERAL),
        AccessControlEntry("User:alice", "*", AclOperation.READ, AclPermissionType.ALLOW),
    )
    assert binding.to_filter().matches(binding)
    assert binding.to_filter().matches_at_most_one()
    assert AclBindingFilter.ANY.matches(binding)
    assert AclBindingFilter.ANY.find_indefinite_field() == "Resource type is ANY."
    entry_filter = AccessControlEntryFilter("User:bob", None, AclOperation.ANY, AclPermissionType.ANY)
    assert not AclBindingFilter(ResourcePatternFilter.ANY, entry_filter).matches(binding)
    assert entry_filter.find_indefinite_field() == "Host is NULL"


def test_concrete_patterns_and_entries_refuse_any() -> None:
    """Patterns and entries stored as ACLs may not be ANY."""
    with pytest.raises(ValueError):
        ResourcePattern(ResourceType.ANY, "t", PatternType.LITERAL)
    with pytest.raises(ValueError):
        ResourcePattern(TOPIC, "t", PatternType.MATCH)
    with pytest.raises(ValueError):
        AccessControlEntry("User:a", "*", AclOperation.ANY, AclPermissionType.ALLOW)


def test_security_utils_names() -> None:
    """Stored names are Pascal case; parsing also takes the upper-case names and principals split at the first ':'."""
    assert operation("DescribeConfigs") is AclOperation.DESCRIBE_CONFIGS
    assert operation("IDEMPOTENT_WRITE") is AclOperation.IDEMPOTENT_WRITE
    assert operation("nonsense") is AclOperation.UNKNOWN
    assert operation_name(AclOperation.CLUSTER_ACTION) == "ClusterAction"
    assert resource_type("TransactionalId") is ResourceType.TRANSACTIONAL_ID
    assert str(parse_kafka_principal("User:CN=a:b")) == "User:CN=a:b"
    with pytest.raises(ValueError):
        parse_kafka_principal("alice")
