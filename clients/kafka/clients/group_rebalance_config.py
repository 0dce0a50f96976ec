"""Port of clients/src/main/java/org/apache/kafka/clients/GroupRebalanceConfig.java (Kafka 3.7).

The group membership settings a coordinator client needs: session and rebalance timeouts, heartbeat
interval, group id, static-membership instance id, retry backoff, and whether to leave the group on
close. The consumer's rebalance timeout is max.poll.interval.ms.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from kafka.clients import common_client_configs as ccc
from kafka.common.config.abstract_config import AbstractConfig
from kafka.common.requests.join_group_request import JoinGroupRequest

__all__ = ["GroupRebalanceConfig", "ProtocolType"]


class ProtocolType(enum.Enum):
    CONSUMER = "consumer"
    CONNECT = "connect"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True)
class GroupRebalanceConfig:
    """# PORT: Java's two constructors are the dataclass constructor (tests) and `from_config`."""

    session_timeout_ms: int
    rebalance_timeout_ms: int
    heartbeat_interval_ms: int
    group_id: str | None
    group_instance_id: str | None
    retry_backoff_ms: int
    retry_backoff_max_ms: int
    leave_group_on_close: bool

    @classmethod
    def from_config(cls, config: AbstractConfig, protocol_type: ProtocolType) -> GroupRebalanceConfig:
        if protocol_type is ProtocolType.CONSUMER:
            rebalance_timeout_ms = config.get_int(ccc.MAX_POLL_INTERVAL_MS_CONFIG)
            group_instance_id = config.get_string(ccc.GROUP_INSTANCE_ID_CONFIG)
            if group_instance_id is not None:
                JoinGroupRequest.validate_group_instance_id(group_instance_id)
            leave_group_on_close = config.get_boolean("internal.leave.group.on.close")
        else:
            rebalance_timeout_ms = config.get_int(ccc.REBALANCE_TIMEOUT_MS_CONFIG)
            group_instance_id = None
            leave_group_on_close = True
        return cls(
            config.get_int(ccc.SESSION_TIMEOUT_MS_CONFIG),
            rebalance_timeout_ms,
            config.get_int(ccc.HEARTBEAT_INTERVAL_MS_CONFIG),
            config.get_string(ccc.GROUP_ID_CONFIG),
            group_instance_id,
            config.get_long(ccc.RETRY_BACKOFF_MS_CONFIG),
            config.get_long(ccc.RETRY_BACKOFF_MAX_MS_CONFIG),
            leave_group_on_close,
        )
