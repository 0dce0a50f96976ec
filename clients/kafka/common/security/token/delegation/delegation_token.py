"""Port of clients/src/main/java/org/apache/kafka/common/security/token/delegation/DelegationToken.java (Kafka 3.7).

A token's information with its HMAC, the password a client authenticates with (base64 in SCRAM).
"""

from __future__ import annotations

import base64
import hmac as hmac_module

from kafka.common.security.token.delegation.token_information import TokenInformation

__all__ = ["DelegationToken"]


class DelegationToken:
    __slots__ = ("_hmac", "_token_information")

    def __init__(self, token_information: TokenInformation, hmac: bytes) -> None:
        self._token_information = token_information
        self._hmac = bytes(hmac)

    def token_info(self) -> TokenInformation:
        return self._token_information

    def hmac(self) -> bytes:
        return self._hmac

    def hmac_as_base64_string(self) -> str:
        return base64.b64encode(self._hmac).decode("ascii")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, DelegationToken):
            return NotImplemented
        return self._token_information == other._token_information and hmac_module.compare_digest(
            self._hmac, other._hmac
        )

    def __hash__(self) -> int:
        return hash((self._token_information, self._hmac))

    def __repr__(self) -> str:
        # The HMAC is the token's password: never printed.
        return f"DelegationToken{{tokenInformation={self._token_information!r}, hmac=[*******]}}"
