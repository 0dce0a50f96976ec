"""What the security integration tests share (issue 15): test certificates and the configs that use them.

`make_certs(dir)` writes, with the `cryptography` package, two certificate authorities (`ca`, the one brokers and
clients trust, and `other_ca`, which nobody trusts), a broker certificate signed by `ca` (CN=broker, SANs
`localhost` and `127.0.0.1`, so hostname verification passes), a client certificate signed by `ca`
(CN=client,OU=test,O=kafka-port: the principal `User:CN=client,OU=test,O=kafka-port` under the default mapping
rule) and a client certificate signed by `other_ca` (a client the broker does not trust). Each certificate comes as
PEM (certificate, chain, an unencrypted key and a key encrypted with KEY_PASSWORD) and as a PKCS12 keystore
(STORE_PASSWORD); each CA as a PEM truststore and a PKCS12 truststore.

Then the configs an operator or a client writes for them: broker overrides for an SSL listener (`ssl_overrides`),
confluent-kafka / librdkafka (`rdkafka_ssl_config`), kcat (`kcat_ssl_args`), our own clients and the bin tools'
`--command-config` files (`java_ssl_config`, `write_properties`); JAAS strings for PLAIN and SCRAM (`plain_jaas`,
`scram_jaas`, `plain_server_jaas`); and the port a broker bound for each listener (`listener_ports`).
"""

from __future__ import annotations

import datetime
import ipaddress
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.hazmat.primitives.serialization import pkcs12
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID
from kazoo.client import KazooClient

from tests.integration.broker import BrokerProcess

STORE_PASSWORD = "store-secret"
KEY_PASSWORD = "key-secret"
CLIENT_PRINCIPAL = "User:CN=client,OU=test,O=kafka-port"
BROKER_PRINCIPAL = "User:CN=broker,OU=test,O=kafka-port"


@dataclass(frozen=True)
class CaFiles:
    name: str
    cert_pem: Path  # the CA's certificate: a PEM truststore
    truststore_p12: Path  # the same certificate in a PKCS12 truststore (STORE_PASSWORD)
    key: rsa.RSAPrivateKey
    cert: x509.Certificate

    @property
    def cert_text(self) -> str:
        """The PEM text, for the inline `ssl.truststore.certificates` (KIP-651)."""
        return self.cert_pem.read_text()


@dataclass(frozen=True)
class CertFiles:
    name: str
    cert_pem: Path  # the leaf certificate alone
    chain_pem: Path  # leaf then CA: `ssl.keystore.certificate.chain` / librdkafka's ssl.certificate.location
    key_pem: Path  # unencrypted PKCS8 key
    encrypted_key_pem: Path  # PKCS8 key encrypted with KEY_PASSWORD
    keystore_p12: Path  # key and chain, PKCS12 with STORE_PASSWORD
    keystore_pem: Path  # key (encrypted with KEY_PASSWORD) and chain in one PEM file, ssl.keystore.type=PEM

    @property
    def chain_text(self) -> str:
        return self.chain_pem.read_text()

    @property
    def encrypted_key_text(self) -> str:
        return self.encrypted_key_pem.read_text()


@dataclass(frozen=True)
class TestCerts:
    dir: Path
    ca: CaFiles
    other_ca: CaFiles
    broker: CertFiles
    client: CertFiles
    untrusted_client: CertFiles  # signed by other_ca


def _name(cn: str, ou: str = "test", o: str = "kafka-port") -> x509.Name:
    return x509.Name(
        [
            # Most significant first, as CAs issue them: the RFC 2253 form (the principal) reads CN=...,OU=...,O=...
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, o),
            x509.NameAttribute(NameOID.ORGANIZATIONAL_UNIT_NAME, ou),
            x509.NameAttribute(NameOID.COMMON_NAME, cn),
        ]
    )


def _key() -> rsa.RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


def _validity(builder: x509.CertificateBuilder) -> x509.CertificateBuilder:
    now = datetime.datetime.now(datetime.UTC)
    return builder.not_valid_before(now - datetime.timedelta(days=1)).not_valid_after(now + datetime.timedelta(days=30))


