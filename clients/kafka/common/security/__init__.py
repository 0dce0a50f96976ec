"""Port of clients/src/main/java/org/apache/kafka/common/security (Kafka 2.8)."""
