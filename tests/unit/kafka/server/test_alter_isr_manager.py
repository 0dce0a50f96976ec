"""DefaultAlterIsrManager against a recording channel to the controller: how pending ISR changes are batched into
AlterIsr requests, what the requests carry, and how each kind of answer reaches the partitions' callbacks."""

from __future__ import annotations

from typing import Any

import pytest

from kafka.api.leader_and_isr import LeaderAndIsr
from kafka.clients.client_response import ClientResponse
from kafka.clients.node_api_versions import NodeApiVersions
from kafka.common.errors import AuthenticationException, UnsupportedVersionException
from kafka.common.message import AlterPartitionResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_request import Builder
from kafka.common.requests.alter_partition_response import AlterPartitionResponse
from kafka.common.requests.request_header import RequestHeader
from kafka.common.topic_partition import TopicPartition
from kafka.common.utils.time import MockTime
from kafka.server.alter_isr_manager import AlterIsrItem, DefaultAlterIsrManager
from kafka.server.broker_to_controller_channel_manager import (
    BrokerToControllerChannelManager,
    ControllerRequestCompletionHandler,
)
from kafka.utils.mock_scheduler import MockScheduler

BROKER_ID = 1
T0, T1, U0 = TopicPartition("t", 0), TopicPartition("t", 1), TopicPartition("u", 0)


class RecordingChannel(BrokerToControllerChannelManager):
    """Keeps what would go to the controller; a test answers it with `respond`."""

    def __init__(self) -> None:
        self.sent: list[tuple[Builder[Any], ControllerRequestCompletionHandler]] = []
        self.started = False
        self.stopped = False

    def start(self) -> None:
        self.started = True

    def shutdown(self) -> None:
        self.stopped = True

    def controller_api_versions(self) -> NodeApiVersions | None:
        return None

    def send_request(self, request: Builder[Any], callback: ControllerRequestCompletionHandler) -> None:
        self.sent.append((request, callback))

    def request_data(self, i: int = -1) -> Any:
        return self.sent[i][0].build().data

    def sent_partitions(self, i: int = -1) -> dict[TopicPartition, Any]:
        return {
            TopicPartition(t.topic_name, p.partition_index): p
            for t in self.request_data(i).topics
            for p in t.partitions
        }

    def respond(
        self,
        body: AlterPartitionResponseData | None,
        i: int = -1,
        disconnected: bool = False,
        version_mismatch: UnsupportedVersionException | None = None,
        authentication_exception: AuthenticationException | None = None,
    ) -> None:
        builder, handler = self.sent[i]
        header = RequestHeader.of(ApiKeys.ALTER_PARTITION, builder.latest_allowed_version, "1", 7)
        handler.on_complete(
            ClientResponse(
                header,
                handler,
                "0",
                0,
                0,
                disconnected,
                version_mismatch,
                authentication_exception,
                None if body is None else AlterPartitionResponse(body),
            )
        )


class Env:
    def __init__(self) -> None:
        self.time = MockTime()
        self.scheduler = MockScheduler(self.time)
        self.channel = RecordingChannel()
        self.broker_epoch = 100
        self.manager = DefaultAlterIsrManager(
            self.channel, self.scheduler, self.time, BROKER_ID, lambda: self.broker_epoch
        )
        self.results: dict[TopicPartition, list[Errors | LeaderAndIsr]] = {}

    def item(
        self, tp: TopicPartition, isr: tuple[int, ...] = (1, 2), leader_epoch: int = 5, zk_version: int = 3
    ) -> Any:
        return AlterIsrItem(
            tp,
            LeaderAndIsr(BROKER_ID, leader_epoch, isr, zk_version),
            lambda result: self.results.setdefault(tp, []).append(result),
            7,
        )


def _ok(tp: TopicPartition, isr: list[int], leader_epoch: int = 5, zk_version: int = 4) -> Any:
    return AlterPartitionResponseData.PartitionData(
        partition_index=tp.partition,
        leader_id=BROKER_ID,
        leader_epoch=leader_epoch,
        isr=isr,
        partition_epoch=zk_version,
    )


def _err(tp: TopicPartition, error: Errors) -> Any:
    return AlterPartitionResponseData.PartitionData(partition_index=tp.partition, error_code=error.code)


