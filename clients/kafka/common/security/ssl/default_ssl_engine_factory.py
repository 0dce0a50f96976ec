"""Port of clients/src/main/java/org/apache/kafka/common/security/ssl/DefaultSslEngineFactory.java (Kafka 3.7).

Builds the TLS context of one side (client or server) from Kafka's `ssl.*` configs, and makes the engine of each
connection from it. Key stores: PKCS12 files, PEM files (the encrypted or plain PKCS#8 key and the certificate
chain in one file) and KIP-651's inline PEM (`ssl.keystore.certificate.chain`, `ssl.keystore.key`); trust stores:
PKCS12 files, PEM files and inline PEM (`ssl.truststore.certificates`). Without a trust store the system's trusted
CAs are used, as Java uses the JVM's.

# PORT: TLS is Python's `ssl` (OpenSSL): an engine is an ssl.SSLObject over two MemoryBIOs (SslEngine). JKS and
# JCEKS stores cannot be read and are refused with an error naming PKCS12 and PEM (a PKCS12 file named as JKS is
# read, as Java's keystore.type.compat does). OpenSSL loads keys from files only: the key and chain go through an
# anonymous in-memory file (memfd), never to disk. Cipher suites are given by their IANA names, as Java's are,
# and translated to OpenSSL's; OpenSSL's TLSv1.3 suites cannot be narrowed from Python and stay all enabled.
"""

from __future__ import annotations

import contextlib
import os
import re
import ssl
import tempfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from kafka.common.config import ssl_configs as sc
from kafka.common.config.password import Password
from kafka.common.errors import InvalidConfigurationException, KafkaException

__all__ = ["DefaultSslEngineFactory", "Mode", "SslEngine", "config_string"]

PEM_TYPE = "PEM"
_JKS_MAGIC = b"\xfe\xed\xfe\xed"
_JCEKS_MAGIC = b"\xce\xce\xce\xce"
_PEM_CERT = re.compile(rb"-----BEGIN CERTIFICATE-----.+?-----END CERTIFICATE-----", re.S)

_PROTOCOL_VERSIONS = {
    "TLSv1": ssl.TLSVersion.TLSv1,
    "TLSv1.1": ssl.TLSVersion.TLSv1_1,
    "TLSv1.2": ssl.TLSVersion.TLSv1_2,
    "TLSv1.3": ssl.TLSVersion.TLSv1_3,
}


class Mode:
    CLIENT = "CLIENT"
    SERVER = "SERVER"


def config_string(configs: Mapping[str, Any], key: str) -> str | None:
    """A config value as text: a Password's value, a list joined with commas, None when unset."""
    value = configs.get(key)
    if value is None:
        return None
    if isinstance(value, Password):
        return value.value
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value)
    return str(value)


def _config_list(configs: Mapping[str, Any], key: str) -> list[str] | None:
    value = configs.get(key)
    if value is None:
        return None
    if isinstance(value, str):
        return [v.strip() for v in value.split(",") if v.strip()]
    return [str(v).strip() for v in value if str(v).strip()]


@dataclass(slots=True)
class SslEngine:
    """One connection's TLS engine (Java's SSLEngine): the SSL object and the memory buffers it reads the peer's
    bytes from (`incoming`) and writes its own to (`outgoing`)."""

    ssl_object: ssl.SSLObject
    incoming: ssl.MemoryBIO
    outgoing: ssl.MemoryBIO


class _KeyMaterial:
    """A key and its certificate chain as PEM, plus what identifies the store's content (to tell a new one)."""

    def __init__(self, key_pem: bytes, chain_pem: bytes) -> None:
        self.key_pem = key_pem
        self.chain_pem = chain_pem


def _read(path: str, what: str) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as e:
        raise KafkaException(f"Failed to load SSL {what} {path}: {e.strerror or e}") from e


def _refuse_jks(store: str, type_: str, path: str | None, data: bytes | None) -> None:
    """Raises the start-up error for a JKS/JCEKS store (Java's own formats, which OpenSSL cannot read)."""
    kind = "JCEKS" if data is not None and data.startswith(_JCEKS_MAGIC) else type_
    where = f" {path}" if path else ""
    raise InvalidConfigurationException(
        f"SSL {store}{where} is of type {kind}, which this broker cannot read: use PKCS12 or PEM "
        f"(ssl.{store.replace(' ', '')}.type=PKCS12 or PEM). Convert a JKS store with `keytool -importkeystore "
        f"-srckeystore <file>.jks -destkeystore <file>.p12 -deststoretype PKCS12`."
    )


