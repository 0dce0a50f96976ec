"""Port of clients/src/main/java/org/apache/kafka/common/network/ChannelState.java (Kafka 3.7).

The state of a channel, reported with each disconnect so that the NetworkClient can say why a connection
ended (could not connect, authentication failed, expired, closed locally ...).
"""

from __future__ import annotations

import enum

from kafka.common.errors import AuthenticationException

__all__ = ["ChannelState"]


class ChannelState:
    class State(enum.Enum):
        NOT_CONNECTED = "NOT_CONNECTED"
        AUTHENTICATE = "AUTHENTICATE"
        READY = "READY"
        EXPIRED = "EXPIRED"
        FAILED_SEND = "FAILED_SEND"
        AUTHENTICATION_FAILED = "AUTHENTICATION_FAILED"
        LOCAL_CLOSE = "LOCAL_CLOSE"

    # Shared instances of the states that carry nothing else.
    NOT_CONNECTED: ChannelState
    AUTHENTICATE: ChannelState
    READY: ChannelState
    EXPIRED: ChannelState
    FAILED_SEND: ChannelState
    LOCAL_CLOSE: ChannelState

    __slots__ = ("_state", "_exception", "_remote_address")

    def __init__(
        self,
        state: ChannelState.State,
        exception: AuthenticationException | None = None,
        remote_address: str | None = None,
    ) -> None:
        self._state = state
        self._exception = exception
        self._remote_address = remote_address

    def state(self) -> ChannelState.State:
        return self._state

    def exception(self) -> AuthenticationException | None:
        return self._exception

    def remote_address(self) -> str | None:
        return self._remote_address

    def __repr__(self) -> str:
        return f"ChannelState({self._state.name}, remoteAddress={self._remote_address})"


ChannelState.NOT_CONNECTED = ChannelState(ChannelState.State.NOT_CONNECTED)
ChannelState.AUTHENTICATE = ChannelState(ChannelState.State.AUTHENTICATE)
ChannelState.READY = ChannelState(ChannelState.State.READY)
ChannelState.EXPIRED = ChannelState(ChannelState.State.EXPIRED)
ChannelState.FAILED_SEND = ChannelState(ChannelState.State.FAILED_SEND)
ChannelState.LOCAL_CLOSE = ChannelState(ChannelState.State.LOCAL_CLOSE)
