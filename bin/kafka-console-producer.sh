#!/usr/bin/env bash
# Reads lines from standard input and sends each as a record:
#   kafka-console-producer.sh --bootstrap-server HOST:PORT --topic TOPIC [--property parse.key=true] ...
exec "$(dirname "$0")/kafka-run-class.sh" kafka.tools.ConsoleProducer "$@"
