"""Port of clients/src/main/java/org/apache/kafka/common/config/SslConfigs.java (Kafka 3.7), with the TLS keys of
clients/src/main/java/org/apache/kafka/common/config/internals/BrokerSecurityConfigs.java (`ssl.client.auth`,
`ssl.principal.mapping.rules`).

The `ssl.*` keys shared by the clients and the broker, their defaults, and the keys a running broker may change
(RECONFIGURABLE_CONFIGS: a new keystore or truststore through `kafka-configs.sh --entity-type brokers`).

# PORT: `ssl.provider`, `ssl.keymanager.algorithm`, `ssl.trustmanager.algorithm`, `ssl.secure.random.implementation`
# and `ssl.engine.factory.class` are defined so that Java configurations parse; TLS is Python's `ssl` (OpenSSL), so
# JSSE providers and algorithms have no meaning and are ignored. JKS stores are refused (see SslFactory).
"""

from __future__ import annotations

from typing import Final

from kafka.common.config.config_def import ConfigDef, Importance, Type, ValidString

__all__ = [
    "NON_RECONFIGURABLE_CONFIGS",
    "RECONFIGURABLE_CONFIGS",
    "add_client_ssl_support",
    "add_server_ssl_support",
]

SSL_PROTOCOL_CONFIG: Final = "ssl.protocol"
SSL_PROTOCOL_DOC: Final = (
    "The SSL protocol used to generate the SSLContext. The default is 'TLSv1.3' when running with Java 11 or newer, "
    "'TLSv1.2' otherwise. With the default value for ssl.enabled.protocols, clients downgrade to 'TLSv1.2' if the "
    "server does not support 'TLSv1.3'."
)
DEFAULT_SSL_PROTOCOL: Final = "TLSv1.3"

SSL_PROVIDER_CONFIG: Final = "ssl.provider"
SSL_PROVIDER_DOC: Final = "The name of the security provider used for SSL connections (ignored by this port)."

SSL_CIPHER_SUITES_CONFIG: Final = "ssl.cipher.suites"
SSL_CIPHER_SUITES_DOC: Final = (
    "A list of cipher suites, by their standard (IANA) names such as TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256. "
    "By default all the available cipher suites are supported."
)

SSL_ENABLED_PROTOCOLS_CONFIG: Final = "ssl.enabled.protocols"
SSL_ENABLED_PROTOCOLS_DOC: Final = "The list of protocols enabled for SSL connections."
DEFAULT_SSL_ENABLED_PROTOCOLS: Final = "TLSv1.2,TLSv1.3"

SSL_KEYSTORE_TYPE_CONFIG: Final = "ssl.keystore.type"
SSL_KEYSTORE_TYPE_DOC: Final = (
    "The file format of the key store file. This is optional for client. The values supported here are PKCS12 "
    "and PEM (JKS, the Java default, is refused: convert the store to PKCS12 with keytool -importkeystore)."
)
DEFAULT_SSL_KEYSTORE_TYPE: Final = "JKS"

SSL_KEYSTORE_KEY_CONFIG: Final = "ssl.keystore.key"
SSL_KEYSTORE_KEY_DOC: Final = (
    "Private key in the format specified by 'ssl.keystore.type'. Default SSL engine factory supports only PEM "
    "format with PKCS#8 keys. If the key is encrypted, key password must be specified using 'ssl.key.password'"
)

SSL_KEYSTORE_CERTIFICATE_CHAIN_CONFIG: Final = "ssl.keystore.certificate.chain"
SSL_KEYSTORE_CERTIFICATE_CHAIN_DOC: Final = (
    "Certificate chain in the format specified by 'ssl.keystore.type'. Default SSL engine factory supports only "
    "PEM format with a list of X.509 certificates"
)

SSL_TRUSTSTORE_CERTIFICATES_CONFIG: Final = "ssl.truststore.certificates"
SSL_TRUSTSTORE_CERTIFICATES_DOC: Final = (
    "Trusted certificates in the format specified by 'ssl.truststore.type'. Default SSL engine factory supports "
    "only PEM format with X.509 certificates."
)

SSL_KEYSTORE_LOCATION_CONFIG: Final = "ssl.keystore.location"
SSL_KEYSTORE_LOCATION_DOC: Final = (
    "The location of the key store file. This is optional for client and can be used for two-way authentication "
    "for client."
)

SSL_KEYSTORE_PASSWORD_CONFIG: Final = "ssl.keystore.password"
SSL_KEYSTORE_PASSWORD_DOC: Final = (
    "The store password for the key store file. This is optional for client and only needed if "
    "'ssl.keystore.location' is configured. Key store password is not supported for PEM format."
)

SSL_KEY_PASSWORD_CONFIG: Final = "ssl.key.password"
SSL_KEY_PASSWORD_DOC: Final = (
    "The password of the private key in the key store file or the PEM key specified in 'ssl.keystore.key'."
)