def _response(by_topic: dict[str, list[Any]], error: Errors = Errors.NONE) -> AlterPartitionResponseData:
    return AlterPartitionResponseData(
        error_code=error.code,
        topics=[AlterPartitionResponseData.TopicData(topic_name=t, partitions=ps) for t, ps in by_topic.items()],
    )


@pytest.fixture
def env() -> Env:
    return Env()


def test_start_and_shutdown_drive_the_channel(env: Env) -> None:
    """The manager starts and stops its channel to the controller."""
    env.manager.start()
    env.manager.shutdown()
    assert env.channel.started and env.channel.stopped


def test_request_carries_broker_epoch_leader_epoch_isr_and_partition_epoch(env: Env) -> None:
    """One submit sends one AlterIsr with this broker's id and epoch, and the partition's leader epoch, proposed ISR
    and zk version as partition epoch; the request is sent at versions 0-1 (topic names, as inter-broker 2.8)."""
    assert env.manager.submit(env.item(T0, isr=(1, 2, 3), leader_epoch=6, zk_version=9))
    assert len(env.channel.sent) == 1
    builder = env.channel.sent[0][0]
    assert (builder.api_key, builder.oldest_allowed_version, builder.latest_allowed_version) == (
        ApiKeys.ALTER_PARTITION,
        0,
        1,
    )
    data = env.channel.request_data()
    assert (data.broker_id, data.broker_epoch) == (BROKER_ID, 100)
    sent = env.channel.sent_partitions()[T0]
    assert (sent.leader_epoch, list(sent.new_isr), sent.partition_epoch) == (6, [1, 2, 3], 9)


def test_one_pending_change_per_partition(env: Env) -> None:
    """A second change for a partition with one pending is refused; other partitions are taken."""
    assert env.manager.submit(env.item(T0))
    assert not env.manager.submit(env.item(T0, isr=(1,)))
    assert env.manager.submit(env.item(T1))
    assert set(env.manager.unsent_isr_updates) == {T0, T1}


def test_changes_submitted_while_a_request_is_in_flight_go_in_one_batch(env: Env) -> None:
    """Only one request is in flight; what comes meanwhile is sent together once the answer arrives."""
    env.manager.submit(env.item(T0))
    env.manager.submit(env.item(T1))
    env.manager.submit(env.item(U0))
    assert len(env.channel.sent) == 1 and set(env.channel.sent_partitions(0)) == {T0}
    env.channel.respond(_response({"t": [_ok(T0, [1, 2])]}), 0)
    assert env.results[T0] == [LeaderAndIsr(BROKER_ID, 5, (1, 2), 4)]
    assert len(env.channel.sent) == 2 and set(env.channel.sent_partitions(1)) == {T1, U0}
    by_topic = {t.topic_name: [p.partition_index for p in t.partitions] for t in env.channel.request_data(1).topics}
    assert by_topic == {"t": [1], "u": [0]}


@pytest.mark.parametrize(
    "error", [Errors.INVALID_UPDATE_VERSION, Errors.FENCED_LEADER_EPOCH, Errors.UNKNOWN_TOPIC_OR_PARTITION]
)
def test_partition_errors_reach_the_callback_and_free_the_partition(env: Env, error: Errors) -> None:
    """A partition-level error goes to that partition's callback; the partition may then submit again."""
    env.manager.submit(env.item(T0))
    env.manager.submit(env.item(T1))
    env.channel.respond(_response({"t": [_err(T0, error)]}), 0)
    assert env.results[T0] == [error]
    assert T0 not in env.manager.unsent_isr_updates
    assert env.manager.submit(env.item(T0))


def test_a_mixed_answer_runs_each_callback_with_its_own_outcome(env: Env) -> None:
    """Successes and errors of one answer go to their own partitions."""
    env.manager.submit(env.item(T0))
    env.manager.submit(env.item(T1))
    env.manager.submit(env.item(U0))
    env.channel.respond(_response({"t": []}), 0)  # T0 left out: stays pending and is sent again
    assert env.results == {} and T0 in env.manager.unsent_isr_updates
    assert set(env.channel.sent_partitions(1)) == {T0, T1, U0}
    env.channel.respond(
        _response({"t": [_ok(T0, [1, 2], zk_version=8), _err(T1, Errors.FENCED_LEADER_EPOCH)], "u": [_ok(U0, [1])]}),
        1,
    )
    assert env.results == {
        T0: [LeaderAndIsr(BROKER_ID, 5, (1, 2), 8)],
        T1: [Errors.FENCED_LEADER_EPOCH],
        U0: [LeaderAndIsr(BROKER_ID, 5, (1,), 4)],
    }
    assert env.manager.unsent_isr_updates == {}


