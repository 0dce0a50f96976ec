"""Port of core/src/main/scala/kafka/admin/AclCommand.scala (Kafka 2.8).

`kafka-acls.sh`: adds (`--add`), removes (`--remove`) and lists (`--list`) ACLs, either through the brokers
(`--bootstrap-server`, with `--command-config` for the admin client's security settings) or straight in ZooKeeper
through an authorizer (`--authorizer-properties zookeeper.connect=...`, `--authorizer` for another class than
AclAuthorizer). Resources: `--topic`, `--group`, `--cluster`, `--transactional-id`, `--delegation-token`, with
`--resource-pattern-type` (literal, prefixed; any and match for listing and removing). `--producer` grants Write,
Describe and Create on the topics (Write and Describe on transactional ids, IdempotentWrite on the cluster with
`--idempotent`); `--consumer` Read and Describe on the topics and Read on the group.

# PORT: Kafka prints the entries of a resource in its hash set's order; here they are sorted (principal, then
# permission, operation, host), and resources appear in the order they were named or found; the operations a
# resource type supports are listed in code order. A question asked
# without `--force` reads the answer from stdin as Kafka's does. `--zk-tls-config-file` is not supported (the
# authorizer's ZooKeeper client has no TLS).
"""

from __future__ import annotations

import sys
import traceback
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TextIO

from kafka.admin._tool_support import AdminFactory, create_admin_client, load_command_config
from kafka.common.acl.access_control_entry import AccessControlEntry
from kafka.common.acl.access_control_entry_filter import AccessControlEntryFilter
from kafka.common.acl.acl_binding import AclBinding
from kafka.common.acl.acl_binding_filter import AclBindingFilter
from kafka.common.acl.acl_operation import AclOperation
from kafka.common.acl.acl_permission_type import AclPermissionType
from kafka.common.resource.pattern_type import PatternType
from kafka.common.resource.resource import CLUSTER_NAME
from kafka.common.resource.resource_pattern import ResourcePattern
from kafka.common.resource.resource_pattern_filter import ResourcePatternFilter
from kafka.common.resource.resource_type import ResourceType
from kafka.common.security.auth.kafka_principal import KafkaPrincipal
from kafka.common.utils.security_utils import operation, operation_name, parse_kafka_principal
from kafka.common.utils.utils import java_message
from kafka.security.authorizer.acl_entry import AclEntry
from kafka.tools.tools_utils import run_reporting_errors, tool_main
from kafka.utils.command_line_utils import (
    CommandDefaultOptions,
    UsageException,
    check_invalid_args,
    check_required_args,
    is_print_help_needed,
    parse_key_value_args,
    print_usage_and_die,
)

__all__ = ["AclCommandOptions", "main", "run_command"]

CLUSTER_RESOURCE_FILTER = ResourcePatternFilter(ResourceType.CLUSTER, CLUSTER_NAME, PatternType.LITERAL)
NEWLINE = "\n"
DEFAULT_AUTHORIZER = "kafka.security.authorizer.AclAuthorizer"

ResourceToAcls = dict[Any, set[AccessControlEntry]]


def _sorted_acls(acls: Iterable[AccessControlEntry]) -> list[AccessControlEntry]:
    return sorted(acls, key=lambda a: (a.principal, a.permission_type.value, a.operation.value, a.host))


def _acls_text(acls: Iterable[AccessControlEntry]) -> str:
    return NEWLINE.join("\t" + str(a) for a in _sorted_acls(acls))


