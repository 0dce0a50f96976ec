"""Port of clients/src/main/java/org/apache/kafka/common/config/internals/QuotaConfigs.java (Kafka 3.7).

The quota configs stored for client ids, users (and <user, client id> pairs) and IPs, with their types and
defaults: the byte rates are LONG, the request percentage and controller mutation rate DOUBLE, the IP
connection rate INT. Users may also hold SCRAM credentials, one config per mechanism.
"""

from __future__ import annotations

from typing import Final

from kafka.common.config.config_def import ConfigDef, Importance, Range, Type

__all__ = ["QuotaConfigs"]

_INT_MAX: Final = 2**31 - 1
_LONG_MAX: Final = 2**63 - 1
# ScramMechanism.mechanismNames().
_SCRAM_MECHANISM_NAMES: Final = ("SCRAM-SHA-256", "SCRAM-SHA-512")


class QuotaConfigs:
    PRODUCER_BYTE_RATE_OVERRIDE_CONFIG: Final = "producer_byte_rate"
    CONSUMER_BYTE_RATE_OVERRIDE_CONFIG: Final = "consumer_byte_rate"
    REQUEST_PERCENTAGE_OVERRIDE_CONFIG: Final = "request_percentage"
    CONTROLLER_MUTATION_RATE_OVERRIDE_CONFIG: Final = "controller_mutation_rate"
    IP_CONNECTION_RATE_OVERRIDE_CONFIG: Final = "connection_creation_rate"

    PRODUCER_BYTE_RATE_DOC: Final = "A rate representing the upper bound (bytes/sec) for producer traffic."
    CONSUMER_BYTE_RATE_DOC: Final = "A rate representing the upper bound (bytes/sec) for consumer traffic."
    REQUEST_PERCENTAGE_DOC: Final = "A percentage representing the upper bound of time spent for processing requests."
    CONTROLLER_MUTATION_RATE_DOC: Final = (
        "The rate at which mutations are accepted for the create topics request, the create partitions request and "
        "the delete topics request. The rate is accumulated by the number of partitions created or deleted."
    )
    IP_CONNECTION_RATE_DOC: Final = "An int representing the upper bound of connections accepted for the specified IP."

    IP_CONNECTION_RATE_DEFAULT: Final = _INT_MAX

    USER_AND_CLIENT_QUOTA_NAMES: Final = frozenset(
        (
            PRODUCER_BYTE_RATE_OVERRIDE_CONFIG,
            CONSUMER_BYTE_RATE_OVERRIDE_CONFIG,
            REQUEST_PERCENTAGE_OVERRIDE_CONFIG,
            CONTROLLER_MUTATION_RATE_OVERRIDE_CONFIG,
        )
    )

    @staticmethod
    def _build_user_client_quota_config_def(config_def: ConfigDef) -> None:
        q = QuotaConfigs
        config_def.define(
            q.PRODUCER_BYTE_RATE_OVERRIDE_CONFIG,
            Type.LONG,
            _LONG_MAX,
            None,
            Importance.MEDIUM,
            q.PRODUCER_BYTE_RATE_DOC,
        )
        config_def.define(
            q.CONSUMER_BYTE_RATE_OVERRIDE_CONFIG,
            Type.LONG,
            _LONG_MAX,
            None,
            Importance.MEDIUM,
            q.CONSUMER_BYTE_RATE_DOC,
        )
        config_def.define(
            q.REQUEST_PERCENTAGE_OVERRIDE_CONFIG,
            Type.DOUBLE,
            float(_INT_MAX),
            None,
            Importance.MEDIUM,
            q.REQUEST_PERCENTAGE_DOC,
        )
        config_def.define(
            q.CONTROLLER_MUTATION_RATE_OVERRIDE_CONFIG,
            Type.DOUBLE,
            float(_INT_MAX),
            None,
            Importance.MEDIUM,
            q.CONTROLLER_MUTATION_RATE_DOC,
        )

    @staticmethod
    def is_client_or_user_config(name: str) -> bool:
        return name in QuotaConfigs.USER_AND_CLIENT_QUOTA_NAMES

    @staticmethod
    def user_and_client_quota_configs() -> ConfigDef:
        """The configs of a client id, a <user, client id> pair and the default user."""
        config_def = ConfigDef()
        QuotaConfigs._build_user_client_quota_config_def(config_def)
        return config_def

    @staticmethod
    def scram_mechanisms_plus_user_and_client_quota_configs() -> ConfigDef:
        """The configs of a user: its SCRAM credentials and the quotas."""
        config_def = ConfigDef()
        for mechanism_name in _SCRAM_MECHANISM_NAMES:
            config_def.define(
                mechanism_name,
                Type.STRING,
                None,
                None,
                Importance.MEDIUM,
                "User credentials for SCRAM mechanism " + mechanism_name,
            )
        QuotaConfigs._build_user_client_quota_config_def(config_def)
        return config_def

    @staticmethod
    def ip_configs() -> ConfigDef:
        config_def = ConfigDef()
        config_def.define(
            QuotaConfigs.IP_CONNECTION_RATE_OVERRIDE_CONFIG,
            Type.INT,
            _INT_MAX,
            Range.at_least(0),
            Importance.MEDIUM,
            QuotaConfigs.IP_CONNECTION_RATE_DOC,
        )
        return config_def
