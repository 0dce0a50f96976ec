"""Delegation tokens as a user meets them (issue 15): two brokers with a PLAINTEXT inter-broker listener and a
SASL_PLAINTEXT SCRAM listener, `delegation.token.secret.key` set. SCRAM users made with kafka-configs.sh create,
renew, expire and describe tokens with kafka-delegation-tokens.sh; our producer, consumer and admin client log in
with a token (`tokenauth=true` in the ScramLoginModule JAAS options), on either broker (the other one learns the
token from the /delegation_token/token_changes notification); an expired token stops working within seconds.
Kafka's errors: requests on PLAINTEXT or on a token-authenticated connection, a non-user renewer, an unknown HMAC,
a renewal by someone who is neither owner nor renewer. librdkafka (confluent-kafka, kcat) has no setting for the
tokenauth extension, so its SCRAM login with a token's id and HMAC is refused."""

from __future__ import annotations

import base64
import os
import re
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from confluent_kafka import KafkaError, Producer

from tests.integration.broker import ROOT, BrokerProcess
from tests.integration.security_support import listener_bootstrap, round_trip_with_our_clients, scram_jaas

SCRAM_SERVER_JAAS = "org.apache.kafka.common.security.scram.ScramLoginModule required;"
USERS = {"alice": "alice-secret", "bob": "bob-secret", "carol": "carol-secret"}
MECHANISM = "SCRAM-SHA-256"


def token_jaas(token_id: str, hmac: str) -> str:
    return (
        "org.apache.kafka.common.security.scram.ScramLoginModule required "
        f'username="{token_id}" password="{hmac}" tokenauth=true;'
    )