class _AclCommandService(ABC):
    """What --add, --remove and --list do, whether through the brokers or an authorizer."""

    def __init__(self, opts: AclCommandOptions, out: TextIO, stdin: TextIO) -> None:
        self.opts = opts
        self.out = out
        self.stdin = stdin

    def add_acls(self) -> None:
        resource_to_acl = get_resource_to_acls(self.opts)
        with self._session() as session:
            for resource, acls in resource_to_acl.items():
                print(f"Adding ACLs for resource `{resource}`: {NEWLINE} {_acls_text(acls)} {NEWLINE}", file=self.out)
                session.create([AclBinding(resource, acl) for acl in _sorted_acls(acls)])
            self._list_acls(session)

    def remove_acls(self) -> None:
        with self._session() as session:
            for resource_filter, acls in get_resource_filter_to_acls(self.opts).items():
                if not acls:
                    question = (
                        f"Are you sure you want to delete all ACLs for resource filter `{resource_filter}`? (y/n)"
                    )
                    filters = [AclBindingFilter(resource_filter, AccessControlEntryFilter.ANY)]
                else:
                    question = (
                        f"Are you sure you want to remove ACLs: {NEWLINE} {_acls_text(acls)} {NEWLINE} from resource "
                        f"filter `{resource_filter}`? (y/n)"
                    )
                    filters = [AclBindingFilter(resource_filter, acl.to_filter()) for acl in _sorted_acls(acls)]
                if self._confirm_action(question):
                    session.delete(filters)
            self._list_acls(session)

    def list_acls(self) -> None:
        with self._session() as session:
            self._list_acls(session)

    def _list_acls(self, session: _Session) -> None:
        filters = get_resource_filter(self.opts, die_if_no_resource_found=False)
        list_principals = get_principals(self.opts, self.opts.list_principals_opt)
        resource_to_acls: dict[ResourcePattern, set[AccessControlEntry]] = {}
        for binding in session.describe(filters):
            resource_to_acls.setdefault(binding.pattern, set()).add(binding.entry)
        if not list_principals:
            self._print_resource_acls(resource_to_acls)
        else:
            for principal in list_principals:
                print(f"ACLs for principal `{principal}`", file=self.out)
                filtered = {
                    resource: {a for a in acls if a.principal == str(principal)}
                    for resource, acls in resource_to_acls.items()
                }
                self._print_resource_acls({r: a for r, a in filtered.items() if a})

    def _print_resource_acls(self, resource_to_acls: dict[ResourcePattern, set[AccessControlEntry]]) -> None:
        for resource, acls in resource_to_acls.items():
            print(f"Current ACLs for resource `{resource}`: {NEWLINE} {_acls_text(acls)} {NEWLINE}", file=self.out)

    def _confirm_action(self, message: str) -> bool:
        if self.opts.options.has(self.opts.force_opt):
            return True
        print(message, file=self.out)
        self.out.flush()
        return self.stdin.readline().strip().lower() == "y"

    @abstractmethod
    def _session(self) -> _Session: ...


class _Session(ABC):
    """An admin client or an authorizer, opened for one command."""

    def __enter__(self) -> _Session:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @abstractmethod
    def close(self) -> None: ...

    @abstractmethod
    def create(self, bindings: list[AclBinding]) -> None: ...

    @abstractmethod
    def delete(self, filters: list[AclBindingFilter]) -> None: ...

    @abstractmethod
    def describe(self, filters: Iterable[ResourcePatternFilter]) -> list[AclBinding]: ...


class _AdminClientSession(_Session):
    def __init__(self, admin: Any) -> None:
        self.admin = admin

    def close(self) -> None:
        self.admin.close()

    def create(self, bindings: list[AclBinding]) -> None:
        self.admin.create_acls(bindings).all().get()

    def delete(self, filters: list[AclBindingFilter]) -> None:
        self.admin.delete_acls(filters).all().get()

    def describe(self, filters: Iterable[ResourcePatternFilter]) -> list[AclBinding]:
        filter_list = list(filters)
        if not filter_list:
            return list(self.admin.describe_acls(AclBindingFilter.ANY).values().get())
        found: list[AclBinding] = []
        for f in filter_list:
            found.extend(self.admin.describe_acls(AclBindingFilter(f, AccessControlEntryFilter.ANY)).values().get())
        return found


class _AuthorizerSession(_Session):
    def __init__(self, authorizer: Any, out: TextIO) -> None:
        self.authorizer = authorizer
        self.out = out

    def close(self) -> None:
        try:
            self.authorizer.close()
        except Exception:  # CoreUtils.swallow
            pass

    def _report(self, exception: BaseException | None, what: str) -> None:
        if exception is not None:
            print(f"Error while {what} ACLs: {java_message(exception)}", file=self.out)
            print("".join(traceback.format_exception(exception)), file=self.out)

    def create(self, bindings: list[AclBinding]) -> None:
        for future in self.authorizer.create_acls(None, bindings):
            self._report(future.result().exception, "adding")

    def delete(self, filters: list[AclBindingFilter]) -> None:
        for future in self.authorizer.delete_acls(None, filters):
            result = future.result()
            self._report(result.exception, "removing")
            for r in result.acl_binding_delete_results:
                self._report(r.exception, "removing")

    def describe(self, filters: Iterable[ResourcePatternFilter]) -> list[AclBinding]:
        filter_list = list(filters)
        if not filter_list:
            return list(self.authorizer.acls(AclBindingFilter.ANY))
        found: list[AclBinding] = []
        for f in filter_list:
            found.extend(self.authorizer.acls(AclBindingFilter(f, AccessControlEntryFilter.ANY)))
        return found


