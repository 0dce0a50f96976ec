#!/usr/bin/env bash
# Starts a ZooKeeper server, as Kafka's bin/zookeeper-server-start.sh does:
#   zookeeper-server-start.sh [-daemon] config/zookeeper.properties
# The server is Debian's `zookeeper` package (3.8): its QuorumPeerMain runs on Java with the package's jars.
# In the foreground the server logs to the console; with -daemon it runs in the background under nohup and its
# console output goes to $LOG_DIR/zookeeper.out (and GC logs to $LOG_DIR/zookeeper-gc.log), LOG_DIR defaulting to
# logs/ in the checkout.
#
# The environment variables of Kafka's kafka-run-class.sh are honoured: JAVA_HOME, KAFKA_HEAP_OPTS,
# KAFKA_JVM_PERFORMANCE_OPTS, KAFKA_GC_LOG_OPTS, KAFKA_JMX_OPTS, JMX_PORT, KAFKA_LOG4J_OPTS, KAFKA_OPTS, LOG_DIR,
# CLASSPATH (prepended). ZOOKEEPER_JAR_DIR overrides where the jars are looked for (default /usr/share/java).
set -euo pipefail

usage() {
  echo "USAGE: $0 [-daemon] zookeeper.properties" >&2
  exit 1
}

[ $# -ge 1 ] || usage
base_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

daemon_mode=false
if [ "$1" = "-daemon" ]; then
  daemon_mode=true
  shift
fi
[ $# -ge 1 ] || usage

if [ -n "${JAVA_HOME:-}" ]; then
  java_bin="$JAVA_HOME/bin/java"
else
  java_bin=java
fi

# Debian's zookeeper.jar lists its dependencies (netty, jute, jackson, metrics, slf4j-api, ...) in the Class-Path
# of its manifest. The logging backend is not among them: slf4j is bound to log4j 1.2, as the package's own
# zkServer.sh does.
jar_dir=${ZOOKEEPER_JAR_DIR:-/usr/share/java}
zk_classpath=""
for jar in zookeeper.jar slf4j-log4j12.jar log4j-1.2.jar; do
  if [ ! -f "$jar_dir/$jar" ]; then
    echo "$0: $jar_dir/$jar not found: install Debian's zookeeper package (make install)" >&2
    exit 1
  fi
  zk_classpath="$zk_classpath${zk_classpath:+:}$jar_dir/$jar"
done
zk_classpath="${CLASSPATH:+$CLASSPATH:}$zk_classpath"

LOG_DIR=${LOG_DIR:-$base_dir/logs}
mkdir -p "$LOG_DIR"

heap_opts=${KAFKA_HEAP_OPTS:--Xmx512M -Xms512M}
jvm_performance_opts=${KAFKA_JVM_PERFORMANCE_OPTS:--server -XX:+UseG1GC -XX:MaxGCPauseMillis=20 \
-XX:InitiatingHeapOccupancyPercent=35 -XX:+ExplicitGCInvokesConcurrent -XX:MaxInlineLevel=15 -Djava.awt.headless=true}
jmx_opts=${KAFKA_JMX_OPTS:-}
if [ -n "${JMX_PORT:-}" ]; then
  jmx_opts="${jmx_opts:--Dcom.sun.management.jmxremote -Dcom.sun.management.jmxremote.authenticate=false \
-Dcom.sun.management.jmxremote.ssl=false} -Dcom.sun.management.jmxremote.port=$JMX_PORT"
fi
gc_log_opts=${KAFKA_GC_LOG_OPTS:-}
if $daemon_mode && [ -z "$gc_log_opts" ]; then
  gc_log_opts="-Xlog:gc*:file=$LOG_DIR/zookeeper-gc.log:time,tags:filecount=10,filesize=100M"
fi

# Logging: Kafka points log4j at config/log4j.properties. Without that file (or KAFKA_LOG4J_OPTS), log4j gets a
# console appender with Kafka's layout, read from a pipe on file descriptor 3 so that nothing is written to disk.
log4j_opts=${KAFKA_LOG4J_OPTS:-}
use_builtin_log4j=false
if [ -z "$log4j_opts" ]; then
  if [ -f "$base_dir/config/log4j.properties" ]; then
    log4j_opts="-Dlog4j.configuration=file:$base_dir/config/log4j.properties"
  else
    use_builtin_log4j=true
    log4j_opts="-Dlog4j.configuration=file:/dev/fd/3"
  fi
fi
log4j_opts="-Dkafka.logs.dir=$LOG_DIR -Dzookeeper.log.dir=$LOG_DIR $log4j_opts"

builtin_log4j_properties() {
  printf '%s\n' \
    'log4j.rootLogger=INFO, stdout' \
    'log4j.appender.stdout=org.apache.log4j.ConsoleAppender' \
    'log4j.appender.stdout.layout=org.apache.log4j.PatternLayout' \
    'log4j.appender.stdout.layout.ConversionPattern=[%d] %p %m (%c)%n'
}

# Word splitting of the option variables is intended, as in Kafka's script.
# shellcheck disable=SC2086
command=("$java_bin" $heap_opts $jvm_performance_opts $gc_log_opts $jmx_opts $log4j_opts -cp "$zk_classpath"
  ${KAFKA_OPTS:-} org.apache.zookeeper.server.quorum.QuorumPeerMain "$@")

if $daemon_mode; then
  console_output_file="$LOG_DIR/zookeeper.out"
  if $use_builtin_log4j; then
    nohup "${command[@]}" > "$console_output_file" 2>&1 < /dev/null 3< <(builtin_log4j_properties) &
  else
    nohup "${command[@]}" > "$console_output_file" 2>&1 < /dev/null &
  fi
else
  if $use_builtin_log4j; then
    exec "${command[@]}" 3< <(builtin_log4j_properties)
  else
    exec "${command[@]}"
  fi
fi
