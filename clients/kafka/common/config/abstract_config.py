"""Port of clients/src/main/java/org/apache/kafka/common/config/AbstractConfig.java (Kafka 2.8).

The base of every typed configuration object: it keeps the originals as supplied, the values as
parsed by a ConfigDef, and which keys have been read, so that supplied keys nobody reads can be
reported (`unused`, `log_unused`).

# PORT: Java wraps the maps it hands out in a RecordingMap that marks keys used as they are read.
Python callers get plain dicts; the methods that hand out prefixed views mark the keys they
return as used straight away. Config providers (`config.providers`, `${provider:path:key}`
variables) are not resolved: the broker in this port reads plain properties files.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from kafka.common.config.config_def import ConfigDef, Type
from kafka.common.config.config_exception import ConfigException, java_str
from kafka.common.config.password import Password
from kafka.common.errors import KafkaException
from kafka.common.utils.utils import load_class

__all__ = ["AbstractConfig"]


class AbstractConfig:
    """Typed configuration parsed from `originals` by `definition`; logs its values when `do_log`.

    The logger is named after the concrete class, as Java's `LoggerFactory.getLogger(getClass())`:
    `kafka_logger_name` overrides the default `<package>.<ClassName>` computed from the module.
    """

    kafka_logger_name: str | None = None

    def __init__(self, definition: ConfigDef, originals: Mapping[Any, Any], do_log: bool = True) -> None:
        for key, value in originals.items():
            if not isinstance(key, str):
                raise ConfigException(str(key), value, "Key must be a string.")
        self._originals: dict[str, Any] = dict(originals)
        self._values: dict[str, Any] = definition.parse(self._originals)
        self._used: set[str] = set()
        updates = self.post_process_parsed_config(dict(self._values))
        if updates:
            self._values.update(updates)
            definition.parse(self._values)
        self._definition = definition
        if do_log:
            self.log_all()

    # ---- logging ------------------------------------------------------------------------------

    @property
    def config_logger(self) -> logging.Logger:
        """The logger this config reports through."""
        cls = type(self)
        name = cls.kafka_logger_name
        if name is None:
            package = cls.__module__.rsplit(".", 1)[0]
            name = f"{package}.{cls.__name__}"
        return logging.getLogger(name)

    def log_all(self) -> None:
        """Log every parsed value, sorted by key, passwords hidden (Kafka's `X values:` block)."""
        lines = [f"{type(self).__name__} values: "]
        for key in sorted(self._values):
            lines.append(f"\t{key} = {java_str(self._values[key])}")
        self.config_logger.info("\n".join(lines) + "\n")

    def log_unused(self) -> None:
        """Warn once per supplied key that no one has read."""
        for key in sorted(self.unused()):
            self.config_logger.warning("The configuration '%s' was supplied but isn't a known config.", key)

    # ---- hooks --------------------------------------------------------------------------------

    def post_process_parsed_config(self, parsed_values: dict[str, Any]) -> dict[str, Any]:
        """Values to replace after parsing; subclasses may override. Default: none."""
        return {}

    # ---- typed getters ------------------------------------------------------------------------

    def get(self, key: str) -> Any:
        """The parsed value of a defined key, marking it used."""
        if key not in self._values:
            raise ConfigException(f"Unknown configuration '{key}'")
        self._used.add(key)
        return self._values[key]

    def ignore(self, key: str) -> None:
        """Mark `key` used without reading it."""
        self._used.add(key)

    def get_short(self, key: str) -> int:
        return self.get(key)

    def get_int(self, key: str) -> int:
        return self.get(key)

    def get_long(self, key: str) -> int:
        return self.get(key)

    def get_double(self, key: str) -> float:
        return self.get(key)

    def get_list(self, key: str) -> list[str]:
        return self.get(key)

    def get_boolean(self, key: str) -> bool:
        return self.get(key)

    def get_string(self, key: str) -> str:
        return self.get(key)

    def get_password(self, key: str) -> Password | None:
        return self.get(key)

    def get_class(self, key: str) -> type | str | None:
        """A CLASS value: the Python class given, or the class name as configured."""
        return self.get(key)

    @staticmethod
    def configured_instance(klass: Any, base: type, configs: Mapping[str, Any] | None) -> Any:
        """An instance of the class named or given in a CLASS/LIST value, configured with `configs` when it has
        a `configure` method (Java's getConfiguredInstance(Object, Class, Map)): a class name is loaded, a class
        instantiated, anything else refused; None stays None.
        """
        if klass is None:
            return None
        if isinstance(klass, str):
            try:
                cls = load_class(klass)
            except ImportError as e:
                raise KafkaException(f"Class {klass} cannot be found") from e
        elif isinstance(klass, type):
            cls = klass
        else:
            raise KafkaException(f"Unexpected element of type {type(klass).__name__}, expected String or Class")
        if not issubclass(cls, base):
            raise KafkaException(
                f"{cls.__module__}.{cls.__qualname__} is not an instance of {base.__module__}.{base.__qualname__}"
            )
        instance = cls()
        if configs is not None and hasattr(instance, "configure"):
            instance.configure(configs)
        return instance

    def type_of(self, key: str) -> Type | None:
        """The defined type of `key`, or None for an unknown key."""
        k = self._definition.config_keys.get(key)
        return None if k is None else k.type

    def documentation_of(self, key: str) -> str | None:
        k = self._definition.config_keys.get(key)
        return None if k is None else k.documentation

    # ---- maps ---------------------------------------------------------------------------------

    def unused(self) -> set[str]:
        """Supplied keys that have not been read."""
        return set(self._originals) - self._used

    def originals(self, config_overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """A copy of the supplied settings, optionally with `config_overrides` laid over them."""
        copy = dict(self._originals)
        if config_overrides:
            copy.update(config_overrides)
        return copy

    def originals_strings(self) -> dict[str, str]:
        """The supplied settings; every value must be a string."""
        result: dict[str, str] = {}
        for k, v in self._originals.items():
            if not isinstance(v, str):
                raise ConfigException(k, v, "Value must be a string.")
            result[k] = v
        return result

    def originals_with_prefix(self, prefix: str, strip: bool = True) -> dict[str, Any]:
        """Supplied settings whose key starts with `prefix` (and is longer), the prefix stripped if `strip`."""
        result: dict[str, Any] = {}
        for k, v in self._originals.items():
            if k.startswith(prefix) and len(k) > len(prefix):
                result[k[len(prefix) :] if strip else k] = v
                self._used.add(k)
        return result

    def values_with_prefix_override(self, prefix: str) -> dict[str, Any]:
        """All parsed values, where a supplied `prefix + key` of a defined key replaces that key's value (and a
        `prefix + <secondary>.key` is kept as `<secondary>.key`, parsed as `key` is)."""
        result = dict(self._values)
        for k, v in self._originals.items():
            if k.startswith(prefix) and len(k) > len(prefix):
                stripped = k[len(prefix) :]
                config_key = self._definition.config_keys.get(stripped)
                if config_key is None:
                    # A secondary prefix (`<mechanism>.sasl.jaas.config`) keeps it, parsed as the key it prefixes.
                    config_key = self._definition.config_keys.get(stripped[stripped.find(".") + 1 :])
                if config_key is not None:
                    result[stripped] = self._definition.parse_value(config_key, v, True)
                    self._used.add(k)
        return result

    def values_with_prefix_all_or_nothing(self, prefix: str) -> dict[str, Any]:
        """With any `prefix` key supplied: only those keys (defaults otherwise); without: all values."""
        with_prefix = self.originals_with_prefix(prefix, True)
        if not with_prefix:
            return dict(self._values)
        result: dict[str, Any] = {}
        for key in self._definition.config_keys.values():
            result[key.name] = self._definition.parse_value(key, with_prefix.get(key.name), key.name in with_prefix)
        return result

    def values(self) -> dict[str, Any]:
        """A copy of all parsed values."""
        return dict(self._values)

    def non_internal_values(self) -> dict[str, Any]:
        """Parsed values of the keys not defined as internal."""
        keys = self._definition.config_keys
        return {k: v for k, v in self._values.items() if k not in keys or not keys[k].internal_config}

    @property
    def definition(self) -> ConfigDef:
        return self._definition

    def __eq__(self, other: object) -> bool:
        return isinstance(other, AbstractConfig) and type(other) is type(self) and other._originals == self._originals

    def __hash__(self) -> int:
        return hash(tuple(sorted((k, repr(v)) for k, v in self._originals.items())))
