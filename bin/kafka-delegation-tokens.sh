#!/usr/bin/env bash
# Creates, renews, expires and describes delegation tokens (over an authenticated listener, hence --command-config):
#   kafka-delegation-tokens.sh --bootstrap-server HOST:PORT --command-config client.properties --create \
#       --max-life-time-period -1 --renewer-principal User:bob
#   kafka-delegation-tokens.sh --bootstrap-server HOST:PORT --command-config client.properties --describe
exec "$(dirname "$0")/kafka-run-class.sh" kafka.admin.DelegationTokenCommand "$@"
