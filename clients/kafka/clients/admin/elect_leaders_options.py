"""Port of clients/src/main/java/org/apache/kafka/clients/admin/ElectLeadersOptions.java (Kafka 3.7).

Options of electLeaders. See AbstractOptions for how the getter/setter methods work.
"""

from __future__ import annotations

from kafka.clients.admin.abstract_options import AbstractOptions

__all__ = ["ElectLeadersOptions"]


class ElectLeadersOptions(AbstractOptions):
    """Options of electLeaders."""
