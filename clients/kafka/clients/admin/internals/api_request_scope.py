"""Port of clients/src/main/java/org/apache/kafka/clients/admin/internals/ApiRequestScope.java (Kafka 3.7).

How the AdminApiDriver batches keys into requests: keys of the same scope go into one request, sent to the
scope's broker if it names one (then no lookup is needed), to any broker otherwise.
"""

from __future__ import annotations

__all__ = ["ApiRequestScope"]


class ApiRequestScope:
    """A batching scope; equal scopes share requests. This base class is compared by identity."""

    __slots__ = ()

    def destination_broker_id(self) -> int | None:
        """The broker the requests of this scope go to; None for any broker."""
        return None
