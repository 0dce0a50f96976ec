"""Port of clients/src/main/java/org/apache/kafka/common/replica (Kafka 2.8): fetch from a follower (KIP-392)."""
