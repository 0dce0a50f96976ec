"""Port of the package clients/src/main/java/org/apache/kafka/common/security/ssl (Kafka 3.7): TLS contexts from
Kafka's ssl.* configs (SslFactory, DefaultSslEngineFactory), PEM and PKCS12 key and trust stores, and the mapping
of certificate subjects to principal names (SslPrincipalMapper)."""
