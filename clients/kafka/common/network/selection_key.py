"""Stands in for java.nio.channels.SelectionKey in the ported network layer.

# PORT: Java registers a SocketChannel with a java.nio Selector and gets a SelectionKey holding the interest set,
# the ready set of the last select and an attachment. Python's `selectors` module keeps a registration per file
# object and refuses an empty event mask, so this class keeps the interest set itself and registers, modifies or
# unregisters the socket as it changes. OP_CONNECT is waited for as writability, as the OS reports it.
"""

from __future__ import annotations

import selectors
import socket
from typing import Any

__all__ = ["SelectionKey"]


class SelectionKey:
    """The registration of one socket with one selector."""

    OP_READ = 1
    OP_WRITE = 4
    OP_CONNECT = 8

    __slots__ = ("_sock", "_selector", "_interest_ops", "_registered_events", "ready_ops", "_attachment", "_valid")

    def __init__(self, sock: socket.socket, selector: selectors.BaseSelector, interest_ops: int) -> None:
        self._sock = sock
        self._selector = selector
        self._interest_ops = 0
        self._registered_events = 0
        self.ready_ops = 0  # set by the Selector for the keys of the last select
        self._attachment: Any = None
        self._valid = True
        self.set_interest_ops(interest_ops)

    @property
    def sock(self) -> socket.socket:
        return self._sock

    def channel(self) -> socket.socket:
        return self._sock

    def attach(self, attachment: Any) -> None:
        self._attachment = attachment

    def attachment(self) -> Any:
        return self._attachment

    def interest_ops(self) -> int:
        return self._interest_ops

    def set_interest_ops(self, ops: int) -> None:
        """Sets the interest set, updating the OS registration only when the selector events change."""
        if not self._valid:
            raise RuntimeError("CancelledKeyException")
        self._interest_ops = ops
        events = 0
        if ops & self.OP_READ:
            events |= selectors.EVENT_READ
        if ops & (self.OP_WRITE | self.OP_CONNECT):
            events |= selectors.EVENT_WRITE
        if events == self._registered_events:
            return
        if self._registered_events == 0:
            self._selector.register(self._sock, events, self)
        elif events == 0:
            self._selector.unregister(self._sock)
        else:
            self._selector.modify(self._sock, events, self)
        self._registered_events = events

    def is_readable(self) -> bool:
        return bool(self.ready_ops & self.OP_READ)

    def is_writable(self) -> bool:
        return bool(self.ready_ops & self.OP_WRITE)

    def is_connectable(self) -> bool:
        return bool(self.ready_ops & self.OP_CONNECT)

    def is_valid(self) -> bool:
        return self._valid

    def cancel(self) -> None:
        """Removes the registration; the key cannot be used again."""
        if not self._valid:
            return
        self._valid = False
        if self._registered_events:
            try:
                self._selector.unregister(self._sock)
            except (KeyError, ValueError, OSError):
                pass
            self._registered_events = 0
        self.ready_ops = 0
