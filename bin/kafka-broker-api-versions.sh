#!/usr/bin/env bash
# Prints the API versions every broker of the cluster supports:
#   kafka-broker-api-versions.sh --bootstrap-server HOST:PORT
exec "$(dirname "$0")/kafka-run-class.sh" kafka.admin.BrokerApiVersionsCommand "$@"