class AdminClientService(_AclCommandService):
    def __init__(self, opts: AclCommandOptions, out: TextIO, stdin: TextIO, admin_factory: AdminFactory | None) -> None:
        super().__init__(opts, out, stdin)
        self.admin_factory = admin_factory

    def _session(self) -> _Session:
        options = self.opts.options
        props = load_command_config(
            options.value_of(self.opts.command_config_opt) if options.has(self.opts.command_config_opt) else None
        )
        props["bootstrap.servers"] = options.value_of(self.opts.bootstrap_server_opt)
        return _AdminClientSession(create_admin_client(props, self.admin_factory))


class AuthorizerService(_AclCommandService):
    def __init__(self, authorizer_class_name: str, opts: AclCommandOptions, out: TextIO, stdin: TextIO) -> None:
        super().__init__(opts, out, stdin)
        self.authorizer_class_name = authorizer_class_name

    def _session(self) -> _Session:
        from kafka.security.authorizer.authorizer_utils import create_authorizer

        options = self.opts.options
        # PORT: Kafka defaults zookeeper.set.acl to whether ZooKeeper SASL is configured; ours never is.
        props: dict[str, str] = {"zookeeper.set.acl": "false"}
        if options.has(self.opts.authorizer_properties_opt):
            props.update(
                parse_key_value_args(options.values_of(self.opts.authorizer_properties_opt), accept_missing_value=False)
            )
        authorizer = create_authorizer(self.authorizer_class_name)
        try:
            authorizer.configure(props)
        except BaseException:
            try:
                authorizer.close()
            except Exception:
                pass
            raise
        return _AuthorizerSession(authorizer, self.out)


# -- building the ACLs from the command line ----------------------------------------------------------------------


def get_resource_to_acls(opts: AclCommandOptions) -> dict[ResourcePattern, set[AccessControlEntry]]:
    pattern_type: PatternType = opts.options.value_of(opts.resource_pattern_type_opt)
    if not pattern_type.is_specific:
        print_usage_and_die(
            opts.parser, f"A '--resource-pattern-type' value of '{pattern_type.name}' is not valid when adding acls."
        )
    resource_to_acl = {
        ResourcePattern(f.resource_type, f.name or "", f.pattern_type): acls
        for f, acls in get_resource_filter_to_acls(opts).items()
    }
    if any(not acls for acls in resource_to_acl.values()):
        print_usage_and_die(
            opts.parser, "You must specify one of: --allow-principal, --deny-principal when trying to add ACLs."
        )
    return resource_to_acl


def get_resource_filter_to_acls(opts: AclCommandOptions) -> dict[ResourcePatternFilter, set[AccessControlEntry]]:
    options = opts.options
    resource_to_acls: dict[ResourcePatternFilter, set[AccessControlEntry]] = {}
    if not options.has(opts.producer_opt) and not options.has(opts.consumer_opt):
        resource_to_acls.update(_get_cli_resource_filter_to_acls(opts))
    if options.has(opts.producer_opt):
        resource_to_acls.update(_get_producer_resource_filter_to_acls(opts))
    if options.has(opts.consumer_opt):
        for f, acls in _get_consumer_resource_filter_to_acls(opts).items():
            resource_to_acls[f] = acls | resource_to_acls.get(f, set())
    _validate_operation(opts, resource_to_acls)
    return resource_to_acls


