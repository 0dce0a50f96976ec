"""Port of clients/src/main/java/org/apache/kafka/clients/InFlightRequests.java (Kafka 3.7).

The requests a NetworkClient has sent (or is sending) and not yet seen answered, per node in send order, with
the limit max.in.flight.requests.per.connection and the check for requests past their timeout.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kafka.clients.network_client import InFlightRequest

__all__ = ["InFlightRequests"]


class InFlightRequests:
    """Per node, a deque with the newest request at the left (Java's addFirst) and the oldest at the right."""

    def __init__(self, max_in_flight_requests_per_connection: int) -> None:
        self._max_in_flight_requests_per_connection = max_in_flight_requests_per_connection
        self._requests: dict[str, deque[InFlightRequest]] = {}
        self._in_flight_request_count = 0

    def add(self, request: InFlightRequest) -> None:
        reqs = self._requests.get(request.destination)
        if reqs is None:
            reqs = self._requests[request.destination] = deque()
        reqs.appendleft(request)
        self._in_flight_request_count += 1

    def _request_queue(self, node: str) -> deque[InFlightRequest]:
        reqs = self._requests.get(node)
        if not reqs:
            raise RuntimeError(f"There are no in-flight requests for node {node}")
        return reqs

    def complete_next(self, node: str) -> InFlightRequest:
        """Removes and returns the oldest request to `node` (the one the next response answers)."""
        request = self._request_queue(node).pop()
        self._in_flight_request_count -= 1
        return request

    def last_sent(self, node: str) -> InFlightRequest:
        return self._request_queue(node)[0]

    def complete_last_sent(self, node: str) -> InFlightRequest:
        """Removes and returns the newest request to `node` (one that expects no response)."""
        request = self._request_queue(node).popleft()
        self._in_flight_request_count -= 1
        return request

    def can_send_more(self, node: str) -> bool:
        """Whether another request may go to `node`: none in flight, or the last one fully written and fewer than
        the maximum in flight."""
        queue = self._requests.get(node)
        return not queue or (queue[0].send.completed() and len(queue) < self._max_in_flight_requests_per_connection)

    def count(self, node: str | None = None) -> int:
        """In-flight requests to `node`, or to all nodes."""
        if node is None:
            return self._in_flight_request_count
        queue = self._requests.get(node)
        return 0 if queue is None else len(queue)

    def is_empty(self, node: str | None = None) -> bool:
        if node is None:
            return all(not q for q in self._requests.values())
        return not self._requests.get(node)

    def clear_all(self, node: str) -> Iterable[InFlightRequest]:
        """Removes every request to `node`; returns them oldest first."""
        reqs = self._requests.pop(node, None)
        if reqs is None:
            return []
        self._in_flight_request_count -= len(reqs)
        return list(reversed(reqs))

    @staticmethod
    def _has_expired_request(now: int, queue: Iterable[InFlightRequest]) -> bool:
        return any(r.time_elapsed_since_send_ms(now) > r.request_timeout_ms for r in queue)

    def nodes_with_timed_out_requests(self, now: int) -> list[str]:
        """The nodes with a request sent longer ago than its timeout."""
        return [node for node, queue in self._requests.items() if self._has_expired_request(now, queue)]
