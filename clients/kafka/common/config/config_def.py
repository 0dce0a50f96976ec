"""Port of clients/src/main/java/org/apache/kafka/common/config/ConfigDef.java (Kafka 2.8).

A schema of named configuration keys: each key has a type, an optional default, an optional
validator and an importance. `ConfigDef.parse` turns a map of raw values (usually the strings read
from a properties file) into typed values, filling in defaults, and fails with a ConfigException
in Kafka's wording when a value is missing, malformed or rejected by its validator.

Typed values in Python: BOOLEAN -> bool, STRING -> str, INT/SHORT/LONG -> int (range-checked as
Java's int/short/long), DOUBLE -> float, LIST -> list[str], PASSWORD -> Password, CLASS -> see below.

# PORT: Java's CLASS type loads a JVM class. Here a CLASS value is either a Python class object,
kept as given, or a class name, kept as the (trimmed) string; the component that instantiates it
resolves the name. Kafka's Java class names in a properties file therefore still parse.

# PORT: the HTML/RST documentation generators, recommenders and the `validate`/`ConfigValue`
machinery used by Kafka Connect are left out; the broker only parses.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from enum import Enum
from typing import Any, Final, Protocol

from kafka.common.config.config_exception import ConfigException, java_str
from kafka.common.config.password import Password

__all__ = [
    "NO_DEFAULT_VALUE",
    "CaseInsensitiveValidString",
    "CompositeValidator",
    "ConfigDef",
    "ConfigKey",
    "Importance",
    "LambdaValidator",
    "NonEmptyString",
    "NonEmptyStringWithoutControlChars",
    "NonNullValidator",
    "Range",
    "Type",
    "ValidList",
    "ValidString",
    "Validator",
    "Width",
]


class _NoDefault:
    """Marker for a key that must be supplied."""

    _instance: _NoDefault | None = None

    def __new__(cls) -> _NoDefault:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "NO_DEFAULT_VALUE"


#: Default of a required key: parsing fails when such a key is absent.
NO_DEFAULT_VALUE: Final = _NoDefault()

_INT_MIN: Final = -(2**31)
_INT_MAX: Final = 2**31 - 1
_SHORT_MIN: Final = -(2**15)
_SHORT_MAX: Final = 2**15 - 1
_LONG_MIN: Final = -(2**63)
_LONG_MAX: Final = 2**63 - 1

# What Java's Integer/Long/Short.parseXxx accept: an optional sign and decimal digits, nothing else
# (Python's int() would also take underscores and surrounding whitespace).
_JAVA_INTEGER: Final = re.compile(r"[+-]?[0-9]+")
# What Java's Double.parseDouble accepts, except hexadecimal floating literals.
_JAVA_DOUBLE: Final = re.compile(r"[+-]?(?:NaN|Infinity|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?[fFdD]?)")
# Java's ConfigDef splits lists on commas with any surrounding whitespace.
_COMMA_WITH_WHITESPACE: Final = re.compile(r"\s*,\s*")


class Type(Enum):
    """The type of a configuration value."""

    BOOLEAN = "BOOLEAN"
    STRING = "STRING"
    INT = "INT"
    SHORT = "SHORT"
    LONG = "LONG"
    DOUBLE = "DOUBLE"
    LIST = "LIST"
    CLASS = "CLASS"
    PASSWORD = "PASSWORD"

    def is_sensitive(self) -> bool:
        """True for values that must never be printed."""
        return self is Type.PASSWORD

    def __str__(self) -> str:
        return self.value


class Importance(Enum):
    """How much a key matters to an operator (documentation only)."""

    HIGH = "HIGH"
    MEDIUM = "MEDIUM"
    LOW = "LOW"

    def __str__(self) -> str:
        return self.value


class Width(Enum):
    """Display width of a key in generated forms (kept for API parity)."""

    NONE = "NONE"
    SHORT = "SHORT"
    MEDIUM = "MEDIUM"
    LONG = "LONG"


class Validator(Protocol):
    """Checks one parsed value; raises ConfigException when it is not acceptable."""

    def ensure_valid(self, name: str, value: Any) -> None: ...


def _number_str(n: int | float) -> str:
    return java_str(n)


class Range:
    """Numeric bounds, inclusive; either bound may be open."""

    __slots__ = ("max", "min")

    def __init__(self, min_: int | float | None, max_: int | float | None) -> None:
        self.min = min_
        self.max = max_

    @staticmethod
    def at_least(min_: int | float) -> Range:
        """Values >= `min_`."""
        return Range(min_, None)

    @staticmethod
    def between(min_: int | float, max_: int | float) -> Range:
        """Values in [`min_`, `max_`]."""
        return Range(min_, max_)

    def ensure_valid(self, name: str, value: Any) -> None:
        if value is None:
            raise ConfigException(name, None, "Value must be non-null")
        # Java compares the double values of both sides.
        n = float(value)
        if self.min is not None and n < float(self.min):
            raise ConfigException(name, value, f"Value must be at least {_number_str(self.min)}")
        if self.max is not None and n > float(self.max):
            raise ConfigException(name, value, f"Value must be no more than {_number_str(self.max)}")

    def __str__(self) -> str:
        lo, hi = self.min, self.max
        if lo is None:
            return "[...]" if hi is None else f"[...,{_number_str(hi)}]"
        if hi is None:
            return f"[{_number_str(lo)},...]"
        return f"[{_number_str(lo)},...,{_number_str(hi)}]"


class ValidString:
    """One of a fixed set of strings, compared exactly."""

    __slots__ = ("valid_strings",)

    def __init__(self, valid_strings: Iterable[str]) -> None:
        self.valid_strings = list(valid_strings)

    @staticmethod
    def in_(*valid_strings: str) -> ValidString:
        """Accept exactly the given strings (Java's `ValidString.in`)."""
        return ValidString(valid_strings)

    def ensure_valid(self, name: str, value: Any) -> None:
        if value not in self.valid_strings:
            raise ConfigException(name, value, "String must be one of: " + ", ".join(self.valid_strings))

    def __str__(self) -> str:
        return "[" + ", ".join(self.valid_strings) + "]"


class ValidList:
    """A list whose every element is one of a fixed set of strings."""

    __slots__ = ("valid_string",)

    def __init__(self, valid_strings: Iterable[str]) -> None:
        self.valid_string = ValidString(valid_strings)

    @staticmethod
    def in_(*valid_strings: str) -> ValidList:
        """Accept lists drawn from the given strings (Java's `ValidList.in`)."""
        return ValidList(valid_strings)

    def ensure_valid(self, name: str, value: Any) -> None:
        for element in value:
            self.valid_string.ensure_valid(name, element)

    def __str__(self) -> str:
        return str(self.valid_string)


class CaseInsensitiveValidString:
    """One of a fixed set of strings, ignoring case."""

    __slots__ = ("valid_strings",)

    def __init__(self, valid_strings: Iterable[str]) -> None:
        # Java keeps them upper-cased in a HashSet; a dict keeps them upper-cased and in order.
        self.valid_strings = list(dict.fromkeys(s.upper() for s in valid_strings))

    @staticmethod
    def in_(*valid_strings: str) -> CaseInsensitiveValidString:
        """Accept the given strings in any case."""
        return CaseInsensitiveValidString(valid_strings)

    def ensure_valid(self, name: str, value: Any) -> None:
        if not isinstance(value, str) or value.upper() not in self.valid_strings:
            raise ConfigException(
                name, value, "String must be one of (case insensitive): " + ", ".join(self.valid_strings)
            )

    def __str__(self) -> str:
        return "(case insensitive) [" + ", ".join(self.valid_strings) + "]"


class NonNullValidator:
    """Rejects a null (None) value."""

    def ensure_valid(self, name: str, value: Any) -> None:
        if value is None:
            raise ConfigException(name, "null", "entry must be non null")

    def __str__(self) -> str:
        return "non-null string"


class LambdaValidator:
    """A validator made of a check function and a description."""

    __slots__ = ("_check", "_describe")

    def __init__(self, check: Callable[[str, Any], None], describe: Callable[[], str]) -> None:
        self._check = check
        self._describe = describe

    @staticmethod
    def with_(check: Callable[[str, Any], None], describe: Callable[[], str]) -> LambdaValidator:
        """Java's `LambdaValidator.with`."""
        return LambdaValidator(check, describe)

    def ensure_valid(self, name: str, value: Any) -> None:
        self._check(name, value)

    def __str__(self) -> str:
        return self._describe()


class CompositeValidator:
    """Runs several validators in order."""

    __slots__ = ("validators",)

    def __init__(self, validators: Iterable[Validator]) -> None:
        self.validators = tuple(validators)

    @staticmethod
    def of(*validators: Validator) -> CompositeValidator:
        return CompositeValidator(validators)

    def ensure_valid(self, name: str, value: Any) -> None:
        for v in self.validators:
            v.ensure_valid(name, value)

    def __str__(self) -> str:
        return ", ".join(str(v) for v in self.validators)


class NonEmptyString:
    """Rejects the empty string (None passes)."""

    def ensure_valid(self, name: str, value: Any) -> None:
        if value is not None and value == "":
            raise ConfigException(name, value, "String must be non-empty")

    def __str__(self) -> str:
        return "non-empty string"


class NonEmptyStringWithoutControlChars:
    """Rejects empty strings and strings holding ISO control characters (None passes)."""

    @staticmethod
    def non_empty_string_without_control_chars() -> NonEmptyStringWithoutControlChars:
        return NonEmptyStringWithoutControlChars()

    def ensure_valid(self, name: str, value: Any) -> None:
        if value is None:
            return
        if value == "":
            raise ConfigException(name, value, "String may not be empty")
        bad = [ord(c) for c in value if ord(c) <= 0x1F or 0x7F <= ord(c) <= 0x9F]
        if bad:
            raise ConfigException(
                name,
                value,
                "String may not contain control sequences but had the following ASCII chars: "
                + ", ".join(str(c) for c in bad),
            )

    def __str__(self) -> str:
        return "non-empty string without ISO control characters"


def _type_name(value: Any) -> str:
    return type(value).__qualname__


def _parse_java_integer(name: str, value: Any, trimmed: str, type_: Type, low: int, high: int) -> int:
    if not _JAVA_INTEGER.fullmatch(trimmed):
        raise ConfigException(name, value, f"Not a number of type {type_}")
    n = int(trimmed)
    if n < low or n > high:
        raise ConfigException(name, value, f"Not a number of type {type_}")
    return n


def _parse_java_double(name: str, value: Any, trimmed: str) -> float:
    if not _JAVA_DOUBLE.fullmatch(trimmed):
        raise ConfigException(name, value, "Not a number of type DOUBLE")
    if trimmed[-1] in "fFdD" and not trimmed.endswith("Infinity"):
        trimmed = trimmed[:-1]
    return float(trimmed.replace("Infinity", "inf"))


class ConfigKey:
    """One defined key: its name, type, parsed default, validator and documentation."""

    __slots__ = (
        "name",
        "type",
        "documentation",
        "default_value",
        "validator",
        "importance",
        "group",
        "order_in_group",
        "width",
        "display_name",
        "dependents",
        "internal_config",
    )

    def __init__(
        self,
        name: str,
        type_: Type,
        default_value: Any,
        validator: Validator | None,
        importance: Importance,
        documentation: str = "",
        group: str | None = None,
        order_in_group: int = -1,
        width: Width = Width.NONE,
        display_name: str | None = None,
        dependents: Iterable[str] = (),
        internal_config: bool = False,
    ) -> None:
        self.name = name
        self.type = type_
        # The default is parsed like any supplied value, and validated when there is one.
        self.default_value = (
            NO_DEFAULT_VALUE if default_value is NO_DEFAULT_VALUE else ConfigDef.parse_type(name, default_value, type_)
        )
        self.validator = validator
        self.importance = importance
        if validator is not None and self.has_default():
            validator.ensure_valid(name, self.default_value)
        self.documentation = documentation
        self.group = group
        self.order_in_group = order_in_group
        self.width = width
        self.display_name = display_name if display_name is not None else name
        self.dependents = list(dependents)
        self.internal_config = internal_config

    def has_default(self) -> bool:
        return self.default_value is not NO_DEFAULT_VALUE

    def __repr__(self) -> str:
        return f"ConfigKey(name={self.name}, type={self.type}, default={self.default_value!r})"


class ConfigDef:
    """An ordered set of ConfigKeys, and the parser that applies them."""

    def __init__(self, base: ConfigDef | None = None) -> None:
        self._config_keys: dict[str, ConfigKey] = dict(base._config_keys) if base is not None else {}
        self._groups: list[str] = list(base._groups) if base is not None else []

    # ---- definition ---------------------------------------------------------------------------

    def define_key(self, key: ConfigKey) -> ConfigDef:
        """Add `key`; a name may only be defined once."""
        if key.name in self._config_keys:
            raise ConfigException(f"Configuration {key.name} is defined twice.")
        if key.group is not None and key.group not in self._groups:
            self._groups.append(key.group)
        self._config_keys[key.name] = key
        return self

    def define(
        self,
        name: str,
        type_: Type,
        default_value: Any = NO_DEFAULT_VALUE,
        validator: Validator | None = None,
        importance: Importance = Importance.MEDIUM,
        documentation: str = "",
        *,
        group: str | None = None,
        order_in_group: int = -1,
        width: Width = Width.NONE,
        display_name: str | None = None,
        dependents: Iterable[str] = (),
    ) -> ConfigDef:
        """Define a key and return self, so that definitions chain as in Java.

        Leaving out `default_value` makes the key required.
        """
        return self.define_key(
            ConfigKey(
                name,
                type_,
                default_value,
                validator,
                importance,
                documentation,
                group,
                order_in_group,
                width,
                display_name,
                dependents,
            )
        )

    def define_internal(
        self,
        name: str,
        type_: Type,
        default_value: Any,
        importance: Importance,
        validator: Validator | None = None,
        documentation: str = "",
    ) -> ConfigDef:
        """Define a key left out of generated documentation."""
        return self.define_key(
            ConfigKey(name, type_, default_value, validator, importance, documentation, "", internal_config=True)
        )

    @property
    def config_keys(self) -> dict[str, ConfigKey]:
        """The defined keys by name, in definition order (the live map, as Java returns it)."""
        return self._config_keys

    def names(self) -> set[str]:
        """The defined key names."""
        return set(self._config_keys)

    def groups(self) -> list[str]:
        return self._groups

    def default_values(self) -> dict[str, Any]:
        """Every key that has a default, with that default."""
        return {k.name: k.default_value for k in self._config_keys.values() if k.has_default()}

    # ---- parsing ------------------------------------------------------------------------------

    def parse(self, props: Mapping[Any, Any]) -> dict[str, Any]:
        """Typed values for every defined key: supplied values parsed, absent ones defaulted.

        Raises ConfigException for a required key that is absent or any value that fails to parse
        or validate. Keys of `props` that are not defined are ignored.
        """
        undefined = sorted(
            {d for key in self._config_keys.values() for d in key.dependents if d not in self._config_keys}
        )
        if undefined:
            raise ConfigException(
                "Some configurations in are referred in the dependents, but not defined: " + ",".join(undefined)
            )
        return {
            key.name: self.parse_value(key, props.get(key.name), key.name in props)
            for key in self._config_keys.values()
        }

    def parse_value(self, key: ConfigKey, value: Any, is_set: bool) -> Any:
        """Parse and validate one value of `key`; `is_set` says whether it was supplied at all."""
        if is_set:
            parsed = ConfigDef.parse_type(key.name, value, key.type)
        elif key.default_value is NO_DEFAULT_VALUE:
            raise ConfigException(f'Missing required configuration "{key.name}" which has no default value.')
        else:
            parsed = key.default_value
        if key.validator is not None:
            key.validator.ensure_valid(key.name, parsed)
        return parsed

    @staticmethod
    def parse_type(name: str, value: Any, type_: Type) -> Any:
        """Convert `value` (a string or an already typed value) to `type_`, as Java's ConfigDef does."""
        if value is None:
            return None
        trimmed = value.strip() if isinstance(value, str) else ""
        is_str = isinstance(value, str)
        if type_ is Type.BOOLEAN:
            if is_str:
                lowered = trimmed.lower()
                if lowered == "true":
                    return True
                if lowered == "false":
                    return False
            elif isinstance(value, bool):
                return value
            raise ConfigException(name, value, "Expected value to be either true or false")
        if type_ is Type.PASSWORD:
            if isinstance(value, Password):
                return value
            if is_str:
                return Password(trimmed)
            raise ConfigException(name, value, f"Expected value to be a string, but it was a {_type_name(value)}")
        if type_ is Type.STRING:
            if is_str:
                return trimmed
            raise ConfigException(name, value, f"Expected value to be a string, but it was a {_type_name(value)}")
        if type_ is Type.INT:
            if is_str:
                return _parse_java_integer(name, value, trimmed, type_, _INT_MIN, _INT_MAX)
            if isinstance(value, int) and not isinstance(value, bool) and _INT_MIN <= value <= _INT_MAX:
                return value
            raise ConfigException(
                name, value, f"Expected value to be a 32-bit integer, but it was a {_type_name(value)}"
            )
        if type_ is Type.SHORT:
            if is_str:
                return _parse_java_integer(name, value, trimmed, type_, _SHORT_MIN, _SHORT_MAX)
            if isinstance(value, int) and not isinstance(value, bool) and _SHORT_MIN <= value <= _SHORT_MAX:
                return value
            raise ConfigException(
                name, value, f"Expected value to be a 16-bit integer (short), but it was a {_type_name(value)}"
            )
        if type_ is Type.LONG:
            if is_str:
                return _parse_java_integer(name, value, trimmed, type_, _LONG_MIN, _LONG_MAX)
            if isinstance(value, int) and not isinstance(value, bool) and _LONG_MIN <= value <= _LONG_MAX:
                return value
            raise ConfigException(
                name, value, f"Expected value to be a 64-bit integer (long), but it was a {_type_name(value)}"
            )
        if type_ is Type.DOUBLE:
            if is_str:
                return _parse_java_double(name, value, trimmed)
            if isinstance(value, int | float) and not isinstance(value, bool):
                return float(value)
            raise ConfigException(name, value, f"Expected value to be a double, but it was a {_type_name(value)}")
        if type_ is Type.LIST:
            if isinstance(value, list | tuple):
                return list(value)
            if is_str:
                return [] if trimmed == "" else _COMMA_WITH_WHITESPACE.split(trimmed)
            raise ConfigException(name, value, "Expected a comma separated list.")
        if type_ is Type.CLASS:
            if isinstance(value, type):
                return value
            if is_str:
                return trimmed
            raise ConfigException(name, value, "Expected a Class instance or class name.")
        raise ValueError("Unknown type.")

    @staticmethod
    def convert_to_string(parsed_value: Any, type_: Type | None) -> str | None:
        """The string form of a parsed value (lists joined by commas, classes by name)."""
        if parsed_value is None:
            return None
        if type_ is Type.LIST or (type_ is None and isinstance(parsed_value, list)):
            return ",".join(java_str(v) for v in parsed_value)
        if type_ is Type.CLASS or (type_ is None and isinstance(parsed_value, type)):
            if isinstance(parsed_value, type):
                return f"{parsed_value.__module__}.{parsed_value.__qualname__}"
            return str(parsed_value)
        return java_str(parsed_value)

    @staticmethod
    def convert_to_string_map_with_password_values(configs: Mapping[str, Any]) -> dict[str, str]:
        """Every non-null value as a string, passwords revealed."""
        result: dict[str, str] = {}
        for k, v in configs.items():
            s = v.value if isinstance(v, Password) else ConfigDef.convert_to_string(v, None)
            if s is not None:
                result[k] = s
        return result
