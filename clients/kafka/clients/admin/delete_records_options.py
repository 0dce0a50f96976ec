"""Port of clients/src/main/java/org/apache/kafka/clients/admin/DeleteRecordsOptions.java (Kafka 3.7).

Options of deleteRecords. See AbstractOptions for how the getter/setter methods work.
"""

from __future__ import annotations

from kafka.clients.admin.abstract_options import AbstractOptions

__all__ = ["DeleteRecordsOptions"]


class DeleteRecordsOptions(AbstractOptions):
    """Options of deleteRecords."""
