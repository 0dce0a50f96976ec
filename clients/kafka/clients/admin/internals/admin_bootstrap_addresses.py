"""Port of clients/src/main/java/org/apache/kafka/clients/admin/internals/AdminBootstrapAddresses.java
(Kafka 3.7).

Where the admin client connects first: bootstrap.servers (brokers) or bootstrap.controllers (a KRaft controller
quorum, KIP-919); exactly one of them must be set.
"""

from __future__ import annotations

from dataclasses import dataclass

from kafka.clients import client_utils, common_client_configs
from kafka.common.config.abstract_config import AbstractConfig
from kafka.common.config.config_exception import ConfigException

__all__ = ["BOOTSTRAP_CONTROLLERS_CONFIG", "AdminBootstrapAddresses"]

BOOTSTRAP_CONTROLLERS_CONFIG = "bootstrap.controllers"


@dataclass(frozen=True, slots=True)
class AdminBootstrapAddresses:
    using_bootstrap_controllers: bool
    addresses: tuple[tuple[str, int], ...]

    @staticmethod
    def from_config(config: AbstractConfig) -> AdminBootstrapAddresses:
        bootstrap_servers = config.get_list(common_client_configs.BOOTSTRAP_SERVERS_CONFIG) or []
        controller_servers = config.get_list(BOOTSTRAP_CONTROLLERS_CONFIG) or []
        client_dns_lookup = config.get_string(common_client_configs.CLIENT_DNS_LOOKUP_CONFIG)
        if not bootstrap_servers:
            if not controller_servers:
                raise ConfigException(
                    f"You must set either {common_client_configs.BOOTSTRAP_SERVERS_CONFIG} or "
                    f"{BOOTSTRAP_CONTROLLERS_CONFIG}"
                )
            return AdminBootstrapAddresses(
                True, tuple(client_utils.parse_and_validate_addresses(controller_servers, client_dns_lookup))
            )
        if not controller_servers:
            return AdminBootstrapAddresses(
                False, tuple(client_utils.parse_and_validate_addresses(bootstrap_servers, client_dns_lookup))
            )
        raise ConfigException(
            f"You cannot set both {common_client_configs.BOOTSTRAP_SERVERS_CONFIG} and {BOOTSTRAP_CONTROLLERS_CONFIG}"
        )

    def __str__(self) -> str:
        addresses = ", ".join(f"{h}:{p}" for h, p in self.addresses)
        using = str(self.using_bootstrap_controllers).lower()
        return f"AdminBootstrapAddresses(usingBoostrapControllers={using}, addresses=[{addresses}])"
