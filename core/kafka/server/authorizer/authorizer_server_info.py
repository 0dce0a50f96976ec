"""Port of clients/src/main/java/org/apache/kafka/server/authorizer/AuthorizerServerInfo.java (Kafka 2.8).

What a broker tells its authorizer at start: the cluster, the broker id, the endpoints (listener names here) and
the inter-broker listener.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["AuthorizerServerInfo"]


@dataclass(frozen=True, slots=True)
class AuthorizerServerInfo:
    cluster_resource: Any
    broker_id: int
    endpoints: Sequence[Any]
    inter_broker_endpoint: Any
