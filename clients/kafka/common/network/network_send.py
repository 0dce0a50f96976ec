"""Port of clients/src/main/java/org/apache/kafka/common/network/NetworkSend.java (Kafka 3.7).

A Send addressed to a connection id.
"""

from __future__ import annotations

from kafka.common.network.send import Send
from kafka.common.network.transferable_channel import TransferableChannel

__all__ = ["NetworkSend"]


class NetworkSend(Send):
    __slots__ = ("_destination_id", "_send")

    def __init__(self, destination_id: str, send: Send) -> None:
        self._destination_id = destination_id
        self._send = send

    def destination_id(self) -> str:
        return self._destination_id

    def send(self) -> Send:
        return self._send

    def completed(self) -> bool:
        return self._send.completed()

    def write_to(self, channel: TransferableChannel) -> int:
        return self._send.write_to(channel)

    def size(self) -> int:
        return self._send.size()
