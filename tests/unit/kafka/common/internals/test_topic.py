"""Topic name rules: legal names, length, the '.'/'_' collision, and Kafka's internal topics."""

from __future__ import annotations

import pytest

from kafka.common.errors import InvalidTopicException
from kafka.common.internals.topic import Topic


@pytest.mark.parametrize("name", ["valid", "TOPIC", "nAmEs", "ar6", "VaL1d", "_0-9_.", "...", "a" * 249])
def test_legal_names_pass(name: str) -> None:
    """Names of ASCII letters, digits, '.', '_' and '-' up to 249 characters are legal."""
    Topic.validate(name)


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("", "it can't be empty"),
        (".", 'cannot be "." or ".."'),
        ("..", 'cannot be "." or ".."'),
        ("a" * 250, "can't be longer than 249 characters"),
        ("\u00e9" * 125, "contains a character other than ASCII alphanumerics"),
        ("\U0001f600" * 125, "can't be longer than 249 characters"),  # 250 UTF-16 units, as Java counts
        ("has space", "contains a character other than ASCII alphanumerics"),
        ("slash/", "contains a character other than"),
    ],
)
def test_illegal_names_raise(name: str, message: str) -> None:
    """Empty, '.', '..', over-long names and other characters raise InvalidTopicException with Kafka's message."""
    with pytest.raises(InvalidTopicException, match=message):
        Topic.validate(name)


def test_collisions_and_internal_topics() -> None:
    """'.' and '_' collide at the same place; the group and transaction topics are internal."""
    assert Topic.has_collision_chars("a.b") and Topic.has_collision_chars("a_b") and not Topic.has_collision_chars("ab")
    assert Topic.has_collision("a.b_c", "a_b.c") and not Topic.has_collision("a.b", "ab")
    assert Topic.is_internal("__consumer_offsets") and Topic.is_internal("__transaction_state")
    assert not Topic.is_internal("orders")
    assert Topic.contains_valid_pattern("A-z.0_9") and not Topic.contains_valid_pattern("a+b")
