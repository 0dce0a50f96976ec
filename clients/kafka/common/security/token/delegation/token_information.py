"""Port of clients/src/main/java/org/apache/kafka/common/security/token/delegation/TokenInformation.java (Kafka 3.7).

What a delegation token is: its id, owner, the principal that asked for it (KIP-373), the renewers, and its issue,
maximum and current expiry timestamps. The expiry timestamp is the one field that changes (renew and expire).
"""

from __future__ import annotations

from collections.abc import Collection

from kafka.common.security.auth.kafka_principal import KafkaPrincipal

__all__ = ["TokenInformation"]


class TokenInformation:
    __slots__ = (
        "_expiry_timestamp",
        "_issue_timestamp",
        "_max_timestamp",
        "_owner",
        "_renewers",
        "_token_id",
        "_token_requester",
    )

    def __init__(
        self,
        token_id: str,
        owner: KafkaPrincipal,
        renewers: Collection[KafkaPrincipal],
        issue_timestamp: int,
        max_timestamp: int,
        expiry_timestamp: int,
        token_requester: KafkaPrincipal | None = None,
    ) -> None:
        """`token_requester` defaults to the owner (a token asked for by its own owner)."""
        self._token_id = token_id
        self._owner = owner
        self._token_requester = owner if token_requester is None else token_requester
        self._renewers = list(renewers)
        self._issue_timestamp = issue_timestamp
        self._max_timestamp = max_timestamp
        self._expiry_timestamp = expiry_timestamp

    @property
    def owner(self) -> KafkaPrincipal:
        return self._owner

    def owner_as_string(self) -> str:
        return str(self._owner)

    @property
    def token_requester(self) -> KafkaPrincipal:
        return self._token_requester

    def token_requester_as_string(self) -> str:
        return str(self._token_requester)

    @property
    def renewers(self) -> list[KafkaPrincipal]:
        return list(self._renewers)

    def renewers_as_string(self) -> list[str]:
        return [str(renewer) for renewer in self._renewers]

    @property
    def issue_timestamp(self) -> int:
        return self._issue_timestamp

    @property
    def expiry_timestamp(self) -> int:
        return self._expiry_timestamp

    def set_expiry_timestamp(self, expiry_timestamp: int) -> None:
        self._expiry_timestamp = expiry_timestamp

    @property
    def token_id(self) -> str:
        return self._token_id

    @property
    def max_timestamp(self) -> int:
        return self._max_timestamp

    def owner_or_renewer(self, principal: KafkaPrincipal) -> bool:
        """Whether `principal` owns the token, asked for it, or may renew it."""
        return principal == self._owner or principal == self._token_requester or principal in self._renewers

    def __repr__(self) -> str:
        return (
            f"TokenInformation{{owner={self._owner}, tokenRequester={self._token_requester}, "
            f"renewers=[{', '.join(self.renewers_as_string())}], issueTimestamp={self._issue_timestamp}, "
            f"maxTimestamp={self._max_timestamp}, expiryTimestamp={self._expiry_timestamp}, "
            f"tokenId='{self._token_id}'}}"
        )

    def __eq__(self, other: object) -> bool:
        # The expiry timestamp does not take part, as in Java's equals.
        if not isinstance(other, TokenInformation):
            return NotImplemented
        return (
            self._issue_timestamp == other._issue_timestamp
            and self._max_timestamp == other._max_timestamp
            and self._owner == other._owner
            and self._token_requester == other._token_requester
            and self._renewers == other._renewers
            and self._token_id == other._token_id
        )

    def __hash__(self) -> int:
        return hash((self._owner, self._token_requester, self._issue_timestamp, self._max_timestamp, self._token_id))
