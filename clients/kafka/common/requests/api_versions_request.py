"""Port of clients/src/main/java/org/apache/kafka/common/requests/ApiVersionsRequest.java (Kafka 3.7).

ApiVersions: the first request of a connection, asking which versions of each API the broker serves;
from v3 it names the client software. A broker answers a version it does not know rather than closing
the connection: the request is then read as an empty v0 request that remembers the version asked for
(see RequestContext.parse_request) and answered with UNSUPPORTED_VERSION in the v0 layout.
"""

from __future__ import annotations

import re
from typing import Any

from kafka.common.message import ApiVersionsRequestData, ApiVersionsResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_request import AbstractRequest, Builder
from kafka.common.requests.api_versions_response import ApiVersionsResponse

_SOFTWARE_NAME_VERSION_PATTERN = re.compile(r"[a-zA-Z0-9](?:[a-zA-Z0-9\-.]*[a-zA-Z0-9])?")

DEFAULT_CLIENT_SOFTWARE_NAME = "kafka-port-python"
"""# PORT: Java's client announces apache-kafka-java; this port's client names itself."""
DEFAULT_CLIENT_SOFTWARE_VERSION = "3.7.0"


class ApiVersionsRequest(AbstractRequest[ApiVersionsResponse]):
    API_KEY = ApiKeys.API_VERSIONS

    def __init__(self, data: Any, version: int, unsupported_request_version: int | None = None) -> None:
        """`unsupported_request_version` is the version a client asked for when it is newer than this broker
        knows; the request is then handled (and answered) as v0."""
        super().__init__(data, version)
        self._unsupported_request_version = unsupported_request_version

    def has_unsupported_request_version(self) -> bool:
        return self._unsupported_request_version is not None

    @property
    def unsupported_request_version(self) -> int | None:
        return self._unsupported_request_version

    def is_valid(self) -> bool:
        """From v3 the client software name and version must be non-empty, of letters, digits, '-' and '.',
        starting and ending with a letter or digit."""
        if self._version >= 3:
            return bool(
                _SOFTWARE_NAME_VERSION_PATTERN.fullmatch(self._data.client_software_name)
                and _SOFTWARE_NAME_VERSION_PATTERN.fullmatch(self._data.client_software_version)
            )
        return True

    def _get_error_response(self, throttle_time_ms: int, e: BaseException) -> ApiVersionsResponse:
        error = Errors.for_exception(e)
        data = ApiVersionsResponseData(error_code=error.code)
        if self._version >= 1:
            data.throttle_time_ms = throttle_time_ms
        # Since KIP-511 (2.4) an UNSUPPORTED_VERSION answer lists the versions of ApiVersions itself, so that
        # the client can retry with one of them.
        if error is Errors.UNSUPPORTED_VERSION:
            data.api_keys.append(ApiVersionsResponse.to_api_version(ApiKeys.API_VERSIONS))
        return ApiVersionsResponse(data)


class ApiVersionsRequestBuilder(Builder[ApiVersionsRequest]):
    """Port of ApiVersionsRequest.Builder."""

    def __init__(
        self,
        version: int | None = None,
        client_software_name: str = DEFAULT_CLIENT_SOFTWARE_NAME,
        client_software_version: str = DEFAULT_CLIENT_SOFTWARE_VERSION,
    ) -> None:
        super().__init__(ApiKeys.API_VERSIONS, version)
        self.data = ApiVersionsRequestData(
            client_software_name=client_software_name, client_software_version=client_software_version
        )

    def _build(self, version: int) -> ApiVersionsRequest:
        return ApiVersionsRequest(self.data, version)

    def __str__(self) -> str:
        return repr(self.data)
