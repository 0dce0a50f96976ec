"""Port of clients/src/main/java/org/apache/kafka/common/requests/FindCoordinatorResponse.java (Kafka 3.7).

The coordinator's node for the key asked (v0-3), or one coordinator per key (v4+).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

from kafka.common.message import FindCoordinatorResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_response import AbstractResponse


class NodeInfo(NamedTuple):
    """The id, host and port of a broker (the part of Java's Node these responses use)."""

    id: int
    host: str
    port: int


NO_NODE = NodeInfo(-1, "", -1)
"""Java's Node.noNode()."""


class FindCoordinatorResponse(AbstractResponse):
    API_KEY = ApiKeys.FIND_COORDINATOR
    CLIENT_THROTTLE_SINCE = 2

    def coordinator_by_key(self, key: str) -> Any:
        """The coordinator entry for `key`; a v0-3 response's single answer is given that key."""
        if len(self._data.coordinators) == 0:
            return FindCoordinatorResponseData.Coordinator(
                error_code=self._data.error_code,
                error_message=self._data.error_message,
                host=self._data.host,
                port=self._data.port,
                node_id=self._data.node_id,
                key=key,
            )
        return next((c for c in self._data.coordinators if c.key == key), None)

    def node(self) -> NodeInfo:
        return NodeInfo(self._data.node_id, self._data.host, self._data.port)

    def has_error(self) -> bool:
        return self.error() is not Errors.NONE

    def error(self) -> Errors:
        return Errors.for_code(self._data.error_code)

    def error_counts(self) -> dict[Errors, int]:
        if len(self._data.coordinators) > 0:
            return self._error_counts_of_codes(c.error_code for c in self._data.coordinators)
        return {self.error(): 1}

    def coordinators(self) -> list[Any]:
        """The coordinator entries; a v0-3 response's single answer as one entry with a null key."""
        if len(self._data.coordinators) > 0:
            return list(self._data.coordinators)
        return [
            FindCoordinatorResponseData.Coordinator(
                error_code=self._data.error_code,
                error_message=self._data.error_message,
                key=None,
                node_id=self._data.node_id,
                host=self._data.host,
                port=self._data.port,
            )
        ]

    @classmethod
    def prepare_old_response(cls, error: Errors, node: Any) -> FindCoordinatorResponse:
        """A v0-3 response; `node` has id, host and port."""
        return cls(
            FindCoordinatorResponseData(
                error_code=error.code, error_message=error.message, node_id=node.id, host=node.host, port=node.port
            )
        )

    @classmethod
    def prepare_response(cls, error: Errors, key: str, node: Any) -> FindCoordinatorResponse:
        """A v4+ response for one key."""
        return cls(
            FindCoordinatorResponseData(
                coordinators=[
                    FindCoordinatorResponseData.Coordinator(
                        error_code=error.code,
                        error_message=error.message,
                        key=key,
                        host=node.host,
                        port=node.port,
                        node_id=node.id,
                    )
                ]
            )
        )

    @classmethod
    def prepare_error_response(cls, error: Errors, keys: Iterable[str]) -> FindCoordinatorResponse:
        """A v4+ response giving `error` for every key."""
        return cls(
            FindCoordinatorResponseData(
                coordinators=[
                    FindCoordinatorResponseData.Coordinator(
                        error_code=error.code,
                        error_message=error.message,
                        key=key,
                        host=NO_NODE.host,
                        port=NO_NODE.port,
                        node_id=NO_NODE.id,
                    )
                    for key in keys
                ]
            )
        )
