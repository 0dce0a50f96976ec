"""Port of clients/src/main/java/org/apache/kafka/common/network/ClientInformation.java (Kafka 3.7).

The software name and version a client announced in ApiVersions v3 and later, kept on its channel.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar


@dataclass(frozen=True, slots=True)
class ClientInformation:
    """A client's software name and version; `EMPTY` (both "unknown") until the client says."""

    software_name: str
    software_version: str

    UNKNOWN_NAME_OR_VERSION: ClassVar[str] = "unknown"
    EMPTY: ClassVar[ClientInformation]

    def is_known(self) -> bool:
        return self != ClientInformation.EMPTY


ClientInformation.EMPTY = ClientInformation(
    ClientInformation.UNKNOWN_NAME_OR_VERSION, ClientInformation.UNKNOWN_NAME_OR_VERSION
)
