"""Port of core/src/main/scala/kafka/utils/CommandLineUtils.scala (Kafka 2.8).

Helpers shared by the command-line tools: required and conflicting option checks, printing the usage and
ending the tool with status 1, printing the version, and `key=value` arguments as properties.

# PORT: Kafka's tools parse their arguments with jopt-simple. Its behaviour shows on the command line (which
tokens count as options, `--opt=value`, optional arguments, the messages of its exceptions and the two-column
help it prints), so a small parser with the same rules lives here: `OptionParser`, `OptionSpec`,
`OptionSet` and the `OptionException` family, with jopt-simple 5.0.4's messages and help layout.
CommandDefaultOptions (kafka/utils/CommandDefaultOptions.scala, the `--help`/`--version` base of the tool
options) is here too. Where Kafka calls `Exit.exit`, `print_usage_and_die` raises `UsageException`, and
the tool's entry point prints its message and the help and returns 1, so tests can run a tool in-process.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Sequence
from typing import Any, TextIO, TypeGuard

from kafka.common.utils.app_info_parser import get_version

__all__ = [
    "CommandDefaultOptions",
    "Integer",
    "MissingRequiredOptionsException",
    "MultipleArgumentsForOptionException",
    "OptionArgumentConversionException",
    "OptionException",
    "OptionMissingRequiredArgumentException",
    "OptionParser",
    "OptionSet",
    "OptionSpec",
    "UnavailableOptionException",
    "UnrecognizedOptionException",
    "UsageException",
    "check_invalid_args",
    "check_invalid_args_set",
    "check_required_args",
    "ensure_required_unless",
    "is_print_help_needed",
    "is_print_version_needed",
    "maybe_merge_options",
    "parse_key_value_args",
    "print_usage_and_die",
    "print_version_if_needed",
]

_LONG_RANGE = (-(2**63), 2**63 - 1)
_LONG_PATTERN = re.compile(r"[+-]?[0-9]+")


# -- jopt-simple's exceptions ---------------------------------------------------------------------------------


class OptionException(Exception):
    """A command line that the option specifications do not accept (joptsimple.OptionException)."""


class UnrecognizedOptionException(OptionException):
    def __init__(self, option: str) -> None:
        super().__init__(f"{option} is not a recognized option")
        self.option = option


class OptionMissingRequiredArgumentException(OptionException):
    def __init__(self, spec: OptionSpec) -> None:
        super().__init__(f"Option {spec.name} requires an argument")


class UnavailableOptionException(OptionException):
    def __init__(self, specs: Sequence[OptionSpec]) -> None:
        names = ", ".join(dict.fromkeys(s.name for s in specs))
        super().__init__(f"Option(s) [{names}] are unavailable given other options on the command line")


class OptionArgumentConversionException(OptionException):
    def __init__(self, spec: OptionSpec, argument: str) -> None:
        super().__init__(f"Cannot parse argument '{argument}' of option {spec.name}")


class MultipleArgumentsForOptionException(OptionException):
    def __init__(self, spec: OptionSpec) -> None:
        super().__init__(f"Found multiple arguments for option {spec.name}, but you asked for only one")


class UsageException(Exception):
    """Raised by `print_usage_and_die`: the tool prints `message` and the parser's help on stderr and ends
    with status 1 (Kafka prints both and calls Exit.exit(1))."""

    def __init__(self, parser: OptionParser, message: str) -> None:
        super().__init__(message)
        self.parser = parser
        self.message = message


# -- jopt-simple's parser ------------------------------------------------------------------------------------


class Integer(int):
    """java.lang.Integer as an option's argument type (`of_type(Integer)`); `of_type(int)` is Java's Long."""


_INTEGER_RANGE = (-(2**31), 2**31 - 1)


def _is_enum(value_type: type) -> TypeGuard[type[enum.Enum]]:
    return isinstance(value_type, type) and issubclass(value_type, enum.Enum)


class OptionSpec:
    """One option: its name, help text, whether it takes an argument (never, always or optionally), the
    type of that argument (`str`, `int` for Java's Long, `Integer` for java.lang.Integer, or an enum, converted
    by name ignoring case as jopt-simple's EnumConverter does), the character that separates several values in
    one argument, the argument's description and defaults, and the options it is only available with. Prints
    as jopt-simple prints a spec: `[name]`."""

    NO_ARGUMENT = "none"
    REQUIRED_ARGUMENT = "required"
    OPTIONAL_ARGUMENT = "optional"

    def __init__(self, name: str, description: str) -> None:
        self.name = name
        self.description = description
        self.argument = OptionSpec.NO_ARGUMENT
        self.value_type: type = str
        self.argument_description = ""
        self.default_values: list[Any] = []
        self.available_if_specs: list[OptionSpec] = []
        self.for_help_spec = False
        self.values_separator: str | None = None

    # Builder methods, named as jopt-simple's and returning the spec so that they chain.

    def with_required_arg(self) -> OptionSpec:
        self.argument = OptionSpec.REQUIRED_ARGUMENT
        return self

    def with_optional_arg(self) -> OptionSpec:
        self.argument = OptionSpec.OPTIONAL_ARGUMENT
        return self

    def described_as(self, description: str) -> OptionSpec:
        self.argument_description = description
        return self

    def of_type(self, value_type: type) -> OptionSpec:
        if value_type not in (str, int, Integer) and not _is_enum(value_type):
            raise ValueError(f"Unsupported option argument type {value_type}")
        self.value_type = value_type
        return self

    def with_values_separated_by(self, separator: str) -> OptionSpec:
        self.values_separator = separator
        return self

    def defaults_to(self, *values: Any) -> OptionSpec:
        self.default_values = list(values)
        return self

    def available_if(self, *specs: OptionSpec) -> OptionSpec:
        self.available_if_specs = list(specs)
        return self

    def for_help(self) -> OptionSpec:
        self.for_help_spec = True
        return self

    @property
    def accepts_arguments(self) -> bool:
        return self.argument != OptionSpec.NO_ARGUMENT

    @property
    def type_indicator(self) -> str:
        """The argument type as jopt-simple's help shows it."""
        if self.value_type is Integer:
            return "Integer"
        if self.value_type is int:
            return "Long"
        if _is_enum(self.value_type):
            return "[" + ",".join(m.name for m in self.value_type) + "]"
        return "String"

    def convert(self, argument: str) -> Any:
        """The argument as the option's type; OptionArgumentConversionException when it is not one."""
        if self.value_type is int or self.value_type is Integer:
            low, high = _LONG_RANGE if self.value_type is int else _INTEGER_RANGE
            if not _LONG_PATTERN.fullmatch(argument) or not low <= int(argument) <= high:
                raise OptionArgumentConversionException(self, argument)
            return int(argument)
        if _is_enum(self.value_type):
            for member in self.value_type:
                if member.name.lower() == argument.lower():
                    return member
            raise OptionArgumentConversionException(self, argument)
        return argument

    def can_convert(self, argument: str) -> bool:
        try:
            self.convert(argument)
        except OptionArgumentConversionException:
            return False
        return True

    def __str__(self) -> str:
        return f"[{self.name}]"

    def __repr__(self) -> str:
        return f"OptionSpec({self.name!r})"


def _looks_like_an_option(argument: str) -> bool:
    return argument.startswith("-") and argument not in ("-", "--")


class OptionSet:
    """The options found on a command line, with their arguments in order, and the non-option arguments."""

    def __init__(self) -> None:
        self._detected: dict[OptionSpec, list[str]] = {}
        self._order: list[OptionSpec] = []
        self.non_option_arguments: list[str] = []

    def _add(self, spec: OptionSpec, argument: str | None = None) -> None:
        self._order.append(spec)
        arguments = self._detected.setdefault(spec, [])
        if argument is not None and spec.values_separator:
            # StringTokenizer: empty pieces are dropped.
            arguments.extend(p for p in argument.split(spec.values_separator) if p)
        elif argument is not None:
            arguments.append(argument)

    def specs(self) -> list[OptionSpec]:
        """The options found, in command-line order, one entry per occurrence (jopt-simple's OptionSet.specs)."""
        return list(self._order)

    def has(self, spec: OptionSpec) -> bool:
        return spec in self._detected

    def values_of(self, spec: OptionSpec) -> list[Any]:
        """Every argument given to the option, converted; the defaults when none was given."""
        arguments = self._detected.get(spec)
        if not arguments:
            return list(spec.default_values)
        return [spec.convert(a) for a in arguments]

    def value_of(self, spec: OptionSpec) -> Any:
        """The option's one argument, converted; its default (or None) when it has none."""
        values = self.values_of(spec)
        if len(values) > 1:
            raise MultipleArgumentsForOptionException(spec)
        return values[0] if values else None


class OptionParser:
    """Parses a command line by jopt-simple's rules, without abbreviations (as Kafka's tools configure it).

    `--name`, `--name=value` and `-name` name an option; `--` ends the options; anything else is a
    non-option argument, which the tools ignore. An option with a required argument takes the next token
    whatever it looks like (so `--shift-by -5` works); an optional argument is taken only when it does not
    look like an option. Options made `available_if` others are refused without them."""

    def __init__(self) -> None:
        self._specs: dict[str, OptionSpec] = {}

    def accepts(self, name: str, description: str = "") -> OptionSpec:
        spec = OptionSpec(name, description)
        self._specs[name] = spec
        return spec

    def parse(self, args: Sequence[str]) -> OptionSet:
        detected = OptionSet()
        arguments = list(args)
        i = 0
        no_more_options = False
        while i < len(arguments):
            candidate = arguments[i]
            i += 1
            if no_more_options:
                detected.non_option_arguments.append(candidate)
            elif candidate == "--":
                no_more_options = True
            elif candidate.startswith("-") and candidate != "-":
                long_form = candidate.startswith("--")
                key, sep, value = candidate[2 if long_form else 1 :].partition("=")
                spec = self._specs.get(key)
                if spec is None:
                    # jopt-simple reads `-xyz` as a cluster of one-letter options; none is defined here.
                    raise UnrecognizedOptionException(key if long_form else candidate[1])
                i = self._handle(spec, value if sep else None, arguments, i, detected)
            else:
                detected.non_option_arguments.append(candidate)
        help_present = any(s.for_help_spec and detected.has(s) for s in self._specs.values())
        unavailable = [
            s
            for s in self._specs.values()
            if s.available_if_specs and detected.has(s) and not any(detected.has(o) for o in s.available_if_specs)
        ]
        if unavailable and not help_present:
            raise UnavailableOptionException(unavailable)
        # PORT: jopt-simple converts arguments when the tool asks for them, so a Kafka tool reports a bad
        # number only where it reads it (for some, as a failure of the command); here it is a usage error.
        for spec in detected._detected:
            detected.values_of(spec)
        return detected

    @staticmethod
    def _handle(spec: OptionSpec, value: str | None, arguments: list[str], i: int, detected: OptionSet) -> int:
        if spec.argument == OptionSpec.NO_ARGUMENT:
            detected._add(spec)
        elif value:
            detected._add(spec, value)
        elif spec.argument == OptionSpec.REQUIRED_ARGUMENT:
            if i >= len(arguments):
                raise OptionMissingRequiredArgumentException(spec)
            detected._add(spec, arguments[i])
            i += 1
        elif i < len(arguments) and spec.can_convert(arguments[i]) and not _looks_like_an_option(arguments[i]):
            detected._add(spec, arguments[i])
            i += 1
        elif i < len(arguments) and spec.value_type is int and spec.can_convert(arguments[i]):
            detected._add(spec, arguments[i])  # a negative number is an argument, not an option
            i += 1
        else:
            detected._add(spec)
        return i

    # -- help, as jopt-simple's BuiltinHelpFormatter lays it out --------------------------------------------

    def format_help(self) -> str:
        rows: list[tuple[str, str]] = [("Option", "Description"), ("------", "-----------")]
        for name in sorted(self._specs):
            spec = self._specs[name]
            rows.append((_option_display(spec), _description_display(spec)))
        return _render_rows(rows, overall_width=80, separator_width=2)

    def print_help_on(self, out: TextIO) -> None:
        out.write(self.format_help())
        out.flush()


def _option_display(spec: OptionSpec) -> str:
    text = ("--" if len(spec.name) > 1 else "-") + spec.name
    if spec.accepts_arguments or spec.argument_description:
        indicator = spec.type_indicator
        start, end = ("<", ">") if spec.argument == OptionSpec.REQUIRED_ARGUMENT else ("[", "]")
        inner = indicator + (": " + spec.argument_description if spec.argument_description else "")
        text += f" {start}{inner}{end}"
    return text


def _description_display(spec: OptionSpec) -> str:
    if not spec.default_values:
        return spec.description
    shown = str(spec.default_values[0]) if len(spec.default_values) == 1 else str(spec.default_values)
    return f"{spec.description} (default: {shown})".strip()


# Break opportunities as a line-breaking text iterator finds them in help text: after a run of spaces, and
# after the hyphens inside a word (`reset-` | `offsets`). Each piece keeps its trailing spaces.
_WORD = re.compile(r"[^\s]*?[^\s-]-+(?=[^\s-])|\S+\s*|\s+")


def _words(line: str) -> list[str]:
    return _WORD.findall(line)


def _pieces_of(raw: str, width: int) -> list[str]:
    """`raw` cut into lines no wider than `width` at word boundaries; continuation lines are indented by
    two spaces, and an embedded newline always starts a new line."""
    pieces: list[str] = []
    for line in raw.strip().split("\n"):
        next_piece = ""
        for word in _words(line):
            if len(next_piece) + len(word) > width:
                pieces.append(next_piece.rstrip())
                next_piece = "  " + word
            else:
                next_piece += word
        if next_piece:
            pieces.append(next_piece)
    return pieces


def _render_rows(rows: list[tuple[str, str]], overall_width: int, separator_width: int) -> str:
    def widths(table: list[tuple[str, str]]) -> tuple[int, int]:
        widest_option = max((len(o) for o, _ in table), default=0)
        widest_description = max((len(d) for _, d in table), default=0)
        option_width = min((overall_width - separator_width) // 2, widest_option)
        description_width = min(overall_width - option_width - separator_width, widest_description)
        return option_width, description_width

    option_width, description_width = widths(rows)
    fitted: list[tuple[str, str]] = []
    for option, description in rows:
        options = _pieces_of(option, option_width)
        descriptions = _pieces_of(description, description_width)
        for i in range(max(len(options), len(descriptions))):
            fitted.append((options[i] if i < len(options) else "", descriptions[i] if i < len(descriptions) else ""))
    option_width, description_width = widths(fitted)
    lines = []
    for option, description in fitted:
        lines.append(option.ljust(option_width) + " " * separator_width + description.ljust(description_width) + "\n")
    return "".join(lines)


# -- CommandDefaultOptions -----------------------------------------------------------------------------------


class CommandDefaultOptions:
    """The base of a tool's options: the parser, `--help` and `--version`, and the parsed OptionSet."""

    def __init__(self, args: Sequence[str]) -> None:
        self.args = list(args)
        self.parser = OptionParser()
        self.help_opt = self.parser.accepts("help", "Print usage information.").for_help()
        self.version_opt = self.parser.accepts("version", "Display Kafka version.").for_help()
        self.options = OptionSet()


# -- CommandLineUtils ----------------------------------------------------------------------------------------


def is_print_help_needed(command_opts: CommandDefaultOptions) -> bool:
    """No arguments at all, or `--help`."""
    return len(command_opts.args) == 0 or command_opts.options.has(command_opts.help_opt)


def is_print_version_needed(command_opts: CommandDefaultOptions) -> bool:
    return command_opts.options.has(command_opts.version_opt)


def print_version_if_needed(command_opts: CommandDefaultOptions, out: TextIO) -> bool:
    """CommandLineUtils.printVersionAndDieIfNeeded: with `--version`, prints the version on `out` and says so
    (the tool then ends with status 0, where Kafka calls Exit.exit(0))."""
    if not is_print_version_needed(command_opts):
        return False
    print(get_version(), file=out)
    return True


def print_usage_and_die(parser: OptionParser, message: str) -> Any:
    """Ends the tool: the entry point prints `message` and the help on stderr and returns 1."""
    raise UsageException(parser, message)


def check_required_args(parser: OptionParser, options: OptionSet, *required: OptionSpec) -> None:
    for arg in required:
        if not options.has(arg):
            print_usage_and_die(parser, f'Missing required argument "{arg}"')


def check_invalid_args(
    parser: OptionParser, options: OptionSet, used_option: OptionSpec, invalid_options: Iterable[OptionSpec]
) -> None:
    if options.has(used_option):
        for arg in invalid_options:
            if options.has(arg):
                print_usage_and_die(parser, f'Option "{used_option}" can\'t be used with option "{arg}"')


# -- Added for the console and performance tools ------------------------------------------------------------


class MissingRequiredOptionsException(OptionException):
    """An option made required (or required unless another is given) is absent (jopt-simple's exception)."""

    def __init__(self, specs: Sequence[OptionSpec]) -> None:
        names = ", ".join(dict.fromkeys(s.name for s in specs))
        super().__init__(f"Missing required option(s) [{names}]")


def ensure_required_unless(options: OptionSet, required: OptionSpec, *unless: OptionSpec) -> None:
    """jopt-simple's `requiredUnless`, checked right after parsing: `required` must be on the command line
    unless one of `unless` is, or a help option is. Raises MissingRequiredOptionsException, which the tools
    report as the parse failure it is in Kafka."""
    if options.has(required) or any(options.has(o) for o in unless):
        return
    if any(s.for_help_spec and options.has(s) for s in options._detected):
        return
    raise MissingRequiredOptionsException([required])


def parse_key_value_args(args: Iterable[str], accept_missing_value: bool = True) -> dict[str, str]:
    """CommandLineUtils.parseKeyValueArgs: `key=value` arguments as properties. The value is what follows
    the first '='; a key without a value (`key` or `key=`) maps to "" when `accept_missing_value`, and is
    otherwise refused with IllegalArgumentException's message `Missing value for key ...` (a ValueError)."""
    props: dict[str, str] = {}
    for arg in args:
        key, _, value = arg.partition("=")
        if not value:
            if not accept_missing_value:
                raise ValueError(f"Missing value for key {key}")
            props[key] = ""
        else:
            props[key] = value
    return props


def maybe_merge_options(props: dict[str, str], key: str, options: OptionSet, spec: OptionSpec) -> None:
    """CommandLineUtils.maybeMergeOptions: the option's value (given or default) goes into `props` under `key`
    when the option is on the command line or `props` has no such key; a value-less option removes the key."""
    if options.has(spec) or key not in props:
        value = options.value_of(spec)
        if value is None:
            props.pop(key, None)
        else:
            props[key] = str(value)


def check_invalid_args_set(
    parser: OptionParser,
    options: OptionSet,
    used_options: Sequence[OptionSpec],
    invalid_options: Iterable[OptionSpec],
    trailing_additional_message: str = "",
) -> None:
    """When every option of `used_options` is present, none of `invalid_options` may be."""
    if all(options.has(o) for o in used_options):
        for arg in invalid_options:
            if options.has(arg):
                used = ",".join(str(o) for o in used_options)
                message = f'Option combination "{used}" can\'t be used with option "{arg}"'
                print_usage_and_die(parser, message + trailing_additional_message)
