"""Tests of ControllerEventManager, QueuedEvent and ControllerState (Kafka's ControllerEventManagerTest)."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from kafka.common.utils.time import MockTime, Time
from kafka.controller.controller_event_manager import (
    CONTROLLER_EVENT_THREAD_NAME,
    ControllerEvent,
    ControllerEventManager,
    QueuedEvent,
)
from kafka.controller.controller_state import ControllerState
from tests.utils import wait_until_true


@dataclass(eq=False)
class RecordingEvent(ControllerEvent):
    """An event that records where it ran; it can block its processing until released."""

    name: str
    event_state: ControllerState = ControllerState.TopicChange
    release: threading.Event | None = None
    preempted: list[str] = field(default_factory=list)

    @property
    def state(self) -> ControllerState:
        return self.event_state

    def preempt(self) -> None:
        self.preempted.append(self.name)


class RecordingProcessor:
    def __init__(self) -> None:
        self.processed: list[str] = []
        self.threads: list[str] = []
        self.states_seen: list[ControllerState] = []
        self.manager: ControllerEventManager | None = None
        self.started = threading.Event()

    def process(self, event: ControllerEvent) -> None:
        assert isinstance(event, RecordingEvent)
        self.threads.append(threading.current_thread().name)
        if self.manager is not None:
            self.states_seen.append(self.manager.state)
        self.started.set()
        if event.release is not None:
            event.release.wait(10)
        if event.name == "boom":
            raise RuntimeError("processing failed")
        self.processed.append(event.name)

    def preempt(self, event: ControllerEvent) -> None:
        event.preempt()


def _manager(processor: RecordingProcessor, time: Time | None = None) -> ControllerEventManager:
    manager = ControllerEventManager(1, processor, time or MockTime())
    processor.manager = manager
    return manager


def test_events_are_processed_in_order_on_the_controller_event_thread() -> None:
    """Events put on the queue are processed one by one, in order, on `controller-event-thread`."""
    processor = RecordingProcessor()
    manager = _manager(processor)
    manager.start()
    try:
        for i in range(20):
            manager.put(RecordingEvent(f"e{i}"))
        wait_until_true(lambda: len(processor.processed) == 20, "all events processed")
        assert processor.processed == [f"e{i}" for i in range(20)]
        assert set(processor.threads) == {CONTROLLER_EVENT_THREAD_NAME}
        assert manager.thread.name == "controller-event-thread" and not manager.thread.daemon
    finally:
        manager.close()
    assert not manager.thread.is_alive()


def test_state_is_the_event_state_while_processing_and_idle_after() -> None:
    """The manager reports the processed event's controller state, and Idle once it is done."""
    processor = RecordingProcessor()
    manager = _manager(processor)
    release = threading.Event()
    manager.start()
    try:
        assert manager.state == ControllerState.Idle
        manager.put(RecordingEvent("slow", ControllerState.BrokerChange, release))
        assert processor.started.wait(10)
        assert manager.state == ControllerState.BrokerChange
        release.set()
        wait_until_true(lambda: processor.processed == ["slow"], "event processed")
        wait_until_true(lambda: manager.state == ControllerState.Idle, "state back to Idle")
        assert processor.states_seen == [ControllerState.BrokerChange]
    finally:
        release.set()
        manager.close()


def test_an_exception_in_one_event_does_not_stop_the_thread() -> None:
    """A failing event is logged and the following events are still processed."""
    processor = RecordingProcessor()
    manager = _manager(processor)
    manager.start()
    try:
        manager.put(RecordingEvent("boom"))
        manager.put(RecordingEvent("after"))
        wait_until_true(lambda: processor.processed == ["after"], "event after the failure processed")
        assert manager.thread.is_alive()
    finally:
        manager.close()


def test_clear_and_put_preempts_waiting_events_and_processes_the_new_one() -> None:
    """clear_and_put drops the queued events (calling their preempt) and enqueues its own event."""
    processor = RecordingProcessor()
    manager = _manager(processor)
    release = threading.Event()
    manager.start()
    try:
        manager.put(RecordingEvent("blocking", release=release))
        assert processor.started.wait(10)
        waiting = [RecordingEvent(f"w{i}") for i in range(3)]
        queued = [manager.put(e) for e in waiting]
        expire = manager.clear_and_put(RecordingEvent("expire"))
        assert [e.preempted for e in waiting] == [["w0"], ["w1"], ["w2"]]
        assert all(q.spent for q in queued)
        # A preempted event is never processed, and waiting for it does not hang.
        assert queued[0].await_processing(0.01)
        release.set()
        assert expire.await_processing(10)
        wait_until_true(lambda: processor.processed == ["blocking", "expire"], "expire processed")
    finally:
        release.set()
        manager.close()


