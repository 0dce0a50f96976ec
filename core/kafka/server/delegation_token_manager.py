"""Port of core/src/main/scala/kafka/server/DelegationTokenManager.scala (Kafka 2.8, with 3.7's token requester).

Creates, renews, expires and describes delegation tokens. A token's id is a random UUID; its HMAC (HMAC-SHA512 of
the id under `delegation.token.secret.key`) is the password its holder authenticates with, over SCRAM with the
`tokenauth=true` extension. Tokens live in ZooKeeper under /delegation_token/tokens/<id>; each change also writes
/delegation_token/token_changes/token_change_<seq> naming the token, so that every broker's DelegationTokenCache
(and the SCRAM credentials made from each HMAC) follows. The controller removes expired tokens
(`delete-expired-tokens`, every `delegation.token.expiry.check.interval.ms`).

Without a secret key every request is answered DELEGATION_TOKEN_AUTH_DISABLED and nothing is kept in ZooKeeper.

# PORT: 3.7's KIP-373 fields (a token asked for by one principal for another owner; the znode JSON version 3 with
# `tokenRequester`) are kept, because the broker serves CreateDelegationToken and DescribeDelegationToken v3. Tokens
# written by a 2.8 broker (version 1, no requester) are read with the owner as requester, as 3.7 reads them.
"""

from __future__ import annotations

import base64
import hashlib
import hmac as hmac_module
import json
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from kafka.common.protocol.errors import Errors
from kafka.common.security.auth.kafka_principal import KafkaPrincipal
from kafka.common.security.scram.internals.scram_formatter import ScramFormatter
from kafka.common.security.scram.internals.scram_mechanism import ScramMechanism
from kafka.common.security.scram.scram_credential import ScramCredential
from kafka.common.security.token.delegation import DelegationToken, TokenInformation
from kafka.common.security.token.delegation.internals.delegation_token_cache import DelegationTokenCache
from kafka.common.utils import sanitizer
from kafka.common.utils.security_utils import parse_kafka_principal
from kafka.common.utils.time import Time
from kafka.utils.core_utils import generate_uuid_as_base64
from kafka.utils.logging import Logging
from kafka.zk.zk_data import (
    DelegationTokenChangeNotificationSequenceZNode,
    DelegationTokenChangeNotificationZNode,
    DelegationTokensZNode,
)
from kafka.zk.zk_node_change_notification_listener import NotificationHandler, ZkNodeChangeNotificationListener

if TYPE_CHECKING:
    from kafka.server.kafka_config import KafkaConfig
    from kafka.zk.kafka_zk_client import KafkaZkClient

__all__ = ["CreateTokenResult", "DelegationTokenManager"]


@dataclass(frozen=True, slots=True)
class CreateTokenResult:
    owner: KafkaPrincipal
    token_requester: KafkaPrincipal
    issue_timestamp: int
    expiry_timestamp: int
    max_timestamp: int
    token_id: str
    hmac: bytes
    error: Errors


