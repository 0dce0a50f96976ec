"""Port of clients/src/main/java/org/apache/kafka/common/requests/AbstractResponse.java (Kafka 3.7).

The base of every response class: a generated XxxResponseData body, the per-API error counts a broker
reports in its request metrics, the throttle time, serialisation with a header, and `parse_response`,
which reads the response of any API (checking the correlation id when given the request header).
"""

from __future__ import annotations

import abc
import importlib
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, ClassVar, Self, overload

from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.protocol.message import ByteBufferAccessor
from kafka.common.protocol.types import Buffer
from kafka.common.requests import request_utils
from kafka.common.requests.correlation_id_mismatch_exception import CorrelationIdMismatchException
from kafka.common.requests.response_header import ResponseHeader

if TYPE_CHECKING:
    from kafka.common.requests.request_header import RequestHeader

DEFAULT_THROTTLE_TIME = 0


class AbstractResponse(abc.ABC):
    """A response body of one API. Most responses do not know their version; those whose meaning depends on
    it (JoinGroup, LeaderAndIsr, OffsetFetch ...) take it in their constructor."""

    API_KEY: ClassVar[ApiKeys]
    DEFAULT_THROTTLE_TIME: ClassVar[int] = DEFAULT_THROTTLE_TIME
    # Lowest version from which a client throttles itself on a non-zero throttle time (None: never).
    CLIENT_THROTTLE_SINCE: ClassVar[int | None] = None

    def __init__(self, data: Any) -> None:
        self._data = data

    @property
    def data(self) -> Any:
        """The generated XxxResponseData."""
        return self._data

    @property
    def api_key(self) -> ApiKeys:
        return self.API_KEY

    def to_send(self, header: ResponseHeader, version: int) -> list[Any]:
        """The framed response (4-byte size, header, body) as parts for a scatter/gather write; record sets stay
        zero-copy parts."""
        return request_utils.build_send(header.data, header.header_version, self._data, version)

    def serialize_with_header(self, header: ResponseHeader, version: int, size_prefix: bool = False) -> bytes:
        """Header and body as bytes; without the 4-byte size unless `size_prefix` (Java's form, for envelopes)."""
        return request_utils.serialize(header.data, header.header_version, self._data, version, size_prefix)

    def serialize(self, version: int) -> bytes:
        """The body alone."""
        return self._data.write(version)

    @abc.abstractmethod
    def error_counts(self) -> dict[Errors, int]:
        """How many times each error occurs in the response: top-level, per-resource and NONE, as Java counts
        them for this API."""

    @staticmethod
    def _error_counts(errors: Iterable[Errors]) -> dict[Errors, int]:
        counts: dict[Errors, int] = {}
        for error in errors:
            counts[error] = counts.get(error, 0) + 1
        return counts

    @staticmethod
    def _error_counts_of_codes(codes: Iterable[int]) -> dict[Errors, int]:
        counts: dict[Errors, int] = {}
        for code in codes:
            error = Errors.for_code(code)
            counts[error] = counts.get(error, 0) + 1
        return counts

    @staticmethod
    def _update_error_counts(counts: dict[Errors, int], error: Errors) -> None:
        counts[error] = counts.get(error, 0) + 1

    def should_client_throttle(self, version: int) -> bool:
        """Whether a client receiving this response at `version` throttles itself (brokers that answer before
        throttling, KIP-219)."""
        since = self.CLIENT_THROTTLE_SINCE
        return since is not None and version >= since

    def throttle_time_ms(self) -> int:
        """The throttle time; DEFAULT_THROTTLE_TIME for an API whose response has no such field.

        # PORT: Java makes this abstract and every class returns either its field or the default; the base
        class does that once here."""
        value = getattr(self._data, "throttle_time_ms", None)
        return DEFAULT_THROTTLE_TIME if value is None else int(value)

    def maybe_set_throttle_time_ms(self, throttle_time_ms: int) -> None:
        """Sets the throttle time where the response has the field; otherwise does nothing."""
        if hasattr(self._data, "throttle_time_ms"):
            self._data.throttle_time_ms = throttle_time_ms

    @classmethod
    def parse(cls, buffer: ByteBufferAccessor | Buffer, version: int) -> Self:
        """Reads a body of this API at `version`; a ByteBufferAccessor is left after it."""
        data = cls.API_KEY.message_type.new_response().read(buffer, version)
        return cls._from_data(data, version)

    @classmethod
    def _from_data(cls, data: Any, version: int) -> Self:
        """The response for parsed data; classes whose constructor takes the version override this."""
        return cls(data)

    @overload
    @staticmethod
    def parse_response(api_key: ApiKeys, buffer: ByteBufferAccessor | Buffer, version: int, /) -> AbstractResponse: ...

    @overload
    @staticmethod
    def parse_response(buffer: ByteBufferAccessor | Buffer, request_header: RequestHeader, /) -> AbstractResponse: ...

    @staticmethod
    def parse_response(*args: Any) -> AbstractResponse:
        """`parse_response(api_key, buffer, version)` reads a response body; `parse_response(buffer,
        request_header)` reads the response header first and raises CorrelationIdMismatchException when it
        does not answer that request (as Java's two overloads)."""
        if len(args) == 3:
            api_key, buffer, version = args
            return response_class(api_key).parse(buffer, version)
        buffer, request_header = args
        accessor = buffer if isinstance(buffer, ByteBufferAccessor) else ByteBufferAccessor(buffer)
        api_key = request_header.api_key
        api_version = request_header.api_version
        response_header = ResponseHeader.parse(accessor, api_key.response_header_version(api_version))
        if request_header.correlation_id != response_header.correlation_id:
            raise CorrelationIdMismatchException(
                f"Correlation id for response ({response_header.correlation_id}) does not match request "
                f"({request_header.correlation_id}), request header: {request_header}",
                request_header.correlation_id,
                response_header.correlation_id,
            )
        return response_class(api_key).parse(accessor, api_version)

    def __str__(self) -> str:
        return repr(self._data)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._data!r})"


_loaded_responses: dict[ApiKeys, type[AbstractResponse]] = {}


def response_class(api_key: ApiKeys) -> type[AbstractResponse]:
    """The AbstractResponse subclass of an API (the request class name with Response for Request)."""
    cls = _loaded_responses.get(api_key)
    if cls is None:
        from kafka.common.requests.abstract_request import _REQUEST_CLASSES, class_module_name

        name = _REQUEST_CLASSES[api_key][: -len("Request")] + "Response"
        module = importlib.import_module(f"kafka.common.requests.{class_module_name(name)}")
        cls = getattr(module, name)
        _loaded_responses[api_key] = cls
    return cls