@pytest.mark.parametrize(
    "error", [Errors.STALE_BROKER_EPOCH, Errors.NOT_CONTROLLER, Errors.CLUSTER_AUTHORIZATION_FAILED]
)
def test_top_level_errors_resend_the_batch_after_a_backoff(env: Env, error: Errors) -> None:
    """A top-level error leaves the callbacks alone and sends the same changes again 50 ms later, with the broker
    epoch of that moment."""
    env.manager.submit(env.item(T0))
    env.channel.respond(_response({}, error), 0)
    assert env.results == {} and T0 in env.manager.unsent_isr_updates
    assert len(env.channel.sent) == 1
    env.broker_epoch = 200
    env.time.sleep(49)
    env.scheduler.tick()
    assert len(env.channel.sent) == 1
    env.time.sleep(1)
    env.scheduler.tick()
    assert len(env.channel.sent) == 2
    assert set(env.channel.sent_partitions(1)) == {T0} and env.channel.request_data(1).broker_epoch == 200


def test_version_mismatch_and_authentication_failures_are_retried(env: Env) -> None:
    """A controller that does not serve AlterIsr, or a failed authentication, leaves the change pending and the
    batch is sent again after the backoff."""
    env.manager.submit(env.item(T0))
    env.channel.respond(None, 0, version_mismatch=UnsupportedVersionException("no AlterIsr"))
    env.time.sleep(50)
    env.scheduler.tick()
    env.channel.respond(None, 1, authentication_exception=AuthenticationException("bad"))
    env.time.sleep(50)
    env.scheduler.tick()
    assert len(env.channel.sent) == 3 and env.results == {}
    env.channel.respond(_response({"t": [_ok(T0, [1, 2])]}), 2)
    assert env.results[T0] == [LeaderAndIsr(BROKER_ID, 5, (1, 2), 4)]


def test_a_callback_may_resubmit_its_partition(env: Env) -> None:
    """A partition that retries from its callback (an unexpected error) gets its new change taken and sent."""
    resubmitted: list[bool] = []

    def callback(result: Errors | LeaderAndIsr) -> None:
        if result == Errors.UNKNOWN_SERVER_ERROR:
            resubmitted.append(env.manager.submit(env.item(T0)))

    env.manager.submit(AlterIsrItem(T0, LeaderAndIsr(BROKER_ID, 5, (1, 2), 3), callback, 7))
    env.channel.respond(_response({"t": [_err(T0, Errors.UNKNOWN_SERVER_ERROR)]}), 0)
    assert resubmitted == [True]
    assert len(env.channel.sent) == 2 and set(env.channel.sent_partitions(1)) == {T0}


def test_clear_pending_drops_an_unsent_change(env: Env) -> None:
    """A partition that got new state from the controller drops its unsent change: it is not sent."""
    env.manager.submit(env.item(T0))
    env.manager.submit(env.item(T1))
    env.manager.clear_pending(T1)
    env.channel.respond(_response({"t": [_ok(T0, [1, 2])]}), 0)
    assert len(env.channel.sent) == 1 and T1 not in env.results


def test_a_callback_error_does_not_stop_the_others(env: Env) -> None:
    """An exception in one partition's callback is logged; the other partitions still get their answers."""

    def failing(_result: Errors | LeaderAndIsr) -> None:
        raise RuntimeError("boom")

    env.manager.submit(env.item(T1))  # in flight alone
    env.manager.submit(AlterIsrItem(T0, LeaderAndIsr(BROKER_ID, 5, (1, 2), 3), failing, 7))
    env.manager.submit(env.item(U0))
    env.channel.respond(_response({"t": [_ok(T1, [1, 2])]}), 0)
    env.channel.respond(_response({"t": [_ok(T0, [1, 2])], "u": [_ok(U0, [1, 2])]}), 1)
    assert env.results[U0] == [LeaderAndIsr(BROKER_ID, 5, (1, 2), 4)]
    assert env.manager.unsent_isr_updates == {}
