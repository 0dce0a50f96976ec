"""Port of clients/src/main/java/org/apache/kafka/common/resource/Resource.java (Kafka 3.7).

A concrete resource (a type and a name), such as the one cluster resource `kafka-cluster`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from kafka.common.resource.resource_type import ResourceType

__all__ = ["CLUSTER_NAME", "Resource"]

#: The name of the one cluster resource.
CLUSTER_NAME = "kafka-cluster"


@dataclass(frozen=True, slots=True)
class Resource:
    resource_type: ResourceType
    name: str

    CLUSTER_NAME: ClassVar[str] = CLUSTER_NAME
    CLUSTER: ClassVar[Resource]

    @property
    def is_unknown(self) -> bool:
        return self.resource_type.is_unknown

    def __str__(self) -> str:
        return f"(resourceType={self.resource_type.name}, name={self.name or '<any>'})"


Resource.CLUSTER = Resource(ResourceType.CLUSTER, CLUSTER_NAME)