def _get_producer_resource_filter_to_acls(
    opts: AclCommandOptions,
) -> dict[ResourcePatternFilter, set[AccessControlEntry]]:
    filters = get_resource_filter(opts)
    result: dict[ResourcePatternFilter, set[AccessControlEntry]] = {}
    topic_acls = _get_acl(opts, {AclOperation.WRITE, AclOperation.DESCRIBE, AclOperation.CREATE})
    transactional_id_acls = _get_acl(opts, {AclOperation.WRITE, AclOperation.DESCRIBE})
    for f in filters:
        if f.resource_type is ResourceType.TOPIC:
            result[f] = topic_acls
        elif f.resource_type is ResourceType.TRANSACTIONAL_ID:
            result[f] = transactional_id_acls
    if opts.options.has(opts.idempotent_opt):
        result[CLUSTER_RESOURCE_FILTER] = _get_acl(opts, {AclOperation.IDEMPOTENT_WRITE})
    return result


def _get_consumer_resource_filter_to_acls(
    opts: AclCommandOptions,
) -> dict[ResourcePatternFilter, set[AccessControlEntry]]:
    filters = get_resource_filter(opts)
    result: dict[ResourcePatternFilter, set[AccessControlEntry]] = {}
    for f in filters:
        if f.resource_type is ResourceType.TOPIC:
            result[f] = _get_acl(opts, {AclOperation.READ, AclOperation.DESCRIBE})
        elif f.resource_type is ResourceType.GROUP:
            result[f] = _get_acl(opts, {AclOperation.READ})
    return result


def _get_cli_resource_filter_to_acls(opts: AclCommandOptions) -> dict[ResourcePatternFilter, set[AccessControlEntry]]:
    operations = {operation(o.strip()) for o in opts.options.values_of(opts.operations_opt)}
    acls = _get_acl(opts, operations)
    return {f: acls for f in get_resource_filter(opts)}


def _get_acl(opts: AclCommandOptions, operations: set[AclOperation]) -> set[AccessControlEntry]:
    allowed_principals = get_principals(opts, opts.allow_principals_opt)
    denied_principals = get_principals(opts, opts.deny_principals_opt)
    allowed_hosts = _get_hosts(opts, opts.allow_hosts_opt, opts.allow_principals_opt)
    denied_hosts = _get_hosts(opts, opts.deny_hosts_opt, opts.deny_principals_opt)
    acls: set[AccessControlEntry] = set()
    if allowed_hosts and allowed_principals:
        acls |= get_acls(allowed_principals, AclPermissionType.ALLOW, operations, allowed_hosts)
    if denied_hosts and denied_principals:
        acls |= get_acls(denied_principals, AclPermissionType.DENY, operations, denied_hosts)
    return acls


def get_acls(
    principals: Iterable[KafkaPrincipal],
    permission_type: AclPermissionType,
    operations: Iterable[AclOperation],
    hosts: Iterable[str],
) -> set[AccessControlEntry]:
    return {AccessControlEntry(str(p), h, o, permission_type) for p in principals for o in operations for h in hosts}


def _get_hosts(opts: AclCommandOptions, host_option: Any, principal_option: Any) -> set[str]:
    if opts.options.has(host_option):
        return {h.strip() for h in opts.options.values_of(host_option)}
    if opts.options.has(principal_option):
        return {AclEntry.WILDCARD_HOST}
    return set()


def get_principals(opts: AclCommandOptions, principal_option: Any) -> list[KafkaPrincipal]:
    if not opts.options.has(principal_option):
        return []
    return list(dict.fromkeys(parse_kafka_principal(s.strip()) for s in opts.options.values_of(principal_option) if s))


def get_resource_filter(opts: AclCommandOptions, die_if_no_resource_found: bool = True) -> list[ResourcePatternFilter]:
    options = opts.options
    pattern_type: PatternType = options.value_of(opts.resource_pattern_type_opt)
    filters: dict[ResourcePatternFilter, None] = {}
    if options.has(opts.topic_opt):
        for topic in options.values_of(opts.topic_opt):
            filters[ResourcePatternFilter(ResourceType.TOPIC, topic.strip(), pattern_type)] = None
    if pattern_type is PatternType.LITERAL and (options.has(opts.cluster_opt) or options.has(opts.idempotent_opt)):
        filters[CLUSTER_RESOURCE_FILTER] = None
    if options.has(opts.group_opt):
        for group in options.values_of(opts.group_opt):
            filters[ResourcePatternFilter(ResourceType.GROUP, group.strip(), pattern_type)] = None
    if options.has(opts.transactional_id_opt):
        for transactional_id in options.values_of(opts.transactional_id_opt):
            filters[ResourcePatternFilter(ResourceType.TRANSACTIONAL_ID, transactional_id, pattern_type)] = None
    if options.has(opts.delegation_token_opt):
        for token in options.values_of(opts.delegation_token_opt):
            filters[ResourcePatternFilter(ResourceType.DELEGATION_TOKEN, token.strip(), pattern_type)] = None
    if not filters and die_if_no_resource_found:
        print_usage_and_die(
            opts.parser,
            "You must provide at least one resource: --topic <topic> or --cluster or --group <group> or "
            "--delegation-token <Delegation Token ID>",
        )
    return list(filters)


