"""Port of clients/src/main/java/org/apache/kafka/common/requests/AbstractControlRequest.java (Kafka 3.7).

The base of the requests a controller sends to brokers (LeaderAndIsr, UpdateMetadata, StopReplica): they
carry the controller's id and epoch and the epoch of the receiving broker.
"""

from __future__ import annotations

import enum
from typing import Generic, TypeVar

from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.abstract_response import AbstractResponse

R = TypeVar("R", bound=AbstractResponse, covariant=True)

UNKNOWN_BROKER_EPOCH = -1


class Type(enum.IntEnum):
    """Whether a LeaderAndIsr/UpdateMetadata request is incremental or carries the full state (KRaft)."""

    UNKNOWN = 0
    INCREMENTAL = 1
    FULL = 2

    def to_byte(self) -> int:
        return int(self.value)

    @classmethod
    def from_byte(cls, value: int) -> Type:
        try:
            return cls(value)
        except ValueError:
            return cls.UNKNOWN


class AbstractControlRequest(AbstractRequest[R], Generic[R]):
    UNKNOWN_BROKER_EPOCH = UNKNOWN_BROKER_EPOCH

    def controller_id(self) -> int:
        return int(self._data.controller_id)

    def is_kraft_controller(self) -> bool:
        return bool(getattr(self._data, "is_k_raft_controller", False))

    def controller_epoch(self) -> int:
        return int(self._data.controller_epoch)

    def broker_epoch(self) -> int:
        return int(self._data.broker_epoch)
