"""Port of clients/src/main/java/org/apache/kafka/common/requests/UpdateMetadataRequest.java (Kafka 3.7).

UpdateMetadata: the controller sends every broker the live brokers and partition states, which they keep
in their metadata cache. Old layouts are normalised on construction: endpoints always carry a listener
name (v0's single host/port becomes a PLAINTEXT endpoint) and partition states always their topic name.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from kafka.common.errors import UnsupportedVersionException
from kafka.common.message import UpdateMetadataRequestData, UpdateMetadataResponseData
from kafka.common.protocol.api_keys import ApiKeys
from kafka.common.protocol.errors import Errors
from kafka.common.protocol.types import ZERO_UUID
from kafka.common.requests.abstract_control_request import AbstractControlRequest, Type
from kafka.common.requests.abstract_request import Builder
from kafka.common.requests.update_metadata_response import UpdateMetadataResponse

# SecurityProtocol ids and names; a listener defaults to the name of its security protocol.
_SECURITY_PROTOCOL_NAMES = {0: "PLAINTEXT", 1: "SSL", 2: "SASL_PLAINTEXT", 3: "SASL_SSL"}
_PLAINTEXT = 0


def _listener_name_from_security_protocol(endpoint: Any) -> str:
    name = _SECURITY_PROTOCOL_NAMES.get(endpoint.security_protocol)
    if name is None:
        raise ValueError(f"Unknown security protocol id {endpoint.security_protocol}")
    return name


class UpdateMetadataRequest(AbstractControlRequest[UpdateMetadataResponse]):
    API_KEY = ApiKeys.UPDATE_METADATA

    def __init__(self, data: Any, version: int) -> None:
        super().__init__(data, version)
        if version < 3:
            for broker in data.live_brokers:
                if version == 0 and len(broker.endpoints) == 0:
                    broker.endpoints = [
                        UpdateMetadataRequestData.UpdateMetadataEndpoint(
                            host=broker.v0_host,
                            port=broker.v0_port,
                            security_protocol=_PLAINTEXT,
                            listener=_SECURITY_PROTOCOL_NAMES[_PLAINTEXT],
                        )
                    ]
                else:
                    for endpoint in broker.endpoints:
                        if not endpoint.listener:
                            endpoint.listener = _listener_name_from_security_protocol(endpoint)
        if version >= 5:
            for topic_state in data.topic_states:
                for partition_state in topic_state.partition_states:
                    partition_state.topic_name = topic_state.topic_name

    def update_type(self) -> Type:
        return Type.from_byte(self._data.type)

    def _get_error_response(self, throttle_time_ms: int, e: BaseException) -> UpdateMetadataResponse:
        return UpdateMetadataResponse(UpdateMetadataResponseData(error_code=Errors.for_exception(e).code))

    def partition_states(self) -> Iterator[Any]:
        """Every partition state, each with its topic name, whatever the version's layout."""
        if self._version >= 5:
            for topic_state in self._data.topic_states:
                yield from topic_state.partition_states
        else:
            yield from self._data.ungrouped_partition_states

    def topic_states(self) -> list[Any]:
        return list(self._data.topic_states) if self._version >= 5 else []

    def live_brokers(self) -> list[Any]:
        return list(self._data.live_brokers)


class UpdateMetadataRequestBuilder(Builder[UpdateMetadataRequest]):
    """Port of UpdateMetadataRequest.Builder: checks that old versions can carry the endpoints and lays out the
    partition states for the version sent."""

    def __init__(
        self,
        version: int,
        controller_id: int,
        controller_epoch: int,
        broker_epoch: int,
        partition_states: list[Any],
        live_brokers: Iterable[Any],
        topic_ids: Mapping[str, Any],
        kraft_controller: bool = False,
        update_type: Type = Type.UNKNOWN,
    ) -> None:
        super().__init__(ApiKeys.UPDATE_METADATA, version)
        self.controller_id = controller_id
        self.controller_epoch = controller_epoch
        self.broker_epoch = broker_epoch
        self.partition_states = partition_states
        self.live_brokers = list(live_brokers)
        self.topic_ids = topic_ids
        self.kraft_controller = kraft_controller
        self.update_type = update_type if version >= 8 else Type.UNKNOWN

    def _build(self, version: int) -> UpdateMetadataRequest:
        if version < 3:
            for broker in self.live_brokers:
                if version == 0:
                    if len(broker.endpoints) != 1:
                        raise UnsupportedVersionException("UpdateMetadataRequest v0 requires a single endpoint")
                    endpoint = broker.endpoints[0]
                    if endpoint.security_protocol != _PLAINTEXT:
                        raise UnsupportedVersionException("UpdateMetadataRequest v0 only handles PLAINTEXT endpoints")
                    broker.v0_host = endpoint.host
                    broker.v0_port = endpoint.port
                elif any(
                    ep.listener and ep.listener != _listener_name_from_security_protocol(ep) for ep in broker.endpoints
                ):
                    raise UnsupportedVersionException(
                        "UpdateMetadataRequest v0-v3 does not support custom listeners, request version: "
                        f"{version}, endpoints: {broker.endpoints}"
                    )
        data = UpdateMetadataRequestData(
            controller_id=self.controller_id,
            controller_epoch=self.controller_epoch,
            broker_epoch=self.broker_epoch,
            live_brokers=self.live_brokers,
        )
        if version >= 8:
            data.is_k_raft_controller = self.kraft_controller
            data.type = self.update_type.to_byte()
        if version >= 5:
            topic_states: dict[str, Any] = {}
            for partition in self.partition_states:
                topic_state = topic_states.get(partition.topic_name)
                if topic_state is None:
                    topic_state = UpdateMetadataRequestData.UpdateMetadataTopicState(
                        topic_name=partition.topic_name, topic_id=self.topic_ids.get(partition.topic_name, ZERO_UUID)
                    )
                    topic_states[partition.topic_name] = topic_state
                topic_state.partition_states.append(partition)
            data.topic_states = list(topic_states.values())
        else:
            data.ungrouped_partition_states = self.partition_states
        return UpdateMetadataRequest(data, version)
