"""Tests of TimerTaskList and TimerTaskEntry, after Kafka's TimerTaskListTest."""

from __future__ import annotations

from kafka.utils.atomic import AtomicInteger
from kafka.utils.timer.timer_task import TimerTask
from kafka.utils.timer.timer_task_list import TimerTaskEntry, TimerTaskList


class NoopTask(TimerTask):
    def run(self) -> None:
        pass


def _size(lst: TimerTaskList) -> int:
    seen: list[TimerTask] = []
    lst.foreach(seen.append)
    return len(seen)


def test_moving_and_cancelling_entries_keeps_counts() -> None:
    """A task lives in one list at a time: re-adding moves it, cancelling removes it, and the shared counter agrees."""
    counter = AtomicInteger()
    list1, list2, list3 = TimerTaskList(counter), TimerTaskList(counter), TimerTaskList(counter)
    tasks = []
    for i in range(1, 11):
        task = NoopTask(0)
        list1.add(TimerTaskEntry(task, 10))
        assert counter.get() == i
        tasks.append(task)

    for task in tasks[:4]:
        list2.add(TimerTaskEntry(task, 10))  # the task's old entry leaves list1
        assert counter.get() == 10
    assert (_size(list1), _size(list2)) == (6, 4)

    for task in tasks[4:]:
        list3.add(TimerTaskEntry(task, 10))
    assert (_size(list1), _size(list2), _size(list3), counter.get()) == (0, 4, 6, 10)

    list2.foreach(lambda t: t.cancel())  # cancelling from inside a traversal is allowed
    assert (_size(list1), _size(list2), _size(list3), counter.get()) == (0, 0, 6, 6)
    list3.foreach(lambda t: t.cancel())
    assert (_size(list3), counter.get()) == (0, 0)


def test_flush_empties_in_order_and_resets_expiration() -> None:
    """flush hands every entry over in insertion order, empties the list and clears its expiration."""
    counter = AtomicInteger()
    lst = TimerTaskList(counter)
    assert lst.set_expiration(100) and not lst.set_expiration(100) and lst.get_expiration() == 100
    entries = [TimerTaskEntry(NoopTask(0), 100 + i) for i in range(5)]
    for e in entries:
        lst.add(e)
    flushed: list[TimerTaskEntry] = []
    lst.flush(flushed.append)
    assert flushed == entries
    assert _size(lst) == 0 and counter.get() == 0 and lst.get_expiration() == -1
    assert all(e.list is None and e.next is None and e.prev is None for e in entries)


def test_cancelled_entry_is_skipped_and_superseded() -> None:
    """An entry whose task was cancelled or moved to a newer entry counts as cancelled."""
    task = NoopTask(0)
    old = TimerTaskEntry(task, 5)
    assert not old.cancelled and task.get_timer_task_entry() is old
    new = TimerTaskEntry(task, 7)
    assert old.cancelled and not new.cancelled
    task.cancel()
    assert new.cancelled and task.get_timer_task_entry() is None
