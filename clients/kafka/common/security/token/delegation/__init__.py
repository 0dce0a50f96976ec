"""Delegation tokens (KIP-48): TokenInformation and DelegationToken, as Java's
org.apache.kafka.common.security.token.delegation."""

from kafka.common.security.token.delegation.delegation_token import DelegationToken
from kafka.common.security.token.delegation.token_information import TokenInformation

__all__ = ["DelegationToken", "TokenInformation"]
