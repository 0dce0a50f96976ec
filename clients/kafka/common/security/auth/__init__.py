"""Port of clients/src/main/java/org/apache/kafka/common/security/auth (Kafka 2.8)."""
