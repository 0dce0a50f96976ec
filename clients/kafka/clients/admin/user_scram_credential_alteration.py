"""Port of clients/src/main/java/org/apache/kafka/clients/admin/UserScramCredentialAlteration.java,
UserScramCredentialUpsertion.java and UserScramCredentialDeletion.java (Kafka 3.7).

A change to one user's SCRAM credentials: an upsertion (mechanism, iterations, password and salt; the admin
client sends the salted password, never the password) or a deletion of one mechanism's credential.
"""

from __future__ import annotations

from kafka.clients.admin.scram_credential_info import ScramCredentialInfo
from kafka.clients.admin.scram_mechanism import ScramMechanism
from kafka.common.security.scram.internals.scram_formatter import ScramFormatter

__all__ = ["UserScramCredentialAlteration", "UserScramCredentialDeletion", "UserScramCredentialUpsertion"]


class UserScramCredentialAlteration:
    __slots__ = ("_user",)

    def __init__(self, user: str) -> None:
        self._user = user

    def user(self) -> str:
        return self._user


class UserScramCredentialUpsertion(UserScramCredentialAlteration):
    __slots__ = ("_info", "_salt", "_password")

    def __init__(
        self, user: str, credential_info: ScramCredentialInfo, password: bytes | str, salt: bytes | None = None
    ) -> None:
        super().__init__(user)
        self._info = credential_info
        self._password = password.encode("utf-8") if isinstance(password, str) else bytes(password)
        self._salt = salt if salt is not None else ScramFormatter.secure_random_string().encode("utf-8")

    def credential_info(self) -> ScramCredentialInfo:
        return self._info

    def salt(self) -> bytes:
        return self._salt

    def password(self) -> bytes:
        return self._password

    def __repr__(self) -> str:
        return f"UserScramCredentialUpsertion(user={self._user}, credentialInfo={self._info})"


class UserScramCredentialDeletion(UserScramCredentialAlteration):
    __slots__ = ("_mechanism",)

    def __init__(self, user: str, mechanism: ScramMechanism) -> None:
        super().__init__(user)
        self._mechanism = mechanism

    def mechanism(self) -> ScramMechanism:
        return self._mechanism

    def __repr__(self) -> str:
        return f"UserScramCredentialDeletion(user={self._user}, mechanism={self._mechanism.name})"
