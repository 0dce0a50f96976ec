"""Tests of kafka.common.config.config_def, after Kafka's ConfigDefTest."""

from __future__ import annotations

import re

import pytest

from kafka.common.config.config_def import (
    NO_DEFAULT_VALUE,
    CaseInsensitiveValidString,
    CompositeValidator,
    ConfigDef,
    Importance,
    LambdaValidator,
    NonEmptyString,
    NonEmptyStringWithoutControlChars,
    NonNullValidator,
    Range,
    Type,
    ValidList,
    ValidString,
)
from kafka.common.config.config_exception import ConfigException, java_str
from kafka.common.config.password import Password
from kafka.common.errors import KafkaException


def _basic_def() -> ConfigDef:
    return (
        ConfigDef()
        .define("a", Type.INT, 5, Range.between(0, 14), Importance.HIGH, "docs")
        .define("b", Type.LONG, NO_DEFAULT_VALUE, None, Importance.HIGH)
        .define("c", Type.STRING, "hello", None, Importance.HIGH)
        .define("d", Type.LIST, None, None, Importance.HIGH)
        .define("e", Type.DOUBLE, 5.0, None, Importance.HIGH)
        .define("f", Type.CLASS, None, None, Importance.HIGH)
        .define("g", Type.BOOLEAN, None, None, Importance.HIGH)
        .define("h", Type.BOOLEAN, None, None, Importance.HIGH)
        .define("i", Type.BOOLEAN, None, None, Importance.HIGH)
        .define("j", Type.PASSWORD, None, None, Importance.HIGH)
        .define("k", Type.SHORT, 3, None, Importance.HIGH)
    )


def test_parse_converts_strings_like_java() -> None:
    """String values become typed values exactly as Java's ConfigDef converts them."""
    props = {
        "a": "1 ",
        "b": "2",
        "d": " a , b, c",
        "e": "42.5",
        "f": "org.example.Foo",
        "g": "true",
        "h": "FalSE",
        "i": "TRUE",
        "j": "password",
        "k": "-7",
    }
    vals = _basic_def().parse(props)
    assert vals["a"] == 1
    assert vals["b"] == 2
    assert vals["c"] == "hello"
    assert vals["d"] == ["a", "b", "c"]
    assert vals["e"] == 42.5
    assert vals["f"] == "org.example.Foo"
    assert vals["g"] is True
    assert vals["h"] is False
    assert vals["i"] is True
    assert vals["j"] == Password("password")
    assert vals["k"] == -7


def test_missing_required_key_names_it() -> None:
    """A key without default that is absent fails with Kafka's missing-configuration message."""
    with pytest.raises(ConfigException) as e:
        _basic_def().parse({})
    assert str(e.value) == 'Missing required configuration "b" which has no default value.'


def test_config_exception_is_a_kafka_exception() -> None:
    """ConfigException extends KafkaException, as in Java."""
    assert issubclass(ConfigException, KafkaException)
    assert str(ConfigException("x", 5, "bad")) == "Invalid value 5 for configuration x: bad"
    assert str(ConfigException("x", None)) == "Invalid value null for configuration x"


@pytest.mark.parametrize(
    ("type_", "value", "shown", "reason"),
    [
        (Type.INT, "hello", "hello", "Not a number of type INT"),
        (Type.INT, "1_000", "1_000", "Not a number of type INT"),
        (Type.INT, "3000000000", "3000000000", "Not a number of type INT"),
        (Type.INT, 40000000000, "40000000000", "Expected value to be a 32-bit integer, but it was a int"),
        (Type.INT, True, "true", "Expected value to be a 32-bit integer, but it was a bool"),
        (Type.SHORT, "40000", "40000", "Not a number of type SHORT"),
        (Type.LONG, "1.5", "1.5", "Not a number of type LONG"),
        (Type.LONG, "9223372036854775808", "9223372036854775808", "Not a number of type LONG"),
        (Type.DOUBLE, "abc", "abc", "Not a number of type DOUBLE"),
        (Type.DOUBLE, "1_0", "1_0", "Not a number of type DOUBLE"),
        (Type.BOOLEAN, "yes", "yes", "Expected value to be either true or false"),
        (Type.BOOLEAN, 1, "1", "Expected value to be either true or false"),
        (Type.STRING, 5, "5", "Expected value to be a string, but it was a int"),
        (Type.LIST, 5, "5", "Expected a comma separated list."),
        (Type.PASSWORD, 5, "5", "Expected value to be a string, but it was a int"),
        (Type.CLASS, 5, "5", "Expected a Class instance or class name."),
    ],
)
def test_invalid_values_name_key_and_value(type_: Type, value: object, shown: str, reason: str) -> None:
    """A value that cannot be converted fails with `Invalid value V for configuration N: reason`."""
    d = ConfigDef().define("name", type_, NO_DEFAULT_VALUE, None, Importance.HIGH)
    with pytest.raises(ConfigException) as e:
        d.parse({"name": value})
    assert str(e.value) == f"Invalid value {shown} for configuration name: {reason}"


