"""A stand-in for net.sourceforge.argparse4j, the parser of Kafka's Java tools (ProducerPerformance).

# PORT: not a port of a Kafka file. argparse4j is itself a port of Python's argparse, so its stand-in is argparse
with argparse4j's differences: its exception (ArgumentParserException) instead of an exit on a bad command line,
its messages (`argument --x is required`, `could not convert 'abc' to Long (For input string: "abc")`), the
defaults shown in the help as `defaultHelp(true)` shows them, and `handleError`'s usage-then-message output.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from typing import Any, NoReturn, TextIO

__all__ = [
    "ArgumentParser",
    "ArgumentParserException",
    "ArgumentParserExit",
    "HelpFormatter",
    "java_integer",
    "java_long",
    "java_short",
]


class ArgumentParserException(Exception):
    """argparse4j's exception: a command line the parser refuses, or a check of the tool."""


class ArgumentParserExit(Exception):
    """The parser ended the tool (after `--help`): the status it ends with."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


_JAVA_INTEGER = re.compile(r"[+-]?[0-9]+")


def _java_number(kind: str, low: int, high: int) -> Callable[[str], int]:
    def convert(text: str) -> int:
        value = int(text) if _JAVA_INTEGER.fullmatch(text) else None
        if value is None or not low <= value <= high:
            raise argparse.ArgumentTypeError(f"could not convert '{text}' to {kind} (For input string: \"{text}\")")
        return value

    convert.__name__ = kind
    return convert


java_long = _java_number("Long", -(2**63), 2**63 - 1)
"""Arguments.type(Long.class): a 64-bit integer, refused with argparse4j's message otherwise."""
java_integer = _java_number("Integer", -(2**31), 2**31 - 1)
"""Arguments.type(Integer.class): a 32-bit integer, refused with argparse4j's message otherwise."""
java_short = _java_number("Short", -(2**15), 2**15 - 1)
"""Arguments.type(Short.class): a 16-bit integer, refused with argparse4j's message otherwise."""


class HelpFormatter(argparse.HelpFormatter):
    """argparse4j's help with defaultHelp(true): defaults shown as `(default: ...)`, booleans in lower case."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        help_text = action.help or ""
        if action.default is not argparse.SUPPRESS and action.default is not None and action.option_strings:
            if not isinstance(action, argparse._HelpAction):
                default = action.default
                shown = str(default).lower() if isinstance(default, bool) else str(default)
                help_text += f" (default: {shown.replace('%', '%%')})"
        return help_text


class ArgumentParser(argparse.ArgumentParser):
    """argparse4j's ArgumentParser: help on the tool's output, refusals raised as ArgumentParserException,
    and handle_error printing them as argparse4j does."""

    def __init__(self, out: TextIO, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._out = out

    def print_help(self, file: Any = None) -> None:
        super().print_help(file or self._out)

    def error(self, message: str) -> NoReturn:
        # argparse4j names the first missing option; argparse lists them all.
        prefix = "the following arguments are required: "
        if message.startswith(prefix):
            message = f"argument {message[len(prefix) :].split(', ')[0]} is required"
        raise ArgumentParserException(message)

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        if message:
            self._out.write(message)
        raise ArgumentParserExit(status)

    def handle_error(self, e: ArgumentParserException, err: TextIO) -> None:
        """argparse4j's handleError: the usage line, then `prog: error: message`, on stderr."""
        self.print_usage(err)
        err.write(f"{self.prog}: error: {e}\n")
