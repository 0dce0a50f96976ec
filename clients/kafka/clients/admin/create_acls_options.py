"""Port of clients/src/main/java/org/apache/kafka/clients/admin/CreateAclsOptions.java (Kafka 3.7).

Options of createAcls. See AbstractOptions for how the getter/setter methods work.
"""

from __future__ import annotations

from kafka.clients.admin.abstract_options import AbstractOptions

__all__ = ["CreateAclsOptions"]


class CreateAclsOptions(AbstractOptions):
    """Options of createAcls."""