def test_numbers_accept_java_forms() -> None:
    """Signs, surrounding blanks, the long range and Java double spellings parse as in Java."""
    d = (
        ConfigDef()
        .define("i", Type.INT, NO_DEFAULT_VALUE, None, Importance.LOW)
        .define("l", Type.LONG, NO_DEFAULT_VALUE, None, Importance.LOW)
        .define("d", Type.DOUBLE, NO_DEFAULT_VALUE, None, Importance.LOW)
    )
    vals = d.parse({"i": " +12 ", "l": "9223372036854775807", "d": "1e3d"})
    assert vals == {"i": 12, "l": 2**63 - 1, "d": 1000.0}
    assert d.parse({"i": 3, "l": 4, "d": 2})["d"] == 2.0


def test_list_parsing_keeps_empty_entries_and_empty_string_is_empty_list() -> None:
    """Lists split on commas with surrounding blanks; '' is an empty list; typed lists pass through."""
    d = ConfigDef().define("l", Type.LIST, NO_DEFAULT_VALUE, None, Importance.LOW)
    assert d.parse({"l": ""})["l"] == []
    assert d.parse({"l": "a,,b"})["l"] == ["a", "", "b"]
    assert d.parse({"l": ["x", "y"]})["l"] == ["x", "y"]


def test_default_is_parsed_and_validated_at_definition() -> None:
    """A default outside its validator's range is rejected when the key is defined."""
    with pytest.raises(ConfigException) as e:
        ConfigDef().define("a", Type.INT, -1, Range.at_least(0), Importance.HIGH)
    assert str(e.value) == "Invalid value -1 for configuration a: Value must be at least 0"
    assert ConfigDef().define("s", Type.LONG, "10", None, Importance.LOW).config_keys["s"].default_value == 10


def test_defining_a_key_twice_fails() -> None:
    """The same name cannot be defined twice."""
    d = ConfigDef().define("a", Type.STRING, "x", None, Importance.LOW)
    with pytest.raises(ConfigException, match=re.escape("Configuration a is defined twice.")):
        d.define("a", Type.STRING, "y", None, Importance.LOW)


def test_range_validator() -> None:
    """Range rejects values out of bounds, and null, with Kafka's messages, and prints its bounds."""
    d = ConfigDef().define("r", Type.INT, 5, Range.between(0, 14), Importance.LOW)
    assert d.parse({"r": "14"})["r"] == 14
    with pytest.raises(
        ConfigException, match=re.escape("Invalid value 15 for configuration r: Value must be no more than 14")
    ):
        d.parse({"r": "15"})
    with pytest.raises(
        ConfigException, match=re.escape("Invalid value -1 for configuration r: Value must be at least 0")
    ):
        d.parse({"r": "-1"})
    with pytest.raises(
        ConfigException, match=re.escape("Invalid value null for configuration r: Value must be non-null")
    ):
        d.parse({"r": None})
    assert str(Range.between(0, 14)) == "[0,...,14]"
    assert str(Range.at_least(1)) == "[1,...]"
    dd = ConfigDef().define("f", Type.DOUBLE, 0.5, Range.between(0, 1), Importance.LOW)
    with pytest.raises(
        ConfigException, match=re.escape("Invalid value 1.5 for configuration f: Value must be no more than 1")
    ):
        dd.parse({"f": "1.5"})