def _pkcs12_key_material(data: bytes, path: str, passwords: list[str | None]) -> _KeyMaterial:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.serialization import pkcs12

    last: Exception | None = None
    for password in passwords:
        try:
            key, cert, extra = pkcs12.load_key_and_certificates(
                data, password.encode() if password is not None else None
            )
        except ValueError as e:
            last = e
            continue
        if key is None or cert is None:
            raise InvalidConfigurationException(f"SSL key store {path} holds no private key entry")
        key_pem = key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
        chain = cert.public_bytes(serialization.Encoding.PEM) + b"".join(
            c.public_bytes(serialization.Encoding.PEM) for c in extra
        )
        return _KeyMaterial(key_pem, chain)
    raise KafkaException(f"Failed to load SSL keystore {path} of type PKCS12: wrong password or corrupt file") from last


def _pem_key_material(key_text: bytes, chain_text: bytes, key_password: str | None, what: str) -> _KeyMaterial:
    from cryptography import x509
    from cryptography.hazmat.primitives import serialization

    try:
        key = serialization.load_pem_private_key(key_text, key_password.encode() if key_password is not None else None)
    except TypeError as e:
        # encrypted without a password, or a password for a key that is not encrypted
        raise InvalidConfigurationException(f"Invalid PEM keystore configs in {what}: {e}") from e
    except ValueError as e:
        raise InvalidConfigurationException(
            f"Invalid PEM keystore configs in {what}: the private key could not be read (wrong ssl.key.password, "
            "or not a PKCS#8 PEM key)"
        ) from e
    certs = _PEM_CERT.findall(chain_text)
    if not certs:
        raise InvalidConfigurationException(f"Invalid PEM keystore configs in {what}: no certificate chain")
    for cert in certs:
        try:
            x509.load_pem_x509_certificate(cert)
        except ValueError as e:
            raise InvalidConfigurationException(f"Invalid PEM keystore configs in {what}: bad certificate") from e
    key_pem = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    return _KeyMaterial(key_pem, b"\n".join(certs) + b"\n")


def _pkcs12_trusted_certs(data: bytes, path: str, password: str | None) -> bytes:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.serialization import pkcs12

    try:
        loaded = pkcs12.load_pkcs12(data, password.encode() if password is not None else None)
    except ValueError as e:
        raise KafkaException(
            f"Failed to load SSL truststore {path} of type PKCS12: wrong password or corrupt file"
        ) from e
    certs = [c.certificate for c in loaded.additional_certs]
    if loaded.cert is not None:
        certs.append(loaded.cert.certificate)
    if not certs:
        raise InvalidConfigurationException(f"SSL truststore {path} holds no certificate")
    return b"".join(c.public_bytes(serialization.Encoding.PEM) for c in certs)


def _pem_trusted_certs(text: bytes, what: str) -> bytes:
    certs = _PEM_CERT.findall(text)
    if not certs:
        raise InvalidConfigurationException(f"Invalid PEM truststore configs in {what}: no certificate")
    return b"\n".join(certs) + b"\n"


@contextlib.contextmanager
def _in_memory_file(data: bytes) -> Iterator[str]:
    """A path to `data` for OpenSSL's file-only loaders: an anonymous memory file where Linux has one."""
    if hasattr(os, "memfd_create"):
        fd = os.memfd_create("kafka-ssl", os.MFD_CLOEXEC)
        try:
            os.write(fd, data)
            yield f"/proc/self/fd/{fd}"
        finally:
            os.close(fd)
    else:  # pragma: no cover - non-Linux
        with tempfile.NamedTemporaryFile(prefix="kafka-ssl-") as f:
            os.chmod(f.name, 0o600)
            f.write(data)
            f.flush()
            yield f.name


def openssl_cipher_name(name: str) -> str:
    """An IANA cipher suite name (Java's, `TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256`) as OpenSSL names it
    (`ECDHE-RSA-AES128-GCM-SHA256`); a name that is not of that form is returned as given (OpenSSL's own)."""
    m = re.fullmatch(r"TLS_(?:(ECDHE|DHE|ECDH|DH)_(RSA|ECDSA|DSS)|(RSA))_WITH_(.+)", name)
    if m is None:
        return name
    kx, auth, rsa_only, rest = m.groups()
    cipher = rest
    mac = ""
    for suffix in ("_SHA384", "_SHA256", "_SHA"):
        if cipher.endswith(suffix):
            cipher, mac = cipher[: -len(suffix)], suffix[1:]
            break
    cipher = cipher.replace("_CBC", "")
    cipher = re.sub(r"AES_(\d+)", r"AES\1", cipher).replace("_GCM", "-GCM").replace("_CCM", "-CCM")
    cipher = cipher.replace("CHACHA20_POLY1305", "CHACHA20-POLY1305").replace("3DES_EDE", "DES-CBC3")
    if rsa_only:
        prefix = ""
    elif kx == "DHE" and auth == "RSA":
        prefix = "DHE-RSA-"
    else:
        prefix = f"{kx}-{auth}-"
    aead = "GCM" in cipher or "CHACHA20" in cipher or "CCM" in cipher
    if "CHACHA20" in cipher:
        return f"{prefix}{cipher}"
    if aead or mac in ("SHA256", "SHA384"):
        return f"{prefix}{cipher}-{mac}" if mac else f"{prefix}{cipher}"
    return f"{prefix}{cipher}-{mac}" if cipher.startswith("DES") else f"{prefix}{cipher}-SHA"


