"""Port of core/src/main/scala/kafka/server/SensorAccess.scala (Kafka 2.8).

Gets a sensor of a Metrics registry, creating it (and registering its metrics) once, whichever of several threads
asks first. The read lock makes a reader wait while another thread is still adding the new sensor's metrics, so a
sensor is never handed out half made.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kafka.common.metrics.metrics import Metrics
    from kafka.common.metrics.sensor import Sensor
    from kafka.utils.read_write_lock import ReentrantReadWriteLock

__all__ = ["SensorAccess"]


class SensorAccess:
    """Creates or fetches sensors of `metrics` under `lock` (see the module docstring)."""

    def __init__(self, lock: ReentrantReadWriteLock, metrics: Metrics) -> None:
        self._lock = lock
        self._metrics = metrics

    def get_or_create(
        self, sensor_name: str, expiration_time: int, register_metrics: Callable[[Sensor], object]
    ) -> Sensor:
        """The sensor named `sensor_name`; if missing, created with an inactivity expiration of `expiration_time`
        seconds and handed to `register_metrics` before anyone else can get it."""
        with self._lock.read_lock:
            sensor = self._metrics.get_sensor(sensor_name)
        if sensor is None:
            with self._lock.write_lock:
                # Another thread may have made it while this one waited for the write lock.
                sensor = self._metrics.get_sensor(sensor_name)
                if sensor is None:
                    sensor = self._metrics.sensor(sensor_name, inactive_sensor_expiration_time_seconds=expiration_time)
                    register_metrics(sensor)
        return sensor
