"""Stands in for java.nio.channels.SocketChannel of an accepted connection in the ported network layer.

# PORT: Java's SocketChannel remembers its peer's address; a Python socket can no longer tell its peer once the peer
# has reset the connection. The Acceptor takes the address from accept() and keeps it here with the socket, so that
# the Selector's KafkaChannel (`socket_address`, `socket_description`) and the connection quotas have it to the end.
"""

from __future__ import annotations

import socket

__all__ = ["SocketChannel"]


class SocketChannel:
    """An accepted socket and its peer's address (IP address text and port) as accept() returned them."""

    __slots__ = ("remote_host", "remote_port", "sock")

    def __init__(self, sock: socket.socket, remote_host: str, remote_port: int) -> None:
        self.sock = sock
        self.remote_host = remote_host
        self.remote_port = remote_port
