"""Port of core/src/main/scala/kafka/controller/ControllerState.scala (Kafka 2.8).

What the controller's event thread is busy with: each controller event names one of these states, and the
event manager exposes the state of the event being processed (the `ControllerState` gauge reports its value).

# PORT: Scala's sealed class with case objects becomes a base class with one fieldless frozen dataclass per
state, plus one shared instance of each reachable as `ControllerState.Idle`, `ControllerState.BrokerChange`, ...
so that code reads as Kafka's. States print as their Scala names.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar


@dataclass(frozen=True, slots=True, repr=False)
class ControllerState:
    """One controller state; `value` is the byte the ControllerState metric reports."""

    value: ClassVar[int] = -1
    _has_rate_and_time_metric: ClassVar[bool] = True
    _metric_name_override: ClassVar[str | None] = None

    # The shared instances, filled in below the subclasses.
    Idle: ClassVar[ControllerState]
    ControllerChange: ClassVar[ControllerState]
    BrokerChange: ClassVar[ControllerState]
    TopicChange: ClassVar[ControllerState]
    TopicDeletion: ClassVar[ControllerState]
    AlterPartitionReassignment: ClassVar[ControllerState]
    AutoLeaderBalance: ClassVar[ControllerState]
    ManualLeaderBalance: ClassVar[ControllerState]
    ControlledShutdown: ClassVar[ControllerState]
    IsrChange: ClassVar[ControllerState]
    LeaderAndIsrResponseReceived: ClassVar[ControllerState]
    LogDirChange: ClassVar[ControllerState]
    ControllerShutdown: ClassVar[ControllerState]
    UncleanLeaderElectionEnable: ClassVar[ControllerState]
    TopicUncleanLeaderElectionEnable: ClassVar[ControllerState]
    ListPartitionReassignment: ClassVar[ControllerState]
    UpdateMetadataResponseReceived: ClassVar[ControllerState]
    UpdateFeatures: ClassVar[ControllerState]

    @property
    def rate_and_time_metric_name(self) -> str | None:
        """The name of the timer that measures events of this state, or None for states without one."""
        if self._metric_name_override is not None:
            return self._metric_name_override
        return f"{self}RateAndTimeMs" if self._has_rate_and_time_metric else None

    @staticmethod
    def values() -> list[ControllerState]:
        return list(_VALUES)

    def __str__(self) -> str:
        return type(self).__name__

    __repr__ = __str__


@dataclass(frozen=True, slots=True, repr=False)
class Idle(ControllerState):
    value: ClassVar[int] = 0
    _has_rate_and_time_metric: ClassVar[bool] = False


@dataclass(frozen=True, slots=True, repr=False)
class ControllerChange(ControllerState):
    value: ClassVar[int] = 1


@dataclass(frozen=True, slots=True, repr=False)
class BrokerChange(ControllerState):
    value: ClassVar[int] = 2
    # Kept under the name the metric had before controller states existed.
    _metric_name_override: ClassVar[str | None] = "LeaderElectionRateAndTimeMs"


@dataclass(frozen=True, slots=True, repr=False)
class TopicChange(ControllerState):
    value: ClassVar[int] = 3


@dataclass(frozen=True, slots=True, repr=False)
class TopicDeletion(ControllerState):
    value: ClassVar[int] = 4


@dataclass(frozen=True, slots=True, repr=False)
class AlterPartitionReassignment(ControllerState):
    value: ClassVar[int] = 5
    _metric_name_override: ClassVar[str | None] = "PartitionReassignmentRateAndTimeMs"


@dataclass(frozen=True, slots=True, repr=False)
class AutoLeaderBalance(ControllerState):
    value: ClassVar[int] = 6


@dataclass(frozen=True, slots=True, repr=False)
class ManualLeaderBalance(ControllerState):
    value: ClassVar[int] = 7


@dataclass(frozen=True, slots=True, repr=False)
class ControlledShutdown(ControllerState):
    value: ClassVar[int] = 8


@dataclass(frozen=True, slots=True, repr=False)
class IsrChange(ControllerState):
    value: ClassVar[int] = 9


@dataclass(frozen=True, slots=True, repr=False)
class LeaderAndIsrResponseReceived(ControllerState):
    value: ClassVar[int] = 10


@dataclass(frozen=True, slots=True, repr=False)
class LogDirChange(ControllerState):
    value: ClassVar[int] = 11


@dataclass(frozen=True, slots=True, repr=False)
class ControllerShutdown(ControllerState):
    value: ClassVar[int] = 12


@dataclass(frozen=True, slots=True, repr=False)
class UncleanLeaderElectionEnable(ControllerState):
    value: ClassVar[int] = 13


@dataclass(frozen=True, slots=True, repr=False)
class TopicUncleanLeaderElectionEnable(ControllerState):
    value: ClassVar[int] = 14


@dataclass(frozen=True, slots=True, repr=False)
class ListPartitionReassignment(ControllerState):
    value: ClassVar[int] = 15


@dataclass(frozen=True, slots=True, repr=False)
class UpdateMetadataResponseReceived(ControllerState):
    value: ClassVar[int] = 16
    _has_rate_and_time_metric: ClassVar[bool] = False


@dataclass(frozen=True, slots=True, repr=False)
class UpdateFeatures(ControllerState):
    value: ClassVar[int] = 17


_VALUES: tuple[ControllerState, ...] = (
    Idle(),
    ControllerChange(),
    BrokerChange(),
    TopicChange(),
    TopicDeletion(),
    AlterPartitionReassignment(),
    AutoLeaderBalance(),
    ManualLeaderBalance(),
    ControlledShutdown(),
    IsrChange(),
    LeaderAndIsrResponseReceived(),
    LogDirChange(),
    ControllerShutdown(),
    UncleanLeaderElectionEnable(),
    TopicUncleanLeaderElectionEnable(),
    ListPartitionReassignment(),
    UpdateMetadataResponseReceived(),
    UpdateFeatures(),
)

for _state in _VALUES:
    setattr(ControllerState, type(_state).__name__, _state)
del _state
