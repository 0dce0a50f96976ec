"""Port of clients/src/main/java/org/apache/kafka/common/requests/FetchMetadata.java (Kafka 3.7).

The fetch session id and epoch that a fetch request carries (KIP-227 incremental fetch sessions).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

INVALID_SESSION_ID = 0
"""No session: the broker must not create or look one up."""
INITIAL_EPOCH = 0
"""The epoch of a request that creates a new session (full fetch)."""
FINAL_EPOCH = -1
"""The epoch of a request that closes its session, or of a sessionless full fetch."""

_INT32_MAX = 2**31 - 1


@dataclass(frozen=True, slots=True)
class FetchMetadata:
    session_id: int
    epoch: int

    INITIAL: ClassVar[FetchMetadata]
    LEGACY: ClassVar[FetchMetadata]

    @staticmethod
    def next_epoch(prev_epoch: int) -> int:
        """The epoch after `prev_epoch`: the final epoch stays final and the counter wraps to 1."""
        if prev_epoch < 0:
            return FINAL_EPOCH
        if prev_epoch == _INT32_MAX:
            return 1
        return prev_epoch + 1

    def is_full(self) -> bool:
        """Whether the request sends every partition (new session or no session)."""
        return self.epoch in (INITIAL_EPOCH, FINAL_EPOCH)

    def next_close_existing(self) -> FetchMetadata:
        return FetchMetadata(self.session_id, FINAL_EPOCH)

    def next_close_existing_attempt_new(self) -> FetchMetadata:
        return FetchMetadata(self.session_id, INITIAL_EPOCH)

    @classmethod
    def new_incremental(cls, session_id: int) -> FetchMetadata:
        return cls(session_id, cls.next_epoch(INITIAL_EPOCH))

    def next_incremental(self) -> FetchMetadata:
        return FetchMetadata(self.session_id, self.next_epoch(self.epoch))

    def __str__(self) -> str:
        session = "INVALID" if self.session_id == INVALID_SESSION_ID else str(self.session_id)
        if self.epoch == INITIAL_EPOCH:
            epoch = "INITIAL"
        elif self.epoch == FINAL_EPOCH:
            epoch = "FINAL"
        else:
            epoch = str(self.epoch)
        return f"(sessionId={session}, epoch={epoch})"


FetchMetadata.INITIAL = FetchMetadata(INVALID_SESSION_ID, INITIAL_EPOCH)
FetchMetadata.LEGACY = FetchMetadata(INVALID_SESSION_ID, FINAL_EPOCH)
