"""Comparing normalised trees: every difference with its path, keyed collections by key, ignored paths left out."""

from __future__ import annotations

from kafka.tools.conformance.comparer import ABSENT, Difference, compare, show
from kafka.tools.conformance.manifest import Rule
from kafka.tools.conformance.message_tree import KeyedList, Symbol


def test_difference_paths_name_fields_and_indexes() -> None:
    """A changed leaf deep in arrays is reported as `responses[0].partitions[2].error_code: 0 != 3`."""
    a = {"responses": [{"partitions": [{"error_code": 0}, {"error_code": 0}, {"error_code": 0}]}]}
    b = {"responses": [{"partitions": [{"error_code": 0}, {"error_code": 0}, {"error_code": 3}]}]}
    diffs = compare(a, b)
    assert [str(d) for d in diffs] == ["responses[0].partitions[2].error_code: 0 != 3"]


def test_missing_and_extra_elements_and_fields() -> None:
    """An element or field only one side has is shown against <absent>."""
    diffs = compare({"a": [1, 2], "b": 1}, {"a": [1], "c": 2})
    assert diffs == [
        Difference("a[1]", 2, ABSENT),
        Difference("b", 1, ABSENT),
        Difference("c", ABSENT, 2),
    ]


def test_bool_is_not_an_int() -> None:
    """True and 1 differ, as they differ on the wire."""
    assert compare({"x": True}, {"x": 1}) == [Difference("x", True, 1)]
    assert compare({"s": Symbol("broker_id", 1)}, {"s": Symbol("broker_id", 1)}) == []
    assert [str(d) for d in compare({"s": Symbol("broker_id", 1)}, {"s": Symbol("broker_id", 2)})] == [
        "s: broker_id#1 != broker_id#2"
    ]


def test_keyed_collections_compare_by_key() -> None:
    """Topics listed in another order are equal; a topic only one side lists is reported at its position."""
    a = KeyedList([{"name": "x", "v": 1}, {"name": "y", "v": 2}], ("name",))
    b = KeyedList([{"name": "y", "v": 2}, {"name": "x", "v": 1}, {"name": "z", "v": 3}], ("name",))
    assert compare({"t": a}, {"t": b}) == [Difference("t[2]", ABSENT, {"name": "z", "v": 3})]
    c = KeyedList([{"name": "y", "v": 9}, {"name": "x", "v": 1}], ("name",))
    assert [str(d) for d in compare({"t": a}, {"t": c})] == ["t[1].v: 2 != 9"]


def test_ignored_paths_are_left_out() -> None:
    """What a manifest rule ignores is not compared; the rest still is."""
    rule = Rule("ignore", "why", paths=["api_keys", "topics[*].id"])
    a = {"api_keys": [1, 2], "topics": [{"id": 1, "e": 0}], "error_code": 0}
    b = {"api_keys": [3], "topics": [{"id": 2, "e": 5}], "error_code": 0}
    assert [str(d) for d in compare(a, b, ignored=rule.ignores)] == ["topics[0].e: 0 != 5"]


def test_long_values_are_shortened_in_the_middle() -> None:
    """A long value shows its start and end and its length."""
    text = show("ab" * 100)
    assert text.startswith("'ababab") and text.endswith("(202 chars)") and len(text) < 100
