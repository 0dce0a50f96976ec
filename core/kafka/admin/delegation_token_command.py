"""Port of core/src/main/scala/kafka/admin/DelegationTokenCommand.scala (Kafka 2.8).

`kafka-delegation-tokens.sh --bootstrap-server HOST:PORT --command-config FILE` with exactly one action:
`--create --max-life-time-period MS [--renewer-principal User:NAME ...]`, `--renew --hmac HMAC
--renew-time-period MS`, `--expire --hmac HMAC --expiry-time-period MS` (-1: at once) or `--describe
[--owner-principal User:NAME ...]`. Tokens are only served on authenticated (SASL, or TLS with client
certificates) listeners, hence the command config with the client's security settings.

It works through the admin client (Admin.create); tests hand in a fake one through `admin_factory`. Dates print as
Kafka's `yyyy-MM-dd'T'HH:mm` in the local time zone.
"""

from __future__ import annotations

import base64
import binascii
import sys
import time
from collections.abc import Sequence
from typing import Any, TextIO

from kafka.admin._tool_support import AdminFactory, create_admin_client, load_command_config
from kafka.clients.admin.create_delegation_token_options import CreateDelegationTokenOptions
from kafka.clients.admin.describe_delegation_token_options import DescribeDelegationTokenOptions
from kafka.clients.admin.expire_delegation_token_options import ExpireDelegationTokenOptions
from kafka.clients.admin.renew_delegation_token_options import RenewDelegationTokenOptions
from kafka.common.security.auth.kafka_principal import KafkaPrincipal
from kafka.common.security.token.delegation import DelegationToken
from kafka.common.utils.security_utils import parse_kafka_principal
from kafka.common.utils.utils import java_message
from kafka.tools.tools_utils import run_reporting_errors, tool_main
from kafka.utils.command_line_utils import (
    CommandDefaultOptions,
    OptionSpec,
    check_invalid_args,
    check_required_args,
    is_print_help_needed,
    print_usage_and_die,
    print_version_if_needed,
)
from kafka.utils.logging import Logging

__all__ = [
    "DelegationTokenCommandOptions",
    "create_token",
    "describe_token",
    "expire_token",
    "main",
    "print_token",
    "renew_token",
    "run_command",
]


class _Log(Logging):
    logger_name = "kafka.admin.DelegationTokenCommand$"


_log = _Log()


def _java_list(items: Sequence[Any]) -> str:
    """A java.util.List's toString."""
    return "[" + ", ".join(str(i) for i in items) + "]"


def _date(timestamp_ms: int) -> str:
    return time.strftime("%Y-%m-%dT%H:%M", time.localtime(timestamp_ms / 1000))


def _hmac_bytes(hmac: str) -> bytes:
    """Base64.getDecoder().decode: a malformed HMAC is an IllegalArgumentException (ValueError here)."""
    try:
        return base64.b64decode(hmac, validate=True)
    except binascii.Error as e:
        raise ValueError(f"Illegal base64 character in {hmac!r}") from e


def create_token(admin_client: Any, opts: DelegationTokenCommandOptions, out: TextIO) -> DelegationToken:
    renewer_principals = _get_principals(opts, opts.renew_principals_opt) or []
    max_life_time_ms = int(opts.options.value_of(opts.max_life_time_opt))
    print(
        f"Calling create token operation with renewers :{_java_list(renewer_principals)} , "
        f"max-life-time-period :{max_life_time_ms}",
        file=out,
    )
    create_options = CreateDelegationTokenOptions(renewers=renewer_principals, max_life_time_ms=max_life_time_ms)
    token: DelegationToken = admin_client.create_delegation_token(create_options).delegation_token().get()
    print(f"Created delegation token with tokenId : {token.token_info().token_id}", file=out)
    print_token([token], out)
    return token


def print_token(tokens: Sequence[DelegationToken], out: TextIO) -> None:
    row = "\n{:<15} {:<30} {:<15} {:<25} {:<15} {:<15} {:<15}"
    out.write(row.format("TOKENID", "HMAC", "OWNER", "RENEWERS", "ISSUEDATE", "EXPIRYDATE", "MAXDATE"))
    for token in tokens:
        info = token.token_info()
        out.write(
            row.format(
                info.token_id,
                token.hmac_as_base64_string(),
                str(info.owner),
                _java_list(info.renewers_as_string()),
                _date(info.issue_timestamp),
                _date(info.expiry_timestamp),
                _date(info.max_timestamp),
            )
        )
        out.write("\n")


