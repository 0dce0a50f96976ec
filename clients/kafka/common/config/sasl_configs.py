"""Port of clients/src/main/java/org/apache/kafka/common/config/SaslConfigs.java (Kafka 3.7).

The `sasl.*` keys of the clients (`sasl.mechanism`, `sasl.jaas.config` and the login, Kerberos and OAUTHBEARER
settings) with Java's defaults, so that a Java client's properties file parses unchanged.

# PORT: the Kerberos (GSSAPI) keys and the OAUTHBEARER OIDC keys are defined but nothing uses them: GSSAPI is
# refused when a SASL connection is built (SaslChannelBuilder), as are custom login and callback handler classes;
# OAUTHBEARER uses Kafka's unsecured token handlers.
"""

from __future__ import annotations

from typing import Final

from kafka.common.config.config_def import ConfigDef, Importance, Range, Type

__all__ = ["add_client_sasl_support"]

SASL_MECHANISM: Final = "sasl.mechanism"
SASL_MECHANISM_DOC: Final = (
    "SASL mechanism used for client connections. This may be any mechanism for which a security provider is "
    "available. GSSAPI is the default mechanism."
)
GSSAPI_MECHANISM: Final = "GSSAPI"
DEFAULT_SASL_MECHANISM: Final = GSSAPI_MECHANISM
SASL_JAAS_CONFIG: Final = "sasl.jaas.config"
SASL_JAAS_CONFIG_DOC: Final = (
    "JAAS login context parameters for SASL connections in the format used by JAAS configuration files: "
    "'loginModuleClass controlFlag (optionName=optionValue)*;'."
)
SASL_CLIENT_CALLBACK_HANDLER_CLASS: Final = "sasl.client.callback.handler.class"
SASL_LOGIN_CALLBACK_HANDLER_CLASS: Final = "sasl.login.callback.handler.class"
SASL_LOGIN_CLASS: Final = "sasl.login.class"
SASL_KERBEROS_SERVICE_NAME: Final = "sasl.kerberos.service.name"
SASL_KERBEROS_KINIT_CMD: Final = "sasl.kerberos.kinit.cmd"
DEFAULT_KERBEROS_KINIT_CMD: Final = "/usr/bin/kinit"
SASL_KERBEROS_TICKET_RENEW_WINDOW_FACTOR: Final = "sasl.kerberos.ticket.renew.window.factor"
DEFAULT_KERBEROS_TICKET_RENEW_WINDOW_FACTOR: Final = 0.80
SASL_KERBEROS_TICKET_RENEW_JITTER: Final = "sasl.kerberos.ticket.renew.jitter"
DEFAULT_KERBEROS_TICKET_RENEW_JITTER: Final = 0.05
SASL_KERBEROS_MIN_TIME_BEFORE_RELOGIN: Final = "sasl.kerberos.min.time.before.relogin"
DEFAULT_KERBEROS_MIN_TIME_BEFORE_RELOGIN: Final = 60 * 1000
SASL_LOGIN_REFRESH_WINDOW_FACTOR: Final = "sasl.login.refresh.window.factor"
DEFAULT_LOGIN_REFRESH_WINDOW_FACTOR: Final = 0.80
SASL_LOGIN_REFRESH_WINDOW_JITTER: Final = "sasl.login.refresh.window.jitter"
DEFAULT_LOGIN_REFRESH_WINDOW_JITTER: Final = 0.05
SASL_LOGIN_REFRESH_MIN_PERIOD_SECONDS: Final = "sasl.login.refresh.min.period.seconds"
DEFAULT_LOGIN_REFRESH_MIN_PERIOD_SECONDS: Final = 60
SASL_LOGIN_REFRESH_BUFFER_SECONDS: Final = "sasl.login.refresh.buffer.seconds"
DEFAULT_LOGIN_REFRESH_BUFFER_SECONDS: Final = 300
SASL_LOGIN_CONNECT_TIMEOUT_MS: Final = "sasl.login.connect.timeout.ms"
SASL_LOGIN_READ_TIMEOUT_MS: Final = "sasl.login.read.timeout.ms"
SASL_LOGIN_RETRY_BACKOFF_MAX_MS: Final = "sasl.login.retry.backoff.max.ms"
DEFAULT_SASL_LOGIN_RETRY_BACKOFF_MAX_MS: Final = 10000
SASL_LOGIN_RETRY_BACKOFF_MS: Final = "sasl.login.retry.backoff.ms"
DEFAULT_SASL_LOGIN_RETRY_BACKOFF_MS: Final = 100
SASL_OAUTHBEARER_SCOPE_CLAIM_NAME: Final = "sasl.oauthbearer.scope.claim.name"
DEFAULT_SASL_OAUTHBEARER_SCOPE_CLAIM_NAME: Final = "scope"
SASL_OAUTHBEARER_SUB_CLAIM_NAME: Final = "sasl.oauthbearer.sub.claim.name"
DEFAULT_SASL_OAUTHBEARER_SUB_CLAIM_NAME: Final = "sub"
SASL_OAUTHBEARER_TOKEN_ENDPOINT_URL: Final = "sasl.oauthbearer.token.endpoint.url"
SASL_OAUTHBEARER_JWKS_ENDPOINT_URL: Final = "sasl.oauthbearer.jwks.endpoint.url"
SASL_OAUTHBEARER_JWKS_ENDPOINT_REFRESH_MS: Final = "sasl.oauthbearer.jwks.endpoint.refresh.ms"
DEFAULT_SASL_OAUTHBEARER_JWKS_ENDPOINT_REFRESH_MS: Final = 60 * 60 * 1000
SASL_OAUTHBEARER_JWKS_ENDPOINT_RETRY_BACKOFF_MAX_MS: Final = "sasl.oauthbearer.jwks.endpoint.retry.backoff.max.ms"
DEFAULT_SASL_OAUTHBEARER_JWKS_ENDPOINT_RETRY_BACKOFF_MAX_MS: Final = 10000
SASL_OAUTHBEARER_JWKS_ENDPOINT_RETRY_BACKOFF_MS: Final = "sasl.oauthbearer.jwks.endpoint.retry.backoff.ms"
DEFAULT_SASL_OAUTHBEARER_JWKS_ENDPOINT_RETRY_BACKOFF_MS: Final = 100
SASL_OAUTHBEARER_CLOCK_SKEW_SECONDS: Final = "sasl.oauthbearer.clock.skew.seconds"
DEFAULT_SASL_OAUTHBEARER_CLOCK_SKEW_SECONDS: Final = 30
SASL_OAUTHBEARER_EXPECTED_AUDIENCE: Final = "sasl.oauthbearer.expected.audience"
SASL_OAUTHBEARER_EXPECTED_ISSUER: Final = "sasl.oauthbearer.expected.issuer"


