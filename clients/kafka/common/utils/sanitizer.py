"""Port of clients/src/main/java/org/apache/kafka/common/utils/Sanitizer.java (Kafka 3.7).

User principals and client ids become ZooKeeper node names (and metric tags) in an encoded form: Java's
URLEncoder (UTF-8; letters, digits and `.-_*` kept, space as `+`), then `*` as `%2A` and `+` as `%20`.

`jmx_sanitize` quotes a metric tag value as an MBean name needs it (the broker's Yammer metric names keep that form).
"""

from __future__ import annotations

import re
from urllib.parse import quote, unquote_plus

__all__ = ["desanitize", "jmx_sanitize", "sanitize"]

_MBEAN_PATTERN = re.compile(r"[A-Za-z0-9_\-%. \t]*")


def sanitize(name: str) -> str:
    """The encoded form of `name` (`user 1*` -> `user%201%2A`)."""
    # URLEncoder's output with `*` and `+` (a space) replaced is exactly percent-encoding with only `.-_` left
    # as they are; Python's quote never encodes `~`, which URLEncoder does.
    return quote(name, safe="-_.").replace("~", "%7E")


def desanitize(name: str) -> str:
    """The name of an encoded form, decoding as Java's URLDecoder (`+` is a space)."""
    return unquote_plus(name)


def jmx_sanitize(name: str) -> str:
    """`name` as is when it holds only word characters, `-%.`, space and tab; else quoted as Java's
    ObjectName.quote does (in double quotes, with `\\ " * ?` escaped by a backslash and a newline as `\\n`)."""
    if _MBEAN_PATTERN.fullmatch(name):
        return name
    out = ['"']
    for c in name:
        if c == "\n":
            out.append("\\n")
        elif c in '\\"*?':
            out.append("\\" + c)
        else:
            out.append(c)
    out.append('"')
    return "".join(out)