def _get_principals(opts: DelegationTokenCommandOptions, spec: OptionSpec) -> list[KafkaPrincipal] | None:
    if not opts.options.has(spec):
        return None
    return [parse_kafka_principal(str(s).strip()) for s in opts.options.values_of(spec)]


def renew_token(admin_client: Any, opts: DelegationTokenCommandOptions, out: TextIO) -> int:
    hmac = opts.options.value_of(opts.hmac_opt)
    renew_time_period_ms = int(opts.options.value_of(opts.renew_time_period_opt))
    print(f"Calling renew token operation with hmac :{hmac} , renew-time-period :{renew_time_period_ms}", file=out)
    result = admin_client.renew_delegation_token(
        _hmac_bytes(hmac), RenewDelegationTokenOptions(renew_time_period_ms=renew_time_period_ms)
    )
    expiry_time_stamp = int(result.expiry_timestamp().get())
    print(f"Completed renew operation. New expiry date : {_date(expiry_time_stamp)}", file=out)
    return expiry_time_stamp


def expire_token(admin_client: Any, opts: DelegationTokenCommandOptions, out: TextIO) -> int:
    hmac = opts.options.value_of(opts.hmac_opt)
    expiry_time_period_ms = int(opts.options.value_of(opts.expiry_time_period_opt))
    print(f"Calling expire token operation with hmac :{hmac} , expire-time-period : {expiry_time_period_ms}", file=out)
    result = admin_client.expire_delegation_token(
        _hmac_bytes(hmac), ExpireDelegationTokenOptions(expiry_time_period_ms=expiry_time_period_ms)
    )
    expiry_time_stamp = int(result.expiry_timestamp().get())
    print(f"Completed expire operation. New expiry date : {_date(expiry_time_stamp)}", file=out)
    return expiry_time_stamp


def describe_token(admin_client: Any, opts: DelegationTokenCommandOptions, out: TextIO) -> list[DelegationToken]:
    owner_principals = _get_principals(opts, opts.owner_principals_opt)
    if owner_principals is None:
        print("Calling describe token operation for current user.", file=out)
    else:
        print(f"Calling describe token operation for owners :{_java_list(owner_principals)}", file=out)
    result = admin_client.describe_delegation_token(DescribeDelegationTokenOptions(owners=owner_principals))
    tokens: list[DelegationToken] = list(result.delegation_tokens().get())
    print(f"Total number of tokens : {len(tokens)}", file=out)
    print_token(tokens, out)
    return tokens


def _admin_props(opts: DelegationTokenCommandOptions) -> dict[str, str]:
    props = load_command_config(opts.options.value_of(opts.command_config_opt))
    props["bootstrap.servers"] = opts.options.value_of(opts.bootstrap_server_opt)
    return props


