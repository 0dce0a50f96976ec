"""SASL as a user meets it (issue 15): one broker with a PLAINTEXT inter-broker listener and a SASL_PLAINTEXT
listener serving PLAIN (users in the listener's JAAS options) and SCRAM-SHA-256/512 (users made with
kafka-configs.sh, through ZooKeeper before the broker starts and through the broker afterwards). confluent-kafka,
kcat, aiokafka and our own clients log in with the right passwords and are refused with the wrong ones; bad
handshakes (an unsupported mechanism, garbage, a request before authentication) are refused and the connection
closed while the broker keeps serving everyone else; SCRAM-SHA-512 sessions last 3 s, so long-lived connections
re-authenticate (KIP-368)."""

from __future__ import annotations

import asyncio
import socket
import struct
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from confluent_kafka import Consumer, KafkaError, Producer

from kafka.common.message import (
    ApiVersionsRequestData,
    MetadataRequestData,
    SaslAuthenticateRequestData,
    SaslHandshakeRequestData,
)
from kafka.common.requests.abstract_response import AbstractResponse
from kafka.common.requests.api_versions_request import ApiVersionsRequest
from kafka.common.requests.metadata_request import MetadataRequest
from kafka.common.requests.request_header import RequestHeader
from kafka.common.requests.sasl_authenticate_request import SaslAuthenticateRequest
from kafka.common.requests.sasl_handshake_request import SaslHandshakeRequest
from tests.integration.broker import ROOT, BrokerProcess
from tests.integration.kafka_python_support import kafka_python_produce
from tests.integration.security_support import (
    listener_bootstrap,
    plain_jaas,
    plain_server_jaas,
    round_trip_with_our_clients,
    scram_jaas,
)
from tests.utils import wait_until_true

SCRAM_SERVER_JAAS = "org.apache.kafka.common.security.scram.ScramLoginModule required;"
PLAIN_USERS = {"alice": "alice-secret", "admin": "admin-secret"}
ZK_USER = ("zoe", "zoe-secret")  # SCRAM-SHA-256, made with --zookeeper before the broker starts
BOOT_USER = ("bob", "bob-secret")  # SCRAM-SHA-256 and -512, made with --bootstrap-server
REAUTH_MS = 3000
OAUTH_SERVER_JAAS = (
    "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required "
    'unsecuredLoginStringClaim_sub="admin" unsecuredValidatorRequiredScope="kafka";'
)


