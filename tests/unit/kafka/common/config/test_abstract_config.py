"""Tests of kafka.common.config.abstract_config, after Kafka's AbstractConfigTest."""

from __future__ import annotations

import logging
import re
from typing import Any

import pytest

from kafka.common.config.abstract_config import AbstractConfig
from kafka.common.config.config_def import ConfigDef, Importance, Range, Type
from kafka.common.config.config_exception import ConfigException
from kafka.common.config.config_resource import ConfigResource
from kafka.common.config.password import Password
from kafka.common.config.topic_config import TopicConfig
from kafka.common.errors import KafkaException

_DEF = (
    ConfigDef()
    .define("a.int", Type.INT, 1, Range.at_least(0), Importance.HIGH)
    .define("a.long", Type.LONG, 2, None, Importance.HIGH)
    .define("a.string", Type.STRING, "s", None, Importance.HIGH)
    .define("a.list", Type.LIST, "x,y", None, Importance.HIGH)
    .define("a.bool", Type.BOOLEAN, False, None, Importance.HIGH)
    .define("a.double", Type.DOUBLE, 0.5, None, Importance.HIGH)
    .define("a.password", Type.PASSWORD, None, None, Importance.HIGH)
    .define("a.short", Type.SHORT, 3, None, Importance.HIGH)
)


class _TestConfig(AbstractConfig):
    kafka_logger_name = "test.TestConfig"

    def __init__(self, props: dict[str, Any], do_log: bool = False) -> None:
        super().__init__(_DEF, props, do_log)


def test_typed_getters_return_parsed_values() -> None:
    """Each typed getter returns the parsed value of its key."""
    c = _TestConfig(
        {
            "a.int": "7",
            "a.long": "8",
            "a.string": " t ",
            "a.list": "p, q",
            "a.bool": "TRUE",
            "a.double": "1.25",
            "a.password": "pw",
            "a.short": "4",
        }
    )
    assert c.get_int("a.int") == 7
    assert c.get_long("a.long") == 8
    assert c.get_string("a.string") == "t"
    assert c.get_list("a.list") == ["p", "q"]
    assert c.get_boolean("a.bool") is True
    assert c.get_double("a.double") == 1.25
    assert c.get_password("a.password") == Password("pw")
    assert c.get_short("a.short") == 4
    assert c.type_of("a.int") is Type.INT
    assert c.type_of("nope") is None


def test_unknown_key_get_fails() -> None:
    """Reading a key the definition does not have is an error."""
    c = _TestConfig({})
    with pytest.raises(ConfigException, match=re.escape("Unknown configuration 'nope'")):
        c.get("nope")


def test_unused_lists_supplied_keys_not_read() -> None:
    """unused() holds supplied keys until they are read, and unknown keys forever."""
    c = _TestConfig({"a.int": "3", "mystery": "1"})
    assert c.unused() == {"a.int", "mystery"}
    c.get_int("a.int")
    assert c.unused() == {"mystery"}
    c.ignore("mystery")
    assert c.unused() == set()


def test_log_unused_warns_with_kafkas_wording(caplog: pytest.LogCaptureFixture) -> None:
    """log_unused() warns once per unread key, in Kafka's words, on the config's logger."""
    c = _TestConfig({"mystery": "1"})
    with caplog.at_level(logging.WARNING, logger="test.TestConfig"):
        c.log_unused()
    assert [(r.name, r.getMessage()) for r in caplog.records] == [
        ("test.TestConfig", "The configuration 'mystery' was supplied but isn't a known config.")
    ]


def test_log_all_prints_sorted_values_with_passwords_hidden(caplog: pytest.LogCaptureFixture) -> None:
    """Constructing with do_log logs every value sorted by key, passwords as [hidden], Java style."""
    with caplog.at_level(logging.INFO, logger="test.TestConfig"):
        _TestConfig({"a.password": "secret"}, do_log=True)
    text = caplog.records[0].getMessage()
    assert text.startswith("_TestConfig values: \n")
    assert "\ta.bool = false\n" in text
    assert "\ta.list = [x, y]\n" in text
    assert "\ta.password = [hidden]\n" in text
    assert "secret" not in text
    assert text.index("a.bool") < text.index("a.double") < text.index("a.int")


def test_non_string_key_is_rejected() -> None:
    """Keys must be strings, as in Java."""
    with pytest.raises(ConfigException, match=re.escape("Key must be a string.")):
        _TestConfig({5: "x"})  # type: ignore[dict-item]


