"""Port of clients/src/main/java/org/apache/kafka/common/resource (Kafka 3.7): resource types and patterns."""
