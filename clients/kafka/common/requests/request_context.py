"""Port of clients/src/main/java/org/apache/kafka/common/requests/RequestContext.java (Kafka 3.7).

Everything a broker knows about one received request besides its body: the parsed header, the
connection it came on, the client's address and authenticated principal, the listener and security
protocol, and the client software. It parses the body and frames the response.
"""

from __future__ import annotations

from typing import Any

from kafka.common.errors import InvalidRequestException
from kafka.common.message import ApiVersionsRequestData
from kafka.common.network.client_information import ClientInformation
from kafka.common.network.listener_name import ListenerName
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.message import ByteBufferAccessor
from kafka.common.protocol.types import Buffer
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.abstract_response import AbstractResponse
from kafka.common.requests.api_versions_request import ApiVersionsRequest
from kafka.common.requests.request_and_size import RequestAndSize
from kafka.common.requests.request_header import RequestHeader
from kafka.common.security.auth.kafka_principal import KafkaPrincipal


class RequestContext:
    """The context of one request. `listener_name` is the listener (a ListenerName; a plain name is accepted
    and wrapped) and `security_protocol` the protocol's name (PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL)."""

    def __init__(
        self,
        header: RequestHeader,
        connection_id: str,
        client_address: str | None,
        principal: KafkaPrincipal,
        listener_name: ListenerName | str,
        security_protocol: str,
        client_information: ClientInformation,
        from_privileged_listener: bool,
        principal_serde: Any = None,
    ) -> None:
        self.header = header
        self.connection_id = connection_id
        self.client_address = client_address
        self.principal = principal
        self.listener_name = listener_name if isinstance(listener_name, ListenerName) else ListenerName(listener_name)
        self.security_protocol = security_protocol
        self.client_information = client_information
        self.from_privileged_listener = from_privileged_listener
        self.principal_serde = principal_serde

    def parse_request(self, buffer: ByteBufferAccessor | Buffer) -> RequestAndSize:
        """Reads the body that follows the header. An ApiVersions request of a version this broker does not know
        is not read at all: it becomes an empty v0 request that remembers the version asked for, so that the
        broker can answer with the versions it supports. Any failure is an InvalidRequestException naming the
        api key, version, connection, listener and principal."""
        if self._is_unsupported_api_versions_request():
            request = ApiVersionsRequest(ApiVersionsRequestData(), 0, self.header.api_version)
            return RequestAndSize(request, 0)
        api_key = self.header.api_key
        try:
            return AbstractRequest.parse_request(api_key, self.header.api_version, buffer)
        except Exception as e:
            raise InvalidRequestException(
                f"Error getting request for apiKey: {api_key.name}, apiVersion: {self.header.api_version}, "
                f"connectionId: {self.connection_id}, listenerName: {self.listener_name.value}, "
                f"principal: {self.principal}"
            ) from e

    def build_response_send(self, body: AbstractResponse) -> list[Any]:
        """The framed response to this request as parts for a scatter/gather write."""
        return body.to_send(self.header.to_response_header(), self.api_version())

    def build_response_envelope_payload(self, body: AbstractResponse) -> bytes:
        """Response header and body without the frame size, to be carried in an EnvelopeResponse."""
        return body.serialize_with_header(self.header.to_response_header(), self.api_version())

    def _is_unsupported_api_versions_request(self) -> bool:
        return self.header.api_key is ApiKeys.API_VERSIONS and not ApiKeys.API_VERSIONS.is_version_supported(
            self.header.api_version
        )

    def api_version(self) -> int:
        """The version to answer with: 0 for an ApiVersions request of an unknown version."""
        if self._is_unsupported_api_versions_request():
            return 0
        return self.header.api_version

    def request_type(self) -> int:
        return self.header.api_key.id

    def request_version(self) -> int:
        return self.header.api_version

    def client_id(self) -> str | None:
        return self.header.client_id

    def correlation_id(self) -> int:
        return self.header.correlation_id

    def __repr__(self) -> str:
        return (
            f"RequestContext(header={self.header}, connectionId='{self.connection_id}', "
            f"clientAddress={self.client_address}, principal={self.principal}, listenerName={self.listener_name}, "
            f"securityProtocol={self.security_protocol}, clientInformation={self.client_information}, "
            f"fromPrivilegedListener={self.from_privileged_listener}, principalSerde={self.principal_serde})"
        )