def _validate_operation(
    opts: AclCommandOptions, resource_to_acls: dict[ResourcePatternFilter, set[AccessControlEntry]]
) -> None:
    for resource, acls in resource_to_acls.items():
        valid_ops = AclEntry.supported_operations(resource.resource_type) | {AclOperation.ALL}
        if any(acl.operation not in valid_ops for acl in acls):
            names = ",".join(op.name for op in sorted(valid_ops, key=lambda o: o.value))
            print_usage_and_die(
                opts.parser, f"ResourceType {resource.resource_type.name} only supports operations {names}"
            )


class AclCommandOptions(CommandDefaultOptions):
    """The command line of kafka-acls.sh; `check_args` makes Kafka's checks."""

    def __init__(self, args: Sequence[str]) -> None:
        super().__init__(args)
        parser = self.parser
        self.bootstrap_server_opt = (
            parser.accepts(
                "bootstrap-server",
                "A list of host/port pairs to use for establishing the connection to the Kafka cluster. This list "
                "should be in the form host1:port1,host2:port2,... This config is required for acl management "
                "using admin client API.",
            )
            .with_required_arg()
            .described_as("server to connect to")
            .of_type(str)
        )
        self.command_config_opt = (
            parser.accepts("command-config", "A property file containing configs to be passed to Admin Client.")
            .with_optional_arg()
            .described_as("command-config")
            .of_type(str)
        )
        self.authorizer_opt = (
            parser.accepts(
                "authorizer",
                "Fully qualified class name of the authorizer, defaults to kafka.security.authorizer.AclAuthorizer.",
            )
            .with_required_arg()
            .described_as("authorizer")
            .of_type(str)
        )
        self.authorizer_properties_opt = (
            parser.accepts(
                "authorizer-properties",
                "REQUIRED: properties required to configure an instance of Authorizer. These are key=val pairs. "
                "For the default authorizer the example values are: zookeeper.connect=localhost:2181",
            )
            .with_required_arg()
            .described_as("authorizer-properties")
            .of_type(str)
        )
        self.topic_opt = (
            parser.accepts(
                "topic",
                "topic to which ACLs should be added or removed. A value of * indicates ACL should apply to all "
                "topics.",
            )
            .with_required_arg()
            .described_as("topic")
            .of_type(str)
        )
        self.cluster_opt = parser.accepts("cluster", "Add/Remove cluster ACLs.")
        self.group_opt = (
            parser.accepts(
                "group",
                "Consumer Group to which the ACLs should be added or removed. A value of * indicates the ACLs "
                "should apply to all groups.",
            )
            .with_required_arg()
            .described_as("group")
            .of_type(str)
        )
        self.transactional_id_opt = (
            parser.accepts(
                "transactional-id",
                "The transactionalId to which ACLs should be added or removed. A value of * indicates the ACLs "
                "should apply to all transactionalIds.",
            )
            .with_required_arg()
            .described_as("transactional-id")
            .of_type(str)
        )
        self.idempotent_opt = parser.accepts(
            "idempotent",
            "Enable idempotence for the producer. This should be used in combination with the --producer option. "
            "Note that idempotence is enabled automatically if the producer is authorized to a particular "
            "transactional-id.",
        )
        self.delegation_token_opt = (
            parser.accepts(
                "delegation-token",
                "Delegation token to which ACLs should be added or removed. A value of * indicates ACL should "
                "apply to all tokens.",
            )
            .with_required_arg()
            .described_as("delegation-token")
            .of_type(str)
        )
        self.resource_pattern_type_opt = (
            parser.accepts(
                "resource-pattern-type",
                "The type of the resource pattern or pattern filter. When adding acls, this should be a specific "
                "pattern type, e.g. 'literal' or 'prefixed'. When listing or removing acls, a specific pattern type "
                "can be used to list or remove acls from specific resource patterns, or use the filter values of "
                "'any' or 'match', where 'any' will match any pattern type, but will match the resource name "
                "exactly, where as 'match' will perform pattern matching to list or remove all acls that affect "
                "the supplied resource(s). WARNING: 'match', when used in combination with the '--remove' switch, "
                "should be used with care.",
            )
            .with_required_arg()
            .of_type(PatternType)
            .defaults_to(PatternType.LITERAL)
        )
        self.add_opt = parser.accepts("add", "Indicates you are trying to add ACLs.")
        self.remove_opt = parser.accepts("remove", "Indicates you are trying to remove ACLs.")
        self.list_opt = parser.accepts(
            "list",
            "List ACLs for the specified resource, use --topic <topic> or --group <group> or --cluster to specify "
            "a resource.",
        )
        operation_names = NEWLINE.join(
            "\t" + operation_name(op) for op in sorted(AclEntry.ACL_OPERATIONS, key=lambda o: o.value)
        )
        self.operations_opt = (
            parser.accepts(
                "operation",
                f"Operation that is being allowed or denied. Valid operation names are: {NEWLINE}{operation_names}"
                f"{NEWLINE}",
            )
            .with_required_arg()
            .of_type(str)
            .defaults_to(operation_name(AclOperation.ALL))
        )
        self.allow_principals_opt = (
            parser.accepts(
                "allow-principal",
                "principal is in principalType:name format. Note that principalType must be supported by the "
                "Authorizer being used. For example, User:* is the wild card indicating all users.",
            )
            .with_required_arg()
            .described_as("allow-principal")
            .of_type(str)
        )
        self.deny_principals_opt = (
            parser.accepts(
                "deny-principal",
                "principal is in principalType:name format. By default anyone not added through --allow-principal "
                "is denied access. You only need to use this option as negation to already allowed set. Note that "
                "principalType must be supported by the Authorizer being used. For example if you wanted to allow "
                "access to all users in the system but not test-user you can define an ACL that allows access to "
                "User:* and specify --deny-principal=User:test@EXAMPLE.COM. AND PLEASE REMEMBER DENY RULES TAKES "
                "PRECEDENCE OVER ALLOW RULES.",
            )
            .with_required_arg()
            .described_as("deny-principal")
            .of_type(str)
        )
        self.list_principals_opt = (
            parser.accepts(
                "principal",
                "List ACLs for the specified principal. principal is in principalType:name format. Note that "
                "principalType must be supported by the Authorizer being used. Multiple --principal option can be "
                "passed.",
            )
            .with_optional_arg()
            .described_as("principal")
            .of_type(str)
        )
        self.allow_hosts_opt = (
            parser.accepts(
                "allow-host",
                "Host from which principals listed in --allow-principal will have access. If you have specified "
                "--allow-principal then the default for this option will be set to * which allows access from all "
                "hosts.",
            )
            .with_required_arg()
            .described_as("allow-host")
            .of_type(str)
        )
        self.deny_hosts_opt = (
            parser.accepts(
                "deny-host",
                "Host from which principals listed in --deny-principal will be denied access. If you have "
                "specified --deny-principal then the default for this option will be set to * which denies access "
                "from all hosts.",
            )
            .with_required_arg()
            .described_as("deny-host")
            .of_type(str)
        )
        self.producer_opt = parser.accepts(
            "producer",
            "Convenience option to add/remove ACLs for producer role. This will generate ACLs that allows "
            "WRITE,DESCRIBE and CREATE on topic.",
        )
        self.consumer_opt = parser.accepts(
            "consumer",
            "Convenience option to add/remove ACLs for consumer role. This will generate ACLs that allows "
            "READ,DESCRIBE on topic and READ on group.",
        )
        self.force_opt = parser.accepts("force", "Assume Yes to all queries and do not prompt.")
        self.options = parser.parse(self.args)

    def check_args(self) -> None:
        options, parser = self.options, self.parser
        if options.value_of(self.resource_pattern_type_opt).is_unknown:
            print_usage_and_die(parser, f"Unknown resource-pattern-type: {PatternType.UNKNOWN.name}")
        if options.has(self.bootstrap_server_opt) and options.has(self.authorizer_opt):
            print_usage_and_die(parser, "Only one of --bootstrap-server or --authorizer must be specified")
        if not options.has(self.bootstrap_server_opt):
            check_required_args(parser, options, self.authorizer_properties_opt)
        if options.has(self.command_config_opt) and not options.has(self.bootstrap_server_opt):
            print_usage_and_die(parser, "The --command-config option can only be used with --bootstrap-server option")
        if options.has(self.authorizer_properties_opt) and options.has(self.bootstrap_server_opt):
            print_usage_and_die(parser, "The --authorizer-properties option can only be used with --authorizer option")
        if sum(1 for o in (self.add_opt, self.remove_opt, self.list_opt) if options.has(o)) != 1:
            print_usage_and_die(parser, "Command must include exactly one action: --list, --add, --remove. ")
        check_invalid_args(
            parser,
            options,
            self.list_opt,
            [
                self.producer_opt,
                self.consumer_opt,
                self.allow_hosts_opt,
                self.allow_principals_opt,
                self.deny_hosts_opt,
                self.deny_principals_opt,
            ],
        )
        for role in (self.producer_opt, self.consumer_opt):
            check_invalid_args(
                parser, options, role, [self.operations_opt, self.deny_principals_opt, self.deny_hosts_opt]
            )
        if options.has(self.list_principals_opt) and not options.has(self.list_opt):
            print_usage_and_die(parser, "The --principal option is only available if --list is set")
        if options.has(self.producer_opt) and not options.has(self.topic_opt):
            print_usage_and_die(parser, "With --producer you must specify a --topic")
        if options.has(self.idempotent_opt) and not options.has(self.producer_opt):
            print_usage_and_die(parser, "The --idempotent option is only available if --producer is set")
        if options.has(self.consumer_opt) and (
            not options.has(self.topic_opt)
            or not options.has(self.group_opt)
            or (
                not options.has(self.producer_opt)
                and (options.has(self.cluster_opt) or options.has(self.transactional_id_opt))
            )
        ):
            print_usage_and_die(
                parser,
                "With --consumer you must specify a --topic and a --group and no --cluster or --transactional-id "
                "option should be specified.",
            )