SSL_TRUSTSTORE_TYPE_CONFIG: Final = "ssl.truststore.type"
SSL_TRUSTSTORE_TYPE_DOC: Final = (
    "The file format of the trust store file. The values supported here are PKCS12 and PEM."
)
DEFAULT_SSL_TRUSTSTORE_TYPE: Final = "JKS"

SSL_TRUSTSTORE_LOCATION_CONFIG: Final = "ssl.truststore.location"
SSL_TRUSTSTORE_LOCATION_DOC: Final = "The location of the trust store file."

SSL_TRUSTSTORE_PASSWORD_CONFIG: Final = "ssl.truststore.password"
SSL_TRUSTSTORE_PASSWORD_DOC: Final = (
    "The password for the trust store file. If a password is not set, trust store file configured will still be "
    "used, but integrity checking is disabled. Trust store password is not supported for PEM format."
)

SSL_KEYMANAGER_ALGORITHM_CONFIG: Final = "ssl.keymanager.algorithm"
SSL_KEYMANAGER_ALGORITHM_DOC: Final = "The algorithm used by key manager factory for SSL connections (ignored)."
DEFAULT_SSL_KEYMANGER_ALGORITHM: Final = "SunX509"

SSL_TRUSTMANAGER_ALGORITHM_CONFIG: Final = "ssl.trustmanager.algorithm"
SSL_TRUSTMANAGER_ALGORITHM_DOC: Final = "The algorithm used by trust manager factory for SSL connections (ignored)."
DEFAULT_SSL_TRUSTMANAGER_ALGORITHM: Final = "PKIX"

SSL_ENDPOINT_IDENTIFICATION_ALGORITHM_CONFIG: Final = "ssl.endpoint.identification.algorithm"
SSL_ENDPOINT_IDENTIFICATION_ALGORITHM_DOC: Final = (
    "The endpoint identification algorithm to validate server hostname using server certificate. "
    "'https' checks the host name; an empty value turns the check off."
)
DEFAULT_SSL_ENDPOINT_IDENTIFICATION_ALGORITHM: Final = "https"

SSL_SECURE_RANDOM_IMPLEMENTATION_CONFIG: Final = "ssl.secure.random.implementation"
SSL_SECURE_RANDOM_IMPLEMENTATION_DOC: Final = "The SecureRandom PRNG implementation to use for SSL (ignored)."

SSL_ENGINE_FACTORY_CLASS_CONFIG: Final = "ssl.engine.factory.class"
SSL_ENGINE_FACTORY_CLASS_DOC: Final = "The class of type SslEngineFactory to provide SSLEngine objects (ignored)."

# BrokerSecurityConfigs
SSL_CLIENT_AUTH_CONFIG: Final = "ssl.client.auth"
SSL_CLIENT_AUTH_DOC: Final = (
    "Configures kafka broker to request client authentication. ssl.client.auth=required: client authentication "
    "is required; requested: it is optional (a client without a certificate is still connected); none: not "
    "requested."
)
SSL_PRINCIPAL_MAPPING_RULES_CONFIG: Final = "ssl.principal.mapping.rules"
SSL_PRINCIPAL_MAPPING_RULES_DOC: Final = (
    "A list of rules for mapping from distinguished name found in the client certificate to short name. The rules "
    "are evaluated in order and the first rule that matches a principal name is used to map it to a short name. "
    "Any later rules in the list are ignored. By default, distinguished name of the X.500 certificate will be the "
    "principal."
)
DEFAULT_SSL_PRINCIPAL_MAPPING_RULES: Final = "DEFAULT"
SSL_CLIENT_AUTH_VALUES: Final = ("required", "requested", "none")

RECONFIGURABLE_CONFIGS: Final = frozenset(
    {
        SSL_KEYSTORE_TYPE_CONFIG,
        SSL_KEYSTORE_LOCATION_CONFIG,
        SSL_KEYSTORE_PASSWORD_CONFIG,
        SSL_KEY_PASSWORD_CONFIG,
        SSL_TRUSTSTORE_TYPE_CONFIG,
        SSL_TRUSTSTORE_LOCATION_CONFIG,
        SSL_TRUSTSTORE_PASSWORD_CONFIG,
        SSL_KEYSTORE_CERTIFICATE_CHAIN_CONFIG,
        SSL_KEYSTORE_KEY_CONFIG,
        SSL_TRUSTSTORE_CERTIFICATES_CONFIG,
    }
)

NON_RECONFIGURABLE_CONFIGS: Final = frozenset(
    {
        SSL_CLIENT_AUTH_CONFIG,
        SSL_PROTOCOL_CONFIG,
        SSL_PROVIDER_CONFIG,
        SSL_CIPHER_SUITES_CONFIG,
        SSL_ENABLED_PROTOCOLS_CONFIG,
        SSL_KEYMANAGER_ALGORITHM_CONFIG,
        SSL_TRUSTMANAGER_ALGORITHM_CONFIG,
        SSL_ENDPOINT_IDENTIFICATION_ALGORITHM_CONFIG,
        SSL_SECURE_RANDOM_IMPLEMENTATION_CONFIG,
        SSL_ENGINE_FACTORY_CLASS_CONFIG,
    }
)