def test_originals_with_prefix_and_values_with_prefix_override() -> None:
    """Prefixed originals are found (stripped or not), and prefixed keys override values after parsing."""
    c = _TestConfig({"a.int": "1", "listener.name.x.a.int": "9", "listener.name.x.other": "o"})
    assert c.originals_with_prefix("listener.name.x.") == {"a.int": "9", "other": "o"}
    assert c.originals_with_prefix("listener.name.x.", strip=False) == {
        "listener.name.x.a.int": "9",
        "listener.name.x.other": "o",
    }
    overridden = c.values_with_prefix_override("listener.name.x.")
    assert overridden["a.int"] == 9
    assert overridden["a.long"] == 2
    assert "other" not in overridden
    assert c.values()["a.int"] == 1
    with pytest.raises(ConfigException):
        _TestConfig({"p.a.int": "-5"}).values_with_prefix_override("p.")


def test_values_with_prefix_all_or_nothing() -> None:
    """With prefixed keys, only they are used (defaults elsewhere); without, all values are returned."""
    c = _TestConfig({"a.long": "50", "p.a.int": "4"})
    assert c.values_with_prefix_all_or_nothing("p.")["a.long"] == 2
    assert c.values_with_prefix_all_or_nothing("p.")["a.int"] == 4
    assert c.values_with_prefix_all_or_nothing("q.")["a.long"] == 50


def test_originals_is_a_copy_with_overrides() -> None:
    """originals() copies the supplied map and can lay overrides over it."""
    c = _TestConfig({"a.int": "1"})
    o = c.originals()
    o["a.int"] = "2"
    assert c.originals() == {"a.int": "1"}
    assert c.originals({"b": "x"}) == {"a.int": "1", "b": "x"}
    assert c.originals_strings() == {"a.int": "1"}


def test_equality_follows_originals() -> None:
    """Two configs of the same class are equal when their originals are."""
    assert _TestConfig({"a.int": "1"}) == _TestConfig({"a.int": "1"})
    assert _TestConfig({"a.int": "1"}) != _TestConfig({"a.int": "2"})


def test_topic_config_names_are_kafkas() -> None:
    """TopicConfig's constants are Kafka's topic config keys."""
    assert TopicConfig.SEGMENT_BYTES_CONFIG == "segment.bytes"
    assert TopicConfig.MESSAGE_DOWNCONVERSION_ENABLE_CONFIG == "message.downconversion.enable"
    assert TopicConfig.FLUSH_MESSAGES_INTERVAL_CONFIG == "flush.messages"
    assert TopicConfig.CLEANUP_POLICY_COMPACT == "compact"


def test_config_resource_types_have_kafkas_ids() -> None:
    """ConfigResource types carry Kafka's wire ids and unknown ids map to UNKNOWN."""
    t = ConfigResource.Type
    assert (t.TOPIC.id, t.BROKER.id, t.BROKER_LOGGER.id, t.UNKNOWN.id) == (2, 4, 8, 0)
    assert t.for_id(4) is t.BROKER
    assert t.for_id(3) is t.UNKNOWN
    r = ConfigResource(t.BROKER, "")
    assert r.is_default()
    assert str(ConfigResource(t.TOPIC, "x")) == "ConfigResource(type=TOPIC, name='x')"


class _Base:
    pass


class _Configurable(_Base):
    def __init__(self) -> None:
        self.configs: dict[str, Any] | None = None

    def configure(self, configs: dict[str, Any]) -> None:
        self.configs = configs


def test_configured_instance_loads_a_class_name_and_configures_it() -> None:
    """A class name is loaded and instantiated; an instance with `configure` gets the configs."""
    name = f"{__name__}._Configurable"
    instance = AbstractConfig.configured_instance(name, _Base, {"k": "v"})
    assert isinstance(instance, _Configurable)
    assert instance.configs == {"k": "v"}


def test_configured_instance_takes_a_class_and_skips_configure_without_configs() -> None:
    """A class is instantiated as given; None configs leave it unconfigured; None stays None."""
    instance = AbstractConfig.configured_instance(_Configurable, _Base, None)
    assert isinstance(instance, _Configurable) and instance.configs is None
    assert AbstractConfig.configured_instance(None, _Base, {}) is None


def test_configured_instance_refuses_unknown_names_wrong_types_and_other_values() -> None:
    """An unknown class name, a class of the wrong type and a value that is neither fail with KafkaException."""
    with pytest.raises(KafkaException, match="cannot be found"):
        AbstractConfig.configured_instance(f"{__name__}.NoSuchClass", _Base, None)
    with pytest.raises(KafkaException, match="is not an instance of"):
        AbstractConfig.configured_instance(Password, _Base, None)
    with pytest.raises(KafkaException, match="Unexpected element of type int, expected String or Class"):
        AbstractConfig.configured_instance(5, _Base, None)