def configs_tool(*args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([str(ROOT / "bin" / "kafka-configs.sh"), *args], capture_output=True, text=True, timeout=90)
    assert "Traceback" not in done.stderr, done.stderr
    return done


def broker_overrides(extra: dict[str, str] | None = None) -> dict[str, str]:
    props = {
        "listeners": "PLAINTEXT://127.0.0.1:0,SASL_PLAINTEXT://127.0.0.1:0",
        "listener.security.protocol.map": "PLAINTEXT:PLAINTEXT,SASL_PLAINTEXT:SASL_PLAINTEXT",
        "inter.broker.listener.name": "PLAINTEXT",
        "sasl.enabled.mechanisms": "PLAIN,SCRAM-SHA-256,SCRAM-SHA-512,OAUTHBEARER",
        "listener.name.sasl_plaintext.plain.sasl.jaas.config": plain_server_jaas(PLAIN_USERS),
        "listener.name.sasl_plaintext.scram-sha-256.sasl.jaas.config": SCRAM_SERVER_JAAS,
        "listener.name.sasl_plaintext.scram-sha-512.sasl.jaas.config": SCRAM_SERVER_JAAS,
        "listener.name.sasl_plaintext.scram-sha-512.connections.max.reauth.ms": str(REAUTH_MS),
        "listener.name.sasl_plaintext.oauthbearer.sasl.jaas.config": OAUTH_SERVER_JAAS,
        "auto.create.topics.enable": "true",
    }
    props.update(extra or {})
    return props


@pytest.fixture(scope="module")
def broker(zookeeper: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[BrokerProcess]:
    work = Path(tmp_path_factory.mktemp("sasl"))
    zk_connect = zookeeper.connect_string + "/sasl-" + work.name
    # The first SCRAM user exists before any broker can check it: written straight to ZooKeeper.
    b = BrokerProcess(work, zk_connect, overrides=broker_overrides())
    done = configs_tool(
        "--zookeeper", zk_connect, "--alter", "--entity-type", "users", "--entity-name", ZK_USER[0],
        "--add-config", f"SCRAM-SHA-256=[iterations=4096,password={ZK_USER[1]}]",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert ZK_USER[1] not in done.stdout + done.stderr
    b.start()
    yield b
    assert b.stop() == 0, b.console_tail()


@pytest.fixture(scope="module")
def sasl_bootstrap(broker: BrokerProcess) -> str:
    return listener_bootstrap(broker, "SASL_PLAINTEXT")


@pytest.fixture(scope="module")
def boot_user(broker: BrokerProcess) -> tuple[str, str]:
    """A SCRAM user made through the running broker (AlterUserScramCredentials)."""
    for mechanism, iterations in (("SCRAM-SHA-256", 8192), ("SCRAM-SHA-512", 4096)):
        done = configs_tool(
            "--bootstrap-server", broker.bootstrap, "--alter", "--entity-type", "users", "--entity-name",
            BOOT_USER[0], "--add-config", f"{mechanism}=[iterations={iterations},password={BOOT_USER[1]}]",
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert "Completed updating config for user bob." in done.stdout
    return BOOT_USER


def rdkafka_config(bootstrap: str, mechanism: str, user: str, password: str, **extra: Any) -> dict[str, Any]:
    return {
        "bootstrap.servers": bootstrap,
        "security.protocol": "SASL_PLAINTEXT",
        "sasl.mechanism": mechanism,
        "sasl.username": user,
        "sasl.password": password,
        **extra,
    }


def produce_one(config: dict[str, Any], topic: str, value: bytes, timeout: float = 30.0) -> tuple[Any, list[Any]]:
    """Produces one record; returns the delivery error (None when delivered) and the client errors seen."""
    errors: list[Any] = []
    results: list[Any] = []
    producer = Producer({**config, "error_cb": errors.append, "message.timeout.ms": int(timeout * 1000)})
    producer.produce(topic, value, on_delivery=lambda err, msg: results.append(err))
    deadline = time.monotonic() + timeout + 5
    while not results and time.monotonic() < deadline:
        producer.poll(0.2)
    producer.flush(5)
    assert results, f"no delivery report; client errors: {errors}"
    return results[0], errors


def consume_values(config: dict[str, Any], topic: str, count: int, timeout: float = 30.0) -> list[bytes | None]:
    consumer = Consumer(
        {**config, "group.id": "g-" + uuid.uuid4().hex, "auto.offset.reset": "earliest", "enable.auto.commit": False}
    )
    consumer.subscribe([topic])
    values: list[bytes | None] = []
    deadline = time.monotonic() + timeout
    try:
        while len(values) < count and time.monotonic() < deadline:
            msg = consumer.poll(0.5)
            if msg is not None and msg.error() is None:
                values.append(msg.value())
    finally:
        consumer.close()
    return values


def wait_for_auth_failure(config: dict[str, Any], timeout: float = 30.0) -> KafkaError:
    """A producer with bad credentials: the authentication error librdkafka reports."""
    errors: list[KafkaError] = []
    producer = Producer({**config, "error_cb": errors.append})
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            producer.poll(0.2)
            for e in errors:
                if e.code() == KafkaError._AUTHENTICATION:
                    return e
        raise AssertionError(f"no authentication error within {timeout} s: {errors}")
    finally:
        producer.flush(0)


# ---- confluent-kafka --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("mechanism", "user"),
    [
        ("PLAIN", ("alice", "alice-secret")),
        ("SCRAM-SHA-256", ZK_USER),
        ("SCRAM-SHA-256", BOOT_USER),
        ("SCRAM-SHA-512", BOOT_USER),
    ],
)
def test_confluent_kafka_logs_in(
    sasl_bootstrap: str, boot_user: tuple[str, str], mechanism: str, user: tuple[str, str]
) -> None:
    topic = "sasl-ok-" + uuid.uuid4().hex[:8]
    config = rdkafka_config(sasl_bootstrap, mechanism, *user)
    err, errors = produce_one(config, topic, b"hello " + mechanism.encode())
    assert err is None, (err, errors)
    assert consume_values(config, topic, 1) == [b"hello " + mechanism.encode()]


@pytest.mark.parametrize(
    ("mechanism", "user", "password"),
    [
        ("PLAIN", "alice", "wrong"),
        ("PLAIN", "mallory", "alice-secret"),
        ("SCRAM-SHA-256", ZK_USER[0], "wrong"),
        ("SCRAM-SHA-512", "nobody", "x"),
        ("SCRAM-SHA-512", ZK_USER[0], ZK_USER[1]),  # zoe has no SCRAM-SHA-512 credential
    ],
)
def test_confluent_kafka_wrong_credentials_refused(
    broker: BrokerProcess, sasl_bootstrap: str, mechanism: str, user: str, password: str
) -> None:
    error = wait_for_auth_failure(rdkafka_config(sasl_bootstrap, mechanism, user, password))
    assert "Authentication failed" in error.str()
    # Passwords never reach the broker's log.
    assert password not in (broker.app_log_dir / "server.log").read_text(errors="replace") or password == "x"


def test_oauthbearer_unsecured_tokens(sasl_bootstrap: str) -> None:
    """OAUTHBEARER with Kafka's unsecured JWS handlers: librdkafka's unsecured token with the required scope logs
    in; one without it is refused (insufficient_scope); our client's token logs in too."""
    base = {
        "bootstrap.servers": sasl_bootstrap,
        "security.protocol": "SASL_PLAINTEXT",
        "sasl.mechanism": "OAUTHBEARER",
        "enable.sasl.oauthbearer.unsecure.jwt": True,
    }
    topic = "sasl-oauth-" + uuid.uuid4().hex[:8]
    err, errors = produce_one({**base, "sasl.oauthbearer.config": "principal=erin scope=kafka"}, topic, b"o")
    assert err is None, (err, errors)
    error = wait_for_auth_failure({**base, "sasl.oauthbearer.config": "principal=erin scope=other"})
    assert "insufficient_scope" in error.str()

    from kafka.clients.admin.admin import Admin

    jaas = (
        "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required "
        'unsecuredLoginStringClaim_sub="erin" unsecuredLoginListClaim_scope=",kafka";'
    )
    admin = Admin.create(our_config(sasl_bootstrap, "OAUTHBEARER", jaas))
    try:
        assert admin.describe_cluster().cluster_id().get(30_000)
    finally:
        admin.close(10_000)


# ---- kcat, aiokafka -------------------------------------------------------------------------------------------------


def kcat(bootstrap: str, mechanism: str, user: str, password: str, *args: str, input: str | None = None) -> Any:
    return subprocess.run(
        ["kcat", "-b", bootstrap, "-X", "security.protocol=SASL_PLAINTEXT", "-X", f"sasl.mechanisms={mechanism}",
         "-X", f"sasl.username={user}", "-X", f"sasl.password={password}", *args],
        input=input, capture_output=True, text=True, timeout=60,
    )  # fmt: skip


def test_kcat(sasl_bootstrap: str) -> None:
    """kcat over PLAIN. (This machine's kcat is built on librdkafka 2.0.2, whose SCRAM client-final message repeats
    the client nonce, so a Kafka broker, and this one, refuses its SCRAM logins; confluent-kafka's newer librdkafka
    covers SCRAM above.)"""
    topic = "sasl-kcat-" + uuid.uuid4().hex[:8]
    done = kcat(sasl_bootstrap, "PLAIN", "admin", "admin-secret", "-P", "-t", topic, input="one\ntwo\n")
    assert done.returncode == 0, done.stderr
    done = kcat(sasl_bootstrap, "PLAIN", "alice", "alice-secret", "-C", "-t", topic, "-e", "-o", "beginning")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["one", "two"]
    done = kcat(sasl_bootstrap, "PLAIN", "alice", "wrong", "-L")
    assert done.returncode != 0
    assert "Authentication failed: Invalid username or password" in done.stderr


def test_aiokafka(sasl_bootstrap: str, boot_user: tuple[str, str]) -> None:
    from aiokafka import AIOKafkaConsumer, AIOKafkaProducer
    from aiokafka.errors import KafkaError as AioKafkaError

    topic = "sasl-aio-" + uuid.uuid4().hex[:8]

    def settings(mechanism: str, user: str, password: str) -> dict[str, Any]:
        return {
            "bootstrap_servers": sasl_bootstrap,
            "security_protocol": "SASL_PLAINTEXT",
            "sasl_mechanism": mechanism,
            "sasl_plain_username": user,
            "sasl_plain_password": password,
        }

    async def run() -> list[bytes]:
        producer = AIOKafkaProducer(**settings("SCRAM-SHA-256", *boot_user))
        await producer.start()
        try:
            await producer.send_and_wait(topic, b"from aiokafka")
        finally:
            await producer.stop()
        consumer = AIOKafkaConsumer(topic, auto_offset_reset="earliest", **settings("PLAIN", "alice", "alice-secret"))
        await consumer.start()
        try:
            msg = await asyncio.wait_for(consumer.getone(), 30)
            return [msg.value]
        finally:
            await consumer.stop()

    async def refused() -> None:
        producer = AIOKafkaProducer(**settings("PLAIN", "alice", "wrong"))
        try:
            await producer.start()
        finally:
            await producer.stop()

    assert asyncio.run(run()) == [b"from aiokafka"]
    with pytest.raises(AioKafkaError):
        asyncio.run(refused())


# ---- our clients ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("mechanism", "user", "password"), [("PLAIN", "alice", "alice-secret"), ("SCRAM-SHA-256", *ZK_USER)]
)
def test_kafka_python(
    broker: BrokerProcess, sasl_bootstrap: str, tmp_path: Path, mechanism: str, user: str, password: str
) -> None:
    """kafka-python logs in with PLAIN (JAAS users) and SCRAM-SHA-256 (a user made with kafka-configs.sh), produces
    and reads back; with a wrong password it is refused."""
    config = {
        "bootstrap_servers": sasl_bootstrap,
        "security_protocol": "SASL_PLAINTEXT",
        "sasl_mechanism": mechanism,
        "sasl_plain_username": user,
        "sasl_plain_password": password,
    }
    topic = f"sasl-kafka-python-{uuid.uuid4().hex[:6]}"
    result = kafka_python_produce(tmp_path, config, topic, consume=True)
    assert result.get("consumed") == "from-kafka-python", result
    server_log = broker.app_log_dir / "server.log"
    failures_before = server_log.read_text(errors="replace").count("Failed authentication with")
    refused = kafka_python_produce(
        tmp_path, {**config, "sasl_plain_password": "wrong", "bootstrap_timeout_ms": 5000}, topic
    )
    assert "offset" not in refused and "error" in refused, refused
    problems = "\n".join(refused["problems_logged"])
    # The broker answers SASL_AUTHENTICATION_FAILED and closes the connection (after
    # connection.failed.authentication.delay.ms), as Kafka does. kafka-python usually reports the error; when the
    # response and the close reach it in one read, its transport drops the bytes it read with the end of the stream
    # (kafka/net/transport.py, _read_from_sock) and it reports "socket disconnected" instead. Either way the broker
    # logged the refusal.
    assert "SaslAuthenticationFailedError" in problems or "socket disconnected" in problems, problems
    wait_until_true(
        lambda: server_log.read_text(errors="replace").count("Failed authentication with") > failures_before,
        "the broker to log the failed authentication",
    )


def our_config(sasl_bootstrap: str, mechanism: str, jaas: str) -> dict[str, Any]:
    return {
        "bootstrap.servers": sasl_bootstrap,
        "security.protocol": "SASL_PLAINTEXT",
        "sasl.mechanism": mechanism,
        "sasl.jaas.config": jaas,
    }


def test_our_clients(sasl_bootstrap: str, boot_user: tuple[str, str]) -> None:
    topic = "sasl-ours-" + uuid.uuid4().hex[:8]
    values = round_trip_with_our_clients(
        our_config(sasl_bootstrap, "SCRAM-SHA-512", scram_jaas(*boot_user)),
        topic,
        b"from ours",
        consumer_props=our_config(sasl_bootstrap, "PLAIN", plain_jaas("alice", "alice-secret")),
    )
    assert values == [b"from ours"]


def test_our_admin_client_wrong_password_refused(sasl_bootstrap: str) -> None:
    from kafka.clients.admin.admin import Admin
    from kafka.common.errors import SaslAuthenticationException
    from kafka.common.kafka_future import ExecutionException

    admin = Admin.create(our_config(sasl_bootstrap, "PLAIN", plain_jaas("alice", "wrong")))
    try:
        with pytest.raises(ExecutionException) as e:
            admin.describe_cluster().cluster_id().get(30_000)
        assert isinstance(e.value.cause, SaslAuthenticationException)
    finally:
        admin.close(10_000)


# ---- kafka-configs.sh -------------------------------------------------------------------------------------------


def test_configs_describe_never_prints_passwords(broker: BrokerProcess, boot_user: tuple[str, str]) -> None:
    done = configs_tool(
        "--bootstrap-server", broker.bootstrap, "--describe", "--entity-type", "users", "--entity-name", "bob"
    )
    assert done.returncode == 0, done.stderr
    assert (
        "SCRAM credential configs for user-principal 'bob' are SCRAM-SHA-256=iterations=8192, "
        "SCRAM-SHA-512=iterations=4096"
    ) in done.stdout
    done_zk = configs_tool(
        "--zookeeper", broker.zk_connect, "--describe", "--entity-type", "users", "--entity-name", ZK_USER[0]
    )
    assert done_zk.returncode == 0, done_zk.stderr
    assert "Configs for user-principal 'zoe' are SCRAM-SHA-256=salt=" in done_zk.stdout
    for out in (done.stdout + done.stderr, done_zk.stdout + done_zk.stderr):
        assert BOOT_USER[1] not in out and ZK_USER[1] not in out


def test_configs_delete_scram_credential_then_login_refused(broker: BrokerProcess, sasl_bootstrap: str) -> None:
    user, password = "carol", "carol-secret"
    done = configs_tool(
        "--bootstrap-server", broker.bootstrap, "--alter", "--entity-type", "users", "--entity-name", user,
        "--add-config", f"SCRAM-SHA-256=[password={password}]",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    topic = "sasl-carol-" + uuid.uuid4().hex[:8]
    err, errors = produce_one(rdkafka_config(sasl_bootstrap, "SCRAM-SHA-256", user, password), topic, b"c")
    assert err is None, (err, errors)
    done = configs_tool(
        "--bootstrap-server", broker.bootstrap, "--alter", "--entity-type", "users", "--entity-name", user,
        "--delete-config", "SCRAM-SHA-256",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    error = wait_for_auth_failure(rdkafka_config(sasl_bootstrap, "SCRAM-SHA-256", user, password))
    assert "Authentication failed" in error.str()
    # Too few iterations: Kafka's refusal, nothing changed.
    done = configs_tool(
        "--bootstrap-server", broker.bootstrap, "--alter", "--entity-type", "users", "--entity-name", user,
        "--add-config", "SCRAM-SHA-256=[iterations=100,password=x]",
    )  # fmt: skip
    assert done.returncode == 1
    assert "Iterations 100 is less than the minimum 4096 required for SCRAM-SHA-256" in done.stderr


# ---- bad input on the wire --------------------------------------------------------------------------------------


def _connect(bootstrap: str) -> socket.socket:
    host, port = bootstrap.rsplit(":", 1)
    sock = socket.create_connection((host, int(port)), timeout=15)
    return sock


def _send(sock: socket.socket, request: Any, correlation_id: int) -> RequestHeader:
    header = RequestHeader.of(request.api_key, request.version, "sasl-test", correlation_id)
    sock.sendall(request.serialize_with_header(header, size_prefix=True))
    return header


def _read_frame(sock: socket.socket) -> bytes | None:
    """One size-prefixed frame, or None when the broker closed the connection."""

    def read_exactly(n: int) -> bytes | None:
        data = b""
        while len(data) < n:
            try:
                chunk = sock.recv(n - len(data))
            except ConnectionResetError:  # closed with bytes it never read: a reset
                return None
            if not chunk:
                return None
            data += chunk
        return data

    size = read_exactly(4)
    if size is None:
        return None
    return read_exactly(struct.unpack(">i", size)[0])


def _closed(sock: socket.socket) -> bool:
    try:
        return sock.recv(1) == b""
    except ConnectionResetError:
        return True


def _assert_broker_serves_others(sasl_bootstrap: str) -> None:
    err, errors = produce_one(
        rdkafka_config(sasl_bootstrap, "PLAIN", "alice", "alice-secret"), "sasl-still-" + uuid.uuid4().hex[:6], b"x"
    )
    assert err is None, (err, errors)


def test_unsupported_mechanism(sasl_bootstrap: str) -> None:
    with _connect(sasl_bootstrap) as sock:
        header = _send(sock, SaslHandshakeRequest(SaslHandshakeRequestData(mechanism="GSSAPI"), 1), 1)
        frame = _read_frame(sock)
        assert frame is not None
        response: Any = AbstractResponse.parse_response(frame, header)
        assert response.data.error_code == 33  # UNSUPPORTED_SASL_MECHANISM
        assert sorted(response.data.mechanisms) == ["OAUTHBEARER", "PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"]
        assert _closed(sock)
    _assert_broker_serves_others(sasl_bootstrap)


def test_request_before_authentication_is_refused(sasl_bootstrap: str) -> None:
    with _connect(sasl_bootstrap) as sock:
        _send(sock, MetadataRequest(MetadataRequestData(topics=None), 9), 7)
        assert _read_frame(sock) is None  # closed without an answer: nothing reached the request handlers
    with _connect(sasl_bootstrap) as sock:
        # After the handshake, anything but SaslAuthenticate is ILLEGAL_SASL_STATE, then the connection is closed.
        header = _send(sock, SaslHandshakeRequest(SaslHandshakeRequestData(mechanism="PLAIN"), 1), 1)
        assert _read_frame(sock) is not None
        header = _send(sock, ApiVersionsRequest(ApiVersionsRequestData(), 3), 2)
        frame = _read_frame(sock)
        assert frame is not None
        response: Any = AbstractResponse.parse_response(frame, header)
        assert response.data.error_code == 34  # ILLEGAL_SASL_STATE
        assert _closed(sock)
    _assert_broker_serves_others(sasl_bootstrap)


@pytest.mark.parametrize(
    "garbage",
    [
        b"\x00\x00\x00\x08" + b"\xff" * 8,  # a frame that is no Kafka request
        b"\x7f\xff\xff\xff",  # a frame larger than sasl.server.max.receive.size
        b"GET / HTTP/1.1\r\n\r\n",
    ],
)
def test_garbage_in_the_handshake(sasl_bootstrap: str, garbage: bytes) -> None:
    with _connect(sasl_bootstrap) as sock:
        sock.sendall(garbage)
        assert _read_frame(sock) is None
    _assert_broker_serves_others(sasl_bootstrap)


def test_garbage_sasl_token_is_authentication_failed(sasl_bootstrap: str) -> None:
    with _connect(sasl_bootstrap) as sock:
        _send(sock, SaslHandshakeRequest(SaslHandshakeRequestData(mechanism="SCRAM-SHA-256"), 1), 1)
        assert _read_frame(sock) is not None
        header = _send(sock, SaslAuthenticateRequest(SaslAuthenticateRequestData(auth_bytes=b"\x00garbage"), 2), 2)
        frame = _read_frame(sock)
        assert frame is not None
        response: Any = AbstractResponse.parse_response(frame, header)
        assert response.data.error_code == 58  # SASL_AUTHENTICATION_FAILED
        assert _closed(sock)
    _assert_broker_serves_others(sasl_bootstrap)


def test_wrong_password_is_answered_then_the_connection_closed(broker: BrokerProcess, sasl_bootstrap: str) -> None:
    """A wrong PLAIN password: the SaslAuthenticate response says SASL_AUTHENTICATION_FAILED, sent (with the close)
    connection.failed.authentication.delay.ms after the failure (KIP-306, Kafka's default 100 ms here)."""
    with _connect(sasl_bootstrap) as sock:
        _send(sock, SaslHandshakeRequest(SaslHandshakeRequestData(mechanism="PLAIN"), 1), 1)
        assert _read_frame(sock) is not None
        token = b"\x00alice\x00not-alices-password"
        header = _send(sock, SaslAuthenticateRequest(SaslAuthenticateRequestData(auth_bytes=token), 2), 2)
        frame = _read_frame(sock)
        assert frame is not None
        response: Any = AbstractResponse.parse_response(frame, header)
        assert response.data.error_code == 58  # SASL_AUTHENTICATION_FAILED
        assert "Invalid username or password" in (response.data.error_message or "")
        assert _closed(sock)
    assert "not-alices-password" not in broker.console_since_start()
    _assert_broker_serves_others(sasl_bootstrap)


def test_scram_final_message_replayed_on_another_connection_is_refused(
    sasl_bootstrap: str, boot_user: tuple[str, str]
) -> None:
    """A recorded SCRAM exchange replayed on a new connection: the broker's new nonce does not match the recorded
    client-final message, so the login fails (SASL_AUTHENTICATION_FAILED) and the connection is closed."""
    from kafka.common.security.scram.internals.scram_mechanism import ScramMechanism
    from kafka.common.security.scram.internals.scram_sasl_client import ScramSaslClient

    def authenticate(sock: socket.socket, tokens: list[bytes]) -> list[Any]:
        _send(sock, SaslHandshakeRequest(SaslHandshakeRequestData(mechanism="SCRAM-SHA-256"), 1), 1)
        assert _read_frame(sock) is not None
        responses = []
        for i, token in enumerate(tokens):
            header = _send(sock, SaslAuthenticateRequest(SaslAuthenticateRequestData(auth_bytes=token), 2), 2 + i)
            frame = _read_frame(sock)
            assert frame is not None
            responses.append(AbstractResponse.parse_response(frame, header))
        return responses

    client = ScramSaslClient(ScramMechanism.SCRAM_SHA_256, *boot_user)
    first = client.evaluate_challenge(b"")
    assert first is not None
    with _connect(sasl_bootstrap) as sock:
        (server_first,) = authenticate(sock, [first])
        final = client.evaluate_challenge(server_first.sasl_auth_bytes())
        assert final is not None
        header = _send(sock, SaslAuthenticateRequest(SaslAuthenticateRequestData(auth_bytes=final), 2), 9)
        frame = _read_frame(sock)
        assert frame is not None
        assert AbstractResponse.parse_response(frame, header).data.error_code == 0
    with _connect(sasl_bootstrap) as sock:
        responses = authenticate(sock, [first, final])
        assert responses[0].data.error_code == 0
        assert responses[1].data.error_code == 58  # SASL_AUTHENTICATION_FAILED
        assert _closed(sock)
    _assert_broker_serves_others(sasl_bootstrap)


def test_sasl_handshake_on_plaintext_listener_is_illegal_sasl_state(broker: BrokerProcess) -> None:
    with _connect(broker.bootstrap) as sock:
        header = _send(sock, SaslHandshakeRequest(SaslHandshakeRequestData(mechanism="PLAIN"), 1), 1)
        frame = _read_frame(sock)
        assert frame is not None
        response: Any = AbstractResponse.parse_response(frame, header)
        assert response.data.error_code == 34  # ILLEGAL_SASL_STATE


def test_passwords_never_in_the_broker_logs(broker: BrokerProcess) -> None:
    logs = broker.console_since_start() + "".join(
        p.read_text(errors="replace") for p in broker.app_log_dir.glob("*.log")
    )
    assert "sasl_plaintext" in logs.lower()  # the logs are there
    for password in (*PLAIN_USERS.values(), ZK_USER[1], BOOT_USER[1], "carol-secret"):
        assert password not in logs


# ---- re-authentication (KIP-368) ----------------------------------------------------------------------------------


def test_session_lifetime_in_sasl_authenticate(sasl_bootstrap: str, boot_user: tuple[str, str]) -> None:
    """SCRAM-SHA-512 sessions on this listener last connections.max.reauth.ms; PLAIN sessions do not end."""
    from kafka.common.security.scram.internals.scram_mechanism import ScramMechanism
    from kafka.common.security.scram.internals.scram_sasl_client import ScramSaslClient

    def session_lifetime(mechanism: str, client: Any) -> int:
        with _connect(sasl_bootstrap) as sock:
            _send(sock, SaslHandshakeRequest(SaslHandshakeRequestData(mechanism=mechanism), 1), 1)
            assert _read_frame(sock) is not None
            token = client.evaluate_challenge(b"")
            correlation_id = 2
            while True:
                request = SaslAuthenticateRequest(SaslAuthenticateRequestData(auth_bytes=token), 2)
                header = _send(sock, request, correlation_id)
                frame = _read_frame(sock)
                assert frame is not None
                response: Any = AbstractResponse.parse_response(frame, header)
                assert response.data.error_code == 0, response.data.error_message
                if not client.is_complete():
                    token = client.evaluate_challenge(response.sasl_auth_bytes())
                if client.is_complete():
                    return int(response.session_lifetime_ms())
                correlation_id += 1

    from kafka.common.security.plain.internals.plain_sasl_client import PlainSaslClient

    assert session_lifetime("SCRAM-SHA-512", ScramSaslClient(ScramMechanism.SCRAM_SHA_512, *boot_user)) == REAUTH_MS
    assert session_lifetime("PLAIN", PlainSaslClient("alice", "alice-secret")) == 0


def test_confluent_kafka_reauthenticates_on_a_long_lived_connection(
    sasl_bootstrap: str, boot_user: tuple[str, str]
) -> None:
    """A producer that keeps producing for three session lifetimes keeps its one connection: it re-authenticates
    before each session ends (librdkafka's stats count the connections it made)."""
    import json

    topic = "sasl-reauth-" + uuid.uuid4().hex[:8]
    stats: list[dict[str, Any]] = []
    errors: list[Any] = []
    config = rdkafka_config(sasl_bootstrap, "SCRAM-SHA-512", *boot_user)
    producer = Producer(
        {**config, "statistics.interval.ms": 500, "stats_cb": lambda s: stats.append(json.loads(s)),
         "error_cb": errors.append}
    )  # fmt: skip
    delivered: list[Any] = []
    end = time.monotonic() + 3 * REAUTH_MS / 1000 + 1
    n = 0
    while time.monotonic() < end:
        producer.produce(topic, b"%d" % n, on_delivery=lambda err, msg: delivered.append(err))
        n += 1
        producer.poll(0.2)
    assert producer.flush(30) == 0
    assert len(delivered) == n and all(e is None for e in delivered), (delivered, errors)
    producer.poll(1)
    brokers = [b for b in stats[-1]["brokers"].values() if b["nodeid"] >= 0]
    assert brokers and all(b["connects"] == 1 for b in brokers), [(b["name"], b["connects"]) for b in brokers]
    assert not [e for e in errors if e.code() == KafkaError._AUTHENTICATION]
    assert consume_values(config, topic, n) == [b"%d" % i for i in range(n)]


def test_our_admin_client_reauthenticates(sasl_bootstrap: str, boot_user: tuple[str, str]) -> None:
    """Our client re-authenticates its connection before the broker's session ends, and keeps working."""
    from kafka.clients.admin.admin import Admin

    admin: Any = Admin.create(our_config(sasl_bootstrap, "SCRAM-SHA-512", scram_jaas(*boot_user)))
    try:
        end = time.monotonic() + 3 * REAUTH_MS / 1000 + 1
        while time.monotonic() < end:
            assert admin.describe_cluster().cluster_id().get(30_000)
            time.sleep(0.3)
        selector = admin._client._selector
        channels = selector.channels()
        assert channels
        assert max(c.successful_authentications() for c in channels) >= 3
    finally:
        admin.close(10_000)


# ---- a JAAS file named in KAFKA_OPTS --------------------------------------------------------------------------------


def test_jaas_file_from_kafka_opts(zookeeper: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    jaas = tmp_path / "kafka_server_jaas.conf"
    jaas.write_text(
        "KafkaServer {\n"
        '  org.apache.kafka.common.security.plain.PlainLoginModule required user_dave="dave-secret";\n'
        "};\n"
    )
    monkeypatch.setenv("KAFKA_OPTS", f"-Djava.security.auth.login.config={jaas}")
    overrides = broker_overrides({"sasl.enabled.mechanisms": "PLAIN"})
    del overrides["listener.name.sasl_plaintext.plain.sasl.jaas.config"]
    b = BrokerProcess(tmp_path, zookeeper.connect_string + "/sasl-jaas-" + uuid.uuid4().hex[:6], overrides=overrides)
    b.start()
    try:
        bootstrap = listener_bootstrap(b, "SASL_PLAINTEXT")
        err, errors = produce_one(rdkafka_config(bootstrap, "PLAIN", "dave", "dave-secret"), "jaas-file", b"d")
        assert err is None, (err, errors)
        wait_for_auth_failure(rdkafka_config(bootstrap, "PLAIN", "alice", "alice-secret"))
    finally:
        assert b.stop() == 0, b.console_tail()


def test_inter_broker_over_sasl_scram(zookeeper: Any, tmp_path: Path) -> None:
    """The inter-broker listener is SASL_PLAINTEXT with SCRAM-SHA-512 (sasl.mechanism.inter.broker.protocol): the
    broker's own user is made in ZooKeeper first, the controller connects to the broker over SASL, and a topic
    with its leader elected serves clients."""
    zk_connect = zookeeper.connect_string + "/sasl-ib-" + uuid.uuid4().hex[:6]
    done = configs_tool(
        "--zookeeper", zk_connect, "--alter", "--entity-type", "users", "--entity-name", "broker",
        "--add-config", "SCRAM-SHA-512=[password=broker-secret]",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    overrides = broker_overrides(
        {
            "inter.broker.listener.name": "SASL_PLAINTEXT",
            "sasl.mechanism.inter.broker.protocol": "SCRAM-SHA-512",
            "listener.name.sasl_plaintext.scram-sha-512.sasl.jaas.config": (
                "org.apache.kafka.common.security.scram.ScramLoginModule required "
                'username="broker" password="broker-secret";'
            ),
        }
    )
    b = BrokerProcess(tmp_path, zk_connect, overrides=overrides)
    b.start()
    try:
        bootstrap = listener_bootstrap(b, "SASL_PLAINTEXT")
        topic = "ib-" + uuid.uuid4().hex[:6]
        err, errors = produce_one(rdkafka_config(bootstrap, "PLAIN", "alice", "alice-secret"), topic, b"i")
        assert err is None, (err, errors)
        assert "broker-secret" not in b.console_since_start()
    finally:
        assert b.stop() == 0, b.console_tail()


def test_sasl_ssl(zookeeper: Any, tmp_path: Path) -> None:
    """SASL over TLS (SASL_SSL): PLAIN and SCRAM logins through confluent-kafka and our admin client, a wrong
    password refused."""
    from kafka.clients.admin.admin import Admin
    from tests.integration.security_support import java_ssl_config, make_certs, rdkafka_ssl_config, ssl_overrides

    certs = make_certs(tmp_path / "certs")
    zk_connect = zookeeper.connect_string + "/sasl-ssl-" + uuid.uuid4().hex[:6]
    done = configs_tool(
        "--zookeeper", zk_connect, "--alter", "--entity-type", "users", "--entity-name", "sam",
        "--add-config", "SCRAM-SHA-256=[password=sam-secret]",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    overrides = {
        **broker_overrides(),
        "listeners": "PLAINTEXT://127.0.0.1:0,SASL_SSL://127.0.0.1:0",
        "listener.security.protocol.map": "PLAINTEXT:PLAINTEXT,SASL_SSL:SASL_SSL",
        **ssl_overrides(certs),
    }
    for key in [k for k in overrides if k.startswith("listener.name.sasl_plaintext.")]:
        overrides[key.replace("sasl_plaintext", "sasl_ssl")] = overrides.pop(key)
    (tmp_path / "broker").mkdir()
    b = BrokerProcess(tmp_path / "broker", zk_connect, overrides=overrides)
    b.start()
    try:
        bootstrap = listener_bootstrap(b, "SASL_SSL")
        tls = rdkafka_ssl_config(certs, protocol="SASL_SSL")
        for mechanism, user, password in (("PLAIN", "alice", "alice-secret"), ("SCRAM-SHA-256", "sam", "sam-secret")):
            config = {**rdkafka_config(bootstrap, mechanism, user, password), **tls}
            topic = "sasl-ssl-" + uuid.uuid4().hex[:6]
            err, errors = produce_one(config, topic, b"s")
            assert err is None, (mechanism, err, errors)
            assert consume_values(config, topic, 1) == [b"s"]
        error = wait_for_auth_failure({**rdkafka_config(bootstrap, "PLAIN", "alice", "wrong"), **tls})
        assert "Authentication failed" in error.str()
        admin = Admin.create(
            {
                **java_ssl_config(certs, protocol="SASL_SSL"),
                "bootstrap.servers": bootstrap,
                "sasl.mechanism": "SCRAM-SHA-256",
                "sasl.jaas.config": scram_jaas("sam", "sam-secret"),
            }
        )
        try:
            assert admin.describe_cluster().cluster_id().get(30_000)
        finally:
            admin.close(10_000)
    finally:
        assert b.stop() == 0, b.console_tail()


def test_gssapi_is_a_clear_startup_error(zookeeper: Any, tmp_path: Path) -> None:
    overrides = broker_overrides({"sasl.enabled.mechanisms": "GSSAPI,PLAIN"})
    b = BrokerProcess(tmp_path, zookeeper.connect_string + "/sasl-gssapi-" + uuid.uuid4().hex[:6], overrides=overrides)
    with pytest.raises(AssertionError, match="GSSAPI"):
        b.start(timeout=60)
    b.stop()
