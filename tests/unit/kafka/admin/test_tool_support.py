"""Tests of what the admin tools share: Java's split and HashMap order, and the typed options (Integer, enum,
separated values, detection order) the tools add to the jopt-simple stand-in."""

from __future__ import annotations

import enum

import pytest

from kafka.admin import _tool_support as ts
from kafka.common.topic_partition import TopicPartition
from kafka.utils.command_line_utils import Integer, OptionArgumentConversionException, TypedOptionParser
from kafka.zk.jvm_json import java_hash_map


def test_java_split_drops_trailing_empty_strings() -> None:
    """String.split keeps inner and leading empty strings and drops trailing ones."""
    assert ts.java_split("a,,b,,", ",") == ["a", "", "b"]
    assert ts.java_split(",a", ",") == ["", "a"]
    assert ts.java_split("", ",") == [""]
    assert ts.java_split(",,", ",") == []


def test_java_hash_map_order() -> None:
    """The default-capacity order agrees with jvm_json's HashMap; a pre-sized map orders by its own table."""
    keys = [f"topic-{i}" for i in range(30)]
    assert ts.java_hash_map_order(keys) == list(java_hash_map((k, None) for k in keys))
    partitions = [TopicPartition("t", p) for p in range(3)]
    assert ts.java_hash_map_order(partitions) == [
        TopicPartition("t", 2),
        TopicPartition("t", 1),
        TopicPartition("t", 0),
    ]
    # "x" and "y" hash to buckets 0 and 1 of an 8-entry table, ahead of the longer names.
    assert ts.java_hash_map_order(["topic-a", "x", "y"], 3)[:2] == ["x", "y"]


class Color(enum.Enum):
    RED = 0
    GREEN = 1


def test_typed_options() -> None:
    """Integer arguments are range-checked, enums converted by name, separated values split, order kept."""
    parser = TypedOptionParser()
    count = parser.accepts("count", "How many.").with_required_arg().described_as("n").of_type(Integer)
    color = parser.accepts("color", "A color.").with_required_arg().of_type(Color)
    names = parser.accepts("names", "Names.").with_values_separated_by(",").with_required_arg().of_type(str)
    flag = parser.accepts("flag", "A flag.")
    options = parser.parse(["--names", "a,,b", "--flag", "--count", "-3", "--color", "green", "--names=c"])
    assert options.value_of(count) == -3
    assert options.value_of(color) is Color.GREEN
    assert options.values_of(names) == ["a", "b", "c"]
    assert [s.name for s in options.specs()] == ["names", "flag", "count", "color", "names"]
    assert options.has(flag)
    with pytest.raises(OptionArgumentConversionException, match="Cannot parse argument '2147483648' of option count"):
        parser.parse(["--count", "2147483648"])
    with pytest.raises(OptionArgumentConversionException, match="Cannot parse argument 'blue' of option color"):
        parser.parse(["--color", "blue"])
    help_text = parser.format_help()
    assert "--count <Integer: n>" in help_text
    assert "--color <[RED,GREEN]>" in help_text
