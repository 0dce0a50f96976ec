"""Port of clients/src/main/java/org/apache/kafka/common/requests/RequestAndSize.java (Kafka 3.7).

A parsed request body and the number of bytes it was parsed from (for request metrics).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kafka.common.requests.abstract_request import AbstractRequest


@dataclass(frozen=True, slots=True)
class RequestAndSize:
    request: AbstractRequest[Any]
    size: int
