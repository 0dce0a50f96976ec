#!/usr/bin/env bash
# Describes and alters the dynamic configs of topics, brokers, broker loggers, clients, users and IPs:
#   kafka-configs.sh --bootstrap-server HOST:PORT --describe | --alter --entity-type T (--entity-name N | --entity-default) ...
exec "$(dirname "$0")/kafka-run-class.sh" kafka.admin.ConfigCommand "$@"
