"""Tests of SystemTimer (and MockTimer), after Kafka's TimerTest: tasks fire at their time, cancelled ones never."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator

import pytest

from kafka.common.utils.time import MockTime
from kafka.utils.atomic import AtomicBoolean
from kafka.utils.count_down_latch import CountDownLatch
from kafka.utils.timer.mock_timer import MockTimer
from kafka.utils.timer.timer import SystemTimer
from kafka.utils.timer.timer_task import TimerTask
from tests.utils import wait_until_true


class RecordingTask(TimerTask):
    """Appends its id to `output` the first time it runs."""

    def __init__(self, delay_ms: int, task_id: int, latch: CountDownLatch, output: list[int]) -> None:
        super().__init__(delay_ms)
        self.task_id = task_id
        self.latch = latch
        self.output = output
        self._completed = AtomicBoolean(False)
        self.thread_name: str | None = None

    def run(self) -> None:
        if self._completed.compare_and_set(False, True):
            self.thread_name = threading.current_thread().name
            self.output.append(self.task_id)  # list.append is atomic
            self.latch.count_down()


@pytest.fixture
def timer() -> Iterator[SystemTimer]:
    t = SystemTimer("test", tick_ms=1, wheel_size=3)
    try:
        yield t
    finally:
        t.shutdown()
        assert t.await_shutdown(10)


def test_already_expired_task(timer: SystemTimer) -> None:
    """Tasks with a delay of zero or less run at once, on the executor-{name} thread."""
    output: list[int] = []
    tasks = []
    for i in range(-5, 0):
        task = RecordingTask(i, i, CountDownLatch(1), output)
        timer.add(task)
        tasks.append(task)
    timer.advance_clock(0)
    for task in tasks:
        assert task.latch.await_(30), "already expired tasks should run at once"
    assert set(output) == {-5, -4, -3, -2, -1}
    assert {t.thread_name for t in tasks} == {"executor-test"}


def test_task_expiration_order(timer: SystemTimer) -> None:
    """Tasks from 0 to 500 ms, on a 3-slot wheel so that most go through overflow wheels, fire in delay order."""
    output: list[int] = []
    ids: list[int] = []
    latches: list[CountDownLatch] = []
    tasks: list[RecordingTask] = []
    for i in range(5):
        latch = CountDownLatch(1)
        tasks.append(RecordingTask(i, i, latch, output))
        ids.append(i)
        latches.append(latch)
    for i in range(10, 100):
        latch = CountDownLatch(2)
        tasks += [RecordingTask(i, i, latch, output), RecordingTask(i, i, latch, output)]
        ids += [i, i]
        latches.append(latch)
    for i in range(100, 500):
        latch = CountDownLatch(1)
        tasks.append(RecordingTask(i, i, latch, output))
        ids.append(i)
        latches.append(latch)
    for task in tasks:
        timer.add(task)
    # The reaper's loop, bounded: advance until every task has fired.
    wait_until_true(lambda: (timer.advance_clock(50), all(lt.get_count() == 0 for lt in latches))[1], "all fired")
    assert output == sorted(ids)
    assert timer.size == 0


def _drain(timer: SystemTimer) -> None:
    while timer.advance_clock(0):
        pass


def test_tasks_fire_exactly_when_mock_clock_passes_them() -> None:
    """On a mock clock, after each step exactly the tasks whose time has come have run, across all wheel levels."""
    mock_time = MockTime(start_ms=0, start_ns=0)
    timer = SystemTimer("mock-clock", tick_ms=1, wheel_size=20, time=mock_time)
    try:
        rng = random.Random(42)
        start = mock_time.hi_res_clock_ms()
        delays = [rng.randrange(1, 20_000) for _ in range(300)] + [1, 19, 20, 21, 399, 400, 401, 8000, 8001]
        output: list[int] = []
        tasks = [RecordingTask(d, i, CountDownLatch(1), output) for i, d in enumerate(delays)]
        for task in tasks:
            timer.add(task)
        assert timer.size == len(tasks)
        elapsed = 0
        for step in [1, 18, 1, 1, 1, 378, 1, 1, 500, 7000, 600, 1, 1500, 5000, 5000]:
            mock_time.sleep(step)
            elapsed += step
            assert mock_time.hi_res_clock_ms() - start == elapsed
            _drain(timer)
            expected = sorted(i for i, d in enumerate(delays) if d <= elapsed)
            wait_until_true(lambda e=expected: sorted(output) == e, f"tasks due by {elapsed} ms to have run")  # type: ignore[misc]
            assert timer.size == len(tasks) - len(expected)
        assert len(output) == len(tasks)
    finally:
        timer.shutdown()
        assert timer.await_shutdown(10)


def test_cancelled_tasks_do_not_run() -> None:
    """Cancelled tasks never run, while the others with the same delay do."""
    mock_time = MockTime(start_ms=0, start_ns=0)
    timer = SystemTimer("cancel", time=mock_time)
    try:
        output: list[int] = []
        tasks = [RecordingTask(100 + (i % 3) * 1000, i, CountDownLatch(1), output) for i in range(30)]
        for task in tasks:
            timer.add(task)
        for task in tasks[::2]:
            task.cancel()
        assert timer.size == 15
        mock_time.sleep(5000)
        _drain(timer)
        expected = sorted(t.task_id for t in tasks[1::2])
        wait_until_true(lambda: sorted(output) == expected, "uncancelled tasks to run")
        assert timer.size == 0
        # A cancelled task that is added again is scheduled afresh.
        again = tasks[0]
        timer.add(again)
        mock_time.sleep(again.delay_ms)
        _drain(timer)
        wait_until_true(lambda: 0 in output, "re-added task to run")
    finally:
        timer.shutdown()
        assert timer.await_shutdown(10)


def test_advance_clock_times_out_without_due_buckets() -> None:
    """advance_clock returns False when nothing expires within its timeout."""
    mock_time = MockTime(start_ms=0, start_ns=0)
    timer = SystemTimer("idle", time=mock_time)
    try:
        timer.add(RecordingTask(1000, 1, CountDownLatch(1), []))
        assert not timer.advance_clock(10)
        assert timer.size == 1
    finally:
        timer.shutdown()


def test_mock_timer() -> None:
    """MockTimer runs due tasks in the caller's thread when its clock moves past them, skipping cancelled ones."""
    timer = MockTimer(MockTime(start_ms=0))
    output: list[int] = []
    immediate = RecordingTask(0, 0, CountDownLatch(1), output)
    timer.add(immediate)
    assert output == [0]
    later = [RecordingTask(d, d, CountDownLatch(1), output) for d in (10, 20, 30)]
    for task in later:
        timer.add(task)
    later[1].cancel()
    assert not timer.advance_clock(10)  # a task fires once the clock is strictly past its expiration
    assert timer.advance_clock(1) and output == [0, 10]
    assert timer.advance_clock(100) and output == [0, 10, 30]
    assert later[0].thread_name == threading.current_thread().name
