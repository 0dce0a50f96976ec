"""Port of clients/src/main/java/org/apache/kafka/clients/admin/AdminClient.java (Kafka 3.7).

The older name of Admin, kept for code written against it: `AdminClient.create(props)` makes a
KafkaAdminClient.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kafka.clients.admin.admin import Admin

__all__ = ["AdminClient"]


class AdminClient(Admin):
    """An Admin; KafkaAdminClient is the implementation."""

    @staticmethod
    def create(props: Mapping[str, Any]) -> AdminClient:
        from kafka.clients.admin.admin_client_config import AdminClientConfig
        from kafka.clients.admin.kafka_admin_client import KafkaAdminClient

        return KafkaAdminClient.create_internal(AdminClientConfig(props, True), None)
