"""Port of core/src/main/scala/kafka/controller/ControllerEventManager.scala (Kafka 2.8).

Every piece of controller work runs on one thread, `controller-event-thread`, which takes events from an
unbounded FIFO queue and hands them to a processor (the KafkaController). ZooKeeper watches, API handlers and
response callbacks only enqueue events, so the controller's state is touched by this thread alone.

`clear_and_put` drops every waiting event (calling its `preempt`, which answers any callback it carries) and
enqueues one event in their place; the controller uses it when its ZooKeeper session expires and at shutdown.

# PORT: the sealed trait ControllerEvent and the ShutdownEventThread event are defined in KafkaController.scala;
they live here so that this module does not import the controller (kafka_controller re-exports them).

Metrics (kafka.controller:type=ControllerEventManager): the EventQueueSize gauge and the EventQueueTimeMs histogram
(cleared when no event arrived for `event_queue_time_timeout_ms`); each event is timed by the timer of its state
(ControllerStats' `rate_and_time_metrics`), as in Kafka.
"""

from __future__ import annotations

import queue
import threading
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from kafka.common.utils.time import Time
from kafka.controller.controller_state import ControllerState
from kafka.metrics.kafka_metrics_group import KafkaMetricsGroup
from kafka.utils.count_down_latch import CountDownLatch
from kafka.utils.shutdownable_thread import ShutdownableThread
from kafka.utils.time_unit import TimeUnit

if TYPE_CHECKING:
    from collections.abc import Mapping

    from kafka.metrics.yammer import Timer

CONTROLLER_EVENT_THREAD_NAME = "controller-event-thread"
EVENT_QUEUE_TIME_METRIC_NAME = "EventQueueTimeMs"
EVENT_QUEUE_SIZE_METRIC_NAME = "EventQueueSize"

# How long the event thread waits on an empty queue before it checks again whether it should stop. A
# shutdown also wakes it at once with a ShutdownEventThread event; the bound only guards against misuse.
_POLL_TIMEOUT_S = 1.0


class ControllerEvent(ABC):
    """Something for the controller thread to do. `preempt` runs instead of processing when the event is
    dropped by `clear_and_put`, on the caller's thread: events that carry a callback answer it there."""

    @property
    @abstractmethod
    def state(self) -> ControllerState: ...

    @abstractmethod
    def preempt(self) -> None: ...

    def __str__(self) -> str:
        return type(self).__name__


@dataclass(frozen=True, slots=True)
class ShutdownEventThread(ControllerEvent):
    """The poison pill that wakes the event thread so it can stop."""

    @property
    def state(self) -> ControllerState:
        return ControllerState.ControllerShutdown

    def preempt(self) -> None:
        pass


class ControllerEventProcessor(Protocol):
    """What the event thread drives: the controller."""

    def process(self, event: ControllerEvent) -> None: ...

    def preempt(self, event: ControllerEvent) -> None: ...


class QueuedEvent:
    """An event in the queue, with the time it was enqueued. It is either processed or preempted, once."""

    def __init__(self, event: ControllerEvent, enqueue_time_ms: int) -> None:
        self.event = event
        self.enqueue_time_ms = enqueue_time_ms
        self.processing_started = CountDownLatch(1)
        self._spent = False
        self._spent_lock = threading.Lock()

    def _get_and_set_spent(self) -> bool:
        with self._spent_lock:
            was_spent = self._spent
            self._spent = True
            return was_spent

    @property
    def spent(self) -> bool:
        return self._spent

    def process(self, processor: ControllerEventProcessor) -> None:
        if self._get_and_set_spent():
            return
        self.processing_started.count_down()
        processor.process(self.event)

    def preempt(self, processor: ControllerEventProcessor) -> None:
        if self._get_and_set_spent():
            return
        # PORT: Kafka leaves the latch closed for a preempted event, so a waiter on it would wait forever; we
        # open it, since a preempted event will never be processed and nobody should keep waiting for that.
        self.processing_started.count_down()
        processor.preempt(self.event)

    def await_processing(self, timeout_s: float | None = None) -> bool:
        """Waits until the event thread has begun processing this event (or it was preempted); with a
        timeout, False if that did not happen in time."""
        if timeout_s is not None:
            return self.processing_started.await_(timeout_s)
        # Waited for in slices so that the wait stays interruptible.
        while not self.processing_started.await_(1.0):
            pass
        return True

    def __str__(self) -> str:
        return f"QueuedEvent(event={self.event}, enqueueTimeMs={self.enqueue_time_ms})"


