"""Port of core/src/main/scala/kafka/coordinator/group/MemberMetadata.scala (Kafka 2.8).

What the group coordinator knows about one member of a group: who it is, its timeouts, the
protocols it offered (in order of preference, each with its metadata bytes), the assignment the
leader gave it, and the JoinGroup/SyncGroup responses it is still waiting for.

Not thread-safe on its own: every access happens under the owning GroupMetadata's lock.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kafka.utils.core_utils import scala_option

if TYPE_CHECKING:
    from kafka.coordinator.group.group_metadata import JoinGroupResult, SyncGroupResult

JoinCallback = Callable[["JoinGroupResult"], None]
SyncCallback = Callable[["SyncGroupResult"], None]

# A protocol a member supports: its name and the metadata bytes it sent for it.
Protocol = tuple[str, bytes]


@dataclass(frozen=True, slots=True)
class MemberSummary:
    """One member as DescribeGroups reports it."""

    member_id: str
    group_instance_id: str | None
    client_id: str
    client_host: str
    metadata: bytes
    assignment: bytes


class MemberMetadata:
    """Membership state of a single group member; see the module docstring."""

    def __init__(
        self,
        member_id: str,
        group_instance_id: str | None,
        client_id: str,
        client_host: str,
        rebalance_timeout_ms: int,
        session_timeout_ms: int,
        protocol_type: str,
        supported_protocols: list[Protocol],
        assignment: bytes = b"",
    ) -> None:
        self.member_id = member_id
        self.group_instance_id = group_instance_id
        self.client_id = client_id
        self.client_host = client_host
        self.rebalance_timeout_ms = rebalance_timeout_ms
        self.session_timeout_ms = session_timeout_ms
        self.protocol_type = protocol_type
        self.supported_protocols = supported_protocols
        self.assignment = assignment
        self.awaiting_join_callback: JoinCallback | None = None
        self.awaiting_sync_callback: SyncCallback | None = None
        self.is_leaving = False
        self.is_new = False
        # Cleared when a heartbeat expiration is scheduled, set when the member shows it is alive;
        # the delayed heartbeat completes once it is set.
        self.heartbeat_satisfied = False

    @staticmethod
    def plain_protocol_set(supported_protocols: Iterable[Protocol]) -> set[str]:
        """The names of the given protocols."""
        return {name for name, _ in supported_protocols}

    @property
    def is_static_member(self) -> bool:
        return self.group_instance_id is not None

    @property
    def is_awaiting_join(self) -> bool:
        return self.awaiting_join_callback is not None

    @property
    def is_awaiting_sync(self) -> bool:
        return self.awaiting_sync_callback is not None

    def metadata(self, protocol: str) -> bytes:
        """The metadata bytes this member sent for `protocol`; ValueError if it did not offer it."""
        for name, data in self.supported_protocols:
            if name == protocol:
                return data
        raise ValueError("Member does not support protocol")

    def has_satisfied_heartbeat(self) -> bool:
        """Whether the pending heartbeat expiration may complete for this member.

        A new member must really heartbeat (it may expire while awaiting join); an established
        member parked in JoinGroup or SyncGroup counts as alive."""
        if self.is_new:
            return self.heartbeat_satisfied
        if self.is_awaiting_join or self.is_awaiting_sync:
            return True
        return self.heartbeat_satisfied

    def matches(self, protocols: list[Protocol]) -> bool:
        """True if `protocols` equals the stored list: same names, same bytes, same order."""
        if len(protocols) != len(self.supported_protocols):
            return False
        return all(
            name1 == name2 and bytes(data1) == bytes(data2)
            for (name1, data1), (name2, data2) in zip(protocols, self.supported_protocols, strict=True)
        )

    def summary(self, protocol: str) -> MemberSummary:
        return MemberSummary(
            self.member_id,
            self.group_instance_id,
            self.client_id,
            self.client_host,
            self.metadata(protocol),
            self.assignment,
        )

    def summary_no_metadata(self) -> MemberSummary:
        return MemberSummary(self.member_id, self.group_instance_id, self.client_id, self.client_host, b"", b"")

    def vote(self, candidates: set[str] | frozenset[str]) -> str:
        """The member's most preferred protocol among `candidates`; ValueError if it supports none."""
        for name, _ in self.supported_protocols:
            if name in candidates:
                return name
        raise ValueError("Member does not support any of the candidate protocols")

    def __str__(self) -> str:
        # Kafka's toString, trailing ", " included; it appears in GroupMetadataMessageFormatter output.
        names = ", ".join(name for name, _ in self.supported_protocols)
        return (
            "MemberMetadata("
            f"memberId={self.member_id}, "
            f"groupInstanceId={scala_option(self.group_instance_id)}, "
            f"clientId={self.client_id}, "
            f"clientHost={self.client_host}, "
            f"sessionTimeoutMs={self.session_timeout_ms}, "
            f"rebalanceTimeoutMs={self.rebalance_timeout_ms}, "
            f"supportedProtocols=List({names}), "
            ")"
        )

    __repr__ = __str__
