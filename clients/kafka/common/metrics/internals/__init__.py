"""Port of clients/src/main/java/org/apache/kafka/common/metrics/internals (Kafka 2.8)."""
