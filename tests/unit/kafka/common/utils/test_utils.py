"""Tests of Utils' helpers that stand in for the JVM: exceptions named and printed as Java does, and
Integer.parseInt/Long.parseLong."""

from __future__ import annotations

import pytest

from kafka.common.config.config_exception import ConfigException
from kafka.common.errors import KafkaException, TimeoutException
from kafka.common.kafka_future import ExecutionException
from kafka.common.utils.utils import (
    ClassNotFoundError,
    NumberFormatException,
    java_class_name,
    java_message,
    java_to_string,
    parse_int,
    parse_long,
)


def test_parse_int_is_integer_parse_int() -> None:
    """Signs and 32-bit range as Integer.parseInt; anything else is NumberFormatException with Java's message."""
    assert parse_int("+7") == 7
    assert parse_int("-2147483648") == -(2**31)
    assert parse_int("٣") == 3  # Java takes any Unicode decimal digit
    for bad in ("2147483648", "1_000", " 1", "", "1.0", "²"):
        with pytest.raises(NumberFormatException) as info:
            parse_int(bad)
        assert str(info.value) == f'For input string: "{bad}"'


def test_parse_long_is_long_parse_long() -> None:
    """Long.parseLong takes 64 bits, and refuses one more with NumberFormatException."""
    assert parse_long("-9223372036854775808") == -(2**63)
    assert parse_long("2147483648") == 2**31
    with pytest.raises(NumberFormatException, match='For input string: "9223372036854775808"'):
        parse_long("9223372036854775808")


def test_java_to_string_names_exceptions_as_java() -> None:
    """Exceptions print with Kafka's Java class names: the clients' under org.apache, built-ins as their Java
    counterparts, the message after a colon, or "null" as the message of none."""
    assert java_to_string(KafkaException("boom")) == "org.apache.kafka.common.KafkaException: boom"
    assert java_to_string(TimeoutException()) == "org.apache.kafka.common.errors.TimeoutException"
    assert java_to_string(ConfigException("bad")).startswith("org.apache.kafka.common.config.ConfigException: ")
    assert java_to_string(ValueError("x")) == "java.lang.IllegalArgumentException: x"
    assert java_to_string(ClassNotFoundError("a.B")) == "java.lang.ClassNotFoundException: a.B"
    assert java_to_string(FileNotFoundError(2, "No such file", "/x")) == "java.nio.file.NoSuchFileException: /x"
    assert java_to_string(RuntimeError("x")) == "java.lang.RuntimeException: x"
    assert java_message(RuntimeError()) == "null"
    assert java_class_name(ExecutionException(ValueError("x"))) == "java.util.concurrent.ExecutionException"
    assert java_class_name(NotImplementedError()) == "java.lang.UnsupportedOperationException"
    assert java_to_string(KeyError("k")) == "java.util.NoSuchElementException: k"
    assert java_to_string(TimeoutError()) == "java.util.concurrent.TimeoutException"


def test_parse_int_and_parse_long_refuse_what_java_refuses() -> None:
    """Signs are allowed; spaces, underscores, hexadecimal, the empty string and overflow are refused."""
    assert parse_int("+5") == 5
    assert parse_long("-7") == -7
    for bad in (" 1", "1_0", "", "2147483648", "0x10"):
        with pytest.raises(ValueError):
            parse_int(bad)
    assert parse_long("2147483648") == 2147483648
