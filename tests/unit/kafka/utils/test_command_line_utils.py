"""Tests of the jopt-simple stand-in of CommandLineUtils: typed arguments (Integer, enum), separated values and
the order in which options were given."""

from __future__ import annotations

import enum

import pytest

from kafka.utils.command_line_utils import Integer, OptionArgumentConversionException, OptionParser


class Color(enum.Enum):
    RED = 0
    GREEN = 1


def test_typed_options() -> None:
    """Integer arguments are range-checked, enums converted by name, separated values split, order kept."""
    parser = OptionParser()
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