def add_client_ssl_support(config: ConfigDef) -> ConfigDef:
    """Defines the clients' `ssl.*` keys on `config` (Java's SslConfigs.addClientSslSupport)."""
    L = Importance.LOW
    M = Importance.MEDIUM
    H = Importance.HIGH
    return (
        config.define(SSL_PROTOCOL_CONFIG, Type.STRING, DEFAULT_SSL_PROTOCOL, None, M, SSL_PROTOCOL_DOC)
        .define(SSL_PROVIDER_CONFIG, Type.STRING, None, None, M, SSL_PROVIDER_DOC)
        .define(SSL_CIPHER_SUITES_CONFIG, Type.LIST, None, None, L, SSL_CIPHER_SUITES_DOC)
        .define(
            SSL_ENABLED_PROTOCOLS_CONFIG, Type.LIST, DEFAULT_SSL_ENABLED_PROTOCOLS, None, M, SSL_ENABLED_PROTOCOLS_DOC
        )
        .define(SSL_KEYSTORE_TYPE_CONFIG, Type.STRING, DEFAULT_SSL_KEYSTORE_TYPE, None, M, SSL_KEYSTORE_TYPE_DOC)
        .define(SSL_KEYSTORE_LOCATION_CONFIG, Type.STRING, None, None, H, SSL_KEYSTORE_LOCATION_DOC)
        .define(SSL_KEYSTORE_PASSWORD_CONFIG, Type.PASSWORD, None, None, H, SSL_KEYSTORE_PASSWORD_DOC)
        .define(SSL_KEY_PASSWORD_CONFIG, Type.PASSWORD, None, None, H, SSL_KEY_PASSWORD_DOC)
        .define(SSL_KEYSTORE_KEY_CONFIG, Type.PASSWORD, None, None, H, SSL_KEYSTORE_KEY_DOC)
        .define(SSL_KEYSTORE_CERTIFICATE_CHAIN_CONFIG, Type.PASSWORD, None, None, H, SSL_KEYSTORE_CERTIFICATE_CHAIN_DOC)
        .define(SSL_TRUSTSTORE_CERTIFICATES_CONFIG, Type.PASSWORD, None, None, H, SSL_TRUSTSTORE_CERTIFICATES_DOC)
        .define(SSL_TRUSTSTORE_TYPE_CONFIG, Type.STRING, DEFAULT_SSL_TRUSTSTORE_TYPE, None, M, SSL_TRUSTSTORE_TYPE_DOC)
        .define(SSL_TRUSTSTORE_LOCATION_CONFIG, Type.STRING, None, None, H, SSL_TRUSTSTORE_LOCATION_DOC)
        .define(SSL_TRUSTSTORE_PASSWORD_CONFIG, Type.PASSWORD, None, None, H, SSL_TRUSTSTORE_PASSWORD_DOC)
        .define(
            SSL_KEYMANAGER_ALGORITHM_CONFIG,
            Type.STRING,
            DEFAULT_SSL_KEYMANGER_ALGORITHM,
            None,
            L,
            SSL_KEYMANAGER_ALGORITHM_DOC,
        )
        .define(
            SSL_TRUSTMANAGER_ALGORITHM_CONFIG,
            Type.STRING,
            DEFAULT_SSL_TRUSTMANAGER_ALGORITHM,
            None,
            L,
            SSL_TRUSTMANAGER_ALGORITHM_DOC,
        )
        .define(
            SSL_ENDPOINT_IDENTIFICATION_ALGORITHM_CONFIG,
            Type.STRING,
            DEFAULT_SSL_ENDPOINT_IDENTIFICATION_ALGORITHM,
            None,
            L,
            SSL_ENDPOINT_IDENTIFICATION_ALGORITHM_DOC,
        )
        .define(
            SSL_SECURE_RANDOM_IMPLEMENTATION_CONFIG, Type.STRING, None, None, L, SSL_SECURE_RANDOM_IMPLEMENTATION_DOC
        )
        .define(SSL_ENGINE_FACTORY_CLASS_CONFIG, Type.CLASS, None, None, L, SSL_ENGINE_FACTORY_CLASS_DOC)
    )


def add_server_ssl_support(config: ConfigDef) -> ConfigDef:
    """The client keys plus the broker's `ssl.client.auth` and `ssl.principal.mapping.rules`."""
    return (
        add_client_ssl_support(config)
        .define(
            SSL_CLIENT_AUTH_CONFIG,
            Type.STRING,
            "none",
            ValidString.in_(*SSL_CLIENT_AUTH_VALUES),
            Importance.MEDIUM,
            SSL_CLIENT_AUTH_DOC,
        )
        .define(
            SSL_PRINCIPAL_MAPPING_RULES_CONFIG,
            Type.STRING,
            DEFAULT_SSL_PRINCIPAL_MAPPING_RULES,
            None,
            Importance.LOW,
            SSL_PRINCIPAL_MAPPING_RULES_DOC,
        )
    )
