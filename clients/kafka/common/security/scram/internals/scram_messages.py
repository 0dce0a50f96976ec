"""Port of clients/src/main/java/org/apache/kafka/common/security/scram/internals/ScramMessages.java (Kafka 3.7).

The four SCRAM messages of RFC 5802 as Kafka reads and writes them: client-first (GS2 header, SASL name, nonce,
extensions), server-first (nonce, salt, iterations), client-final (channel binding, nonce, proof) and server-final
(server signature or error). A message that does not match the grammar is a SaslException.
"""

from __future__ import annotations

import base64
import binascii
import re

from kafka.common.security.sasl import SaslException

__all__ = ["ClientFinalMessage", "ClientFirstMessage", "ServerFinalMessage", "ServerFirstMessage"]

_ALPHA = "[A-Za-z]+"
_VALUE_SAFE = r"[\x01-\x2b\x2d-\x3c\x3e-\x7f]+"
_VALUE = r"[\x01-\x2b\x2d-\x7f]+"
_PRINTABLE = r"[\x21-\x2b\x2d-\x7e]+"
_SASLNAME = r"(?:[\x01-\x2b\x2d-\x3c\x3e-\x7f]|=2C|=3D)+"
_BASE64_CHAR = "[a-zA-Z0-9/+]"
_BASE64 = f"(?:{_BASE64_CHAR}{{4}})*(?:{_BASE64_CHAR}{{3}}=|{_BASE64_CHAR}{{2}}==)?"
_RESERVED = f"(?:m={_VALUE},)?"
_EXTENSIONS = f"(?:,{_ALPHA}={_VALUE})*"


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _unb64(text: str) -> bytes:
    try:
        return base64.b64decode(text, validate=True)
    except binascii.Error as e:
        raise SaslException(f"Invalid base64 value: {e}") from e


def _to_message(data: bytes, kind: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise SaslException(f"Invalid SCRAM {kind} message format: not UTF-8") from e


def _parse_extensions(text: str) -> dict[str, str]:
    """`,k=v,k=v` (as the message carries them) as a dict."""
    extensions: dict[str, str] = {}
    for part in text.split(",")[1:]:
        key, _, value = part.partition("=")
        extensions[key] = value
    return extensions


def _extensions_message(extensions: dict[str, str]) -> str:
    return "".join(f",{k}={v}" for k, v in extensions.items())


class ClientFirstMessage:
    _PATTERN = re.compile(
        f"n,(?:a=(?P<authzid>{_SASLNAME}))?,{_RESERVED}n=(?P<saslname>{_SASLNAME}),r=(?P<nonce>{_PRINTABLE})"
        f"(?P<extensions>{_EXTENSIONS})"
    )

    __slots__ = ("sasl_name", "nonce", "authorization_id", "extensions")

    def __init__(
        self, sasl_name: str, nonce: str, extensions: dict[str, str] | None = None, authorization_id: str = ""
    ) -> None:
        self.sasl_name = sasl_name
        self.nonce = nonce
        self.authorization_id = authorization_id
        self.extensions = dict(extensions or {})

    @classmethod
    def parse(cls, message_bytes: bytes) -> ClientFirstMessage:
        message = _to_message(message_bytes, "client first")
        m = cls._PATTERN.fullmatch(message)
        if m is None:
            raise SaslException("Invalid SCRAM client first message format: " + message)
        return cls(m["saslname"], m["nonce"], _parse_extensions(m["extensions"]), m["authzid"] or "")

    def gs2_header(self) -> str:
        return "n," + (f"a={self.authorization_id}" if self.authorization_id else "") + ","

    def client_first_message_bare(self) -> str:
        return f"n={self.sasl_name},r={self.nonce}" + _extensions_message(self.extensions)

    def to_bytes(self) -> bytes:
        return (self.gs2_header() + self.client_first_message_bare()).encode("utf-8")


class ServerFirstMessage:
    _PATTERN = re.compile(
        f"{_RESERVED}r=(?P<nonce>{_PRINTABLE}),s=(?P<salt>{_BASE64}),i=(?P<iterations>[0-9]+){_EXTENSIONS}"
    )

    __slots__ = ("nonce", "salt", "iterations")

    def __init__(self, nonce: str, salt: bytes, iterations: int) -> None:
        self.nonce = nonce
        self.salt = salt
        self.iterations = iterations

    @classmethod
    def of(cls, client_nonce: str, server_nonce: str, salt: bytes, iterations: int) -> ServerFirstMessage:
        return cls(client_nonce + server_nonce, salt, iterations)

    @classmethod
    def parse(cls, message_bytes: bytes) -> ServerFirstMessage:
        message = _to_message(message_bytes, "server first")
        m = cls._PATTERN.fullmatch(message)
        if m is None:
            raise SaslException("Invalid SCRAM server first message format: " + message)
        iterations = int(m["iterations"])
        if iterations <= 0:
            raise SaslException(f"Invalid SCRAM server first message format: invalid iterations {iterations}")
        return cls(m["nonce"], _unb64(m["salt"]), iterations)

    def to_message(self) -> str:
        return f"r={self.nonce},s={_b64(self.salt)},i={self.iterations}"

    def to_bytes(self) -> bytes:
        return self.to_message().encode("utf-8")


class ClientFinalMessage:
    _PATTERN = re.compile(
        f"c=(?P<channel>{_BASE64}),r=(?P<nonce>{_PRINTABLE})(?P<extensions>{_EXTENSIONS}),p=(?P<proof>{_BASE64})"
    )

    __slots__ = ("channel_binding", "nonce", "proof", "extensions")

    def __init__(
        self, channel_binding: bytes, nonce: str, proof: bytes = b"", extensions: dict[str, str] | None = None
    ) -> None:
        self.channel_binding = channel_binding
        self.nonce = nonce
        self.proof = proof
        self.extensions = dict(extensions or {})

    @classmethod
    def parse(cls, message_bytes: bytes) -> ClientFinalMessage:
        message = _to_message(message_bytes, "client final")
        m = cls._PATTERN.fullmatch(message)
        if m is None:
            raise SaslException("Invalid SCRAM client final message format: " + message)
        return cls(_unb64(m["channel"]), m["nonce"], _unb64(m["proof"]), _parse_extensions(m["extensions"]))

    def client_final_message_without_proof(self) -> str:
        return f"c={_b64(self.channel_binding)},r={self.nonce}" + _extensions_message(self.extensions)

    def to_bytes(self) -> bytes:
        return (self.client_final_message_without_proof() + ",p=" + _b64(self.proof)).encode("utf-8")


class ServerFinalMessage:
    _PATTERN = re.compile(f"{_RESERVED}(?:e=(?P<error>{_VALUE_SAFE})|v=(?P<signature>{_BASE64})){_EXTENSIONS}")

    __slots__ = ("error", "server_signature")

    def __init__(self, error: str | None, server_signature: bytes | None) -> None:
        self.error = error
        self.server_signature = server_signature

    @classmethod
    def parse(cls, message_bytes: bytes) -> ServerFinalMessage:
        message = _to_message(message_bytes, "server final")
        m = cls._PATTERN.fullmatch(message)
        if m is None:
            raise SaslException("Invalid SCRAM server final message format: " + message)
        signature = m["signature"]
        return cls(m["error"], _unb64(signature) if signature is not None else None)

    def to_bytes(self) -> bytes:
        if self.error is not None:
            return ("e=" + self.error).encode("utf-8")
        return ("v=" + _b64(self.server_signature or b"")).encode("utf-8")
