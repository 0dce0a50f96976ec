"""Port of core/src/main/scala/kafka/utils/TopicFilter.scala (Kafka 2.8).

How the tools take a topic regular expression (`--topic 'foo.*,bar'`): commas mean "or", spaces and
surrounding quotes are dropped, and the expression must match a whole topic name.
"""

from __future__ import annotations

import logging
import re

from kafka.common.internals.topic import Topic

__all__ = ["IncludeList", "TopicFilter"]


class TopicFilter:
    """A topic regular expression as the tools write it, cleaned up and checked."""

    def __init__(self, raw_regex: str) -> None:
        regex = raw_regex.strip().replace(",", "|").replace(" ", "")
        regex = re.sub(r"""^["']+""", "", regex)
        regex = re.sub(r"""["']+$""", "", regex)
        self.regex = regex
        try:
            self._pattern = re.compile(regex)
        except re.error:
            raise RuntimeError(f"{regex} is an invalid regex.") from None

    def __str__(self) -> str:
        return self.regex


class IncludeList(TopicFilter):
    """The topics whose whole name matches, optionally leaving out the internal topics."""

    _logger = logging.getLogger("kafka.utils.IncludeList")

    def is_topic_allowed(self, topic: str, exclude_internal_topics: bool) -> bool:
        allowed = self._pattern.fullmatch(topic) is not None and not (
            Topic.is_internal(topic) and exclude_internal_topics
        )
        self._logger.debug("%s %s", topic, "allowed" if allowed else "filtered")
        return allowed