def test_valid_string_and_case_insensitive_valid_string() -> None:
    """ValidString is exact; CaseInsensitiveValidString ignores case; both list the choices on failure."""
    d = (
        ConfigDef()
        .define("s", Type.STRING, "a", ValidString.in_("a", "b"), Importance.LOW)
        .define("c", Type.STRING, "a", CaseInsensitiveValidString.in_("a", "b"), Importance.LOW)
    )
    assert d.parse({"s": "b", "c": "B"}) == {"s": "b", "c": "B"}
    with pytest.raises(
        ConfigException, match=re.escape("Invalid value B for configuration s: String must be one of: a, b")
    ):
        d.parse({"s": "B"})
    with pytest.raises(ConfigException, match=r"String must be one of \(case insensitive\): A, B"):
        d.parse({"c": "z"})
    assert str(ValidString.in_("a", "b")) == "[a, b]"


def test_valid_list() -> None:
    """ValidList checks every element against the allowed strings."""
    d = ConfigDef().define("l", Type.LIST, "compact", ValidList.in_("compact", "delete"), Importance.LOW)
    assert d.parse({"l": "delete, compact"})["l"] == ["delete", "compact"]
    with pytest.raises(
        ConfigException, match=re.escape("Invalid value bogus for configuration l: String must be one of")
    ):
        d.parse({"l": "compact,bogus"})


def test_non_empty_and_non_null_validators() -> None:
    """NonEmptyString rejects '', NonNullValidator rejects None, the control-char check names the chars."""
    with pytest.raises(ConfigException, match=re.escape("String must be non-empty")):
        NonEmptyString().ensure_valid("x", "")
    NonEmptyString().ensure_valid("x", None)
    with pytest.raises(ConfigException, match=re.escape("entry must be non null")):
        NonNullValidator().ensure_valid("x", None)
    with pytest.raises(ConfigException, match=re.escape("following ASCII chars: 9")):
        NonEmptyStringWithoutControlChars().ensure_valid("x", "a\tb")


def test_composite_and_lambda_validators() -> None:
    """Composite runs every validator; a lambda validator runs its function and prints its description."""
    seen: list[object] = []
    lam = LambdaValidator.with_(lambda n, v: seen.append(v), lambda: "anything")
    comp = CompositeValidator.of(lam, Range.at_least(0))
    comp.ensure_valid("x", 3)
    assert seen == [3]
    with pytest.raises(ConfigException):
        comp.ensure_valid("x", -3)
    assert str(comp) == "anything, [0,...]"


def test_password_hides_its_value() -> None:
    """A Password prints as [hidden] but keeps its value."""
    p = Password("secret")
    assert str(p) == "[hidden]"
    assert repr(p) == "[hidden]"
    assert p.value == "secret"
    assert Type.PASSWORD.is_sensitive()
    assert not Type.STRING.is_sensitive()


def test_convert_to_string() -> None:
    """Parsed values convert back to Kafka's string forms."""
    assert ConfigDef.convert_to_string(["a", "b"], Type.LIST) == "a,b"
    assert ConfigDef.convert_to_string(True, Type.BOOLEAN) == "true"
    assert ConfigDef.convert_to_string(None, Type.INT) is None
    assert ConfigDef.convert_to_string_map_with_password_values({"p": Password("x"), "n": None, "l": ["a"]}) == {
        "p": "x",
        "l": "a",
    }


def test_unknown_keys_are_ignored_by_parse() -> None:
    """Keys that are not defined are not in the parsed result."""
    vals = ConfigDef().define("a", Type.INT, 1, None, Importance.LOW).parse({"zzz": "1"})
    assert vals == {"a": 1}


def test_java_str_prints_values_as_java_does() -> None:
    """Values in messages print like Java's String.valueOf (booleans, null, lists, doubles)."""
    assert java_str(True) == "true"
    assert java_str(None) == "null"
    assert java_str(["a", 1]) == "[a, 1]"
    assert java_str(0.5) == "0.5"
    assert java_str(1.7976931348623157e308) == "1.7976931348623157E308"
    assert java_str(12345678.0) == "1.2345678E7"
    assert java_str(1e-4) == "1.0E-4"
    assert java_str(float("inf")) == "Infinity"
