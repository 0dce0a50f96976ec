"""Port of core/src/main/scala/kafka/server/LogDirFailureChannel.scala (Kafka 2.8).

Where disk errors are reported. Any component doing I/O in a log directory that gets an OSError
(including ENOSPC, a full disk) calls `maybe_add_offline_log_dir`; the first report of a directory
queues it, and the broker's LogDirFailureHandler thread takes it with `take_next_offline_log_dir` to
take the directory offline (LogManager.handle_log_dir_failure, ReplicaManager) while the other
directories keep serving. A directory stays offline until the broker restarts.

# PORT: Kafka keeps this class in kafka.server; this port places it with the log layer that uses it.
`take_next_offline_log_dir` takes a timeout (Kafka's blocks without one) so that the handler thread
waits in bounded slices and can notice shutdown.
"""

from __future__ import annotations

import queue
import threading

from kafka.utils.logging import Logging


class LogDirFailureChannel(Logging):
    """A set of offline log directories and a queue announcing each one once."""

    logger_name = "kafka.server.LogDirFailureChannel"

    def __init__(self, log_dir_num: int) -> None:
        self._lock = threading.Lock()
        self._offline_log_dirs: dict[str, str] = {}
        self._offline_log_dir_queue: queue.Queue[str] = queue.Queue(maxsize=max(log_dir_num, 1))

    def has_offline_log_dir(self, log_dir: str) -> bool:
        """Whether `log_dir` has been reported offline."""
        with self._lock:
            return log_dir in self._offline_log_dirs

    def maybe_add_offline_log_dir(self, log_dir: str, msg: str, e: BaseException) -> None:
        """Log `msg` with the error and, the first time `log_dir` is reported, queue it as offline."""
        self.error(msg, e)
        with self._lock:
            if log_dir in self._offline_log_dirs:
                return
            self._offline_log_dirs[log_dir] = log_dir
        self._offline_log_dir_queue.put_nowait(log_dir)

    def take_next_offline_log_dir(self, timeout_s: float) -> str:
        """The next directory reported offline, waiting up to `timeout_s`; queue.Empty when none came."""
        return self._offline_log_dir_queue.get(timeout=timeout_s)