def run_tool(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([str(ROOT / "bin" / script), *args], capture_output=True, text=True, timeout=120)
    assert "Traceback" not in done.stderr, done.stderr
    return done


def overrides() -> dict[str, str]:
    return {
        "listeners": "PLAINTEXT://127.0.0.1:0,SASL_PLAINTEXT://127.0.0.1:0",
        "listener.security.protocol.map": "PLAINTEXT:PLAINTEXT,SASL_PLAINTEXT:SASL_PLAINTEXT",
        "inter.broker.listener.name": "PLAINTEXT",
        "sasl.enabled.mechanisms": "SCRAM-SHA-256,SCRAM-SHA-512",
        "listener.name.sasl_plaintext.scram-sha-256.sasl.jaas.config": SCRAM_SERVER_JAAS,
        "listener.name.sasl_plaintext.scram-sha-512.sasl.jaas.config": SCRAM_SERVER_JAAS,
        "delegation.token.secret.key": "token-master-secret",
        "delegation.token.expiry.check.interval.ms": "1000",
        "auto.create.topics.enable": "true",
        "offsets.topic.replication.factor": "1",
    }


@pytest.fixture(scope="module")
def brokers(zookeeper: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[BrokerProcess]]:
    work = Path(tmp_path_factory.mktemp("tokens"))
    zk_connect = zookeeper.connect_string + "/tokens-" + work.name
    for user, password in USERS.items():
        done = run_tool(
            "kafka-configs.sh", "--zookeeper", zk_connect, "--alter", "--entity-type", "users", "--entity-name", user,
            "--add-config", f"{MECHANISM}=[iterations=4096,password={password}]",
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
    started: list[BrokerProcess] = []
    try:
        for broker_id in (0, 1):
            b = BrokerProcess(work / f"b{broker_id}", zk_connect, broker_id=broker_id, overrides=overrides())
            b.start()
            started.append(b)
        yield started
    finally:
        for b in started:
            assert b.stop() == 0, b.console_tail()


@pytest.fixture(scope="module")
def sasl(brokers: list[BrokerProcess]) -> list[str]:
    """Each broker's SASL_PLAINTEXT address."""
    return [listener_bootstrap(b, "SASL_PLAINTEXT") for b in brokers]


def client_props(bootstrap: str, jaas: str) -> dict[str, str]:
    return {
        "bootstrap.servers": bootstrap,
        "security.protocol": "SASL_PLAINTEXT",
        "sasl.mechanism": MECHANISM,
        "sasl.jaas.config": jaas,
    }


def command_config(tmp_path: Path, props: dict[str, str]) -> str:
    path = tmp_path / f"client-{uuid.uuid4().hex[:8]}.properties"
    path.write_text("".join(f"{k}={v}\n" for k, v in props.items() if k != "bootstrap.servers"))
    return str(path)


def tokens_tool(bootstrap: str, config: str, *args: str) -> subprocess.CompletedProcess[str]:
    return run_tool("kafka-delegation-tokens.sh", "--bootstrap-server", bootstrap, "--command-config", config, *args)


def user_config(tmp_path: Path, bootstrap: str, user: str) -> str:
    return command_config(tmp_path, client_props(bootstrap, scram_jaas(user, USERS[user])))


def create_token(tmp_path: Path, bootstrap: str, user: str, *args: str) -> tuple[str, str, str]:
    """kafka-delegation-tokens.sh --create as `user`: (token id, base64 HMAC, the tool's output)."""
    done = tokens_tool(bootstrap, user_config(tmp_path, bootstrap, user), "--create", *args)
    assert done.returncode == 0, done.stdout + done.stderr
    match = re.search(r"Created delegation token with tokenId : (\S+)", done.stdout)
    assert match, done.stdout
    token_id = match.group(1)
    row = next(line for line in done.stdout.splitlines() if line.startswith(token_id + " "))
    return token_id, row.split()[1], done.stdout


def token_login(bootstrap: str, token_id: str, hmac: str) -> bool:
    """Whether our admin client logs in with the token on the broker at `bootstrap` (its first connection)."""
    from kafka.clients.admin.admin import Admin
    from kafka.common.errors import SaslAuthenticationException
    from kafka.common.kafka_future import ExecutionException

    admin = Admin.create(
        {
            **client_props(bootstrap, token_jaas(token_id, hmac)),
            "default.api.timeout.ms": "20000",
            "request.timeout.ms": "15000",
        }
    )
    try:
        admin.describe_cluster().cluster_id().get(20_000)
        return True
    except ExecutionException as e:
        if isinstance(e.cause, SaslAuthenticationException):
            return False
        raise
    finally:
        admin.close(10_000)


def wait_for_login(bootstrap: str, token_id: str, hmac: str, expected: bool, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while token_login(bootstrap, token_id, hmac) != expected:
        assert time.monotonic() < deadline, f"token login on {bootstrap} did not become {expected}"
        time.sleep(0.5)


def describe_tokens(bootstrap: str, user: str, owners: list[str] | None = None) -> list[Any]:
    from kafka.clients.admin.admin import Admin
    from kafka.clients.admin.describe_delegation_token_options import DescribeDelegationTokenOptions
    from kafka.common.utils.security_utils import parse_kafka_principal

    admin = Admin.create(client_props(bootstrap, scram_jaas(user, USERS[user])))
    try:
        options = DescribeDelegationTokenOptions(
            owners=None if owners is None else [parse_kafka_principal(o) for o in owners]
        )
        return list(admin.describe_delegation_token(options).delegation_tokens().get(30_000))
    finally:
        admin.close(10_000)


def test_token_lifecycle(brokers: list[BrokerProcess], sasl: list[str], tmp_path: Path) -> None:
    """Create as alice with bob as renewer; produce and consume with the token on our clients, on both brokers;
    describe lists it; bob renews it; carol may not; alice expires it and logins stop."""
    token_id, hmac, out = create_token(
        tmp_path, sasl[0], "alice", "--max-life-time-period", "-1", "--renewer-principal", "User:bob"
    )
    assert "Calling create token operation with renewers :[User:bob] , max-life-time-period :-1" in out
    header = out.splitlines()[-2]
    assert header.split() == ["TOKENID", "HMAC", "OWNER", "RENEWERS", "ISSUEDATE", "EXPIRYDATE", "MAXDATE"]
    assert out.splitlines()[-1].split()[2:4] == ["User:alice", "[User:bob]"]

    # Both brokers accept the token: the second one learnt it from the change notification.
    wait_for_login(sasl[0], token_id, hmac, True)
    wait_for_login(sasl[1], token_id, hmac, True)

    topic = "token-" + uuid.uuid4().hex[:8]
    values = round_trip_with_our_clients(client_props(sasl[1], token_jaas(token_id, hmac)), topic, b"with a token")
    assert values == [b"with a token"]

    # Describe, with the tool and with the admin client.
    done = tokens_tool(sasl[0], user_config(tmp_path, sasl[0], "alice"), "--describe")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Calling describe token operation for current user." in done.stdout
    assert "Total number of tokens : 1" in done.stdout
    assert any(line.split()[:2] == [token_id, hmac] for line in done.stdout.splitlines() if line.strip())
    done = tokens_tool(sasl[1], user_config(tmp_path, sasl[1], "bob"), "--describe", "--owner-principal", "User:carol")
    assert done.returncode == 0 and "Total number of tokens : 0" in done.stdout, done.stdout
    (described,) = [t for t in describe_tokens(sasl[1], "bob", ["User:alice"]) if t.token_info().token_id == token_id]
    assert described.hmac_as_base64_string() == hmac
    info = described.token_info()
    assert str(info.owner) == "User:alice" and [str(r) for r in info.renewers] == ["User:bob"]
    expiry_before = info.expiry_timestamp

    # carol is neither owner nor renewer; bob may renew (two days: later than the one-day default expiry).
    done = tokens_tool(
        sasl[0], user_config(tmp_path, sasl[0], "carol"), "--renew", "--hmac", hmac, "--renew-time-period", "1000"
    )
    assert done.returncode == 1
    assert "Error while executing delegation token command : " in done.stdout
    assert "DelegationTokenOwnerMismatchException" in done.stdout, done.stdout
    done = tokens_tool(
        sasl[0], user_config(tmp_path, sasl[0], "bob"), "--renew", "--hmac", hmac, "--renew-time-period", "172800000"
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Completed renew operation. New expiry date : " in done.stdout
    renewed = [t for t in describe_tokens(sasl[0], "alice") if t.token_info().token_id == token_id]
    assert renewed[0].token_info().expiry_timestamp > expiry_before

    # Expire at once: the token stops working on both brokers.
    done = tokens_tool(
        sasl[1], user_config(tmp_path, sasl[1], "alice"), "--expire", "--hmac", hmac, "--expiry-time-period", "-1"
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Completed expire operation. New expiry date : " in done.stdout
    wait_for_login(sasl[1], token_id, hmac, False)
    wait_for_login(sasl[0], token_id, hmac, False)
    assert not [t for t in describe_tokens(sasl[0], "alice") if t.token_info().token_id == token_id]


def test_token_past_its_max_lifetime_is_removed(sasl: list[str], tmp_path: Path) -> None:
    """The controller's delete-expired-tokens task removes a token whose lifetime has passed."""
    token_id, hmac, _ = create_token(tmp_path, sasl[0], "alice", "--max-life-time-period", "10000")
    # The tool's admin client sends the create to the least loaded broker, which has the token at once; the other
    # one learns it from the change notification a moment later.
    assert token_login(sasl[0], token_id, hmac) or token_login(sasl[1], token_id, hmac)
    wait_for_login(sasl[0], token_id, hmac, False, timeout=60.0)
    wait_for_login(sasl[1], token_id, hmac, False, timeout=30.0)


def test_errors(brokers: list[BrokerProcess], sasl: list[str], tmp_path: Path) -> None:
    alice = user_config(tmp_path, sasl[0], "alice")
    # Not over PLAINTEXT.
    plaintext = command_config(tmp_path, {"security.protocol": "PLAINTEXT"})
    done = tokens_tool(brokers[0].bootstrap, plaintext, "--create", "--max-life-time-period", "-1")
    assert done.returncode == 1
    assert "UnsupportedByAuthenticationException" in done.stdout, done.stdout
    # Renewers must be users.
    done = tokens_tool(sasl[0], alice, "--create", "--max-life-time-period", "-1", "--renewer-principal", "Group:ops")
    assert done.returncode == 1 and "InvalidPrincipalTypeException" in done.stdout, done.stdout
    # An HMAC no token has.
    unknown = base64.b64encode(os.urandom(64)).decode()
    done = tokens_tool(sasl[0], alice, "--renew", "--hmac", unknown, "--renew-time-period", "-1")
    assert done.returncode == 1 and "DelegationTokenNotFoundException" in done.stdout, done.stdout
    # Not over a connection authenticated with a token.
    token_id, hmac, _ = create_token(tmp_path, sasl[0], "alice", "--max-life-time-period", "-1")
    with_token = command_config(tmp_path, client_props(sasl[0], token_jaas(token_id, hmac)))
    for action in (["--create", "--max-life-time-period", "-1"], ["--describe"]):
        done = tokens_tool(sasl[0], with_token, *action)
        assert done.returncode == 1 and "UnsupportedByAuthenticationException" in done.stdout, done.stdout
    # Exactly one action.
    done = tokens_tool(sasl[0], alice, "--create", "--describe", "--max-life-time-period", "-1")
    assert done.returncode == 1
    assert "Command must include exactly one action: --create, --renew, --expire or --describe" in done.stderr


def test_librdkafka_cannot_log_in_with_a_token(sasl: list[str], tmp_path: Path) -> None:
    """librdkafka sends no tokenauth extension: the token's id and HMAC as SCRAM credentials are refused."""
    token_id, hmac, _ = create_token(tmp_path, sasl[0], "alice", "--max-life-time-period", "-1")
    # Broker 0 may learn the token from the change notification (the create can go to broker 1).
    wait_for_login(sasl[0], token_id, hmac, True)
    errors: list[KafkaError] = []
    producer = Producer(
        {
            "bootstrap.servers": sasl[0],
            "security.protocol": "SASL_PLAINTEXT",
            "sasl.mechanism": MECHANISM,
            "sasl.username": token_id,
            "sasl.password": hmac,
            "error_cb": errors.append,
        }
    )
    deadline = time.monotonic() + 30
    try:
        while not any(e.code() == KafkaError._AUTHENTICATION for e in errors):
            assert time.monotonic() < deadline, f"no authentication error: {errors}"
            producer.poll(0.2)
    finally:
        producer.flush(0)


def test_describe_needs_describe_on_the_token_with_the_acl_authorizer(
    zookeeper: Any, tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """With AclAuthorizer, carol sees alice's token only once `kafka-acls.sh --delegation-token` grants her
    Describe on it."""
    work = Path(tmp_path_factory.mktemp("tokens-acl"))
    zk_connect = zookeeper.connect_string + "/tokens-acl-" + work.name
    for user in ("alice", "carol"):
        done = run_tool(
            "kafka-configs.sh", "--zookeeper", zk_connect, "--alter", "--entity-type", "users", "--entity-name", user,
            "--add-config", f"{MECHANISM}=[iterations=4096,password={USERS[user]}]",
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
    broker = BrokerProcess(
        work,
        zk_connect,
        overrides={
            **overrides(),
            "authorizer.class.name": "kafka.security.authorizer.AclAuthorizer",
            "super.users": "User:ANONYMOUS",
        },
    )
    broker.start()
    try:
        bootstrap = listener_bootstrap(broker, "SASL_PLAINTEXT")
        token_id, _, _ = create_token(tmp_path, bootstrap, "alice", "--max-life-time-period", "-1")
        assert [t.token_info().token_id for t in describe_tokens(bootstrap, "alice")] == [token_id]
        assert describe_tokens(bootstrap, "carol") == []
        done = run_tool(
            "kafka-acls.sh", "--bootstrap-server", broker.bootstrap, "--add", "--allow-principal", "User:carol",
            "--operation", "Describe", "--delegation-token", token_id,
        )  # fmt: skip
        assert done.returncode == 0, done.stdout + done.stderr
        deadline = time.monotonic() + 30
        while not describe_tokens(bootstrap, "carol"):
            assert time.monotonic() < deadline, "carol never saw the token"
            time.sleep(0.5)
        assert [t.token_info().token_id for t in describe_tokens(bootstrap, "carol")] == [token_id]
    finally:
        assert broker.stop() == 0, broker.console_tail()
