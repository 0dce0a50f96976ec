"""Port of clients/src/main/java/org/apache/kafka/clients/RequestCompletionHandler.java (Kafka 3.7).

What a NetworkClient calls when a request is answered, times out or loses its connection.

# PORT: Java's single-method interface is, in Python, any callable taking the ClientResponse (usually a lambda
or a bound method). RequestCompletionHandler stays as a base class for handlers that keep state: a subclass
implements on_complete and can be passed wherever a callable is expected.
"""

from __future__ import annotations

import abc
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:
    from kafka.clients.client_response import ClientResponse

__all__ = ["RequestCompletionCallback", "RequestCompletionHandler"]

RequestCompletionCallback: TypeAlias = "Callable[[ClientResponse], None]"
"""The type of a `callback` argument: called once with the request's ClientResponse."""


class RequestCompletionHandler(abc.ABC):
    """A stateful completion handler; calling it calls on_complete."""

    @abc.abstractmethod
    def on_complete(self, response: ClientResponse) -> None:
        """Handles the response (or the disconnect/timeout/version error it reports)."""

    def __call__(self, response: ClientResponse) -> None:
        self.on_complete(response)
