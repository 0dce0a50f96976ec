"""Port of clients/src/main/java/org/apache/kafka/common/security/scram/internals/ScramFormatter.java (Kafka 3.7).

The SCRAM computations of RFC 5802 for one mechanism: Hi (PBKDF2), the client and server keys, the stored key,
signatures and proofs over the auth message, the SASL name escaping of user names, nonces and new credentials.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from kafka.common.security.scram.internals.scram_mechanism import ScramMechanism
from kafka.common.security.scram.internals.scram_messages import (
    ClientFinalMessage,
    ClientFirstMessage,
    ServerFirstMessage,
)
from kafka.common.security.scram.scram_credential import ScramCredential

__all__ = ["ScramFormatter"]

_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


class ScramFormatter:
    __slots__ = ("_mechanism",)

    def __init__(self, mechanism: ScramMechanism) -> None:
        self._mechanism = mechanism

    def hmac(self, key: bytes, data: bytes) -> bytes:
        return hmac.new(key, data, self._mechanism.hashlib_name).digest()

    def hash(self, data: bytes) -> bytes:
        return hashlib.new(self._mechanism.hashlib_name, data).digest()

    @staticmethod
    def xor(first: bytes, second: bytes) -> bytes:
        if len(first) != len(second):
            raise ValueError("Argument arrays must be of the same length")
        return bytes(a ^ b for a, b in zip(first, second, strict=True))

    def hi(self, str_: bytes, salt: bytes, iterations: int) -> bytes:
        return hashlib.pbkdf2_hmac(self._mechanism.hashlib_name, str_, salt, iterations)

    @staticmethod
    def normalize(str_: str) -> bytes:
        return str_.encode("utf-8")

    def salted_password(self, password: str, salt: bytes, iterations: int) -> bytes:
        return self.hi(self.normalize(password), salt, iterations)

    def client_key(self, salted_password: bytes) -> bytes:
        return self.hmac(salted_password, b"Client Key")

    def stored_key(self, client_key: bytes) -> bytes:
        return self.hash(client_key)

    @staticmethod
    def sasl_name(username: str) -> str:
        """The user name as it goes in a SCRAM message: `=` and `,` escaped."""
        return username.replace("=", "=3D").replace(",", "=2C")

    @staticmethod
    def username(sasl_name: str) -> str:
        """The user name a SASL name stands for; ValueError for a `=` that starts no valid escape."""
        username = sasl_name.replace("=2C", ",")
        if "=" in username.replace("=3D", ""):
            raise ValueError("Invalid username: " + sasl_name)
        return username.replace("=3D", "=")

    @staticmethod
    def auth_message(
        client_first: ClientFirstMessage, server_first: ServerFirstMessage, client_final: ClientFinalMessage
    ) -> bytes:
        return (
            client_first.client_first_message_bare()
            + ","
            + server_first.to_message()
            + ","
            + client_final.client_final_message_without_proof()
        ).encode("utf-8")

    def client_signature(
        self,
        stored_key: bytes,
        client_first: ClientFirstMessage,
        server_first: ServerFirstMessage,
        client_final: ClientFinalMessage,
    ) -> bytes:
        return self.hmac(stored_key, self.auth_message(client_first, server_first, client_final))

    def client_proof(
        self,
        salted_password: bytes,
        client_first: ClientFirstMessage,
        server_first: ServerFirstMessage,
        client_final: ClientFinalMessage,
    ) -> bytes:
        client_key = self.client_key(salted_password)
        signature = self.client_signature(self.stored_key(client_key), client_first, server_first, client_final)
        return self.xor(client_key, signature)

    def stored_key_from_proof(self, client_signature: bytes, client_proof: bytes) -> bytes:
        """Java's storedKey(clientSignature, clientProof): the stored key the proof implies."""
        return self.hash(self.xor(client_signature, client_proof))

    def server_key(self, salted_password: bytes) -> bytes:
        return self.hmac(salted_password, b"Server Key")

    def server_signature(
        self,
        server_key: bytes,
        client_first: ClientFirstMessage,
        server_first: ServerFirstMessage,
        client_final: ClientFinalMessage,
    ) -> bytes:
        return self.hmac(server_key, self.auth_message(client_first, server_first, client_final))

    @staticmethod
    def secure_random_string() -> str:
        """130 random bits written in base 36, as Java's BigInteger(130, random).toString(36)."""
        n = secrets.randbits(130)
        if n == 0:
            return "0"
        digits = []
        while n:
            n, r = divmod(n, 36)
            digits.append(_DIGITS[r])
        return "".join(reversed(digits))

    def secure_random_bytes(self) -> bytes:
        return self.secure_random_string().encode("utf-8")

    def generate_credential(self, password: str, iterations: int, salt: bytes | None = None) -> ScramCredential:
        """A new credential for `password` (a random salt unless `salt` is given)."""
        if salt is None:
            salt = self.secure_random_bytes()
        salted_password = self.salted_password(password, salt, iterations)
        return ScramCredential(
            salt, self.stored_key(self.client_key(salted_password)), self.server_key(salted_password), iterations
        )

    def generate_credential_from_salted_password(
        self, salt: bytes, salted_password: bytes, iterations: int
    ) -> ScramCredential:
        """The credential for a password an admin client already salted (AlterUserScramCredentials)."""
        return ScramCredential(
            salt, self.stored_key(self.client_key(salted_password)), self.server_key(salted_password), iterations
        )
