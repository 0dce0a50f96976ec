#!/usr/bin/env bash
# Lists, describes and aborts transactions, describes active producers and finds hanging transactions:
#   kafka-transactions.sh --bootstrap-server HOST:PORT list | describe | describe-producers | abort | find-hanging ...
exec "$(dirname "$0")/kafka-run-class.sh" kafka.tools.TransactionsCommand "$@"
