"""Port of clients/src/main/java/org/apache/kafka/common/utils/KafkaThread.java (Kafka 2.8).

A named thread with an explicit daemon flag, whose uncaught exceptions are logged rather than lost.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

log = logging.getLogger("org.apache.kafka.common.utils.KafkaThread")


class KafkaThread(threading.Thread):
    """`threading.Thread` that is named, has its daemon flag set at construction and logs what escapes `run()`.

    # PORT: Java installs an UncaughtExceptionHandler per thread; Python's per-process `threading.excepthook`
    # would catch every thread, so `run()` itself catches and logs, which gives the same observable outcome.
    """

    def __init__(self, name: str, target: Callable[[], Any] | None = None, daemon: bool = False) -> None:
        super().__init__(name=name, target=target, daemon=daemon)

    @classmethod
    def daemon_thread(cls, name: str, target: Callable[[], Any]) -> KafkaThread:
        """Java's `KafkaThread.daemon(name, runnable)` (renamed: `daemon` is a Thread attribute in Python)."""
        return cls(name, target, True)

    @classmethod
    def non_daemon(cls, name: str, target: Callable[[], Any]) -> KafkaThread:
        return cls(name, target, False)

    def run(self) -> None:
        try:
            super().run()
        except BaseException as e:  # an uncaught exception handler sees everything
            log.error("Uncaught exception in thread '%s':", self.name, exc_info=e)
