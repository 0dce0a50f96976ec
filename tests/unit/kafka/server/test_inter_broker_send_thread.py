"""Tests of core/kafka/server/inter_broker_send_thread.py, after Kafka 2.8's InterBrokerSendThreadTest: requests
are handed to the network client when their destination is ready, and completed as disconnected when it failed or
when they waited unsent past the request timeout."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import Any

from kafka.clients.client_response import ClientResponse
from kafka.common.errors import AuthenticationException, DisconnectException
from kafka.common.message import EndTxnRequestData
from kafka.common.node import Node
from kafka.common.requests.abstract_request import DataBuilder
from kafka.common.requests.end_txn_request import EndTxnRequest
from kafka.common.utils.time import MockTime
from kafka.server.inter_broker_send_thread import InterBrokerSendThread, RequestAndCompletionHandler
from tests.unit.kafka.clients.mock_client import MockClient

REQUEST_TIMEOUT_MS = 1000
NODE = Node(1, "", 8080)


class StubCompletionHandler:
    def __init__(self) -> None:
        self.responses: list[ClientResponse] = []

    def __call__(self, response: ClientResponse) -> None:
        self.responses.append(response)


class SendThreadUnderTest(InterBrokerSendThread):
    """Sends what the test enqueues, one request per round."""

    def __init__(self, client: MockClient, time: MockTime) -> None:
        super().__init__("name", client, REQUEST_TIMEOUT_MS, time)
        self.queue: deque[RequestAndCompletionHandler] = deque()

    def generate_requests(self) -> Iterable[RequestAndCompletionHandler]:
        return [self.queue.popleft()] if self.queue else []


def _request() -> DataBuilder[Any]:
    return DataBuilder(EndTxnRequest, EndTxnRequestData(transactional_id="t"))


class Env:
    def __init__(self) -> None:
        self.time = MockTime()
        self.client = MockClient(self.time)
        self.thread = SendThreadUnderTest(self.client, self.time)
        self.handler = StubCompletionHandler()

    def enqueue(self, creation_time_ms: int | None = None) -> None:
        created = self.time.milliseconds() if creation_time_ms is None else creation_time_ms
        self.thread.queue.append(RequestAndCompletionHandler(created, NODE, _request(), self.handler))


def test_shutdown_thread_does_not_cause_exception() -> None:
    """Once shutdown closed the client, a DisconnectException out of poll is expected and swallowed."""

    class ClosingClient(MockClient):
        def poll(self, timeout_ms: int, now: int) -> list[ClientResponse]:
            raise DisconnectException()

    time = MockTime()
    thread = SendThreadUnderTest(ClosingClient(time), time)
    thread.shutdown()
    thread.poll_once(100)  # raises nothing


def test_does_not_send_anything_when_no_requests() -> None:
    """A round without generated requests sends nothing and completes nothing."""
    env = Env()
    env.thread.do_work()
    assert len(env.client.requests) == 0 and env.handler.responses == []


def test_creates_client_request_and_sends_when_node_is_ready() -> None:
    """A generated request goes to its destination as soon as the client says it is ready."""
    env = Env()
    env.enqueue()
    env.thread.do_work()
    [sent] = env.client.requests
    assert sent.destination == "1" and sent.request_timeout_ms == REQUEST_TIMEOUT_MS and sent.callback is env.handler
    assert env.handler.responses == [] and not env.thread.has_unsent_requests


def test_completes_with_disconnected_response_when_node_connection_failed() -> None:
    """A request whose destination failed to connect (here: authentication) is completed as disconnected, with
    the authentication error."""
    env = Env()
    env.client.authentication_failed(NODE, 100)
    env.enqueue()
    env.thread.do_work()
    [response] = env.handler.responses
    assert response.was_disconnected
    assert isinstance(response.authentication_exception, AuthenticationException)
    assert len(env.client.requests) == 0 and not env.thread.has_unsent_requests


def test_fails_expired_requests() -> None:
    """A request still unsent past the request timeout (its destination never became ready) is completed as
    disconnected and dropped."""
    env = Env()
    created = env.time.milliseconds()
    env.time.sleep(1500)
    env.client.delay_ready(NODE, 10_000)  # connecting, not failed: the request stays for the expiry check
    env.enqueue(created)
    env.thread.do_work()
    [response] = env.handler.responses
    assert response.was_disconnected and response.authentication_exception is None
    assert not env.thread.has_unsent_requests


def test_waits_for_a_node_that_is_not_ready_yet() -> None:
    """A request whose destination is still connecting stays unsent until it is ready, then goes out."""
    env = Env()
    env.client.delay_ready(NODE, 500)
    env.enqueue()
    env.thread.do_work()
    assert env.thread.has_unsent_requests and len(env.client.requests) == 0
    env.time.sleep(600)
    env.thread.do_work()
    assert not env.thread.has_unsent_requests and len(env.client.requests) == 1
    assert env.handler.responses == []