def add_client_sasl_support(config: ConfigDef) -> ConfigDef:
    """Defines the clients' `sasl.*` keys on `config`."""
    low, medium = Importance.LOW, Importance.MEDIUM
    config.define(SASL_KERBEROS_SERVICE_NAME, Type.STRING, None, None, medium, "The Kerberos principal name.")
    config.define(SASL_KERBEROS_KINIT_CMD, Type.STRING, DEFAULT_KERBEROS_KINIT_CMD, None, low, "Kerberos kinit path.")
    config.define(
        SASL_KERBEROS_TICKET_RENEW_WINDOW_FACTOR, Type.DOUBLE, DEFAULT_KERBEROS_TICKET_RENEW_WINDOW_FACTOR, None, low
    )
    config.define(SASL_KERBEROS_TICKET_RENEW_JITTER, Type.DOUBLE, DEFAULT_KERBEROS_TICKET_RENEW_JITTER, None, low)
    config.define(SASL_KERBEROS_MIN_TIME_BEFORE_RELOGIN, Type.LONG, DEFAULT_KERBEROS_MIN_TIME_BEFORE_RELOGIN, None, low)
    config.define(
        SASL_LOGIN_REFRESH_WINDOW_FACTOR,
        Type.DOUBLE,
        DEFAULT_LOGIN_REFRESH_WINDOW_FACTOR,
        Range.between(0.5, 1.0),
        low,
    )
    config.define(
        SASL_LOGIN_REFRESH_WINDOW_JITTER,
        Type.DOUBLE,
        DEFAULT_LOGIN_REFRESH_WINDOW_JITTER,
        Range.between(0.0, 0.25),
        low,
    )
    config.define(
        SASL_LOGIN_REFRESH_MIN_PERIOD_SECONDS,
        Type.SHORT,
        DEFAULT_LOGIN_REFRESH_MIN_PERIOD_SECONDS,
        Range.between(0, 900),
        low,
    )
    config.define(
        SASL_LOGIN_REFRESH_BUFFER_SECONDS,
        Type.SHORT,
        DEFAULT_LOGIN_REFRESH_BUFFER_SECONDS,
        Range.between(0, 3600),
        low,
    )
    config.define(SASL_MECHANISM, Type.STRING, DEFAULT_SASL_MECHANISM, None, medium, SASL_MECHANISM_DOC)
    config.define(SASL_JAAS_CONFIG, Type.PASSWORD, None, None, medium, SASL_JAAS_CONFIG_DOC)
    config.define(SASL_CLIENT_CALLBACK_HANDLER_CLASS, Type.CLASS, None, None, medium)
    config.define(SASL_LOGIN_CALLBACK_HANDLER_CLASS, Type.CLASS, None, None, medium)
    config.define(SASL_LOGIN_CLASS, Type.CLASS, None, None, medium)
    config.define(SASL_LOGIN_CONNECT_TIMEOUT_MS, Type.INT, None, None, low)
    config.define(SASL_LOGIN_READ_TIMEOUT_MS, Type.INT, None, None, low)
    config.define(SASL_LOGIN_RETRY_BACKOFF_MAX_MS, Type.LONG, DEFAULT_SASL_LOGIN_RETRY_BACKOFF_MAX_MS, None, low)
    config.define(SASL_LOGIN_RETRY_BACKOFF_MS, Type.LONG, DEFAULT_SASL_LOGIN_RETRY_BACKOFF_MS, None, low)
    config.define(SASL_OAUTHBEARER_SCOPE_CLAIM_NAME, Type.STRING, DEFAULT_SASL_OAUTHBEARER_SCOPE_CLAIM_NAME, None, low)
    config.define(SASL_OAUTHBEARER_SUB_CLAIM_NAME, Type.STRING, DEFAULT_SASL_OAUTHBEARER_SUB_CLAIM_NAME, None, low)
    config.define(SASL_OAUTHBEARER_TOKEN_ENDPOINT_URL, Type.STRING, None, None, medium)
    config.define(SASL_OAUTHBEARER_JWKS_ENDPOINT_URL, Type.STRING, None, None, medium)
    config.define(
        SASL_OAUTHBEARER_JWKS_ENDPOINT_REFRESH_MS,
        Type.LONG,
        DEFAULT_SASL_OAUTHBEARER_JWKS_ENDPOINT_REFRESH_MS,
        None,
        low,
    )
    config.define(
        SASL_OAUTHBEARER_JWKS_ENDPOINT_RETRY_BACKOFF_MAX_MS,
        Type.LONG,
        DEFAULT_SASL_OAUTHBEARER_JWKS_ENDPOINT_RETRY_BACKOFF_MAX_MS,
        None,
        low,
    )
    config.define(
        SASL_OAUTHBEARER_JWKS_ENDPOINT_RETRY_BACKOFF_MS,
        Type.LONG,
        DEFAULT_SASL_OAUTHBEARER_JWKS_ENDPOINT_RETRY_BACKOFF_MS,
        None,
        low,
    )
    config.define(SASL_OAUTHBEARER_CLOCK_SKEW_SECONDS, Type.INT, DEFAULT_SASL_OAUTHBEARER_CLOCK_SKEW_SECONDS, None, low)
    config.define(SASL_OAUTHBEARER_EXPECTED_AUDIENCE, Type.LIST, None, None, low)
    config.define(SASL_OAUTHBEARER_EXPECTED_ISSUER, Type.STRING, None, None, low)
    return config
