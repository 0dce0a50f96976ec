"""Port of clients/src/main/java/org/apache/kafka/common/config/internals (Kafka 3.7)."""