def run_command(
    args: Sequence[str],
    out: TextIO | None = None,
    err: TextIO | None = None,
    admin_factory: AdminFactory | None = None,
    stdin: TextIO | None = None,
) -> int:
    """Parses, checks and runs a command line; returns the exit status."""
    out = out or sys.stdout
    err = err or sys.stderr
    stdin = stdin or sys.stdin

    def body() -> int:
        opts = AclCommandOptions(args)
        if is_print_help_needed(opts):
            print_usage_and_die(opts.parser, "This tool helps to manage acls on kafka.")
        opts.check_args()
        service: _AclCommandService
        if opts.options.has(opts.bootstrap_server_opt):
            service = AdminClientService(opts, out, stdin, admin_factory)
        else:
            authorizer = (
                opts.options.value_of(opts.authorizer_opt)
                if opts.options.has(opts.authorizer_opt)
                else DEFAULT_AUTHORIZER
            )
            service = AuthorizerService(authorizer, opts, out, stdin)
        action: Callable[[], None]
        if opts.options.has(opts.add_opt):
            action = service.add_acls
        elif opts.options.has(opts.remove_opt):
            action = service.remove_acls
        else:
            action = service.list_acls
        try:
            action()
        except UsageException:
            raise  # printUsageAndDie ends the JVM in Kafka: the usage, not the error line
        except Exception as e:
            cause = e.__cause__ if e.__cause__ is not None and type(e).__name__ == "ExecutionException" else e
            print(f"Error while executing ACL command: {java_message(cause)}", file=out)
            print("".join(traceback.format_exception(cause)), file=out)
            return 1
        return 0

    return run_reporting_errors(body, err, lambda: AclCommandOptions([]).parser)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of kafka-acls.sh (through kafka-run-class.sh); returns the exit status."""
    return tool_main(run_command, argv)


if __name__ == "__main__":
    sys.exit(main())
