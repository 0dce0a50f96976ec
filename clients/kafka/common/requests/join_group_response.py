"""Port of clients/src/main/java/org/apache/kafka/common/requests/JoinGroupResponse.java (Kafka 3.7).

The generation, chosen protocol, leader and (for the leader) the members' metadata. The protocol name is
nullable from v7: the constructor turns null into "" below v7 and "" into null from v7.
"""

from __future__ import annotations

from typing import Any, Self

from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_response import AbstractResponse


class JoinGroupResponse(AbstractResponse):
    API_KEY = ApiKeys.JOIN_GROUP
    CLIENT_THROTTLE_SINCE = 3

    def __init__(self, data: Any, version: int) -> None:
        super().__init__(data)
        if version < 7 and data.protocol_name is None:
            data.protocol_name = ""
        if version >= 7 and data.protocol_name == "":
            data.protocol_name = None

    @classmethod
    def _from_data(cls, data: Any, version: int) -> Self:
        return cls(data, version)

    def is_leader(self) -> bool:
        return bool(self._data.member_id == self._data.leader)

    def error(self) -> Errors:
        return Errors.for_code(self._data.error_code)

    def error_counts(self) -> dict[Errors, int]:
        return {self.error(): 1}
