"""Port of clients/src/main/java/org/apache/kafka/clients/NetworkClientUtils.java (Kafka 2.8).

Blocking helpers over a KafkaClient for callers that talk to one node at a time and wait for each answer (a
broker's replica fetchers): wait until a node is ready, and send a request and poll until its response arrives.
"""

from __future__ import annotations

from kafka.clients.client_request import ClientRequest
from kafka.clients.client_response import ClientResponse
from kafka.clients.kafka_client import KafkaClient
from kafka.common.errors import DisconnectException
from kafka.common.node import Node
from kafka.common.utils.time import Time

__all__ = ["await_ready", "is_ready", "send_and_receive"]

_LONG_MAX = 2**63 - 1


def is_ready(client: KafkaClient, node: Node, current_time: int) -> bool:
    """Whether `node` can take a request now, after one non-blocking poll."""
    client.poll(0, current_time)
    return client.is_ready(node, current_time)


def await_ready(client: KafkaClient, node: Node, time: Time, timeout_ms: int) -> bool:
    """Connects to `node` if needed and waits up to `timeout_ms` for it to be ready; OSError if the connection
    fails, the authentication error if authentication fails."""
    if timeout_ms < 0:
        raise ValueError("Timeout needs to be greater than 0")
    start_time = time.milliseconds()
    if is_ready(client, node, start_time) or client.ready(node, start_time):
        return True
    attempt_start_time = time.milliseconds()
    while not client.is_ready(node, attempt_start_time) and attempt_start_time - start_time < timeout_ms:
        if client.connection_failed(node):
            raise OSError(f"Connection to {node} failed.")
        poll_timeout = timeout_ms - (attempt_start_time - start_time)
        client.poll(poll_timeout, attempt_start_time)
        authentication_exception = client.authentication_exception(node)
        if authentication_exception is not None:
            raise authentication_exception
        attempt_start_time = time.milliseconds()
    return client.is_ready(node, attempt_start_time)


def send_and_receive(client: KafkaClient, request: ClientRequest, time: Time) -> ClientResponse:
    """Sends `request` and polls until its response arrives; OSError if the connection is lost first or the
    client is closed meanwhile, the UnsupportedVersionException if the node cannot take the request's version."""
    try:
        client.send(request, time.milliseconds())
        while client.active():
            for response in client.poll(_LONG_MAX, time.milliseconds()):
                if response.request_header.correlation_id == request.correlation_id:
                    if response.was_disconnected:
                        raise OSError(
                            f"Connection to {response.destination} was disconnected before the response was read"
                        )
                    mismatch = response.version_mismatch
                    if mismatch is not None:
                        raise mismatch
                    return response
        raise OSError("Client was shutdown before response was read")
    except DisconnectException:
        if client.active():
            raise
        raise OSError("Client was shutdown before response was read") from None
