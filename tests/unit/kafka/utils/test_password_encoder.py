"""Tests of kafka.utils.password_encoder (Kafka's PasswordEncoderTest) and of DynamicBrokerConfig storing a
listener's password configs encrypted and handing them, decrypted, to the listener's channel builder."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kafka.common.config.config_exception import ConfigException
from kafka.common.config.password import Password
from kafka.common.network.listener_name import ListenerName
from kafka.server.config_handler import DynamicBrokerConfig
from kafka.server.kafka_config import KafkaConfig
from kafka.utils.core_utils import parse_csv_map
from kafka.utils.password_encoder import PasswordEncoder


def _encoder(secret: str = "password-encoder-secret", cipher: str = "AES/CBC/PKCS5Padding") -> PasswordEncoder:
    return PasswordEncoder(Password(secret), None, cipher, 128, 2048)


def test_encode_decode() -> None:
    encoder = _encoder()
    encoded = encoder.encode(Password("test-password"))
    params = parse_csv_map(encoded)
    assert params["keyFactoryAlgorithm"] == "PBKDF2WithHmacSHA512"
    assert params["cipherAlgorithm"] == "AES/CBC/PKCS5Padding"
    assert params["keyLength"] == "128"
    assert params["iterations"] == "2048"
    assert params["passwordLength"] == "13"
    assert {"salt", "encryptedPassword", "initializationVector"} <= set(params)
    assert encoder.decode(encoded) == Password("test-password")
    assert encoded != encoder.encode(Password("test-password"))  # a new salt and IV each time


@pytest.mark.parametrize(
    ("key_factory", "cipher", "key_length"),
    [
        ("PBKDF2WithHmacSHA1", "AES/CBC/PKCS5Padding", 128),
        ("PBKDF2WithHmacSHA512", "AES/GCM/NoPadding", 256),
        ("PBKDF2WithHmacSHA256", "AES/CBC/PKCS5Padding", 192),
    ],
)
def test_algorithms(key_factory: str, cipher: str, key_length: int) -> None:
    encoder = PasswordEncoder(Password("secret"), key_factory, cipher, key_length, 1024)
    encoded = encoder.encode(Password("pässwörd"))
    assert encoder.decode(encoded).value == "pässwörd"
    if "GCM" in cipher:
        assert parse_csv_map(encoded)["authenticationTagLength"] == "128"


def test_wrong_secret_or_bad_value() -> None:
    encoded = _encoder().encode(Password("test-password"))
    with pytest.raises(ConfigException, match="Password could not be decoded"):
        _encoder(secret="another-secret").decode(encoded)
    with pytest.raises(ConfigException, match="Password could not be decoded"):
        _encoder().decode("keyFactoryAlgorithm:PBKDF2WithHmacSHA512")


def test_unsupported_algorithms() -> None:
    with pytest.raises(ConfigException, match="cipher algorithm"):
        _encoder(cipher="DES/CBC/PKCS5Padding")
    with pytest.raises(ConfigException, match="key factory algorithm"):
        PasswordEncoder(Password("s"), "PBEWithMD5AndDES", "AES/CBC/PKCS5Padding", 128, 10)


class _ListenerReconfigurable:
    """A listener's channel builder as DynamicBrokerConfig sees it."""

    def __init__(self) -> None:
        self.validated: list[dict[str, Any]] = []
        self.reconfigured: list[dict[str, Any]] = []

    def listener_name(self) -> ListenerName:
        return ListenerName("SSL")

    def reconfigurable_configs(self) -> frozenset[str]:
        return frozenset({"ssl.keystore.location", "ssl.keystore.password"})

    def validate_reconfiguration(self, configs: dict[str, Any]) -> None:
        if configs.get("ssl.keystore.location") == "/bad":
            raise ConfigException("bad keystore")
        self.validated.append(configs)

    def reconfigure(self, configs: dict[str, Any]) -> None:
        self.reconfigured.append(configs)


def test_listener_password_configs_stored_encrypted_and_reconfigured(tmp_path: Path) -> None:
    config = KafkaConfig(
        {
            "zookeeper.connect": "localhost:2181",
            "broker.id": "0",
            "log.dirs": str(tmp_path),
            "listeners": "PLAINTEXT://127.0.0.1:0,SSL://127.0.0.1:0",
            "listener.security.protocol.map": "PLAINTEXT:PLAINTEXT,SSL:SSL",
            "password.encoder.secret": "encoder-secret",
        },
        False,
    )
    dynamic = DynamicBrokerConfig(config)
    listener = _ListenerReconfigurable()
    dynamic.add_reconfigurable(listener)
    update = {
        "listener.name.ssl.ssl.keystore.location": "/new",
        "listener.name.ssl.ssl.keystore.password": "keystore-secret-1",
    }
    dynamic.validate(update, True)
    persistent = dynamic.to_persistent_props(update, True)
    assert persistent["listener.name.ssl.ssl.keystore.location"] == "/new"
    assert "keystore-secret-1" not in persistent["listener.name.ssl.ssl.keystore.password"]
    assert "encryptedPassword:" in persistent["listener.name.ssl.ssl.keystore.password"]
    # What the broker reads back from ZooKeeper reaches the listener's builder, decrypted.
    dynamic.update_broker_config(0, persistent)
    assert listener.reconfigured, "the listener was not reconfigured"
    applied = listener.reconfigured[-1]
    assert applied["ssl.keystore.location"] == "/new"
    assert applied["ssl.keystore.password"] == Password("keystore-secret-1")
    # A keystore the builder refuses fails validation with Kafka's message.
    with pytest.raises(ConfigException, match="Invalid dynamic configuration"):
        dynamic.validate({"listener.name.ssl.ssl.keystore.location": "/bad"}, True)
    dynamic.remove_reconfigurable(listener)
