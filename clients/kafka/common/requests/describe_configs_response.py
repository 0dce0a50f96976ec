"""Port of clients/src/main/java/org/apache/kafka/common/requests/DescribeConfigsResponse.java (Kafka 3.7).

Per resource: an error and its configs, with source, synonyms, type and documentation where asked for.
"""

from __future__ import annotations

import enum
from typing import Any

from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_response import AbstractResponse


class ConfigSource(enum.IntEnum):
    """Where a config value comes from (the ConfigSource byte of the response)."""

    UNKNOWN = 0
    TOPIC_CONFIG = 1
    DYNAMIC_BROKER_CONFIG = 2
    DYNAMIC_DEFAULT_BROKER_CONFIG = 3
    STATIC_BROKER_CONFIG = 4
    DEFAULT_CONFIG = 5
    DYNAMIC_BROKER_LOGGER_CONFIG = 6
    CLIENT_METRICS_CONFIG = 7


class ConfigType(enum.IntEnum):
    """The type of a config value (the ConfigType byte of the response, v3+)."""

    UNKNOWN = 0
    BOOLEAN = 1
    STRING = 2
    INT = 3
    SHORT = 4
    LONG = 5
    DOUBLE = 6
    LIST = 7
    CLASS = 8
    PASSWORD = 9


class DescribeConfigsResponse(AbstractResponse):
    API_KEY = ApiKeys.DESCRIBE_CONFIGS
    CLIENT_THROTTLE_SINCE = 2

    def result_map(self) -> dict[tuple[int, str], Any]:
        """The result of each (resource type, resource name)."""
        return {(r.resource_type, r.resource_name): r for r in self._data.results}

    def error_counts(self) -> dict[Errors, int]:
        return self._error_counts_of_codes(r.error_code for r in self._data.results)