def test_close_stops_the_thread_and_preempts_what_is_queued() -> None:
    """close() lets the current event finish, preempts the rest and ends the thread."""
    processor = RecordingProcessor()
    manager = _manager(processor)
    release = threading.Event()
    manager.start()
    current = RecordingEvent("current", release=release)
    queued = RecordingEvent("queued")
    manager.put(current)
    assert processor.started.wait(10)
    manager.put(queued)
    closer = threading.Thread(target=manager.close, name="test-closer")
    closer.start()
    wait_until_true(lambda: queued.preempted == ["queued"], "queued event preempted by close")
    release.set()
    closer.join(10)
    assert not closer.is_alive()
    assert not manager.thread.is_alive()
    assert processor.processed == ["current"]


def test_close_without_start_returns() -> None:
    """Closing a manager whose thread never started returns at once."""
    manager = _manager(RecordingProcessor())
    manager.close()
    assert not manager.thread.is_alive()


def test_queued_event_runs_once() -> None:
    """A queued event is either processed or preempted, and only once."""
    processor = RecordingProcessor()
    event = RecordingEvent("once")
    queued = QueuedEvent(event, 5)
    queued.process(processor)
    queued.process(processor)
    queued.preempt(processor)
    assert processor.processed == ["once"]
    assert event.preempted == []
    assert queued.enqueue_time_ms == 5
    assert str(queued) == "QueuedEvent(event=RecordingEvent, enqueueTimeMs=5)"


def test_enqueue_time_comes_from_the_injected_clock() -> None:
    """The enqueue time of an event is read from the manager's Time."""
    time = MockTime(start_ms=1_000)
    manager = _manager(RecordingProcessor(), time)
    queued = manager.put(RecordingEvent("x"))
    assert queued.enqueue_time_ms == 1_000
    assert not manager.is_empty() and manager.queue_size() == 1


def test_controller_states_have_kafka_values_and_metric_names() -> None:
    """Controller states carry Kafka's byte values, names and rate-and-time metric names."""
    values = ControllerState.values()
    assert [s.value for s in values] == list(range(18))
    assert str(ControllerState.BrokerChange) == "BrokerChange"
    assert ControllerState.Idle.rate_and_time_metric_name is None
    assert ControllerState.UpdateMetadataResponseReceived.rate_and_time_metric_name is None
    assert ControllerState.BrokerChange.rate_and_time_metric_name == "LeaderElectionRateAndTimeMs"
    assert ControllerState.AlterPartitionReassignment.rate_and_time_metric_name == "PartitionReassignmentRateAndTimeMs"
    assert ControllerState.TopicChange.rate_and_time_metric_name == "TopicChangeRateAndTimeMs"
    assert ControllerState.TopicChange == type(ControllerState.TopicChange)()


def _metric(mbean_name: str) -> Any:
    from kafka.metrics.kafka_yammer_metrics import KafkaYammerMetrics

    for name, metric in KafkaYammerMetrics.default_registry().all_metrics().items():
        if name.mbean_name == mbean_name:
            return metric
    return None


def test_queue_size_queue_time_and_state_timers_are_measured() -> None:
    """EventQueueSize counts waiting events, EventQueueTimeMs gets one value per processed event, the event's
    state timer counts it; the manager's metrics are removed when it closes."""
    from kafka.metrics.kafka_yammer_metrics import KafkaYammerMetrics
    from kafka.metrics.yammer import Timer
    from kafka.utils.time_unit import TimeUnit

    # Managers of other tests that were never closed still own the names (Yammer hands out the registered metric).
    for leftover in ("EventQueueSize", "EventQueueTimeMs"):
        probe = _metric(f"kafka.controller:type=ControllerEventManager,name={leftover}")
        if probe is not None:
            for name, metric in list(KafkaYammerMetrics.default_registry().all_metrics().items()):
                if metric is probe:
                    KafkaYammerMetrics.default_registry().remove_metric(name)
    processor = RecordingProcessor()
    timer = Timer(TimeUnit.MILLISECONDS, TimeUnit.SECONDS)
    manager = ControllerEventManager(1, processor, MockTime(), {ControllerState.TopicChange: timer})
    processor.manager = manager
    size_name = "kafka.controller:type=ControllerEventManager,name=EventQueueSize"
    time_name = "kafka.controller:type=ControllerEventManager,name=EventQueueTimeMs"
    try:
        manager.put(RecordingEvent("a"))
        manager.put(RecordingEvent("b", ControllerState.BrokerChange))
        assert _metric(size_name).value() == 2
        histogram_before = _metric(time_name).count
        manager.start()
        wait_until_true(lambda: processor.processed == ["a", "b"], "both events processed")
        assert _metric(size_name).value() == 0
        assert _metric(time_name).count == histogram_before + 2
        assert timer.count == 1  # only the TopicChange event has this timer
    finally:
        manager.close()
    assert _metric(size_name) is None and _metric(time_name) is None
