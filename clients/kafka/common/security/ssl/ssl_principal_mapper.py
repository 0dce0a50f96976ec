"""Port of clients/src/main/java/org/apache/kafka/common/security/ssl/SslPrincipalMapper.java (Kafka 3.7).

`ssl.principal.mapping.rules`: a comma-separated list of rules tried in order on a certificate's distinguished name
(RFC 2253, as `CN=alice,OU=eng,O=corp`), the first that matches giving the principal's name. `DEFAULT` keeps the
name whole; `RULE:pattern/replacement/` replaces a name that matches `pattern` whole (Java regular expressions,
`$1` back references), with an optional `L` or `U` after the last slash to lower- or upper-case the result.
"""

from __future__ import annotations

import re

__all__ = ["NoMatchingRule", "SslPrincipalMapper"]

DEFAULT_SSL_PRINCIPAL_MAPPING_RULES = "DEFAULT"

_RULE_PATTERN = r"(DEFAULT)|RULE:((\\.|[^\\/])*)/((\\.|[^\\/])*)/([LU]?).*?|(.*?)"
_RULE_SPLITTER = re.compile(r"\s*(" + _RULE_PATTERN + r")\s*(,\s*|$)")
_RULE_PARSER = re.compile(_RULE_PATTERN)
_BACK_REFERENCE = re.compile(r"\$(\d+)")


class NoMatchingRule(OSError):
    """No rule gives a name for the distinguished name (Java's IOException subclass)."""


def _java_pattern(pattern: str) -> str:
    """A Java regular expression in Python's syntax (named groups `(?<name>` are Java's only difference that a
    mapping rule is likely to use)."""
    return re.sub(r"\(\?<([A-Za-z][A-Za-z0-9]*)>", r"(?P<\1>", pattern)


class _Rule:
    __slots__ = ("is_default", "pattern", "replacement", "to_lower_case", "to_upper_case")

    def __init__(
        self,
        pattern: str | None = None,
        replacement: str | None = None,
        to_lower_case: bool = False,
        to_upper_case: bool = False,
        is_default: bool = False,
    ) -> None:
        self.is_default = is_default
        self.pattern = None if pattern is None else re.compile(_java_pattern(pattern))
        self.replacement = replacement
        self.to_lower_case = to_lower_case
        self.to_upper_case = to_upper_case

    def apply(self, distinguished_name: str) -> str | None:
        if self.is_default:
            return distinguished_name
        assert self.pattern is not None and self.replacement is not None
        result = None
        if self.pattern.fullmatch(distinguished_name):
            replacement = self._escape_literal_back_references(self.replacement, self.pattern.groups)
            result = self.pattern.sub(lambda m: _java_expand(m, replacement), distinguished_name)
        if self.to_lower_case and result is not None:
            result = result.lower()
        elif self.to_upper_case and result is not None:
            result = result.upper()
        return result

    @staticmethod
    def _escape_literal_back_references(unescaped: str, num_capturing_groups: int) -> str:
        """A `$n` naming no group of the pattern is a literal (`$4` with three groups), as Kafka treats it; `$123`
        with twelve groups is group 12 then `3`."""
        if num_capturing_groups == 0:
            return unescaped
        value = unescaped
        for m in list(_BACK_REFERENCE.finditer(value))[::-1]:
            number = m.group(1)
            if number.startswith("0"):
                continue
            index = int(number)
            while index > num_capturing_groups and index >= 10:
                index //= 10
            if index > num_capturing_groups:
                start = m.start(1)
                value = value[: start - 1] + "\\" + value[start - 1 :]
        return value

    def __str__(self) -> str:
        if self.is_default:
            return "DEFAULT"
        buf = "RULE:"
        if self.pattern is not None:
            buf += self.pattern.pattern
        if self.replacement is not None:
            buf += "/" + self.replacement
        if self.to_lower_case:
            buf += "/L"
        elif self.to_upper_case:
            buf += "/U"
        return buf

    __repr__ = __str__


def _java_expand(match: re.Match[str], replacement: str) -> str:
    """Java's Matcher.appendReplacement: `\\x` is a literal x, `$n` the longest group number that exists."""
    out: list[str] = []
    i = 0
    n = len(replacement)
    groups = match.re.groups
    while i < n:
        c = replacement[i]
        if c == "\\" and i + 1 < n:
            out.append(replacement[i + 1])
            i += 2
        elif c == "$" and i + 1 < n and replacement[i + 1].isdigit():
            j = i + 2
            number = int(replacement[i + 1])
            while j < n and replacement[j].isdigit() and number * 10 + int(replacement[j]) <= groups:
                number = number * 10 + int(replacement[j])
                j += 1
            if number > groups:
                raise IndexError(f"No group {number}")
            out.append(match.group(number) or "")
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


class SslPrincipalMapper:
    def __init__(self, ssl_principal_mapping_rules: str | None) -> None:
        self._rules = self._parse_rules(self._split_rules(ssl_principal_mapping_rules))

    @staticmethod
    def from_rules(ssl_principal_mapping_rules: str | None) -> SslPrincipalMapper:
        return SslPrincipalMapper(ssl_principal_mapping_rules)

    @staticmethod
    def _split_rules(rules: str | None) -> list[str]:
        if rules is None:
            rules = DEFAULT_SSL_PRINCIPAL_MAPPING_RULES
        result = []
        text = rules.strip()
        pos = 0
        while pos <= len(text):
            m = _RULE_SPLITTER.search(text, pos)
            if m is None:
                break
            result.append(m.group(1))
            if m.end() == pos and m.end() == len(text):
                break
            pos = m.end() if m.end() > pos else pos + 1
        return result

    @staticmethod
    def _parse_rules(rules: list[str]) -> list[_Rule]:
        result = []
        for rule in rules:
            m = _RULE_PARSER.match(rule)
            if m is None:
                raise ValueError(f"Invalid rule: {rule}")
            if len(rule) != m.end():
                raise ValueError(f"Invalid rule: `{rule}`, unmatched substring: `{rule[m.end() :]}`")
            if m.group(1) is not None:
                result.append(_Rule(is_default=True))
            elif m.group(2) is not None:
                result.append(_Rule(m.group(2), m.group(4), m.group(6) == "L", m.group(6) == "U"))
            # empty rules are ignored
        return result

    def get_name(self, distinguished_name: str) -> str:
        for rule in self._rules:
            name = rule.apply(distinguished_name)
            if name is not None:
                return name
        raise NoMatchingRule(f"No rules apply to {distinguished_name}, rules {self._rules}")

    def __str__(self) -> str:
        return f"SslPrincipalMapper(rules = {self._rules})"
