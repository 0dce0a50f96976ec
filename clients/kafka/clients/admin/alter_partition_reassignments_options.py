"""Port of clients/src/main/java/org/apache/kafka/clients/admin/AlterPartitionReassignmentsOptions.java (Kafka 3.7).

Options of alterPartitionReassignments. See AbstractOptions for how the getter/setter methods work.
"""

from __future__ import annotations

from kafka.clients.admin.abstract_options import AbstractOptions

__all__ = ["AlterPartitionReassignmentsOptions"]


class AlterPartitionReassignmentsOptions(AbstractOptions):
    """Options of alterPartitionReassignments."""
