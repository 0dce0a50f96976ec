"""Port of clients/src/main/java/org/apache/kafka/common/security/scram/internals/ScramCredentialUtils.java
(Kafka 3.7).

A SCRAM credential as the text ZooKeeper keeps under `/config/users/<user>`
(`salt=<base64>,stored_key=<base64>,server_key=<base64>,iterations=<n>`), and the credential cache's SCRAM entries.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Collection, Mapping
from typing import TYPE_CHECKING

from kafka.common.security.scram.internals.scram_mechanism import ScramMechanism
from kafka.common.security.scram.scram_credential import ScramCredential

if TYPE_CHECKING:
    from kafka.common.security.authenticator.credential_cache import CredentialCache

__all__ = ["create_cache", "credential_from_string", "credential_to_string"]

_SALT = "salt"
_STORED_KEY = "stored_key"
_SERVER_KEY = "server_key"
_ITERATIONS = "iterations"


def credential_to_string(credential: ScramCredential) -> str:
    return (
        f"{_SALT}={base64.b64encode(credential.salt).decode('ascii')},"
        f"{_STORED_KEY}={base64.b64encode(credential.stored_key).decode('ascii')},"
        f"{_SERVER_KEY}={base64.b64encode(credential.server_key).decode('ascii')},"
        f"{_ITERATIONS}={credential.iterations}"
    )


def credential_from_string(text: str) -> ScramCredential:
    """The credential written by credential_to_string; ValueError if `text` is not one."""
    props: dict[str, str] = {}
    for part in text.split(","):
        key, sep, value = part.partition("=")
        if not sep:
            raise ValueError("Credentials not valid: missing '=' in a SCRAM credential entry")
        props[key] = value
    if set(props) != {_SALT, _STORED_KEY, _SERVER_KEY, _ITERATIONS}:
        raise ValueError("Credentials not valid: expected salt, stored_key, server_key and iterations")
    try:
        return ScramCredential(
            base64.b64decode(props[_SALT], validate=True),
            base64.b64decode(props[_STORED_KEY], validate=True),
            base64.b64decode(props[_SERVER_KEY], validate=True),
            int(props[_ITERATIONS]),
        )
    except (binascii.Error, ValueError) as e:
        raise ValueError(f"Credentials not valid: {e}") from e


def create_cache(cache: CredentialCache, mechanisms: Collection[str]) -> None:
    """Adds an empty SCRAM credential cache for each SCRAM mechanism among `mechanisms`."""
    for mechanism in ScramMechanism.mechanism_names():
        if mechanism in mechanisms:
            cache.create_cache(mechanism, ScramCredential)


def credentials_from_config(config: Mapping[str, str]) -> dict[str, ScramCredential]:
    """The SCRAM credentials among a user's configs, by mechanism (a malformed one is a ValueError)."""
    return {m: credential_from_string(config[m]) for m in ScramMechanism.mechanism_names() if m in config}
