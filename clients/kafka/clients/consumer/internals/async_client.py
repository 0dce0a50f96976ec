"""Port of clients/src/main/java/org/apache/kafka/clients/consumer/internals/AsyncClient.java (Kafka 3.7).

A request/response pair sent through the ConsumerNetworkClient as one asynchronous call: the subclass
builds the request and turns the response into the result.
"""

from __future__ import annotations

import abc
from typing import Any, Generic, TypeVar

from kafka.clients.client_response import ClientResponse
from kafka.clients.consumer.internals.consumer_network_client import ConsumerNetworkClient
from kafka.clients.consumer.internals.request_future import RequestFuture
from kafka.clients.consumer.internals.request_future_adapter import RequestFutureAdapter
from kafka.common.node import Node
from kafka.common.requests.abstract_request import Builder
from kafka.common.utils.log_context import LogContext

T1 = TypeVar("T1")
T2 = TypeVar("T2")

__all__ = ["AsyncClient"]


class AsyncClient(abc.ABC, Generic[T1, T2]):
    def __init__(self, client: ConsumerNetworkClient, log_context: LogContext, logger_name: str) -> None:
        self._client = client
        self._log = log_context.logger(logger_name)

    def send_async_request(self, node: Node, request_data: T1) -> RequestFuture[T2]:
        request_builder = self.prepare_request(node, request_data)
        return self._client.send(node, request_builder).compose(_ResponseAdapter(self, node, request_data))

    def logger(self) -> Any:
        return self._log

    @abc.abstractmethod
    def prepare_request(self, node: Node, request_data: T1) -> Builder[Any]: ...

    @abc.abstractmethod
    def handle_response(self, node: Node, request_data: T1, response: Any) -> T2: ...


class _ResponseAdapter(RequestFutureAdapter[ClientResponse, T2], Generic[T1, T2]):
    def __init__(self, client: AsyncClient[T1, T2], node: Node, request_data: T1) -> None:
        self._client = client
        self._node = node
        self._request_data = request_data

    def on_success(self, value: ClientResponse, future: RequestFuture[T2]) -> None:
        resp = value.response_body
        self._client._log.trace(f"Received {type(resp).__name__} {resp} from broker {self._node}")
        try:
            future.complete(self._client.handle_response(self._node, self._request_data, resp))
        except Exception as e:
            if not future.is_done():
                future.raise_(e)
