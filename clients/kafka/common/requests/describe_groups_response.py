"""Port of clients/src/main/java/org/apache/kafka/common/requests/DescribeGroupsResponse.java (Kafka 3.7).

Per group: an error, the state, protocol type and protocol, the members, and the operations the caller
may perform (v3+).
"""

from __future__ import annotations

from typing import Any

from kafka.common.message import DescribeGroupsResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_response import AbstractResponse

AUTHORIZED_OPERATIONS_OMITTED = -(2**31)
UNKNOWN_STATE = ""
UNKNOWN_PROTOCOL_TYPE = ""
UNKNOWN_PROTOCOL = ""


class DescribeGroupsResponse(AbstractResponse):
    API_KEY = ApiKeys.DESCRIBE_GROUPS
    CLIENT_THROTTLE_SINCE = 2

    @staticmethod
    def group_member(
        member_id: str,
        group_instance_id: str | None,
        client_id: str,
        client_host: str,
        assignment: bytes,
        metadata: bytes,
    ) -> Any:
        return DescribeGroupsResponseData.DescribedGroupMember(
            member_id=member_id,
            group_instance_id=group_instance_id,
            client_id=client_id,
            client_host=client_host,
            member_assignment=assignment,
            member_metadata=metadata,
        )

    @staticmethod
    def group_metadata(
        group_id: str,
        error: Errors,
        state: str,
        protocol_type: str,
        protocol: str,
        members: list[Any],
        authorized_operations: int | set[int] = AUTHORIZED_OPERATIONS_OMITTED,
    ) -> Any:
        """A described group; `authorized_operations` as a bit field, or a set of operation codes."""
        if not isinstance(authorized_operations, int):
            authorized_operations = to_32bit_field(authorized_operations)
        return DescribeGroupsResponseData.DescribedGroup(
            group_id=group_id,
            error_code=error.code,
            group_state=state,
            protocol_type=protocol_type,
            protocol_data=protocol,
            members=members,
            authorized_operations=authorized_operations,
        )

    @staticmethod
    def group_error(group_id: str, error: Errors) -> Any:
        """A described group that carries only `error`."""
        return DescribeGroupsResponse.group_metadata(
            group_id, error, UNKNOWN_STATE, UNKNOWN_PROTOCOL_TYPE, UNKNOWN_PROTOCOL, [], AUTHORIZED_OPERATIONS_OMITTED
        )

    def error_counts(self) -> dict[Errors, int]:
        return self._error_counts_of_codes(g.error_code for g in self._data.groups)


def to_32bit_field(bits: set[int]) -> int:
    """Utils.to32BitField: a set of bit positions (0-31) as a signed 32-bit int."""
    value = 0
    for bit in bits:
        if not 0 <= bit <= 31:
            raise ValueError(f"Bit {bit} does not fit in 32 bits")
        value |= 1 << bit
    return value - (1 << 32) if value >= 1 << 31 else value
