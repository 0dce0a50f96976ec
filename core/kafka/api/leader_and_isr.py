"""Port of core/src/main/scala/kafka/api/LeaderAndIsr.scala (Kafka 2.8).

A partition's leader, leader epoch and in-sync replica set, with the ZooKeeper version of the state znode they
were read from or written to (used for conditional updates).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import ClassVar


@dataclass(frozen=True, slots=True)
class LeaderAndIsr:
    """Leader, leader epoch, ISR (as a tuple) and the zk version of the partition's state znode."""

    INITIAL_LEADER_EPOCH: ClassVar[int] = 0
    INITIAL_ZK_VERSION: ClassVar[int] = 0
    NO_LEADER: ClassVar[int] = -1
    NO_EPOCH: ClassVar[int] = -1
    LEADER_DURING_DELETE: ClassVar[int] = -2
    EPOCH_DURING_DELETE: ClassVar[int] = -2

    leader: int
    leader_epoch: int
    isr: Sequence[int]  # a tuple once built
    zk_version: int

    def __post_init__(self) -> None:
        if not isinstance(self.isr, tuple):
            object.__setattr__(self, "isr", tuple(self.isr))

    @classmethod
    def create(cls, leader: int, isr: Iterable[int]) -> LeaderAndIsr:
        """A first state: initial leader epoch and zk version (Scala's `LeaderAndIsr(leader, isr)`)."""
        return cls(leader, cls.INITIAL_LEADER_EPOCH, tuple(isr), cls.INITIAL_ZK_VERSION)

    @classmethod
    def during_delete(cls, isr: Iterable[int]) -> LeaderAndIsr:
        return cls.create(cls.LEADER_DURING_DELETE, isr)

    def with_zk_version(self, zk_version: int) -> LeaderAndIsr:
        return replace(self, zk_version=zk_version)

    def new_leader(self, leader: int) -> LeaderAndIsr:
        return self.new_leader_and_isr(leader, self.isr)

    def new_leader_and_isr(self, leader: int, isr: Iterable[int]) -> LeaderAndIsr:
        """A new leader and ISR, one leader epoch further on (same zk version)."""
        return LeaderAndIsr(leader, self.leader_epoch + 1, tuple(isr), self.zk_version)

    @property
    def new_epoch_and_zk_version(self) -> LeaderAndIsr:
        return self.new_leader_and_isr(self.leader, self.isr)

    @property
    def leader_opt(self) -> int | None:
        return None if self.leader == LeaderAndIsr.NO_LEADER else self.leader

    def equals_ignore_zk(self, other: LeaderAndIsr | None) -> bool:
        if other is None:
            return False
        return self.leader == other.leader and self.leader_epoch == other.leader_epoch and self.isr == other.isr

    def __str__(self) -> str:
        isr = "List(" + ", ".join(str(r) for r in self.isr) + ")"
        return (
            f"LeaderAndIsr(leader={self.leader}, leaderEpoch={self.leader_epoch}, isr={isr}, "
            f"zkVersion={self.zk_version})"
        )