class DefaultSslEngineFactory:
    """The TLS context of one side, rebuilt by SslFactory when the key or trust store changes."""

    def __init__(self) -> None:
        self._configs: dict[str, Any] = {}
        self._mode = Mode.CLIENT
        self._ssl_context: ssl.SSLContext | None = None
        self._keystore_id: tuple[Any, ...] | None = None
        self._truststore_id: tuple[Any, ...] | None = None
        self._cipher_suites: list[str] | None = None
        self._enabled_protocols: list[str] | None = None
        self._endpoint_identification: str | None = None
        self._client_auth = "none"

    # -- configuration --------------------------------------------------------------------------------------

    def configure(self, configs: Mapping[str, Any], mode: str = Mode.CLIENT) -> None:
        self._configs = dict(configs)
        self._mode = mode
        self._cipher_suites = _config_list(configs, sc.SSL_CIPHER_SUITES_CONFIG)
        self._enabled_protocols = _config_list(configs, sc.SSL_ENABLED_PROTOCOLS_CONFIG)
        # An unset key (a map not parsed by a ConfigDef) means Kafka's default, https.
        self._endpoint_identification = (
            config_string(configs, sc.SSL_ENDPOINT_IDENTIFICATION_ALGORITHM_CONFIG)
            if sc.SSL_ENDPOINT_IDENTIFICATION_ALGORITHM_CONFIG in configs
            else sc.DEFAULT_SSL_ENDPOINT_IDENTIFICATION_ALGORITHM
        )
        client_auth = config_string(configs, sc.SSL_CLIENT_AUTH_CONFIG)
        self._client_auth = (client_auth or "none").lower()
        key_material, self._keystore_id = self._create_keystore()
        trusted, self._truststore_id = self._create_truststore()
        self._ssl_context = self._create_ssl_context(key_material, trusted)

    def reconfigurable_configs(self) -> frozenset[str]:
        return sc.RECONFIGURABLE_CONFIGS

    def should_be_rebuilt(self, next_configs: Mapping[str, Any]) -> bool:
        """Whether `next_configs` name another key or trust store, or the stores' files changed."""
        for key in sc.RECONFIGURABLE_CONFIGS:
            if config_string(self._configs, key) != config_string(next_configs, key):
                return True
        return self._store_id(sc.SSL_KEYSTORE_LOCATION_CONFIG, self._configs) != self._keystore_id or (
            self._store_id(sc.SSL_TRUSTSTORE_LOCATION_CONFIG, self._configs) != self._truststore_id
        )

    def ssl_context(self) -> ssl.SSLContext:
        assert self._ssl_context is not None, "not configured"
        return self._ssl_context

    def close(self) -> None:
        self._ssl_context = None

    # -- engines --------------------------------------------------------------------------------------------

    def create_client_ssl_engine(
        self, peer_host: str, peer_port: int, endpoint_identification: str | None
    ) -> SslEngine:
        del peer_port, endpoint_identification  # the context's check_hostname follows the configured algorithm
        incoming, outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
        context = self.ssl_context()
        server_hostname = peer_host if context.check_hostname else None
        ssl_object = context.wrap_bio(incoming, outgoing, server_side=False, server_hostname=server_hostname)
        return SslEngine(ssl_object, incoming, outgoing)

    def create_server_ssl_engine(self, peer_host: str, peer_port: int) -> SslEngine:
        del peer_host, peer_port
        incoming, outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
        ssl_object = self.ssl_context().wrap_bio(incoming, outgoing, server_side=True)
        return SslEngine(ssl_object, incoming, outgoing)

    # -- the context ----------------------------------------------------------------------------------------

    def _create_ssl_context(self, key_material: _KeyMaterial | None, trusted_pem: bytes | None) -> ssl.SSLContext:
        server = self._mode == Mode.SERVER
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER if server else ssl.PROTOCOL_TLS_CLIENT)
        self._configure_protocols(context)
        if self._cipher_suites:
            names = [openssl_cipher_name(c) for c in self._cipher_suites if not c.startswith("TLS_AES_")]
            names = [n for n in names if not n.startswith("TLS_CHACHA20") and n]
            if names:
                try:
                    context.set_ciphers(":".join(names))
                except ssl.SSLError as e:
                    raise InvalidConfigurationException(
                        f"None of the cipher suites {self._cipher_suites} in {sc.SSL_CIPHER_SUITES_CONFIG} is supported"
                    ) from e
        if key_material is not None:
            with _in_memory_file(key_material.key_pem + key_material.chain_pem) as path:
                try:
                    context.load_cert_chain(path)
                except ssl.SSLError as e:
                    raise InvalidConfigurationException(
                        f"The SSL key store's private key does not match its certificate: {e}"
                    ) from e
        elif server:
            raise InvalidConfigurationException(
                "SSL key store is not specified: a listener using SSL needs ssl.keystore.location "
                "(or ssl.keystore.certificate.chain and ssl.keystore.key)"
            )
        if trusted_pem is not None:
            context.load_verify_locations(cadata=trusted_pem.decode("ascii"))
        else:
            context.load_default_certs(ssl.Purpose.CLIENT_AUTH if server else ssl.Purpose.SERVER_AUTH)
        if server:
            context.verify_mode = {
                "required": ssl.CERT_REQUIRED,
                "requested": ssl.CERT_OPTIONAL,
            }.get(self._client_auth, ssl.CERT_NONE)
        else:
            # `https` checks the server's host name against its certificate; an empty value turns it off. The
            # server's certificate is always verified against the trust store.
            context.check_hostname = bool(self._endpoint_identification)
            context.verify_mode = ssl.CERT_REQUIRED
        return context

    def _configure_protocols(self, context: ssl.SSLContext) -> None:
        protocols = self._enabled_protocols or sc.DEFAULT_SSL_ENABLED_PROTOCOLS.split(",")
        versions = []
        for protocol in protocols:
            version = _PROTOCOL_VERSIONS.get(protocol)
            if version is None:
                raise InvalidConfigurationException(
                    f"Unsupported SSL protocol {protocol} in {sc.SSL_ENABLED_PROTOCOLS_CONFIG}; supported: "
                    + ", ".join(_PROTOCOL_VERSIONS)
                )
            versions.append(version)
        minimum, maximum = min(versions), max(versions)
        # ssl.protocol names the context's protocol: TLSv1.2 caps what the context can speak.
        context_protocol = config_string(self._configs, sc.SSL_PROTOCOL_CONFIG)
        cap = _PROTOCOL_VERSIONS.get(context_protocol or "")
        if cap is not None and cap < maximum:
            maximum = cap
        if minimum > maximum:
            raise InvalidConfigurationException(
                f"{sc.SSL_PROTOCOL_CONFIG}={context_protocol} allows none of {sc.SSL_ENABLED_PROTOCOLS_CONFIG} "
                f"{','.join(protocols)}"
            )
        if minimum < ssl.TLSVersion.TLSv1_2:
            context.options &= ~getattr(ssl, "OP_NO_TLSv1", 0)
            with contextlib.suppress(ssl.SSLError, ValueError):
                context.set_ciphers("DEFAULT:@SECLEVEL=0")
        context.minimum_version = minimum
        context.maximum_version = maximum

    # -- stores ---------------------------------------------------------------------------------------------

    @staticmethod
    def _store_id(location_key: str, configs: Mapping[str, Any]) -> tuple[Any, ...] | None:
        """The store file's identity (path, modification time, size): a changed file makes a new context."""
        location = config_string(configs, location_key)
        if location is None:
            return None
        try:
            st = os.stat(location)
        except OSError:
            return (location,)
        return (location, st.st_mtime_ns, st.st_size)

    def _create_keystore(self) -> tuple[_KeyMaterial | None, tuple[Any, ...] | None]:
        c = self._configs
        type_ = (config_string(c, sc.SSL_KEYSTORE_TYPE_CONFIG) or sc.DEFAULT_SSL_KEYSTORE_TYPE).upper()
        location = config_string(c, sc.SSL_KEYSTORE_LOCATION_CONFIG)
        password = config_string(c, sc.SSL_KEYSTORE_PASSWORD_CONFIG)
        key_password = config_string(c, sc.SSL_KEY_PASSWORD_CONFIG)
        pem_key = config_string(c, sc.SSL_KEYSTORE_KEY_CONFIG)
        pem_chain = config_string(c, sc.SSL_KEYSTORE_CERTIFICATE_CHAIN_CONFIG)
        if pem_key is not None:
            if type_ != PEM_TYPE:
                raise InvalidConfigurationException(
                    f"SSL private key can be specified only for PEM, but key store type is {type_}."
                )
            if location is not None:
                raise InvalidConfigurationException(
                    "Both SSL key store location and separate private key are specified."
                )
            if password is not None:
                raise InvalidConfigurationException(
                    "SSL key store password cannot be specified with PEM format, only key password may be specified."
                )
            if pem_chain is None:
                raise InvalidConfigurationException(
                    "SSL private key is specified, but certificate chain is not specified."
                )
            return _pem_key_material(
                pem_key.encode(), pem_chain.encode(), key_password, sc.SSL_KEYSTORE_KEY_CONFIG
            ), None
        if pem_chain is not None:
            raise InvalidConfigurationException("SSL certificate chain is specified, but private key is not specified")
        if location is None:
            if password is not None:
                raise InvalidConfigurationException(
                    "SSL key store is not specified, but key store password is specified."
                )
            return None, None
        data = _read(location, "keystore")
        store_id = self._store_id(sc.SSL_KEYSTORE_LOCATION_CONFIG, c)
        if type_ == PEM_TYPE:
            if password is not None:
                raise InvalidConfigurationException(
                    "SSL key store password cannot be specified with PEM format, only key password may be specified"
                )
            return _pem_key_material(data, data, key_password, location), store_id
        if type_ in ("JKS", "JCEKS") and (data.startswith(_JKS_MAGIC) or data.startswith(_JCEKS_MAGIC)):
            _refuse_jks("key store", type_, location, data)
        if type_ not in ("PKCS12", "JKS", "JCEKS"):
            raise InvalidConfigurationException(
                f"SSL key store type {type_} is not supported: use PKCS12 or PEM ({sc.SSL_KEYSTORE_TYPE_CONFIG})"
            )
        if password is None:
            raise InvalidConfigurationException("SSL key store is specified, but key store password is not specified.")
        try:
            return _pkcs12_key_material(data, location, [password, key_password]), store_id
        except KafkaException:
            if type_ != "PKCS12":
                _refuse_jks("key store", type_, location, data)
            raise

    def _create_truststore(self) -> tuple[bytes | None, tuple[Any, ...] | None]:
        c = self._configs
        type_ = (config_string(c, sc.SSL_TRUSTSTORE_TYPE_CONFIG) or sc.DEFAULT_SSL_TRUSTSTORE_TYPE).upper()
        location = config_string(c, sc.SSL_TRUSTSTORE_LOCATION_CONFIG)
        password = config_string(c, sc.SSL_TRUSTSTORE_PASSWORD_CONFIG)
        pem_certs = config_string(c, sc.SSL_TRUSTSTORE_CERTIFICATES_CONFIG)
        if pem_certs is not None:
            if type_ != PEM_TYPE:
                raise InvalidConfigurationException(
                    f"SSL trust store certs can be specified only for PEM, but trust store type is {type_}."
                )
            if location is not None:
                raise InvalidConfigurationException(
                    "Both SSL trust store location and separate trust certificates are specified."
                )
            if password is not None:
                raise InvalidConfigurationException("SSL trust store password cannot be specified for PEM format.")
            return _pem_trusted_certs(pem_certs.encode(), sc.SSL_TRUSTSTORE_CERTIFICATES_CONFIG), None
        if location is None:
            if password is not None:
                raise InvalidConfigurationException(
                    "SSL trust store is not specified, but trust store password is specified."
                )
            return None, None
        data = _read(location, "truststore")
        store_id = self._store_id(sc.SSL_TRUSTSTORE_LOCATION_CONFIG, c)
        if type_ == PEM_TYPE:
            if password is not None:
                raise InvalidConfigurationException("SSL trust store password cannot be specified for PEM format.")
            return _pem_trusted_certs(data, location), store_id
        if type_ in ("JKS", "JCEKS") and (data.startswith(_JKS_MAGIC) or data.startswith(_JCEKS_MAGIC)):
            _refuse_jks("trust store", type_, location, data)
        if type_ not in ("PKCS12", "JKS", "JCEKS"):
            raise InvalidConfigurationException(
                f"SSL trust store type {type_} is not supported: use PKCS12 or PEM ({sc.SSL_TRUSTSTORE_TYPE_CONFIG})"
            )
        try:
            return _pkcs12_trusted_certs(data, location, password), store_id
        except KafkaException:
            if type_ != "PKCS12":
                _refuse_jks("trust store", type_, location, data)
            raise
