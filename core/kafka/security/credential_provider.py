"""Port of core/src/main/scala/kafka/security/CredentialProvider.scala (Kafka 2.8).

The broker's credential cache for the SCRAM mechanisms, kept current from the users' configs in ZooKeeper
(`/config/users/<user>`): UserConfigHandler calls update_credentials for each user when the broker starts and on
every change notification.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from kafka.common.config.config_def import ConfigDef, Importance, Type
from kafka.common.security.authenticator.credential_cache import CredentialCache
from kafka.common.security.scram.internals import scram_credential_utils
from kafka.common.security.scram.internals.scram_mechanism import ScramMechanism
from kafka.common.security.scram.scram_credential import ScramCredential
from kafka.utils.logging import Logging

__all__ = ["CredentialProvider"]


class CredentialProvider(Logging):
    def __init__(self, scram_mechanisms: Collection[str], token_cache: Any = None) -> None:
        super().__init__()
        self.token_cache = token_cache
        self.credential_cache = CredentialCache()
        scram_credential_utils.create_cache(self.credential_cache, scram_mechanisms)

    def update_credentials(self, username: str, config: Mapping[str, str]) -> None:
        """Puts `username`'s SCRAM credentials from `config` in the cache; a mechanism without one is removed."""
        for mechanism in ScramMechanism:
            cache = self.credential_cache.cache(mechanism.mechanism_name, ScramCredential)
            if cache is None:
                continue
            text = config.get(mechanism.mechanism_name)
            if text is None:
                cache.remove(username)
                continue
            try:
                cache.put(username, scram_credential_utils.credential_from_string(text))
            except ValueError as e:
                cache.remove(username)
                self.error(f"Invalid {mechanism.mechanism_name} credential of user {username} ignored: {e}")

    @staticmethod
    def user_credential_configs() -> ConfigDef:
        config_def = ConfigDef()
        for mechanism in ScramMechanism:
            config_def.define(
                mechanism.mechanism_name,
                Type.STRING,
                None,
                None,
                Importance.MEDIUM,
                f"User credentials for SCRAM mechanism {mechanism.mechanism_name}",
            )
        return config_def
