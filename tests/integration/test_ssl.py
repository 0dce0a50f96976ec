"""TLS listeners as a user meets them (issue 15): one broker from the bin scripts with a PLAINTEXT and an SSL
listener; confluent-kafka, kcat and our own producer and consumer produce and consume over TLS; a client trusting
another CA is refused, and so is a client without a certificate where one is required; a plaintext client on the
TLS port and a TLS client on the plaintext port are turned away cleanly while the broker keeps serving others; a JKS
keystore stops the broker at start-up with an error naming PKCS12 and PEM; a new keystore goes in through
kafka-configs.sh without a restart; and three brokers replicate over an SSL inter-broker listener."""

from __future__ import annotations

import socket
import ssl
import struct
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import confluent_kafka as ck
import pytest
from confluent_kafka.admin import AdminClient, NewTopic
from cryptography import x509
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.hazmat.primitives.serialization import pkcs12

from kafka.clients.consumer.kafka_consumer import KafkaConsumer
from kafka.clients.producer.kafka_producer import KafkaProducer
from kafka.clients.producer.producer_record import ProducerRecord
from kafka.common.serialization.string_deserializer import StringDeserializer
from kafka.common.serialization.string_serializer import StringSerializer
from tests.integration import security_support as ss
from tests.integration.broker import BrokerProcess
from tests.integration.cluster import ClusterFactory
from tests.integration.kafka_python_support import kafka_python_produce
from tests.integration.test_console_tools import tool
from tests.integration.zookeeper import ZooKeeperServer


@pytest.fixture(scope="module")
def certs(tmp_path_factory: pytest.TempPathFactory) -> ss.TestCerts:
    return ss.make_certs(tmp_path_factory.mktemp("certs"))


@pytest.fixture(scope="module")
def broker(
    zookeeper: ZooKeeperServer, tmp_path_factory: pytest.TempPathFactory, certs: ss.TestCerts
) -> Iterator[BrokerProcess]:
    """PLAINTEXT (inter-broker) and SSL listeners; TLS clients may present a certificate (ssl.client.auth=requested)."""
    work = Path(tmp_path_factory.mktemp("ssl-broker"))
    overrides = ss.plaintext_and_ssl_listener_overrides(certs, client_auth="requested")
    overrides["auto.create.topics.enable"] = "true"
    overrides["password.encoder.secret"] = "encoder-secret"  # dynamic password configs are stored encrypted
    b = BrokerProcess(work, f"{zookeeper.connect_string}/ssl-{work.name}", overrides=overrides)
    b.start()
    yield b
    assert b.stop() == 0, b.console_tail()


def _ssl_bootstrap(broker: BrokerProcess) -> str:
    return f"localhost:{ss.listener_ports(broker)['SSL']}"


def _topic() -> str:
    return f"ssl-{uuid.uuid4().hex[:8]}"


def _create_topic(bootstrap: str, topic: str, replication: int = 1) -> None:
    admin = AdminClient({"bootstrap.servers": bootstrap})
    admin.create_topics([NewTopic(topic, 1, replication)], operation_timeout=30)[topic].result(30)


def _consume(config: dict[str, Any], topic: str, count: int, timeout: float = 60) -> list[bytes | None]:
    consumer = ck.Consumer({**config, "group.id": f"g-{uuid.uuid4().hex[:6]}", "auto.offset.reset": "earliest"})
    got: list[bytes | None] = []
    try:
        consumer.subscribe([topic])
        deadline = time.monotonic() + timeout
        while len(got) < count and time.monotonic() < deadline:
            msg = consumer.poll(0.5)
            if msg is not None and msg.error() is None:
                got.append(msg.value())
    finally:
        consumer.close()
    return got


