"""The broker's channel to the controller: BrokerToControllerRequestThread over a MockClient (where requests go, what
a NOT_CONTROLLER answer or a lost connection does, retry timeouts, version and authentication failures), the
controller found through a real metadata cache, and the channel manager's named thread starting and stopping."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from kafka.clients.client_response import ClientResponse
from kafka.clients.manual_metadata_updater import ManualMetadataUpdater
from kafka.common.errors import AuthenticationException
from kafka.common.message import AlterPartitionRequestData, AlterPartitionResponseData, UpdateMetadataRequestData
from kafka.common.network.listener_name import ListenerName
from kafka.common.node import Node
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_request import DataBuilder
from kafka.common.requests.alter_partition_request import AlterPartitionRequest
from kafka.common.requests.alter_partition_response import AlterPartitionResponse
from kafka.common.requests.update_metadata_request import UpdateMetadataRequestBuilder
from kafka.common.security.auth.security_protocol import SecurityProtocol
from kafka.common.utils.time import MockTime
from kafka.server.broker_to_controller_channel_manager import (
    BrokerToControllerChannelManagerImpl,
    BrokerToControllerQueueItem,
    BrokerToControllerRequestThread,
    ControllerNodeProvider,
    ControllerRequestCompletionHandler,
    MetadataCacheControllerNodeProvider,
)
from kafka.server.kafka_config import KafkaConfig
from kafka.server.metadata_cache import ZkMetadataCache
from tests.unit.kafka.clients.mock_client import MockClient

CONTROLLER_0 = Node(0, "host0", 9092)
CONTROLLER_2 = Node(2, "host2", 9092)
PLAINTEXT = ListenerName.for_security_protocol(SecurityProtocol.PLAINTEXT)


class StubProvider(ControllerNodeProvider):
    def __init__(self, node: Node | None = None) -> None:
        self.node = node

    def get(self) -> Node | None:
        return self.node

    @property
    def listener_name(self) -> ListenerName:
        return PLAINTEXT

    @property
    def security_protocol(self) -> SecurityProtocol:
        return SecurityProtocol.PLAINTEXT

    @property
    def sasl_mechanism(self) -> str:
        return "GSSAPI"


class RecordingHandler(ControllerRequestCompletionHandler):
    def __init__(self) -> None:
        self.responses: list[ClientResponse] = []
        self.timeouts = 0

    def on_complete(self, response: ClientResponse) -> None:
        self.responses.append(response)

    def on_timeout(self) -> None:
        self.timeouts += 1


def _config(**props: str) -> KafkaConfig:
    return KafkaConfig.from_props({"zookeeper.connect": "localhost:2181", "broker.id": "1", **props}, do_log=False)


def _request() -> DataBuilder[AlterPartitionRequest]:
    return DataBuilder(AlterPartitionRequest, AlterPartitionRequestData(broker_id=1, broker_epoch=5), 0, 1)


def _response(error: Errors = Errors.NONE) -> AlterPartitionResponse:
    return AlterPartitionResponse(AlterPartitionResponseData(error_code=error.code))


class Env:
    def __init__(self, controller: Node | None = CONTROLLER_0, retry_timeout_ms: int = 2**63 - 1) -> None:
        self.time = MockTime()
        self.client = MockClient(self.time)
        self.provider = StubProvider(controller)
        self.updater = ManualMetadataUpdater()
        self.thread = BrokerToControllerRequestThread(
            self.client, self.updater, self.provider, _config(), self.time, "test-send-thread", retry_timeout_ms
        )
        self.handler = RecordingHandler()

    def enqueue(self) -> None:
        self.thread.enqueue(BrokerToControllerQueueItem(self.time.milliseconds(), _request(), self.handler))


def test_request_goes_to_the_controller_and_its_answer_to_the_handler() -> None:
    """The first round finds the controller, the next sends the request there and hands back the answer."""
    env = Env()
    env.enqueue()
    env.client.prepare_response_from(_response(), CONTROLLER_0)
    env.thread.do_work()
    assert env.thread.active_controller_address() == CONTROLLER_0
    assert list(env.updater.fetch_nodes()) == [CONTROLLER_0]
    env.thread.do_work()
    assert env.thread.queue_size == 0
    [response] = env.handler.responses
    assert isinstance(response.response_body, AlterPartitionResponse)
    assert response.response_body.data.error_code == Errors.NONE.code and response.destination == "0"


def test_not_controller_answer_sends_the_request_to_the_new_controller() -> None:
    """NOT_CONTROLLER from the broker reached: the connection is dropped, the controller looked up again and the
    same request sent there; the handler sees only the final answer."""
    env = Env()
    env.enqueue()
    env.client.prepare_response_from(_response(Errors.NOT_CONTROLLER), CONTROLLER_0)
    env.client.prepare_response_from(_response(), CONTROLLER_2)
    env.thread.do_work()
    env.thread.do_work()
    assert env.thread.active_controller_address() is None and env.thread.queue_size == 1
    assert env.handler.responses == []
    env.provider.node = CONTROLLER_2
    env.thread.do_work()
    env.thread.do_work()
    [response] = env.handler.responses
    assert response.destination == "2" and not response.was_disconnected


def test_lost_connection_puts_the_request_back_first() -> None:
    """A disconnect forgets the controller and puts the request back at the head of the queue."""
    env = Env()
    env.enqueue()
    second = RecordingHandler()
    env.thread.enqueue(BrokerToControllerQueueItem(env.time.milliseconds(), _request(), second))
    env.client.prepare_response(_response(), True)  # disconnected
    env.thread.do_work()
    env.thread.do_work()
    assert env.thread.active_controller_address() is None and env.thread.queue_size == 2
    env.client.prepare_response(_response())
    env.client.prepare_response(_response(Errors.STALE_BROKER_EPOCH))
    for _ in range(3):
        env.thread.do_work()
    assert [len(env.handler.responses), len(second.responses)] == [1, 1]
    assert isinstance(second.responses[0].response_body, AlterPartitionResponse)
    assert second.responses[0].response_body.data.error_code == Errors.STALE_BROKER_EPOCH.code


def test_without_a_controller_requests_wait_until_their_retry_timeout() -> None:
    """No controller known: the request stays queued, and is given up (on_timeout) once its retry timeout passed."""
    env = Env(controller=None, retry_timeout_ms=1000)
    env.enqueue()
    env.thread.do_work()
    assert env.thread.queue_size == 1 and env.handler.timeouts == 0
    env.time.sleep(1000)
    env.thread.do_work()
    assert env.thread.queue_size == 0 and env.handler.timeouts == 1 and env.handler.responses == []


def test_unsupported_version_and_authentication_failure_complete_the_request() -> None:
    """A controller without a usable version, or a failed authentication, completes the request with that error
    instead of retrying it."""
    env = Env()
    env.enqueue()
    env.client.prepare_unsupported_version_response(lambda _body: True)
    env.thread.do_work()
    env.thread.do_work()
    [mismatch] = env.handler.responses
    assert mismatch.version_mismatch is not None

    env.client.create_pending_authentication_error(CONTROLLER_0, 100)
    auth = RecordingHandler()
    env.thread.enqueue(BrokerToControllerQueueItem(env.time.milliseconds(), _request(), auth))
    env.thread.do_work()
    [failed] = auth.responses
    assert isinstance(failed.authentication_exception, AuthenticationException)


def _update_metadata(controller_id: int, live: list[int]) -> Any:
    brokers = [
        UpdateMetadataRequestData.UpdateMetadataBroker(
            id=b,
            endpoints=[
                UpdateMetadataRequestData.UpdateMetadataEndpoint(
                    host=f"host{b}",
                    port=9092 + b,
                    listener="PLAINTEXT",
                    security_protocol=SecurityProtocol.PLAINTEXT.id,
                )
            ],
        )
        for b in live
    ]
    return UpdateMetadataRequestBuilder(7, controller_id, 1, 0, [], brokers, {}).build()


def test_metadata_cache_provider_names_the_live_controller_on_the_inter_broker_listener() -> None:
    """The provider answers the controller of the last UpdateMetadata, on the inter-broker listener, and nothing
    while the cache knows no controller or the controller is not among the live brokers."""
    cache = ZkMetadataCache(1)
    provider = MetadataCacheControllerNodeProvider.apply(_config(), cache)
    assert provider.listener_name == PLAINTEXT and provider.security_protocol is SecurityProtocol.PLAINTEXT
    assert provider.get() is None
    cache.update_metadata(1, _update_metadata(2, [0, 1, 2]))
    node = provider.get()
    assert node is not None and (node.id, node.host, node.port) == (2, "host2", 9094)
    cache.update_metadata(2, _update_metadata(0, [1, 2]))
    assert provider.get() is None


def test_channel_manager_runs_its_named_thread_and_stops_it() -> None:
    """The channel's thread is `broker-{id}-to-controller-send-thread` (prefixed when the broker has a prefix),
    runs until shutdown, and shutdown returns once it stopped."""
    plain = BrokerToControllerChannelManagerImpl(StubProvider(None), MockTime(), _config(), "alterIsrChannel", None, 10)
    assert plain.request_thread.name == "broker-1-to-controller-send-thread"
    plain.request_thread.network_client.close()
    manager = BrokerToControllerChannelManagerImpl(
        StubProvider(None), MockTime(), _config(), "alterIsrChannel", "p", 2**63 - 1
    )
    assert manager.request_thread.name == "p:broker-1-to-controller-send-thread"
    manager.start()
    assert any(t.name == "p:broker-1-to-controller-send-thread" for t in threading.enumerate())
    assert manager.controller_api_versions() is None
    manager.shutdown()
    assert not manager.request_thread.is_alive()


@pytest.mark.parametrize("controller_id", [1, 2])
def test_controller_api_versions_of_self_or_unknown_peer(controller_id: int) -> None:
    """The controller's API versions: this broker's own when it is the controller; unknown for a peer never
    reached."""
    manager = BrokerToControllerChannelManagerImpl(
        StubProvider(Node(controller_id, "h", 1)), MockTime(), _config(), "alterIsrChannel", None, 10
    )
    manager.request_thread.do_work()
    versions = manager.controller_api_versions()
    assert (versions is not None) == (controller_id == 1)
    manager.request_thread.network_client.close()