class DelegationTokenManager(Logging):
    logger_name = "kafka.server.DelegationTokenManager"

    DEFAULT_HMAC_ALGORITHM: ClassVar[str] = "HmacSHA512"
    OWNER_KEY: ClassVar[str] = "owner"
    TOKEN_REQUESTER_KEY: ClassVar[str] = "tokenRequester"
    RENEWERS_KEY: ClassVar[str] = "renewers"
    ISSUE_TIMESTAMP_KEY: ClassVar[str] = "issueTimestamp"
    MAX_TIMESTAMP_KEY: ClassVar[str] = "maxTimestamp"
    EXPIRY_TIMESTAMP_KEY: ClassVar[str] = "expiryTimestamp"
    TOKEN_ID_KEY: ClassVar[str] = "tokenId"
    VERSION_KEY: ClassVar[str] = "version"
    CURRENT_VERSION: ClassVar[int] = 3
    ERROR_TIMESTAMP: ClassVar[int] = -1

    # ---- the companion object ----------------------------------------------------------------------------

    @staticmethod
    def create_hmac(token_id: str, secret_key: bytes | str) -> bytes:
        """HMAC-SHA512 of the token id's UTF-8 bytes under the secret key."""
        key = secret_key.encode("utf-8") if isinstance(secret_key, str) else secret_key
        if not key:
            raise ValueError("Invalid key to HMAC computation")
        return hmac_module.new(key, token_id.encode("utf-8"), hashlib.sha512).digest()

    @staticmethod
    def create_base64_hmac(token_id: str, secret_key: bytes | str) -> str:
        return base64.b64encode(DelegationTokenManager.create_hmac(token_id, secret_key)).decode("ascii")

    @staticmethod
    def to_json_compatible_map(token: DelegationToken) -> dict[str, Any]:
        """The token's information as the fields of its znode's JSON (principals sanitized, as Kafka writes them)."""
        info = token.token_info()
        return {
            DelegationTokenManager.VERSION_KEY: DelegationTokenManager.CURRENT_VERSION,
            DelegationTokenManager.OWNER_KEY: sanitizer.sanitize(info.owner_as_string()),
            DelegationTokenManager.TOKEN_REQUESTER_KEY: sanitizer.sanitize(info.token_requester_as_string()),
            DelegationTokenManager.RENEWERS_KEY: [sanitizer.sanitize(r) for r in info.renewers_as_string()],
            DelegationTokenManager.ISSUE_TIMESTAMP_KEY: info.issue_timestamp,
            DelegationTokenManager.MAX_TIMESTAMP_KEY: info.max_timestamp,
            DelegationTokenManager.EXPIRY_TIMESTAMP_KEY: info.expiry_timestamp,
            DelegationTokenManager.TOKEN_ID_KEY: info.token_id,
        }

    @staticmethod
    def from_bytes(data: bytes | None) -> TokenInformation | None:
        """The TokenInformation of a token znode's JSON (versions 1 to 3); None for no data. Malformed JSON or an
        unknown version is a ValueError."""
        if not data:
            return None
        js = json.loads(data.decode("utf-8"))
        if not isinstance(js, Mapping):
            return None
        version = int(js[DelegationTokenManager.VERSION_KEY])
        if not 0 < version <= DelegationTokenManager.CURRENT_VERSION:
            raise ValueError(f"Unknown delegation token znode version {version}")
        owner = parse_kafka_principal(sanitizer.desanitize(str(js[DelegationTokenManager.OWNER_KEY])))
        token_requester = owner
        if version >= 3:
            token_requester = parse_kafka_principal(
                sanitizer.desanitize(str(js[DelegationTokenManager.TOKEN_REQUESTER_KEY]))
            )
        renewers = [
            parse_kafka_principal(sanitizer.desanitize(str(r))) for r in js[DelegationTokenManager.RENEWERS_KEY]
        ]
        return TokenInformation(
            str(js[DelegationTokenManager.TOKEN_ID_KEY]),
            owner,
            renewers,
            int(js[DelegationTokenManager.ISSUE_TIMESTAMP_KEY]),
            int(js[DelegationTokenManager.MAX_TIMESTAMP_KEY]),
            int(js[DelegationTokenManager.EXPIRY_TIMESTAMP_KEY]),
            token_requester,
        )

    @staticmethod
    def filter_token(
        requester_principal: KafkaPrincipal,
        owners: list[KafkaPrincipal] | None,
        token: TokenInformation,
        authorize_token: Callable[[str], bool],
        authorize_requester: Callable[[KafkaPrincipal], bool],
    ) -> bool:
        """Whether DescribeDelegationToken shows `token`: it must belong to (or be renewable by) one of `owners`
        when they are given; its owner, requester and renewers see it, others need Describe on the token or
        DescribeTokens on its owner."""
        if owners is not None and not any(token.owner_or_renewer(owner) for owner in owners):
            return False
        if token.owner_or_renewer(requester_principal):
            return True
        return authorize_token(token.token_id) or authorize_requester(token.owner)

    # ---- the manager ----------------------------------------------------------------------------------------

    def __init__(
        self, config: KafkaConfig, token_cache: DelegationTokenCache, time: Time, zk_client: KafkaZkClient
    ) -> None:
        self.config = config
        self.token_cache = token_cache
        self.time = time
        self.zk_client = zk_client
        self.log_ident = f"[Token Manager on Broker {config.broker_id}]: "
        secret = config.delegation_token_secret_key
        key = secret.value.encode("utf-8") if config.token_auth_enabled and secret is not None else b""
        self.secret_key: bytes | None = key or None
        self.token_max_lifetime: int = config.delegation_token_max_life_ms
        self.default_token_renew_time: int = config.delegation_token_expiry_time_ms
        self.token_remover_scan_interval: int = config.delegation_token_expiry_check_interval_ms
        self._lock = threading.RLock()
        self._token_change_listener: ZkNodeChangeNotificationListener | None = None

    def startup(self) -> None:
        if self.config.token_auth_enabled:
            self.zk_client.create_delegation_token_paths()
            self._load_cache()
            listener = self._token_change_listener = ZkNodeChangeNotificationListener(
                self.zk_client,
                DelegationTokenChangeNotificationZNode.path,
                DelegationTokenChangeNotificationSequenceZNode.SEQUENCE_NUMBER_PREFIX,
                _TokenChangedNotificationHandler(self),
                time=self.time,
            )
            listener.init()

    def shutdown(self) -> None:
        if self.config.token_auth_enabled and self._token_change_listener is not None:
            self._token_change_listener.close()

    def _load_cache(self) -> None:
        with self._lock:
            tokens = self.zk_client.get_children(DelegationTokensZNode.path)
            self.info(f"Loading the token cache. Total token count: {len(tokens)}")
            for token_id in tokens:
                try:
                    token = self._get_token_from_zk(token_id)
                    if token is not None:
                        self._update_cache(token)
                except Exception as e:
                    self.error(f"Error while getting Token for tokenId: {token_id}", e)

    def _get_token_from_zk(self, token_id: str) -> DelegationToken | None:
        token_information = self.zk_client.get_delegation_token_info(token_id)
        if token_information is None:
            return None
        return DelegationToken(token_information, self._hmac(token_id))

    def _hmac(self, token_id: str) -> bytes:
        assert self.secret_key is not None  # only called with token auth enabled
        return DelegationTokenManager.create_hmac(token_id, self.secret_key)

    def _update_cache(self, token: DelegationToken) -> None:
        self.token_cache.update_cache(token, self._prepare_scram_credentials(token.hmac_as_base64_string()))

    @staticmethod
    def _prepare_scram_credentials(hmac_string: str) -> dict[str, ScramCredential]:
        """A SCRAM credential per mechanism whose password is the token's base64 HMAC."""
        return {
            mechanism.mechanism_name: ScramFormatter(mechanism).generate_credential(
                hmac_string, mechanism.min_iterations
            )
            for mechanism in ScramMechanism
        }

    def create_token(
        self,
        owner: KafkaPrincipal,
        token_requester: KafkaPrincipal,
        renewers: list[KafkaPrincipal],
        max_life_time_ms: int,
        response_callback: Callable[[CreateTokenResult], None],
    ) -> None:
        if not self.config.token_auth_enabled:
            response_callback(
                CreateTokenResult(owner, token_requester, -1, -1, -1, "", b"", Errors.DELEGATION_TOKEN_AUTH_DISABLED)
            )
            return
        with self._lock:
            token_id = generate_uuid_as_base64()
            issue_time_stamp = self.time.milliseconds()
            max_life_time = (
                self.token_max_lifetime if max_life_time_ms <= 0 else min(max_life_time_ms, self.token_max_lifetime)
            )
            max_life_time_stamp = issue_time_stamp + max_life_time
            expiry_time_stamp = min(max_life_time_stamp, issue_time_stamp + self.default_token_renew_time)
            token_info = TokenInformation(
                token_id, owner, renewers, issue_time_stamp, max_life_time_stamp, expiry_time_stamp, token_requester
            )
            hmac = self._hmac(token_id)
            self._update_token(DelegationToken(token_info, hmac))
            self.info(f"Created a delegation token: {token_id} for owner: {owner}")
            result = CreateTokenResult(
                owner,
                token_requester,
                issue_time_stamp,
                expiry_time_stamp,
                max_life_time_stamp,
                token_id,
                hmac,
                Errors.NONE,
            )
        response_callback(result)

    def renew_token(
        self,
        principal: KafkaPrincipal,
        hmac: bytes,
        renew_life_time_ms: int,
        renew_callback: Callable[[Errors, int], None],
    ) -> None:
        if not self.config.token_auth_enabled:
            renew_callback(Errors.DELEGATION_TOKEN_AUTH_DISABLED, -1)
            return
        with self._lock:
            token, error, now = self._token_to_change(principal, hmac)
            expiry = -1
            if token is not None:
                token_info = token.token_info()
                renew_life_time = self.default_token_renew_time if renew_life_time_ms < 0 else renew_life_time_ms
                expiry = min(token_info.max_timestamp, now + renew_life_time)
                token_info.set_expiry_timestamp(expiry)
                self._update_token(token)
                self.info(f"Delegation token renewed for token: {token_info.token_id} for owner: {token_info.owner}")
        renew_callback(error, expiry)

    def _token_to_change(self, principal: KafkaPrincipal, hmac: bytes) -> tuple[DelegationToken | None, Errors, int]:
        """The token with this HMAC that `principal` may renew or expire, with NONE and the time now; else None and
        the error (not found, owner mismatch, already expired)."""
        token = self._get_token_by_hmac(hmac)
        now = self.time.milliseconds()
        if token is None:
            return None, Errors.DELEGATION_TOKEN_NOT_FOUND, now
        token_info = token.token_info()
        if not self._allowed_to_renew(principal, token_info):
            return None, Errors.DELEGATION_TOKEN_OWNER_MISMATCH, now
        if token_info.max_timestamp < now or token_info.expiry_timestamp < now:
            return None, Errors.DELEGATION_TOKEN_EXPIRED, now
        return token, Errors.NONE, now

    def _update_token(self, token: DelegationToken) -> None:
        self.zk_client.set_or_create_delegation_token(token)
        self._update_cache(token)
        self.zk_client.create_token_change_notification(token.token_info().token_id)

    def _get_token_by_hmac(self, hmac: bytes) -> DelegationToken | None:
        """The token whose HMAC is `hmac`, with a copy of its information (a renew or expire changes the cache only
        through _update_token)."""
        try:
            info = self.token_cache.token_for_hmac(base64.b64encode(hmac).decode("ascii"))
        except Exception as e:
            self.error("Exception while getting token for hmac", e)
            return None
        if info is None:
            return None
        copy = TokenInformation(
            info.token_id,
            info.owner,
            info.renewers,
            info.issue_timestamp,
            info.max_timestamp,
            info.expiry_timestamp,
            info.token_requester,
        )
        return DelegationToken(copy, hmac)

    @staticmethod
    def _allowed_to_renew(principal: KafkaPrincipal, token_info: TokenInformation) -> bool:
        return principal == token_info.owner or principal in token_info.renewers

    def get_token(self, token_id: str) -> DelegationToken | None:
        token_info = self.token_cache.token(token_id)
        return None if token_info is None else DelegationToken(token_info, self._hmac(token_info.token_id))

    def expire_token(
        self,
        principal: KafkaPrincipal,
        hmac: bytes,
        expire_life_time_ms: int,
        expire_response_callback: Callable[[Errors, int], None],
    ) -> None:
        if not self.config.token_auth_enabled:
            expire_response_callback(Errors.DELEGATION_TOKEN_AUTH_DISABLED, -1)
            return
        with self._lock:
            token, error, now = self._token_to_change(principal, hmac)
            expiry = -1
            if token is not None:
                token_info = token.token_info()
                if expire_life_time_ms < 0:
                    self._remove_token(token_info.token_id)
                    self.info(f"Token expired for token: {token_info.token_id} for owner: {token_info.owner}")
                    expiry = now
                else:
                    expiry = min(token_info.max_timestamp, now + expire_life_time_ms)
                    token_info.set_expiry_timestamp(expiry)
                    self._update_token(token)
                    self.info(f"Updated expiry time for token: {token_info.token_id} for owner: {token_info.owner}")
        expire_response_callback(error, expiry)

    def _remove_token(self, token_id: str) -> None:
        self.zk_client.delete_delegation_token(token_id)
        self._remove_cache(token_id)
        self.zk_client.create_token_change_notification(token_id)

    def _remove_cache(self, token_id: str) -> None:
        self.token_cache.remove_cache(token_id)

    def expire_tokens(self) -> None:
        """Removes every token past its expiry or maximum timestamp (the controller's `delete-expired-tokens`)."""
        with self._lock:
            for token_info in self.get_all_token_information():
                now = self.time.milliseconds()
                if token_info.max_timestamp < now or token_info.expiry_timestamp < now:
                    self.info(
                        f"Delegation token expired for token: {token_info.token_id} for owner: {token_info.owner}"
                    )
                    self._remove_token(token_info.token_id)

    def get_all_token_information(self) -> list[TokenInformation]:
        return self.token_cache.tokens()

    def get_tokens(self, filter_token: Callable[[TokenInformation], bool]) -> list[DelegationToken]:
        return [
            DelegationToken(info, self._hmac(info.token_id))
            for info in self.get_all_token_information()
            if filter_token(info)
        ]

    def _process_token_change(self, token_id_bytes: bytes) -> None:
        with self._lock:
            token_id = token_id_bytes.decode("utf-8")
            self.info(f"Processing Token Notification for tokenId: {token_id}")
            token = self._get_token_from_zk(token_id)
            if token is not None:
                self._update_cache(token)
            else:
                self._remove_cache(token_id)


class _TokenChangedNotificationHandler(NotificationHandler):
    """Kafka's TokenChangedNotificationHandler: a change notification reloads the token from ZooKeeper (or drops it)."""

    def __init__(self, manager: DelegationTokenManager) -> None:
        self._manager = manager

    def process_notification(self, notification_message: bytes) -> None:
        self._manager._process_token_change(notification_message)