def _wait_for_log(broker: BrokerProcess, text: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if text in broker.console_since_start():
            return
        time.sleep(0.1)
    raise AssertionError(f"no `{text}` in the broker's log: {broker.console_tail()}")


def test_confluent_kafka_produces_and_consumes_over_tls(broker: BrokerProcess, certs: ss.TestCerts) -> None:
    topic = _topic()
    _create_topic(broker.bootstrap, topic)
    config = {"bootstrap.servers": _ssl_bootstrap(broker), **ss.rdkafka_ssl_config(certs)}
    producer = ck.Producer(config)
    for i in range(100):
        producer.produce(topic, f"tls-{i}".encode())
    assert producer.flush(30) == 0
    assert _consume(config, topic, 100) == [f"tls-{i}".encode() for i in range(100)]
    # A client with a certificate (mutual TLS) too.
    mtls = {"bootstrap.servers": _ssl_bootstrap(broker), **ss.rdkafka_ssl_config(certs, client_cert=True)}
    assert _consume(mtls, topic, 100)[:1] == [b"tls-0"]


def test_kcat_over_tls(broker: BrokerProcess, certs: ss.TestCerts) -> None:
    topic = _topic()
    _create_topic(broker.bootstrap, topic)
    base = ["kcat", "-b", _ssl_bootstrap(broker), *ss.kcat_ssl_args(certs, client_cert=True)]
    produced = subprocess.run([*base, "-P", "-t", topic], input=b"one\ntwo\nthree\n", capture_output=True, timeout=60)
    assert produced.returncode == 0, produced.stderr
    consumed = subprocess.run(
        [*base, "-C", "-t", topic, "-o", "beginning", "-e", "-q"], capture_output=True, timeout=60
    )
    assert consumed.returncode == 0, consumed.stderr
    assert consumed.stdout.decode().split() == ["one", "two", "three"]


@pytest.mark.parametrize("store_type", ["PKCS12", "PEM"])
def test_our_producer_and_consumer_over_tls(broker: BrokerProcess, certs: ss.TestCerts, store_type: str) -> None:
    topic = _topic()
    _create_topic(broker.bootstrap, topic)
    config = {
        "bootstrap.servers": _ssl_bootstrap(broker),
        **ss.java_ssl_config(certs, client_cert=True, store_type=store_type),
    }
    producer = KafkaProducer(dict(config), StringSerializer(), StringSerializer())
    try:
        for i in range(50):
            producer.send(ProducerRecord(topic, f"ours-{i}", key=str(i)))
        producer.flush()
    finally:
        producer.close()
    consumer = KafkaConsumer(
        {**config, "group.id": f"g-{uuid.uuid4().hex[:6]}", "auto.offset.reset": "earliest"},
        StringDeserializer(),
        StringDeserializer(),
    )
    got: list[str | None] = []
    try:
        consumer.subscribe([topic])
        deadline = time.monotonic() + 60
        while len(got) < 50 and time.monotonic() < deadline:
            got.extend(r.value for r in consumer.poll(500))
    finally:
        consumer.close()
    assert got == [f"ours-{i}" for i in range(50)]


def test_kafka_python_over_tls(broker: BrokerProcess, certs: ss.TestCerts, tmp_path: Path) -> None:
    """kafka-python with the test CA (and a client certificate, which the broker requests) produces and reads back
    over TLS; trusting another CA, it cannot connect."""
    topic = _topic()
    _create_topic(broker.bootstrap, topic)
    config = {
        "bootstrap_servers": _ssl_bootstrap(broker),
        "security_protocol": "SSL",
        "ssl_cafile": str(certs.ca.cert_pem),
        "ssl_certfile": str(certs.client.chain_pem),
        "ssl_keyfile": str(certs.client.key_pem),
    }
    result = kafka_python_produce(tmp_path, config, topic, consume=True)
    assert result.get("consumed") == "from-kafka-python", result
    other = {**config, "ssl_cafile": str(certs.other_ca.cert_pem), "bootstrap_timeout_ms": 5000}
    refused = kafka_python_produce(tmp_path, other, topic)
    assert "offset" not in refused and "error" in refused, refused
    assert any("CERTIFICATE_VERIFY_FAILED" in line for line in refused["problems_logged"]), refused


def test_client_trusting_another_ca_is_refused(broker: BrokerProcess, certs: ss.TestCerts) -> None:
    errors: list[ck.KafkaError] = []
    config: dict[str, Any] = {
        "bootstrap.servers": _ssl_bootstrap(broker),
        **ss.rdkafka_ssl_config(certs, trust="other"),
        "error_cb": errors.append,
    }
    producer_ck = ck.Producer(config)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not any(e.code() == ck.KafkaError._SSL for e in errors):
        producer_ck.poll(0.2)
    assert any(e.code() == ck.KafkaError._SSL for e in errors), errors
    with pytest.raises(ck.KafkaException):
        AdminClient(config).list_topics(timeout=3)
    # Our own client fails with the SSL error too, and the broker logs the failed handshake.
    our = {
        "bootstrap.servers": _ssl_bootstrap(broker),
        **ss.java_ssl_config(certs, trust="other"),
        "max.block.ms": "3000",
    }
    producer = KafkaProducer(our, StringSerializer(), StringSerializer())
    try:
        with pytest.raises(Exception) as e:
            producer.send(ProducerRecord("anything", "x")).get()
        assert "SSL handshake failed" in str(e.value) or "certificate" in str(e.value).lower(), e.value
    finally:
        producer.close()
    _wait_for_log(broker, "Failed authentication with")


def test_plaintext_client_on_tls_port_and_tls_client_on_plaintext_port(
    broker: BrokerProcess, certs: ss.TestCerts
) -> None:
    ssl_port = ss.listener_ports(broker)["SSL"]
    plain_port = ss.listener_ports(broker)["PLAINTEXT"]
    # A Kafka request in the clear on the TLS port: the handshake fails, the connection is closed.
    with socket.create_connection(("127.0.0.1", ssl_port), timeout=10) as s:
        header = struct.pack(">hhih", 18, 3, 1, 4) + b"test" + b"\x00"
        s.sendall(struct.pack(">i", len(header)) + header)
        data = s.recv(4096)
        while data and data[0] == 0x15:  # a TLS alert, then the close
            data = s.recv(4096)
        assert data == b""
    # A TLS handshake on the plaintext port: the broker reads a frame size it refuses, and closes.
    context = ssl.create_default_context(cafile=str(certs.ca.cert_pem))
    with socket.create_connection(("127.0.0.1", plain_port), timeout=10) as raw:
        with pytest.raises((ssl.SSLError, OSError)):
            with context.wrap_socket(raw, server_hostname="localhost"):
                pass
    # Garbage inside a TLS handshake.
    with socket.create_connection(("127.0.0.1", ssl_port), timeout=10) as s:
        s.sendall(b"\x16\x03\x01\x00\x05hello" + b"\x00" * 64)
        data = s.recv(4096)
        while data:
            data = s.recv(4096)
    # The broker still serves TLS and plaintext clients.
    topic = _topic()
    _create_topic(broker.bootstrap, topic)
    config = {"bootstrap.servers": _ssl_bootstrap(broker), **ss.rdkafka_ssl_config(certs)}
    producer = ck.Producer(config)
    producer.produce(topic, b"still-here")
    assert producer.flush(30) == 0
    assert _consume({"bootstrap.servers": broker.bootstrap}, topic, 1) == [b"still-here"]
    assert broker.is_running


def _broker_0_configs(broker: BrokerProcess, *args: str) -> Any:
    """kafka-configs.sh --bootstrap-server ... --entity-type brokers --entity-name 0 `args`."""
    return tool(
        "kafka-configs.sh", "--bootstrap-server", broker.bootstrap, "--entity-type", "brokers", "--entity-name", "0",
        *args,
    )  # fmt: skip


def _broker_certificate_serial(port: int, certs: ss.TestCerts) -> int:
    context = ssl.create_default_context(cafile=str(certs.ca.cert_pem))
    with socket.create_connection(("127.0.0.1", port), timeout=10) as raw:
        with context.wrap_socket(raw, server_hostname="localhost") as s:
            der = s.getpeercert(binary_form=True)
    assert der is not None
    return x509.load_der_x509_certificate(der).serial_number


def _wait_for_broker_certificate_serial(port: int, certs: ss.TestCerts, expected: int) -> None:
    deadline = time.monotonic() + 30
    serial = _broker_certificate_serial(port, certs)
    while time.monotonic() < deadline and serial != expected:
        time.sleep(0.2)
        serial = _broker_certificate_serial(port, certs)
    assert serial == expected


def test_new_keystore_through_kafka_configs_without_restart(broker: BrokerProcess, certs: ss.TestCerts) -> None:
    port = ss.listener_ports(broker)["SSL"]
    before = _broker_certificate_serial(port, certs)
    new_cert = ss.reissue_certificate(certs, f"broker-renewed-{uuid.uuid4().hex[:6]}")
    run = _broker_0_configs(
        broker,
        "--alter",
        "--add-config",
        f"listener.name.ssl.ssl.keystore.location={new_cert.keystore_p12}",
    )
    assert run.status == 0, run.err + run.out
    expected = x509.load_pem_x509_certificate(new_cert.cert_pem.read_bytes()).serial_number
    assert expected != before
    _wait_for_broker_certificate_serial(port, certs, expected)
    # A keystore for another subject is refused, and the broker keeps the one it has.
    other = ss.reissue_certificate(certs, f"other-{uuid.uuid4().hex[:6]}", cn="someone-else")
    run = _broker_0_configs(
        broker,
        "--alter",
        "--add-config",
        f"listener.name.ssl.ssl.keystore.location={other.keystore_p12}",
    )
    assert run.status != 0
    assert "Invalid dynamic configuration" in run.err + run.out
    assert _broker_certificate_serial(port, certs) == expected
    # A keystore with another password: the password goes in too, stored encrypted, never shown.
    rotated = ss.reissue_certificate(certs, f"broker-rotated-{uuid.uuid4().hex[:6]}")
    key, cert, extra = pkcs12.load_key_and_certificates(rotated.keystore_p12.read_bytes(), ss.STORE_PASSWORD.encode())
    assert isinstance(key, rsa.RSAPrivateKey) and cert is not None
    rotated_store = rotated.keystore_p12.with_name("rotated.p12")
    rotated_store.write_bytes(
        pkcs12.serialize_key_and_certificates(
            b"broker", key, cert, extra, serialization.BestAvailableEncryption(b"rotated-secret")
        )
    )
    prefix = "listener.name.ssl."
    run = _broker_0_configs(
        broker,
        "--alter",
        "--add-config",
        f"{prefix}ssl.keystore.location={rotated_store},{prefix}ssl.keystore.password=rotated-secret,"
        f"{prefix}ssl.key.password=rotated-secret",
    )
    assert run.status == 0, run.err + run.out
    _wait_for_broker_certificate_serial(port, certs, cert.serial_number)
    described = _broker_0_configs(broker, "--describe")
    assert described.status == 0, described.err
    assert "ssl.keystore.password" in described.out and "rotated-secret" not in described.out
    assert "rotated-secret" not in broker.console_since_start()


def _alter_ssl_keystore_location(broker: BrokerProcess, location: Path) -> None:
    run = _broker_0_configs(
        broker,
        "--alter",
        "--add-config",
        f"listener.name.ssl.ssl.keystore.location={location},listener.name.ssl.ssl.keystore.password="
        f"{ss.STORE_PASSWORD},listener.name.ssl.ssl.key.password={ss.STORE_PASSWORD}",
    )
    assert run.status == 0, run.err + run.out


def test_keystore_replaced_in_place_is_reloaded_when_given_again(
    broker: BrokerProcess, certs: ss.TestCerts, tmp_path: Path
) -> None:
    """The same keystore path given again after its file was replaced: the broker re-reads it (Kafka's
    reloadUpdatedFilesWithoutConfigChange and the SslFactory's modified-store check)."""
    port = ss.listener_ports(broker)["SSL"]
    first = ss.reissue_certificate(certs, f"in-place-a-{uuid.uuid4().hex[:6]}")
    second = ss.reissue_certificate(certs, f"in-place-b-{uuid.uuid4().hex[:6]}")
    store = tmp_path / "broker-keystore.p12"
    store.write_bytes(first.keystore_p12.read_bytes())
    _alter_ssl_keystore_location(broker, store)
    first_serial = x509.load_pem_x509_certificate(first.cert_pem.read_bytes()).serial_number
    _wait_for_broker_certificate_serial(port, certs, first_serial)
    store.write_bytes(second.keystore_p12.read_bytes())
    _alter_ssl_keystore_location(broker, store)
    second_serial = x509.load_pem_x509_certificate(second.cert_pem.read_bytes()).serial_number
    _wait_for_broker_certificate_serial(port, certs, second_serial)
    # Given again unchanged, the store is not rebuilt: new connections keep the certificate.
    _alter_ssl_keystore_location(broker, store)
    assert _broker_certificate_serial(port, certs) == second_serial


def test_jks_keystore_is_refused_at_start_up(
    zookeeper: ZooKeeperServer, zk_chroot: str, tmp_path: Path, certs: ss.TestCerts
) -> None:
    jks = tmp_path / "broker.jks"
    jks.write_bytes(b"\xfe\xed\xfe\xed\x00\x00\x00\x02" + b"\x00" * 128)
    overrides = ss.plaintext_and_ssl_listener_overrides(certs)
    overrides.update({"ssl.keystore.type": "JKS", "ssl.keystore.location": str(jks)})
    work = tmp_path / "jks-broker"
    work.mkdir()
    b = BrokerProcess(work, zookeeper.connect_string + zk_chroot, overrides=overrides)
    with pytest.raises(AssertionError, match="exited"):
        b.start(timeout=60)
    log = b.console_tail(20000)
    assert "Fatal error during KafkaServer startup" in log
    assert f"SSL key store {jks} is of type JKS, which this broker cannot read: use PKCS12 or PEM" in log


def test_required_client_certificate(
    zookeeper: ZooKeeperServer, zk_chroot: str, tmp_path: Path, certs: ss.TestCerts
) -> None:
    overrides = ss.plaintext_and_ssl_listener_overrides(certs, store_type="PEM-inline", client_auth="required")
    work = tmp_path / "mtls-broker"
    work.mkdir()
    b = BrokerProcess(work, zookeeper.connect_string + zk_chroot, overrides=overrides)
    b.start()
    try:
        bootstrap = f"localhost:{ss.listener_ports(b)['SSL']}"
        no_cert = AdminClient({"bootstrap.servers": bootstrap, **ss.rdkafka_ssl_config(certs)})
        with pytest.raises(ck.KafkaException):
            no_cert.list_topics(timeout=5)
        with_cert = AdminClient({"bootstrap.servers": bootstrap, **ss.rdkafka_ssl_config(certs, client_cert=True)})
        assert 0 in with_cert.list_topics(timeout=30).brokers
        untrusted = AdminClient(
            {"bootstrap.servers": bootstrap, **ss.rdkafka_ssl_config(certs, client_cert="untrusted")}
        )
        with pytest.raises(ck.KafkaException):
            untrusted.list_topics(timeout=5)
        _wait_for_log(b, "Failed authentication with")
        # The inline key and its password are never logged (the config dump shows them as [hidden]).
        log = b.console_since_start()
        assert "PRIVATE KEY" not in log and ss.KEY_PASSWORD not in log
    finally:
        assert b.stop() == 0, b.console_tail()


def test_three_brokers_replicate_over_an_ssl_inter_broker_listener(
    cluster_factory: ClusterFactory, certs: ss.TestCerts
) -> None:
    overrides = ss.plaintext_and_ssl_listener_overrides(certs, client_auth="required")
    overrides["inter.broker.listener.name"] = "SSL"
    cluster = cluster_factory(overrides)
    for broker in cluster.brokers:
        assert ss.listener_ports(broker)["SSL"] > 0
    topic = _topic()
    _create_topic(cluster.bootstrap, topic, replication=3)
    producer = ck.Producer({"bootstrap.servers": cluster.bootstrap, "acks": "all"})
    for i in range(200):
        producer.produce(topic, f"r-{i}".encode())
    assert producer.flush(60) == 0
    # Every replica in sync: the followers fetched over TLS.
    admin = AdminClient({"bootstrap.servers": cluster.bootstrap})
    deadline = time.monotonic() + 60
    isr: list[int] = []
    while time.monotonic() < deadline:
        isr = sorted(admin.list_topics(topic, timeout=10).topics[topic].partitions[0].isrs)
        if isr == [0, 1, 2]:
            break
        time.sleep(0.2)
    assert isr == [0, 1, 2]
    ssl_config = {
        "bootstrap.servers": ",".join(f"localhost:{ss.listener_ports(b)['SSL']}" for b in cluster.brokers),
        **ss.rdkafka_ssl_config(certs, client_cert=True),
    }
    assert _consume(ssl_config, topic, 200) == [f"r-{i}".encode() for i in range(200)]
    # The controller's and the fetchers' connections were TLS: the brokers' plaintext listeners saw none of them.
    for broker in cluster.brokers:
        assert "Failed authentication" not in broker.console_since_start()


def test_bin_tools_over_tls_with_command_config_files(
    broker: BrokerProcess, certs: ss.TestCerts, tmp_path: Path
) -> None:
    bootstrap = _ssl_bootstrap(broker)
    client = ss.write_properties(tmp_path / "client-ssl.properties", ss.java_ssl_config(certs, client_cert=True))
    topic = _topic()
    run = tool(
        "kafka-topics.sh",
        "--bootstrap-server",
        bootstrap,
        "--command-config",
        str(client),
        "--create",
        "--topic",
        topic,
        "--partitions",
        "1",
        "--replication-factor",
        "1",
    )
    assert run.status == 0, run.err
    run = tool("kafka-topics.sh", "--bootstrap-server", bootstrap, "--command-config", str(client), "--list")
    assert run.status == 0 and topic in run.out.split(), run.err
    run = tool(
        "kafka-console-producer.sh",
        "--bootstrap-server",
        bootstrap,
        "--producer.config",
        str(client),
        "--topic",
        topic,
        stdin="alpha\nbeta\n",
    )
    assert run.status == 0, run.err
    run = tool(
        "kafka-console-consumer.sh",
        "--bootstrap-server",
        bootstrap,
        "--consumer.config",
        str(client),
        "--topic",
        topic,
        "--from-beginning",
        "--max-messages",
        "2",
        "--timeout-ms",
        "30000",
    )
    assert run.status == 0, run.err
    assert run.out.split() == ["alpha", "beta"]
    run = tool("kafka-broker-api-versions.sh", "--bootstrap-server", bootstrap, "--command-config", str(client))
    assert run.status == 0 and "(id: 0 rack: null)" in run.out, run.err


def test_mutual_tls_principal_is_the_one_acls_name(
    zookeeper: ZooKeeperServer, zk_chroot: str, tmp_path: Path, certs: ss.TestCerts
) -> None:
    """With the ACL authorizer, the client certificate's subject is the principal: no ACL, no writing; an ACL for
    `User:CN=client,OU=test,O=kafka-port` (kafka-acls.sh) lets it write. PLAINTEXT (ANONYMOUS) is the super user."""
    overrides = ss.plaintext_and_ssl_listener_overrides(certs, client_auth="required")
    overrides.update(
        {"authorizer.class.name": "kafka.security.authorizer.AclAuthorizer", "super.users": "User:ANONYMOUS"}
    )
    work = tmp_path / "acl-broker"
    work.mkdir()
    b = BrokerProcess(work, zookeeper.connect_string + zk_chroot, overrides=overrides)
    b.start()
    try:
        topic = _topic()
        _create_topic(b.bootstrap, topic)
        config = {
            "bootstrap.servers": f"localhost:{ss.listener_ports(b)['SSL']}",
            **ss.rdkafka_ssl_config(certs, client_cert=True),
            "message.timeout.ms": "5000",
        }

        def produce() -> ck.KafkaError | None:
            outcome: list[ck.KafkaError | None] = []
            producer = ck.Producer(config)
            producer.produce(topic, b"mtls", on_delivery=lambda err, msg: outcome.append(err))
            producer.flush(30)
            assert outcome, "no delivery report"
            return outcome[0]

        error = produce()
        assert error is not None and error.code() == ck.KafkaError.TOPIC_AUTHORIZATION_FAILED, error
        run = tool(
            "kafka-acls.sh",
            "--bootstrap-server",
            b.bootstrap,
            "--add",
            "--allow-principal",
            ss.CLIENT_PRINCIPAL,
            "--producer",
            "--topic",
            topic,
        )
        assert run.status == 0, run.err
        deadline = time.monotonic() + 30
        while (error := produce()) is not None and time.monotonic() < deadline:
            time.sleep(0.2)
        assert error is None
    finally:
        assert b.stop() == 0, b.console_tail()
