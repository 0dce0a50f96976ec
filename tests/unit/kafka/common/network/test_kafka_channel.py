"""Tests of kafka.common.network.kafka_channel: the mute state machine a broker's Processor drives (from Kafka's
SocketServerTest and KafkaChannel), and the read interest that muting and unmuting leave."""

from __future__ import annotations

import selectors
import socket
from collections.abc import Iterator

import pytest

from kafka.common.network.kafka_channel import KafkaChannel
from kafka.common.network.plaintext_channel_builder import PlaintextChannelBuilder
from kafka.common.network.selection_key import SelectionKey
from kafka.common.security.auth.kafka_principal import KafkaPrincipal

State = KafkaChannel.ChannelMuteState
Event = KafkaChannel.ChannelMuteEvent


@pytest.fixture
def channel() -> Iterator[KafkaChannel]:
    a, b = socket.socketpair()
    nio = selectors.DefaultSelector()
    key = SelectionKey(a, nio, SelectionKey.OP_READ)
    channel = PlaintextChannelBuilder().build_channel("c", key, 100)
    key.attach(channel)
    yield channel
    channel.close()
    b.close()
    nio.close()


def test_request_response_and_throttling_cycle(channel: KafkaChannel) -> None:
    """Request received, throttled, response sent, throttle ended: the channel is MUTED again and can be unmuted."""
    channel.mute()
    assert channel.mute_state() is State.MUTED
    channel.handle_channel_mute_event(Event.REQUEST_RECEIVED)
    assert channel.mute_state() is State.MUTED_AND_RESPONSE_PENDING
    channel.handle_channel_mute_event(Event.THROTTLE_STARTED)
    assert channel.mute_state() is State.MUTED_AND_THROTTLED_AND_RESPONSE_PENDING
    channel.handle_channel_mute_event(Event.RESPONSE_SENT)
    assert channel.mute_state() is State.MUTED_AND_THROTTLED
    assert not channel.maybe_unmute()  # still throttled
    channel.handle_channel_mute_event(Event.THROTTLE_ENDED)
    assert channel.mute_state() is State.MUTED
    assert channel.maybe_unmute()
    assert not channel.is_muted()


def test_throttle_ending_before_the_response_is_sent(channel: KafkaChannel) -> None:
    """A throttle that ends while the response is still pending leaves the channel waiting for the response."""
    channel.mute()
    channel.handle_channel_mute_event(Event.REQUEST_RECEIVED)
    channel.handle_channel_mute_event(Event.THROTTLE_STARTED)
    channel.handle_channel_mute_event(Event.THROTTLE_ENDED)
    assert channel.mute_state() is State.MUTED_AND_RESPONSE_PENDING
    assert not channel.maybe_unmute()
    channel.handle_channel_mute_event(Event.RESPONSE_SENT)
    assert channel.maybe_unmute()


@pytest.mark.parametrize(
    ("setup", "event"),
    [
        ([], Event.REQUEST_RECEIVED),
        ([Event.REQUEST_RECEIVED], Event.REQUEST_RECEIVED),
        ([], Event.RESPONSE_SENT),
        ([], Event.THROTTLE_STARTED),
        ([], Event.THROTTLE_ENDED),
    ],
)
def test_invalid_transitions_are_errors(channel: KafkaChannel, setup: list[Event], event: Event) -> None:
    """An event that does not apply to the current state raises and leaves the state as it was."""
    if setup:
        channel.mute()
    for e in setup:
        channel.handle_channel_mute_event(e)
    before = channel.mute_state()
    with pytest.raises(RuntimeError, match=f"Cannot transition from {before.name} for {event.name}"):
        channel.handle_channel_mute_event(event)
    assert channel.mute_state() is before


def test_mute_keeps_the_read_interest_until_unmute(channel: KafkaChannel) -> None:
    """Muting only marks the channel (the Selector drops the read interest once it is readable); unmuting makes
    sure the read interest is there."""
    key = channel.selection_key()
    channel.mute()
    assert key.interest_ops() & SelectionKey.OP_READ
    key.set_interest_ops(key.interest_ops() & ~SelectionKey.OP_READ)  # what the Selector does when it is readable
    assert channel.maybe_unmute()
    assert key.interest_ops() & SelectionKey.OP_READ


def test_plaintext_channel_is_ready_and_anonymous(channel: KafkaChannel) -> None:
    """A plaintext channel needs no handshake and knows its peer as ANONYMOUS."""
    assert channel.ready()
    assert channel.principal() == KafkaPrincipal.ANONYMOUS