class ControllerEventManager(KafkaMetricsGroup):
    """The controller's event queue and the thread that drains it.

    Lock order: `_put_lock` is taken alone; `clear_and_put` calls `preempt` callbacks while holding it, so
    those callbacks must not call back into `put`. (Kafka's callbacks only answer requests.)
    """

    def __init__(
        self,
        controller_id: int,
        processor: ControllerEventProcessor,
        time: Time,
        rate_and_time_metrics: Mapping[ControllerState, Timer] | None = None,
        event_queue_time_timeout_ms: int = 300000,
    ) -> None:
        self.controller_id = controller_id
        self._processor = processor
        self._time = time
        self.event_queue_time_timeout_ms = event_queue_time_timeout_ms
        self._state: ControllerState = ControllerState.Idle
        self._put_lock = threading.RLock()  # Kafka's ReentrantLock: clear_and_put calls put while holding it
        self._queue: queue.Queue[QueuedEvent] = queue.Queue()
        self.thread = ControllerEventThread(self, CONTROLLER_EVENT_THREAD_NAME)
        self._rate_and_time_metrics: Mapping[ControllerState, Timer] = rate_and_time_metrics or {}
        self._event_queue_time_hist = self.new_histogram(EVENT_QUEUE_TIME_METRIC_NAME)
        self.new_gauge(EVENT_QUEUE_SIZE_METRIC_NAME, self._queue.qsize)
        # When the last event was taken (or the thread began waiting): the histogram is cleared once the queue
        # has stayed empty for event_queue_time_timeout_ms.
        self._last_poll_ms = time.milliseconds()

    @property
    def state(self) -> ControllerState:
        return self._state

    def start(self) -> None:
        self.thread.start()

    def close(self) -> None:
        """Stops the event thread after the event it is processing; events still queued are preempted."""
        try:
            self.thread.initiate_shutdown()
            self.clear_and_put(ShutdownEventThread())
            self.thread.await_shutdown()
        finally:
            self.remove_metric(EVENT_QUEUE_TIME_METRIC_NAME)
            self.remove_metric(EVENT_QUEUE_SIZE_METRIC_NAME)

    def put(self, event: ControllerEvent) -> QueuedEvent:
        with self._put_lock:
            queued_event = QueuedEvent(event, self._time.milliseconds())
            self._queue.put(queued_event)
            return queued_event

    def clear_and_put(self, event: ControllerEvent) -> QueuedEvent:
        with self._put_lock:
            preempted_events: list[QueuedEvent] = []
            while True:
                try:
                    preempted_events.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            for preempted in preempted_events:
                preempted.preempt(self._processor)
            return self.put(event)

    def is_empty(self) -> bool:
        return self._queue.empty()

    def queue_size(self) -> int:
        return self._queue.qsize()

    # -- the event thread's side ------------------------------------------------------------------------------

    def _poll_from_event_queue(self) -> QueuedEvent | None:
        # PORT: Kafka blocks in poll(event_queue_time_timeout_ms) then take(); we wait in slices so that the thread
        # can notice a shutdown, and clear the histogram once the slices add up to the timeout.
        try:
            dequeued = self._queue.get(timeout=_POLL_TIMEOUT_S)
        except queue.Empty:
            now_ms = self._time.milliseconds()
            if now_ms - self._last_poll_ms >= self.event_queue_time_timeout_ms:
                if self._event_queue_time_hist.count != 0:
                    self._event_queue_time_hist.clear()
                self._last_poll_ms = now_ms
            return None
        self._last_poll_ms = self._time.milliseconds()
        return dequeued

    def _process_one(self, dequeued: QueuedEvent, thread: ControllerEventThread) -> None:
        event = dequeued.event
        if isinstance(event, ShutdownEventThread):
            return  # the thread is already stopping; this event only woke it up
        self._state = event.state
        self._event_queue_time_hist.update(self._time.milliseconds() - dequeued.enqueue_time_ms)
        timer = self._rate_and_time_metrics.get(event.state)
        try:
            if timer is None:
                dequeued.process(self._processor)
            else:
                start_ns = self._time.nanoseconds()
                try:
                    dequeued.process(self._processor)
                finally:
                    timer.update(self._time.nanoseconds() - start_ns, TimeUnit.NANOSECONDS)
        except Exception as e:  # Kafka catches Throwable here
            thread.error(f"Uncaught error processing event {event}", e)
        self._state = ControllerState.Idle


class ControllerEventThread(ShutdownableThread):
    """`controller-event-thread`: takes one event per `do_work` and processes it."""

    logger_name = "kafka.controller.ControllerEventManager$ControllerEventThread"

    def __init__(self, manager: ControllerEventManager, name: str) -> None:
        super().__init__(name, is_interruptible=False)
        self._manager = manager
        self.log_ident = f"[ControllerEventThread controllerId={manager.controller_id}] "

    def do_work(self) -> None:
        dequeued = self._manager._poll_from_event_queue()
        if dequeued is not None:
            self._manager._process_one(dequeued, self)
