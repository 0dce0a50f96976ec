"""Tests of ZkAdminManager.alter_user_scram_credentials / describe_user_scram_credentials (issue 15), after Kafka's
AlterUserScramCredentialsRequestTest and DescribeUserScramCredentialsRequestTest: the credential text in ZooKeeper
(an in-memory stand-in), and Kafka 2.8's per-user errors."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from kafka.common.message import AlterUserScramCredentialsRequestData as Req
from kafka.common.protocol.errors import Errors
from kafka.common.security.scram.internals import scram_credential_utils as scu
from kafka.common.security.scram.internals.scram_formatter import ScramFormatter
from kafka.common.security.scram.internals.scram_mechanism import ScramMechanism
from tests.unit.kafka.server.test_zk_admin_manager import Env
from tests.unit.kafka.server.test_zk_admin_manager_client_quotas import QuotaZkClient

SHA256, SHA512 = 1, 2


@pytest.fixture
def env() -> Iterator[Env]:
    e = Env()
    e.zk.__class__ = QuotaZkClient
    yield e
    e.manager.shutdown()


def upsertion(name: str, mechanism: int = SHA256, iterations: int = 4096, password: bytes = b"pw") -> Any:
    salt = b"salt-" + name.encode()
    internal = ScramMechanism.SCRAM_SHA_256 if mechanism != SHA512 else ScramMechanism.SCRAM_SHA_512
    salted = ScramFormatter(internal).hi(password, salt, iterations) if mechanism in (SHA256, SHA512) else b"x"
    return Req.ScramCredentialUpsertion(
        name=name, mechanism=mechanism, iterations=iterations, salt=salt, salted_password=salted
    )


def deletion(name: str, mechanism: int = SHA256) -> Any:
    return Req.ScramCredentialDeletion(name=name, mechanism=mechanism)


def results(data: Any) -> dict[str, tuple[Errors, str | None]]:
    return {r.user: (Errors.for_code(r.error_code), r.error_message) for r in data.results}


def test_upsert_writes_kafka_credential_text_and_describe_shows_iterations(env: Env) -> None:
    data = env.manager.alter_user_scram_credentials([upsertion("alice"), upsertion("alice", SHA512, 8192)], [])
    assert results(data) == {"alice": (Errors.NONE, "")}
    stored = env.zk.configs[("users", "alice")]
    credential = scu.credential_from_string(stored["SCRAM-SHA-256"])
    expected = ScramFormatter(ScramMechanism.SCRAM_SHA_256).generate_credential("pw", 4096, b"salt-alice")
    assert credential == expected  # the same credential the password gives: the server can check logins
    assert scu.credential_from_string(stored["SCRAM-SHA-512"]).iterations == 8192
    described = env.manager.describe_user_scram_credentials(["alice"])
    (result,) = described.results
    assert result.user == "alice" and result.error_code == 0
    assert [(i.mechanism, i.iterations) for i in result.credential_infos] == [(SHA256, 4096), (SHA512, 8192)]
    everyone = env.manager.describe_user_scram_credentials(None)
    assert [r.user for r in everyone.results] == ["alice"]


def test_alter_errors_per_user(env: Env) -> None:
    data = env.manager.alter_user_scram_credentials(
        [
            upsertion(""),
            upsertion("few", iterations=100),
            upsertion("many", iterations=20000),
            upsertion("unknown", mechanism=0),
            upsertion("twice"),
            upsertion("twice"),
        ],
        [deletion("missing")],
    )
    assert results(data) == {
        "": (Errors.UNACCEPTABLE_CREDENTIAL, "Username must not be empty"),
        "few": (Errors.UNACCEPTABLE_CREDENTIAL, "Too few iterations"),
        "many": (Errors.UNACCEPTABLE_CREDENTIAL, "Too many iterations"),
        "unknown": (Errors.UNSUPPORTED_SASL_MECHANISM, "Unknown SCRAM mechanism"),
        "twice": (Errors.DUPLICATE_RESOURCE, "A user credential cannot be altered twice in the same request"),
        "missing": (Errors.RESOURCE_NOT_FOUND, "Attempt to delete a user credential that does not exist"),
    }
    assert not [k for k in env.zk.configs if k[0] == "users"]


def test_delete_keeps_other_configs_and_describe_errors(env: Env) -> None:
    env.manager.alter_user_scram_credentials([upsertion("bob"), upsertion("bob", SHA512)], [])
    assert results(env.manager.alter_user_scram_credentials([], [deletion("bob")])) == {"bob": (Errors.NONE, "")}
    assert set(env.zk.configs[("users", "bob")]) == {"SCRAM-SHA-512"}
    described = env.manager.describe_user_scram_credentials(["bob", "nobody", "", "bob"])
    by_user = {r.user: (Errors.for_code(r.error_code), r.error_message) for r in described.results}
    assert by_user["nobody"] == (
        Errors.RESOURCE_NOT_FOUND,
        "Attempt to describe a user credential that does not exist: nobody",
    )
    assert by_user[""] == (Errors.RESOURCE_NOT_FOUND, "Username must not be empty")
    assert by_user["bob"][0] is Errors.DUPLICATE_RESOURCE
