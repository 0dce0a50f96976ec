#!/usr/bin/env bash
# Adds, removes and lists ACLs, through the brokers or straight in ZooKeeper:
#   kafka-acls.sh --bootstrap-server HOST:PORT --add --allow-principal User:alice --operation Read --topic T
#   kafka-acls.sh --authorizer-properties zookeeper.connect=HOST:PORT --list
exec "$(dirname "$0")/kafka-run-class.sh" kafka.admin.AclCommand "$@"