class DelegationTokenCommandOptions(CommandDefaultOptions):
    """The command line of kafka-delegation-tokens.sh; `check_args` makes Kafka's checks."""

    BOOTSTRAP_SERVER_DOC = "REQUIRED: server(s) to use for bootstrapping."
    COMMAND_CONFIG_DOC = (
        "REQUIRED: A property file containing configs to be passed to Admin Client. Token management operations "
        "are allowed in secure mode only. This config file is used to pass security related configs."
    )

    def __init__(self, args: Sequence[str]) -> None:
        super().__init__(args)
        parser = self.parser
        self.bootstrap_server_opt = (
            parser.accepts("bootstrap-server", self.BOOTSTRAP_SERVER_DOC).with_required_arg().of_type(str)
        )
        self.command_config_opt = (
            parser.accepts("command-config", self.COMMAND_CONFIG_DOC).with_required_arg().of_type(str)
        )
        self.create_opt = parser.accepts(
            "create", "Create a new delegation token. Use --renewer-principal option to pass renewers principals."
        )
        self.renew_opt = parser.accepts(
            "renew", "Renew delegation token. Use --renew-time-period option to set renew time period."
        )
        self.expiry_opt = parser.accepts(
            "expire", "Expire delegation token. Use --expiry-time-period option to expire the token."
        )
        self.describe_opt = parser.accepts(
            "describe",
            "Describe delegation tokens for the given principals. Use --owner-principal to pass owner/renewer "
            "principals. If --owner-principal option is not supplied, all the user owned tokens and tokens where "
            "user have Describe permission will be returned.",
        )
        self.owner_principals_opt = (
            parser.accepts(
                "owner-principal", "owner is a kafka principal. It is should be in principalType:name format."
            )
            .with_optional_arg()
            .of_type(str)
        )
        self.renew_principals_opt = (
            parser.accepts(
                "renewer-principal", "renewer is a kafka principal. It is should be in principalType:name format."
            )
            .with_optional_arg()
            .of_type(str)
        )
        self.max_life_time_opt = (
            parser.accepts(
                "max-life-time-period",
                "Max life period for the token in milliseconds. If the value is -1, then token max life time will "
                "default to a server side config value (delegation.token.max.lifetime.ms).",
            )
            .with_optional_arg()
            .of_type(int)
        )
        self.renew_time_period_opt = (
            parser.accepts(
                "renew-time-period",
                "Renew time period in milliseconds. If the value is -1, then the renew time period will default to "
                "a server side config value (delegation.token.expiry.time.ms).",
            )
            .with_optional_arg()
            .of_type(int)
        )
        self.expiry_time_period_opt = (
            parser.accepts(
                "expiry-time-period",
                "Expiry time period in milliseconds. If the value is -1, then the token will get invalidated "
                "immediately.",
            )
            .with_optional_arg()
            .of_type(int)
        )
        self.hmac_opt = parser.accepts("hmac", "HMAC of the delegation token").with_optional_arg().of_type(str)
        self.options = parser.parse(self.args)

    def check_args(self) -> None:
        parser, options = self.parser, self.options
        check_required_args(parser, options, self.bootstrap_server_opt, self.command_config_opt)
        if options.has(self.create_opt):
            check_required_args(parser, options, self.max_life_time_opt)
        if options.has(self.renew_opt):
            check_required_args(parser, options, self.hmac_opt, self.renew_time_period_opt)
        if options.has(self.expiry_opt):
            check_required_args(parser, options, self.hmac_opt, self.expiry_time_period_opt)
        check_invalid_args(
            parser,
            options,
            self.create_opt,
            [self.hmac_opt, self.renew_time_period_opt, self.expiry_time_period_opt, self.owner_principals_opt],
        )
        check_invalid_args(
            parser,
            options,
            self.renew_opt,
            [self.renew_principals_opt, self.max_life_time_opt, self.expiry_time_period_opt, self.owner_principals_opt],
        )
        check_invalid_args(
            parser,
            options,
            self.expiry_opt,
            [self.renew_opt, self.max_life_time_opt, self.renew_time_period_opt, self.owner_principals_opt],
        )
        check_invalid_args(
            parser,
            options,
            self.describe_opt,
            [self.renew_time_period_opt, self.max_life_time_opt, self.hmac_opt, self.expiry_time_period_opt],
        )


def run_command(
    args: Sequence[str],
    out: TextIO | None = None,
    err: TextIO | None = None,
    admin_factory: AdminFactory | None = None,
) -> int:
    """Parses, checks and runs a command line; returns the exit status."""
    out = out or sys.stdout
    err = err or sys.stderr

    def body() -> int:
        opts = DelegationTokenCommandOptions(args)
        if is_print_help_needed(opts):
            print_usage_and_die(opts.parser, "This tool helps to create, renew, expire, or describe delegation tokens.")
        if print_version_if_needed(opts, out):
            return 0
        actions = sum(
            1
            for spec in (opts.create_opt, opts.renew_opt, opts.expiry_opt, opts.describe_opt)
            if opts.options.has(spec)
        )
        if actions != 1:
            print_usage_and_die(
                opts.parser, "Command must include exactly one action: --create, --renew, --expire or --describe"
            )
        opts.check_args()
        admin_client = create_admin_client(_admin_props(opts), admin_factory)
        exit_code = 0
        try:
            if opts.options.has(opts.create_opt):
                create_token(admin_client, opts, out)
            elif opts.options.has(opts.renew_opt):
                renew_token(admin_client, opts, out)
            elif opts.options.has(opts.expiry_opt):
                expire_token(admin_client, opts, out)
            else:
                describe_token(admin_client, opts, out)
        except BrokenPipeError:
            raise
        except Exception as e:
            print(f"Error while executing delegation token command : {java_message(e)}", file=out)
            _log.error(f"Error while executing delegation token command: {java_message(e)}", e)
            exit_code = 1
        finally:
            admin_client.close()
        return exit_code

    return run_reporting_errors(body, err, lambda: DelegationTokenCommandOptions([]).parser)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of kafka-delegation-tokens.sh (through kafka-run-class.sh); returns the exit status."""
    return tool_main(run_command, argv)


if __name__ == "__main__":
    sys.exit(main())
