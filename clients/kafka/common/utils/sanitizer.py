"""Port of clients/src/main/java/org/apache/kafka/common/utils/Sanitizer.java (Kafka 3.7).

User principals and client ids become ZooKeeper node names (and metric tags) in an encoded form: Java's
URLEncoder (UTF-8; letters, digits and `.-_*` kept, space as `+`), then `*` as `%2A` and `+` as `%20`.

# PORT: jmxSanitize is left out: there is no JMX here.
"""

from __future__ import annotations

from urllib.parse import quote, unquote_plus

__all__ = ["desanitize", "sanitize"]


def sanitize(name: str) -> str:
    """The encoded form of `name` (`user 1*` -> `user%201%2A`)."""
    # URLEncoder's output with `*` and `+` (a space) replaced is exactly percent-encoding with only `.-_` left
    # as they are; Python's quote never encodes `~`, which URLEncoder does.
    return quote(name, safe="-_.").replace("~", "%7E")


def desanitize(name: str) -> str:
    """The name of an encoded form, decoding as Java's URLDecoder (`+` is a space)."""
    return unquote_plus(name)
