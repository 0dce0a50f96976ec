"""Port of clients/src/main/java/org/apache/kafka/common/replica/ClientMetadata.java (Kafka 2.8).

What the broker knows of a fetching client when it picks a replica for it: the rack the client sent in its Fetch
request (`client.rack`), its client id, address, principal and listener.
"""

from __future__ import annotations

from dataclasses import dataclass

from kafka.common.security.auth.kafka_principal import KafkaPrincipal


@dataclass(frozen=True, slots=True)
class ClientMetadata:
    """Java's ClientMetadata.DefaultClientMetadata (the interface has no other implementation)."""

    rack_id: str
    client_id: str
    client_address: str
    principal: KafkaPrincipal
    listener_name: str

    def __str__(self) -> str:
        return (
            f"DefaultClientMetadata{{rackId='{self.rack_id}', clientId='{self.client_id}', "
            f"clientAddress=/{self.client_address}, principal={self.principal}, listenerName='{self.listener_name}'}}"
        )
