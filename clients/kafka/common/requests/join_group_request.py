"""Port of clients/src/main/java/org/apache/kafka/common/requests/JoinGroupRequest.java (Kafka 3.7).

JoinGroup: a consumer (or Connect worker) joins a group with the protocols it supports. At v0 the
rebalance timeout is not on the wire and takes the session timeout's value.
"""

from __future__ import annotations

import re
from typing import Any

from kafka.common.errors import InvalidConfigurationException
from kafka.common.message import JoinGroupResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.requests.abstract_request import AbstractRequest
from kafka.common.requests.join_group_response import JoinGroupResponse

UNKNOWN_MEMBER_ID = ""
UNKNOWN_GENERATION_ID = -1
UNKNOWN_PROTOCOL_NAME = ""

_MAX_NAME_LENGTH = 249
_LEGAL = re.compile(r"[a-zA-Z0-9._-]*")


class JoinGroupRequest(AbstractRequest[JoinGroupResponse]):
    API_KEY = ApiKeys.JOIN_GROUP

    def __init__(self, data: Any, version: int) -> None:
        super().__init__(data, version)
        if version == 0:
            data.rebalance_timeout_ms = data.session_timeout_ms

    @staticmethod
    def validate_group_instance_id(id: str) -> None:
        """Raises InvalidConfigurationException unless `id` is a legal group instance id (topic-name rules)."""
        reason = None
        if id == "":
            reason = "the empty string is not allowed"
        elif id in (".", ".."):
            reason = f"'{id}' is not allowed"
        elif len(id) > _MAX_NAME_LENGTH:
            reason = f"the length of '{id}' is longer than the max allowed length {_MAX_NAME_LENGTH}"
        elif not _LEGAL.fullmatch(id):
            reason = f"'{id}' contains one or more characters other than ASCII alphanumerics, '.', '_' and '-'"
        if reason is not None:
            raise InvalidConfigurationException(f"Group instance id is invalid: {reason}")

    @staticmethod
    def maybe_truncate_reason(reason: str) -> str:
        return reason[:255]

    @staticmethod
    def requires_known_member_id(api_version: int) -> bool:
        """From v4 a new member must rejoin with the member id the coordinator gave it (KIP-394)."""
        return api_version >= 4

    @staticmethod
    def supports_skipping_assignment(api_version: int) -> bool:
        return api_version >= 9

    @staticmethod
    def join_reason(request: Any) -> str:
        reason = request.reason
        return reason if reason else "not provided"

    def _get_error_response(self, throttle_time_ms: int, e: BaseException) -> JoinGroupResponse:
        data = JoinGroupResponseData(
            throttle_time_ms=throttle_time_ms,
            error_code=Errors.for_exception(e).code,
            generation_id=UNKNOWN_GENERATION_ID,
            protocol_name=None if self._version >= 7 else UNKNOWN_PROTOCOL_NAME,
            leader=UNKNOWN_MEMBER_ID,
            member_id=UNKNOWN_MEMBER_ID,
            members=[],
        )
        return JoinGroupResponse(data, self._version)
