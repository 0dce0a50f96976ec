"""Port of clients/src/main/java/org/apache/kafka/common/quota (Kafka 3.7): client quota entities, filters and
alterations used by the admin client's describeClientQuotas/alterClientQuotas."""

from kafka.common.quota.client_quota_alteration import ClientQuotaAlteration
from kafka.common.quota.client_quota_entity import ClientQuotaEntity
from kafka.common.quota.client_quota_filter import ClientQuotaFilter
from kafka.common.quota.client_quota_filter_component import ClientQuotaFilterComponent

__all__ = ["ClientQuotaAlteration", "ClientQuotaEntity", "ClientQuotaFilter", "ClientQuotaFilterComponent"]
