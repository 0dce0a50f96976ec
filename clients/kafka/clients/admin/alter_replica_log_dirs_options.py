"""Port of clients/src/main/java/org/apache/kafka/clients/admin/AlterReplicaLogDirsOptions.java (Kafka 3.7).

Options of alterReplicaLogDirs. See AbstractOptions for how the getter/setter methods work.
"""

from __future__ import annotations

from kafka.clients.admin.abstract_options import AbstractOptions

__all__ = ["AlterReplicaLogDirsOptions"]


class AlterReplicaLogDirsOptions(AbstractOptions):
    """Options of alterReplicaLogDirs."""
