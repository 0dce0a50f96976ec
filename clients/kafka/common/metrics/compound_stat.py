"""Port of clients/src/main/java/org/apache/kafka/common/metrics/CompoundStat.java (Kafka 2.8)."""

from __future__ import annotations

from abc import abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kafka.common.metrics.stat import Stat

if TYPE_CHECKING:
    from kafka.common.metric_name import MetricName
    from kafka.common.metrics.measurable import Measurable

__all__ = ["CompoundStat", "NamedMeasurable"]


@dataclass(frozen=True, slots=True)
class NamedMeasurable:
    """One of the metrics a compound stat yields."""

    name: MetricName
    stat: Measurable


class CompoundStat(Stat):
    """A stat that yields several metrics (a Meter: a rate and a total)."""

    @abstractmethod
    def stats(self) -> list[NamedMeasurable]:
        """The metrics of this stat."""
