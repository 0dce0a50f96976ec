"""Port of core/src/main/scala/kafka/security/authorizer (Kafka 2.8): the ZooKeeper-backed ACL authorizer."""
