"""Tests of kafka.common.security.ssl.ssl_principal_mapper and DefaultKafkaPrincipalBuilder's TLS and plaintext
cases, from Kafka's SslPrincipalMapperTest and DefaultKafkaPrincipalBuilderTest."""

from __future__ import annotations

from typing import Any

import pytest

from kafka.common.errors import KafkaException
from kafka.common.network.channel_builders import ChannelBuilders
from kafka.common.security.auth.authentication_context import (
    PlaintextAuthenticationContext,
    SaslAuthenticationContext,
    SslAuthenticationContext,
)
from kafka.common.security.auth.kafka_principal import KafkaPrincipal
from kafka.common.security.auth.security_protocol import SecurityProtocol
from kafka.common.security.authenticator.default_kafka_principal_builder import DefaultKafkaPrincipalBuilder
from kafka.common.security.ssl.ssl_principal_mapper import NoMatchingRule, SslPrincipalMapper


@pytest.mark.parametrize(
    "rules",
    [
        "DEFAULT",
        "RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/",
        "RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/L, DEFAULT",
        "RULE:^CN=(.*?),OU=(.*?),O=(.*?),L=(.*?),ST=(.*?),C=(.*?)$/$1@$2/",
        "RULE:^.*[Cc][Nn]=([a-zA-Z0-9.]*).*$/$1/U",
        "RULE:^CN=([^,ADEFLTU,]+)(,.*|$)/$1/",
        "RULE:^CN=([^,DEFAULT,]+)(,.*|$)/$1/",
    ],
)
def test_valid_rules(rules: str) -> None:
    SslPrincipalMapper.from_rules(rules)


@pytest.mark.parametrize(
    "rules",
    [
        "DEFAULT/L",
        "DEFAULT/U",
        "RULE:CN=(.*?),OU=ServiceUsers.*/$1",
        "rule:^CN=(.*?),OU=ServiceUsers.*$/$1/",
        "RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/L/U",
        "RULE:^CN=(.*?),OU=ServiceUsers.*$/L",
        "RULE:^CN=(.*?),OU=ServiceUsers.*$/U",
        "RULE:^CN=(.*?),OU=ServiceUsers.*$/LU",
    ],
)
def test_invalid_rules(rules: str) -> None:
    with pytest.raises(ValueError):
        SslPrincipalMapper.from_rules(rules)


def test_ssl_principal_mapper() -> None:
    rules = ",".join(
        [
            "RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/L",
            "RULE:^CN=(.*?),OU=(.*?),O=(.*?),L=(.*?),ST=(.*?),C=(.*?)$/$1@$2/L",
            "RULE:^cn=(.*?),ou=(.*?),dc=(.*?),dc=(.*?)$/$1@$2/U",
            "RULE:^.*[Cc][Nn]=([a-zA-Z0-9.]*).*$/$1/U",
            "DEFAULT",
        ]
    )
    mapper = SslPrincipalMapper.from_rules(rules)
    assert mapper.get_name("CN=Duke,OU=ServiceUsers,O=Org,C=US") == "duke"
    assert mapper.get_name("CN=Duke,OU=SME,O=mycp,L=Fulton,ST=MD,C=US") == "duke@sme"
    assert mapper.get_name("cn=duke,ou=JavaSoft,dc=Sun Microsystems,dc=US") == "DUKE@JAVASOFT"
    assert mapper.get_name("cn=duke,ou=JavaSoft,o=Sun Microsystems") == "DUKE"
    assert mapper.get_name("OU=JavaSoft,O=Sun Microsystems,C=US") == "OU=JavaSoft,O=Sun Microsystems,C=US"


def test_rules_with_whitespace_and_commas_in_patterns() -> None:
    mapper = SslPrincipalMapper.from_rules("  RULE:^CN=([^,]*),.*$/$1/ ,  DEFAULT  ")
    assert mapper.get_name("CN=alice,OU=x") == "alice"


def test_back_reference_beyond_the_groups_is_literal() -> None:
    mapper = SslPrincipalMapper.from_rules("RULE:^CN=(.*?),OU=(.*?)$/$1$3/")
    assert mapper.get_name("CN=ab,OU=c") == "ab$3"


def test_no_matching_rule() -> None:
    mapper = SslPrincipalMapper.from_rules("RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/")
    with pytest.raises(NoMatchingRule, match="No rules apply to CN=x"):
        mapper.get_name("CN=x")


class _Session:
    """What the principal builder reads of a TLS session: the peer's certificate (DER), or none."""

    def __init__(self, der: bytes | None) -> None:
        self._der = der

    def getpeercert(self, binary_form: bool = False) -> Any:
        assert binary_form
        return self._der


def _certificate_der(subject: str) -> bytes:
    import datetime

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name.from_rfc4514_string(subject)
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(1)
        .not_valid_before(now)
        .not_valid_after(now + datetime.timedelta(days=1))
        .sign(key, hashes.SHA256())
    )
    return cert.public_bytes(serialization.Encoding.DER)


def test_principal_builder_plaintext_is_anonymous() -> None:
    builder = DefaultKafkaPrincipalBuilder()
    assert builder.build(PlaintextAuthenticationContext("127.0.0.1", "PLAINTEXT")) == KafkaPrincipal.ANONYMOUS


def test_principal_builder_ssl_uses_the_certificate_subject_and_mapping_rules() -> None:
    der = _certificate_der("CN=alice,OU=eng,O=corp")
    context = SslAuthenticationContext(_Session(der), "127.0.0.1", "SSL")  # type: ignore[arg-type]
    assert DefaultKafkaPrincipalBuilder().build(context) == KafkaPrincipal("User", "CN=alice,OU=eng,O=corp")
    mapped = DefaultKafkaPrincipalBuilder(None, SslPrincipalMapper.from_rules("RULE:^CN=(.*?),.*$/$1/U"))
    assert mapped.build(context) == KafkaPrincipal("User", "ALICE")
    no_cert = SslAuthenticationContext(_Session(None), "127.0.0.1", "SSL")  # type: ignore[arg-type]
    assert DefaultKafkaPrincipalBuilder().build(no_cert) == KafkaPrincipal.ANONYMOUS
    failing = DefaultKafkaPrincipalBuilder(None, SslPrincipalMapper.from_rules("RULE:^CN=bob,.*$/bob/"))
    with pytest.raises(KafkaException, match="based on SSL principal mapping rules"):
        failing.build(context)


def test_principal_builder_sasl_uses_the_authorization_id() -> None:
    class Server:
        def authorization_id(self) -> str:
            return "carol"

    context = SaslAuthenticationContext(Server(), SecurityProtocol.SASL_PLAINTEXT, "127.0.0.1", "SASL_PLAINTEXT")
    assert DefaultKafkaPrincipalBuilder().build(context) == KafkaPrincipal("User", "carol")


def test_create_principal_builder_from_principal_builder_class() -> None:
    default = ChannelBuilders.create_principal_builder(
        {"principal.builder.class": "org.apache.kafka.common.security.authenticator.DefaultKafkaPrincipalBuilder"},
        None,
        None,
    )
    assert isinstance(default, DefaultKafkaPrincipalBuilder)
    with pytest.raises(KafkaException, match="cannot be found"):
        ChannelBuilders.create_principal_builder({"principal.builder.class": "com.example.MyBuilder"}, None, None)
