"""Port of core/src/main/scala/kafka/utils/PasswordEncoder.scala (Kafka 2.8).

Encrypts the password configs a broker stores in ZooKeeper as dynamic configs (`listener.name.<l>.ssl.keystore.
password`, `ssl.key.password`, JAAS configs, ...) with a key derived from `password.encoder.secret`: PBKDF2 (by
default PBKDF2WithHmacSHA512) over a fresh 256-byte salt, then the cipher (by default AES/CBC/PKCS5Padding, or
AES/GCM/NoPadding). The stored value is Kafka's `name:value` list (keyFactoryAlgorithm, cipherAlgorithm, keyLength,
salt, iterations, encryptedPassword, passwordLength, initializationVector and, for GCM, authenticationTagLength),
so values written by a Kafka broker with the same secret decode here and the other way round.

# PORT: Java's JCE algorithms are `cryptography`'s: PBKDF2WithHmacSHA512/SHA256/SHA1 and AES in CBC (PKCS#5
# padding) or GCM mode; other algorithms are refused with a ConfigException.
"""

from __future__ import annotations

import base64
import os

from cryptography.hazmat.primitives import hashes, padding
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.pbkdf2 import PBKDF2HMAC

from kafka.common.config.config_exception import ConfigException
from kafka.common.config.password import Password
from kafka.utils.core_utils import parse_csv_map

__all__ = ["PasswordEncoder"]

KEY_FACTORY_ALGORITHM_PROP = "keyFactoryAlgorithm"
CIPHER_ALGORITHM_PROP = "cipherAlgorithm"
INITIALIZATION_VECTOR_PROP = "initializationVector"
KEY_LENGTH_PROP = "keyLength"
SALT_PROP = "salt"
ITERATIONS_PROP = "iterations"
ENCRYPTED_PASSWORD_PROP = "encryptedPassword"
PASSWORD_LENGTH_PROP = "passwordLength"
AUTHENTICATION_TAG_LENGTH_PROP = "authenticationTagLength"

_KEY_FACTORY_HASHES: dict[str, type[hashes.HashAlgorithm]] = {
    "PBKDF2WithHmacSHA512": hashes.SHA512,
    "PBKDF2WithHmacSHA256": hashes.SHA256,
    "PBKDF2WithHmacSHA1": hashes.SHA1,
}
_GCM_TAG_BITS = 128


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


class PasswordEncoder:
    def __init__(
        self,
        secret: Password,
        key_factory_algorithm: str | None,
        cipher_algorithm: str,
        key_length: int,
        iterations: int,
    ) -> None:
        self._secret = secret
        self._key_factory_algorithm = key_factory_algorithm or "PBKDF2WithHmacSHA512"
        self._cipher_algorithm = cipher_algorithm
        self._key_length = key_length
        self._iterations = iterations
        self._mode(cipher_algorithm)  # refuse an unsupported cipher at once
        self._hash(self._key_factory_algorithm)

    @staticmethod
    def _mode(cipher_algorithm: str) -> str:
        parts = cipher_algorithm.split("/")
        if len(parts) == 3 and parts[0] == "AES" and parts[1] == "CBC" and parts[2] in ("PKCS5Padding", "PKCS7Padding"):
            return "CBC"
        if len(parts) == 3 and parts[0] == "AES" and parts[1] == "GCM" and parts[2] == "NoPadding":
            return "GCM"
        raise ConfigException(f"Unsupported password encoder cipher algorithm {cipher_algorithm}")

    @staticmethod
    def _hash(key_factory_algorithm: str) -> type[hashes.HashAlgorithm]:
        algorithm = _KEY_FACTORY_HASHES.get(key_factory_algorithm)
        if algorithm is None:
            raise ConfigException(f"Unsupported password encoder key factory algorithm {key_factory_algorithm}")
        return algorithm

    def _key(self, key_factory_algorithm: str, key_length: int, salt: bytes, iterations: int) -> bytes:
        kdf = PBKDF2HMAC(
            algorithm=self._hash(key_factory_algorithm)(), length=key_length // 8, salt=salt, iterations=iterations
        )
        return kdf.derive(self._secret.value.encode("utf-8"))

    def encode(self, password: Password) -> str:
        salt = os.urandom(256)
        key = self._key(self._key_factory_algorithm, self._key_length, salt, self._iterations)
        plaintext = password.value.encode("utf-8")
        if self._mode(self._cipher_algorithm) == "GCM":
            iv = os.urandom(12)
            encrypted = AESGCM(key).encrypt(iv, plaintext, None)
            cipher_params = {INITIALIZATION_VECTOR_PROP: _b64(iv), AUTHENTICATION_TAG_LENGTH_PROP: str(_GCM_TAG_BITS)}
        else:
            iv = os.urandom(16)
            padder = padding.PKCS7(128).padder()
            padded = padder.update(plaintext) + padder.finalize()
            encryptor = Cipher(algorithms.AES(key), modes.CBC(iv)).encryptor()
            encrypted = encryptor.update(padded) + encryptor.finalize()
            cipher_params = {INITIALIZATION_VECTOR_PROP: _b64(iv)}
        encrypted_map = {
            KEY_FACTORY_ALGORITHM_PROP: self._key_factory_algorithm,
            CIPHER_ALGORITHM_PROP: self._cipher_algorithm,
            KEY_LENGTH_PROP: str(self._key_length),
            SALT_PROP: _b64(salt),
            ITERATIONS_PROP: str(self._iterations),
            ENCRYPTED_PASSWORD_PROP: _b64(encrypted),
            PASSWORD_LENGTH_PROP: str(len(password.value)),
            **cipher_params,
        }
        return ",".join(f"{k}:{v}" for k, v in encrypted_map.items())

    def decode(self, encoded_password: str) -> Password:
        try:
            params = parse_csv_map(encoded_password)
            key_factory_algorithm = params[KEY_FACTORY_ALGORITHM_PROP]
            cipher_algorithm = params[CIPHER_ALGORITHM_PROP]
            key_length = int(params[KEY_LENGTH_PROP])
            salt = base64.b64decode(params[SALT_PROP])
            iterations = int(params[ITERATIONS_PROP])
            encrypted = base64.b64decode(params[ENCRYPTED_PASSWORD_PROP])
            password_length = int(params[PASSWORD_LENGTH_PROP])
            iv = base64.b64decode(params[INITIALIZATION_VECTOR_PROP])
        except (KeyError, ValueError) as e:
            raise ConfigException("Password could not be decoded") from e
        key = self._key(key_factory_algorithm, key_length, salt, iterations)
        try:
            if self._mode(cipher_algorithm) == "GCM":
                decrypted = AESGCM(key).decrypt(iv, encrypted, None)
            else:
                decryptor = Cipher(algorithms.AES(key), modes.CBC(iv)).decryptor()
                padded = decryptor.update(encrypted) + decryptor.finalize()
                unpadder = padding.PKCS7(128).unpadder()
                decrypted = unpadder.update(padded) + unpadder.finalize()
            password = decrypted.decode("utf-8")
        except Exception as e:
            raise ConfigException("Password could not be decoded") from e
        if len(password) != password_length:  # sanity check
            raise ConfigException("Password could not be decoded, sanity check of length failed")
        return Password(password)