def _make_ca(dir: Path, name: str) -> CaFiles:
    key = _key()
    subject = _name(f"{name} test CA", ou="ca")
    builder = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=True,
                crl_sign=True,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
    )
    cert = _validity(builder).sign(key, hashes.SHA256())
    cert_pem = dir / f"{name}.crt.pem"
    cert_pem.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    truststore = dir / f"{name}.truststore.p12"
    truststore.write_bytes(
        pkcs12.serialize_java_truststore(
            [pkcs12.PKCS12Certificate(cert, name.encode())],
            serialization.BestAvailableEncryption(STORE_PASSWORD.encode()),
        )
    )
    return CaFiles(name, cert_pem, truststore, key, cert)


def _make_leaf(dir: Path, name: str, ca: CaFiles, cn: str, server: bool) -> CertFiles:
    key = _key()
    builder = (
        x509.CertificateBuilder()
        .subject_name(_name(cn))
        .issuer_name(ca.cert.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(
            x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH, ExtendedKeyUsageOID.CLIENT_AUTH]), critical=False
        )
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca.key.public_key()), critical=False)
    )
    if server:
        builder = builder.add_extension(
            x509.SubjectAlternativeName([x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
            critical=False,
        )
    cert = _validity(builder).sign(ca.key, hashes.SHA256())
    cert_bytes = cert.public_bytes(serialization.Encoding.PEM)
    ca_bytes = ca.cert.public_bytes(serialization.Encoding.PEM)
    cert_pem = dir / f"{name}.crt.pem"
    cert_pem.write_bytes(cert_bytes)
    chain_pem = dir / f"{name}.chain.pem"
    chain_pem.write_bytes(cert_bytes + ca_bytes)
    key_pem = dir / f"{name}.key.pem"
    key_pem.write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    encrypted = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.BestAvailableEncryption(KEY_PASSWORD.encode()),
    )
    encrypted_key_pem = dir / f"{name}.key.encrypted.pem"
    encrypted_key_pem.write_bytes(encrypted)
    keystore_pem = dir / f"{name}.keystore.pem"
    keystore_pem.write_bytes(encrypted + cert_bytes + ca_bytes)
    keystore = dir / f"{name}.keystore.p12"
    keystore.write_bytes(
        pkcs12.serialize_key_and_certificates(
            name.encode(), key, cert, [ca.cert], serialization.BestAvailableEncryption(STORE_PASSWORD.encode())
        )
    )
    return CertFiles(name, cert_pem, chain_pem, key_pem, encrypted_key_pem, keystore, keystore_pem)


def make_certs(dir: Path) -> TestCerts:
    """Writes the CAs and certificates into `dir` (created if missing). About a second: RSA keys are made here."""
    dir.mkdir(parents=True, exist_ok=True)
    ca = _make_ca(dir, "ca")
    other_ca = _make_ca(dir, "other-ca")
    return TestCerts(
        dir=dir,
        ca=ca,
        other_ca=other_ca,
        broker=_make_leaf(dir, "broker", ca, "broker", server=True),
        client=_make_leaf(dir, "client", ca, "client", server=False),
        untrusted_client=_make_leaf(dir, "untrusted-client", other_ca, "intruder", server=False),
    )


# ---- broker side --------------------------------------------------------------------------------------------------


def ssl_overrides(
    certs: TestCerts,
    store_type: str = "PKCS12",
    client_auth: str = "none",
    prefix: str = "",
) -> dict[str, str]:
    """The broker's `ssl.*` keys for the broker certificate, trusting `ca`. `store_type` PKCS12 (keystore file),
    PEM (one PEM file with the encrypted key and the chain) or PEM-inline (KIP-651's inline chain and key).
    `prefix` is `listener.name.<l>.` for a per-listener override."""
    p = prefix
    props: dict[str, str] = {f"{p}ssl.client.auth": client_auth}
    if store_type == "PKCS12":
        props.update(
            {
                f"{p}ssl.keystore.type": "PKCS12",
                f"{p}ssl.keystore.location": str(certs.broker.keystore_p12),
                f"{p}ssl.keystore.password": STORE_PASSWORD,
                f"{p}ssl.key.password": STORE_PASSWORD,
                f"{p}ssl.truststore.type": "PKCS12",
                f"{p}ssl.truststore.location": str(certs.ca.truststore_p12),
                f"{p}ssl.truststore.password": STORE_PASSWORD,
            }
        )
    elif store_type == "PEM":
        props.update(
            {
                f"{p}ssl.keystore.type": "PEM",
                f"{p}ssl.keystore.location": str(certs.broker.keystore_pem),
                f"{p}ssl.key.password": KEY_PASSWORD,
                f"{p}ssl.truststore.type": "PEM",
                f"{p}ssl.truststore.location": str(certs.ca.cert_pem),
            }
        )
    elif store_type == "PEM-inline":
        props.update(
            {
                f"{p}ssl.keystore.type": "PEM",
                f"{p}ssl.keystore.certificate.chain": certs.broker.chain_text,
                f"{p}ssl.keystore.key": certs.broker.encrypted_key_text,
                f"{p}ssl.key.password": KEY_PASSWORD,
                f"{p}ssl.truststore.type": "PEM",
                f"{p}ssl.truststore.certificates": certs.ca.cert_text,
            }
        )
    else:
        raise ValueError(f"store_type {store_type}")
    return props


def plaintext_and_ssl_listener_overrides(
    certs: TestCerts, store_type: str = "PKCS12", client_auth: str = "none"
) -> dict[str, str]:
    """One broker with a PLAINTEXT listener (first: BrokerProcess.port and the inter-broker listener) and an SSL
    listener, both on ephemeral ports (`listener_ports` tells which)."""
    props = {
        "listeners": "PLAINTEXT://127.0.0.1:0,SSL://127.0.0.1:0",
        "listener.security.protocol.map": "PLAINTEXT:PLAINTEXT,SSL:SSL",
        "inter.broker.listener.name": "PLAINTEXT",
    }
    props.update(ssl_overrides(certs, store_type=store_type, client_auth=client_auth))
    return props


def listener_ports(broker: BrokerProcess) -> dict[str, int]:
    """{listener name: port} from the broker's registration in /brokers/ids/N (its `endpoints`)."""
    client = KazooClient(hosts=broker.zk_connect, timeout=10.0)
    client.start(timeout=10.0)
    try:
        data, _ = client.get(f"/brokers/ids/{broker.broker_id}")
    finally:
        client.stop()
        client.close()
    ports: dict[str, int] = {}
    for endpoint in json.loads(data)["endpoints"]:
        name, rest = endpoint.split("://", 1)
        ports[name] = int(rest.rsplit(":", 1)[1])
    return ports


def listener_bootstrap(broker: BrokerProcess, listener: str) -> str:
    return f"127.0.0.1:{listener_ports(broker)[listener]}"


# ---- client side --------------------------------------------------------------------------------------------------


def rdkafka_ssl_config(
    certs: TestCerts, client_cert: bool | Literal["untrusted"] = False, trust: str = "ca", protocol: str = "SSL"
) -> dict[str, str]:
    """confluent-kafka's settings: trust `ca` (or `other_ca` with trust="other"), optionally present the client
    certificate (client_cert=True, or "untrusted" for the one signed by other_ca)."""
    ca = certs.ca if trust == "ca" else certs.other_ca
    config = {
        "security.protocol": protocol,
        "ssl.ca.location": str(ca.cert_pem),
        "ssl.endpoint.identification.algorithm": "https",
    }
    if client_cert:
        cert = certs.untrusted_client if client_cert == "untrusted" else certs.client
        config.update(
            {
                "ssl.certificate.location": str(cert.chain_pem),
                "ssl.key.location": str(cert.encrypted_key_pem),
                "ssl.key.password": KEY_PASSWORD,
            }
        )
    return config


def kcat_ssl_args(certs: TestCerts, client_cert: bool = False, trust: str = "ca") -> list[str]:
    """kcat's `-X` arguments for the same settings as rdkafka_ssl_config."""
    args: list[str] = []
    for key, value in rdkafka_ssl_config(certs, client_cert=client_cert, trust=trust).items():
        args += ["-X", f"{key}={value}"]
    return args


def java_ssl_config(
    certs: TestCerts,
    client_cert: bool | Literal["untrusted"] = False,
    trust: str = "ca",
    store_type: str = "PEM",
    protocol: str = "SSL",
) -> dict[str, str]:
    """The Java clients' keys (our KafkaProducer/KafkaConsumer/Admin and --command-config files): truststore of
    `ca` (or other_ca), and with client_cert the client's keystore; `store_type` PKCS12 or PEM (files)."""
    ca = certs.ca if trust == "ca" else certs.other_ca
    config = {"security.protocol": protocol}
    if store_type == "PKCS12":
        config.update(
            {
                "ssl.truststore.type": "PKCS12",
                "ssl.truststore.location": str(ca.truststore_p12),
                "ssl.truststore.password": STORE_PASSWORD,
            }
        )
    else:
        config.update({"ssl.truststore.type": "PEM", "ssl.truststore.location": str(ca.cert_pem)})
    if client_cert:
        cert = certs.untrusted_client if client_cert == "untrusted" else certs.client
        if store_type == "PKCS12":
            config.update(
                {
                    "ssl.keystore.type": "PKCS12",
                    "ssl.keystore.location": str(cert.keystore_p12),
                    "ssl.keystore.password": STORE_PASSWORD,
                    "ssl.key.password": STORE_PASSWORD,
                }
            )
        else:
            config.update(
                {
                    "ssl.keystore.type": "PEM",
                    "ssl.keystore.location": str(cert.keystore_pem),
                    "ssl.key.password": KEY_PASSWORD,
                }
            )
    return config


def write_properties(path: Path, config: dict[str, str]) -> Path:
    """A Java properties file (`--command-config`, `--producer.config`); values with newlines (inline PEM) are
    written with escaped line ends, as Java's Properties reads them."""
    lines = []
    for key, value in config.items():
        escaped = value.replace("\\", "\\\\").replace("\n", "\\n")
        lines.append(f"{key}={escaped}")
    path.write_text("\n".join(lines) + "\n")
    return path


# ---- JAAS ---------------------------------------------------------------------------------------------------------


def plain_jaas(username: str, password: str) -> str:
    """A client's `sasl.jaas.config` for SASL/PLAIN."""
    return (
        f'org.apache.kafka.common.security.plain.PlainLoginModule required username="{username}" password="{password}";'
    )


def scram_jaas(username: str, password: str) -> str:
    """A client's `sasl.jaas.config` for SCRAM-SHA-256/512."""
    return (
        f'org.apache.kafka.common.security.scram.ScramLoginModule required username="{username}" password="{password}";'
    )


def plain_server_jaas(users: dict[str, str], username: str | None = None, password: str | None = None) -> str:
    """A broker's `listener.name.<l>.plain.sasl.jaas.config`: `user_NAME="password"` for each user, and the
    broker's own username/password for inter-broker connections when given."""
    options = []
    if username is not None:
        options.append(f'username="{username}" password="{password}"')
    options += [f'user_{name}="{pw}"' for name, pw in users.items()]
    return "org.apache.kafka.common.security.plain.PlainLoginModule required " + " ".join(options) + ";"


def reissue_certificate(certs: TestCerts, name: str, cn: str = "broker", server: bool = True) -> CertFiles:
    """Another certificate (a new key) signed by `ca` with CN=<cn>: the same subject and names as the broker's for
    cn="broker" (a keystore a running broker accepts dynamically), another subject otherwise."""
    return _make_leaf(certs.dir, name, certs.ca, cn, server=server)


def round_trip_with_our_clients(
    props: dict[str, str],
    topic: str,
    value: bytes,
    consumer_props: dict[str, str] | None = None,
    timeout: float = 30.0,
) -> list[bytes | None]:
    """Our KafkaProducer sends `value` to `topic` with the client settings `props` (security protocol, SASL, ...),
    then our KafkaConsumer in a new group (with `consumer_props`, else the same settings) reads the topic from the
    start: returns the values it read (waiting up to `timeout` seconds for the first)."""
    import time
    import uuid

    from kafka.clients.consumer.kafka_consumer import KafkaConsumer
    from kafka.clients.producer.kafka_producer import KafkaProducer
    from kafka.clients.producer.producer_record import ProducerRecord
    from kafka.common.serialization.byte_array_deserializer import ByteArrayDeserializer
    from kafka.common.serialization.byte_array_serializer import ByteArraySerializer

    producer = KafkaProducer({**props, "acks": "all"}, ByteArraySerializer(), ByteArraySerializer())
    try:
        producer.send(ProducerRecord(topic, value=value)).get(60_000)
    finally:
        producer.close()
    consumer = KafkaConsumer(
        {
            **(props if consumer_props is None else consumer_props),
            "group.id": "g-" + uuid.uuid4().hex,
            "auto.offset.reset": "earliest",
        },
        ByteArrayDeserializer(),
        ByteArrayDeserializer(),
    )
    try:
        consumer.subscribe([topic])
        values: list[bytes | None] = []
        deadline = time.monotonic() + timeout
        while not values and time.monotonic() < deadline:
            values += [r.value for r in consumer.poll(500)]
        return values
    finally:
        consumer.close()
