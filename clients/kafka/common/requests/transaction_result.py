"""Port of clients/src/main/java/org/apache/kafka/common/requests/TransactionResult.java (Kafka 3.7).

How a transaction ends: committed or aborted (the boolean `committed` / `transaction_result` on the wire).
"""

from __future__ import annotations

import enum


class TransactionResult(enum.Enum):
    ABORT = False
    COMMIT = True

    @property
    def id(self) -> bool:
        return bool(self.value)

    @classmethod
    def for_id(cls, id: bool) -> TransactionResult:
        return cls.COMMIT if id else cls.ABORT
