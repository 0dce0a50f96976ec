"""Port of core/src/main/scala/kafka/utils/ShutdownableThread.scala (Kafka 2.8).

A thread that calls `do_work()` over and over until someone asks it to stop. Stopping is two-phase:
`initiate_shutdown()` flags it (and wakes a `pause()`), `await_shutdown()` waits for the loop to end.
"""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod

from kafka.utils.count_down_latch import CountDownLatch
from kafka.utils.logging import Logging


class ShutdownableThread(threading.Thread, Logging, ABC):
    """Base of the broker's long-running loops (reapers, fetchers, the controller's event thread, ...).

    Non-daemon, as in Kafka. Logs under the concrete class's name (as Kafka's getClass-based loggers do),
    with `[name]: ` as log ident.

    # PORT: Java's `interrupt()` has no Python equivalent. An interruptible thread's blocking waits are expected
    # to be bounded or woken: `pause()` returns as soon as shutdown is initiated, and subclasses that block
    # elsewhere (queues, selectors) override `initiate_shutdown()` to wake that wait as well.
    """

    def __init__(self, name: str, is_interruptible: bool = True) -> None:
        threading.Thread.__init__(self, name=name, daemon=False)
        self.is_interruptible = is_interruptible
        self.log_ident = f"[{name}]: "
        self._shutdown_initiated = CountDownLatch(1)
        self._shutdown_complete = CountDownLatch(1)
        self._loop_started = False
        self._state_lock = threading.RLock()  # `this.synchronized` in Scala

    def shutdown(self) -> None:
        self.initiate_shutdown()
        self.await_shutdown()

    @property
    def is_shutdown_initiated(self) -> bool:
        return self._shutdown_initiated.get_count() == 0

    @property
    def is_shutdown_complete(self) -> bool:
        return self._shutdown_complete.get_count() == 0

    @property
    def is_thread_failed(self) -> bool:
        """True if the loop ended because of an unexpected error rather than a shutdown request."""
        return self.is_shutdown_complete and not self.is_shutdown_initiated

    def initiate_shutdown(self) -> bool:
        """Asks the loop to stop; True if this call did so (False if it was already stopping or had failed)."""
        with self._state_lock:
            if self.is_running:
                self.info("Shutting down")
                self._shutdown_initiated.count_down()
                return True
            return False

    def await_shutdown(self) -> None:
        """Waits for the loop to end; initiate_shutdown() must have been called first."""
        if not self.is_shutdown_initiated:
            raise RuntimeError("initiate_shutdown() was not called before await_shutdown()")
        if self._loop_started or self.is_alive():
            # PORT: Java waits without a bound; we wait in slices so that the wait stays interruptible
            # (Ctrl-C in the main thread) while keeping Kafka's "until the loop ends" meaning.
            while not self._shutdown_complete.await_(1.0):
                pass
        self.info("Shutdown completed")

    def pause(self, timeout_s: float) -> None:
        """Sleeps up to `timeout_s` seconds, returning early once shutdown is initiated."""
        if self._shutdown_initiated.await_(timeout_s):
            self.trace("shutdownInitiated latch count reached zero. Shutdown called.")

    @abstractmethod
    def do_work(self) -> None:
        """One iteration of the loop; called until shutdown is initiated or it raises."""

    def run(self) -> None:
        self._loop_started = True
        self.info("Starting")
        try:
            while self.is_running:
                self.do_work()
        except BaseException as e:  # Kafka catches Throwable here
            # PORT: Kafka exits the JVM on FatalExitError; this project has no such error type yet, so every
            # exception is handled the same way: logged unless we were shutting down, and the loop stops.
            if self.is_running:
                self.error("Error due to", e)
        finally:
            self._shutdown_complete.count_down()
        self.info("Stopped")

    @property
    def is_running(self) -> bool:
        return not self.is_shutdown_initiated
