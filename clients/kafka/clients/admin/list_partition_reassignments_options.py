"""Port of clients/src/main/java/org/apache/kafka/clients/admin/ListPartitionReassignmentsOptions.java (Kafka 3.7).

Options of listPartitionReassignments. See AbstractOptions for how the getter/setter methods work.
"""

from __future__ import annotations

from kafka.clients.admin.abstract_options import AbstractOptions

__all__ = ["ListPartitionReassignmentsOptions"]


class ListPartitionReassignmentsOptions(AbstractOptions):
    """Options of listPartitionReassignments."""
