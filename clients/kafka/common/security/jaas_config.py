"""Port of clients/src/main/java/org/apache/kafka/common/security/JaasConfig.java (Kafka 3.7), with the JAAS file
grammar of the JDK's ConfigFile.

JAAS text: a `sasl.jaas.config` value is one or more login module entries
(`<LoginModule class> <required|requisite|sufficient|optional> [key=value ...];`, values bare or double-quoted);
a JAAS file holds named contexts (`KafkaServer { <entries> };`). `//` and `/* */` comments are skipped. Malformed
text is a ValueError naming what was expected.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

__all__ = ["AppConfigurationEntry", "JaasConfig", "LoginModuleControlFlag", "parse_jaas_file"]


class LoginModuleControlFlag(enum.Enum):
    REQUIRED = "required"
    REQUISITE = "requisite"
    SUFFICIENT = "sufficient"
    OPTIONAL = "optional"


@dataclass(frozen=True, slots=True)
class AppConfigurationEntry:
    """One login module and its options (the options hold secrets: never printed)."""

    login_module_name: str
    control_flag: LoginModuleControlFlag
    options: dict[str, str] = field(repr=False)


class _Tokenizer:
    """Words, quoted strings and the punctuation `{ } ; =` of JAAS text, comments dropped."""

    _PUNCT = "{};="

    def __init__(self, text: str) -> None:
        self._tokens: list[tuple[str, bool]] = []  # (token, quoted)
        i, n = 0, len(text)
        while i < n:
            c = text[i]
            if c.isspace():
                i += 1
            elif text.startswith("//", i) or c == "#":
                j = text.find("\n", i)
                i = n if j < 0 else j + 1
            elif text.startswith("/*", i):
                j = text.find("*/", i + 2)
                if j < 0:
                    raise ValueError("Unterminated comment in JAAS configuration")
                i = j + 2
            elif c == '"':
                out = []
                i += 1
                while i < n and text[i] != '"':
                    if text[i] == "\\" and i + 1 < n:
                        i += 1
                    out.append(text[i])
                    i += 1
                if i >= n:
                    raise ValueError("Unterminated quoted value in JAAS configuration")
                self._tokens.append(("".join(out), True))
                i += 1
            elif c in self._PUNCT:
                self._tokens.append((c, False))
                i += 1
            else:
                j = i
                while j < n and not text[j].isspace() and text[j] not in self._PUNCT and text[j] != '"':
                    j += 1
                self._tokens.append((text[i:j], False))
                i = j
        self._pos = 0

    def peek(self) -> tuple[str, bool] | None:
        return self._tokens[self._pos] if self._pos < len(self._tokens) else None

    def next(self, what: str) -> tuple[str, bool]:
        token = self.peek()
        if token is None:
            raise ValueError(f"Unexpected end of JAAS configuration, expected {what}")
        self._pos += 1
        return token

    def expect(self, punct: str) -> None:
        token, quoted = self.next(f"'{punct}'")
        if quoted or token != punct:
            raise ValueError(f"Invalid JAAS configuration: expected '{punct}', found '{token}'")


def _parse_entries(tokens: _Tokenizer, until: str | None) -> list[AppConfigurationEntry]:
    entries: list[AppConfigurationEntry] = []
    while True:
        token = tokens.peek()
        if token is None or (until is not None and token == (until, False)):
            return entries
        module, quoted = tokens.next("a login module class name")
        if quoted or module in _Tokenizer._PUNCT:
            raise ValueError(f"Invalid JAAS configuration: expected a login module class name, found '{module}'")
        flag_text, _ = tokens.next("a login module control flag")
        try:
            flag = LoginModuleControlFlag(flag_text.lower())
        except ValueError:
            raise ValueError(f"Invalid JAAS configuration: invalid control flag '{flag_text}'") from None
        options: dict[str, str] = {}
        while True:
            key, key_quoted = tokens.next("';' or an option")
            if key == ";" and not key_quoted:
                break
            tokens.expect("=")
            value, _ = tokens.next(f"the value of option '{key}'")
            options[key] = value
        entries.append(AppConfigurationEntry(module, flag, options))


class JaasConfig:
    """The login modules of one `sasl.jaas.config` value, under the context name `login_context_name`."""

    __slots__ = ("_login_context_name", "_entries")

    def __init__(self, login_context_name: str, jaas_config_params: str) -> None:
        entries = _parse_entries(_Tokenizer(jaas_config_params), None)
        if not entries:
            raise ValueError("JAAS config property does not contain any login modules")
        self._login_context_name = login_context_name
        self._entries = entries

    def get_app_configuration_entry(self, name: str) -> list[AppConfigurationEntry] | None:
        return list(self._entries) if name == self._login_context_name else None


def parse_jaas_file(text: str) -> dict[str, list[AppConfigurationEntry]]:
    """The contexts of a JAAS file by name."""
    tokens = _Tokenizer(text)
    contexts: dict[str, list[AppConfigurationEntry]] = {}
    while tokens.peek() is not None:
        name, _ = tokens.next("a login context name")
        tokens.expect("{")
        contexts[name] = _parse_entries(tokens, "}")
        tokens.expect("}")
        tokens.expect(";")
    return contexts
