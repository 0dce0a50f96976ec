#!/usr/bin/env bash
# Consumes a topic (or the topics a pattern matches, or one partition from an offset) to standard output:
#   kafka-console-consumer.sh --bootstrap-server HOST:PORT --topic TOPIC [--from-beginning] [--group G] ...
exec "$(dirname "$0")/kafka-run-class.sh" kafka.tools.ConsoleConsumer "$@"
