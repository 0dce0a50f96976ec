"""Port of core/src/main/scala/kafka/Kafka.scala (Kafka 2.8).

The broker's entry point: `kafka-server-start.sh config/server.properties [--override k=v]...` runs
`main`, which loads the properties, builds a KafkaServer, starts it and waits for it to stop.
SIGTERM and SIGINT shut it down cleanly (exit 0); a start-up failure logs a fatal line and exits 1.

# PORT: Java's shutdown hook runs on a JVM thread named `kafka-shutdown-hook`; here the signal handler
starts a thread of that name that calls `shutdown()`, and `main` returns when the server has stopped.
"""

from __future__ import annotations

import argparse
import gc
import os
import signal
import sys
import threading
from types import FrameType
from typing import Any

from kafka.common.utils.app_info_parser import get_version
from kafka.common.utils.utils import load_props
from kafka.utils.command_line_utils import parse_key_value_args
from kafka.utils.logging import Logging, configure_logging

USAGE = "USAGE: kafka-server-start.sh [-daemon] server.properties [--override property=value]*"


class Kafka(Logging):
    logger_name = "kafka.Kafka"

    @staticmethod
    def get_props_from_args(args: list[str]) -> dict[str, str]:
        """The properties of the file named first, with every `--override k=v` applied on top."""
        if not args or "--help" in args:
            raise _UsageError(USAGE)
        if "--version" in args:
            raise _VersionRequested()
        props = load_props(args[0])
        if len(args) > 1:
            parser = argparse.ArgumentParser(prog="kafka-server-start.sh", add_help=False, exit_on_error=False)
            parser.add_argument("--override", action="append", default=[])
            try:
                options, extra = parser.parse_known_args(args[1:])
            except argparse.ArgumentError as e:
                raise _UsageError(f"{e}\n{USAGE}") from e
            if extra:
                raise _UsageError(f"Found non argument parameters: {','.join(extra)}\n{USAGE}")
            # PORT: an override that is not `key=value` (no '=', or no key) is refused, where Kafka's
            # parseKeyValueArgs would set the key to "".
            for override in options.override:
                key, sep, _ = override.partition("=")
                if not sep or not key:
                    raise _UsageError(f"Invalid command line properties: {override}\n{USAGE}")
            props.update(parse_key_value_args(options.override))
        return props

    @staticmethod
    def build_server(props: dict[str, str]) -> Any:
        from kafka.server.kafka_config import KafkaConfig
        from kafka.server.kafka_server import KafkaServer

        config = KafkaConfig.from_props(props)
        return KafkaServer(config)

    def main(self, args: list[str]) -> int:
        threading.current_thread().name = "main"  # the JVM's name for it, which a `%t` in a log4j pattern shows
        configure_logging()
        try:
            props = self.get_props_from_args(args)
        except _UsageError as e:
            print(str(e), file=sys.stderr)
            return 1
        except _VersionRequested:
            print(get_version())
            return 0
        except OSError as e:
            self.fatal(f"Exiting Kafka due to fatal exception: {e}")
            return 1
        # PORT: no cyclic garbage collection while the broker is built and started: the collections would scan the
        # start-up's imports and objects (some 200,000) again and again, for tens of ms, and find next to nothing.
        gc_was_enabled = gc.isenabled()
        gc.disable()
        try:
            server = self.build_server(props)
        except Exception as e:
            if gc_was_enabled:
                gc.enable()
            self.fatal(f"Exiting Kafka due to fatal exception: {e}", e)
            return 1

        hook_done = threading.Event()

        def shutdown_hook() -> None:
            try:
                server.shutdown()
            except BaseException as e:
                self.fatal("Halting Kafka.", e)
                os._exit(1)
            finally:
                hook_done.set()

        def on_signal(signum: int, frame: FrameType | None) -> None:
            self.info(f"Terminating process due to signal {signal.Signals(signum).name}")
            if not any(t.name == "kafka-shutdown-hook" for t in threading.enumerate()) and not hook_done.is_set():
                threading.Thread(target=shutdown_hook, name="kafka-shutdown-hook", daemon=False).start()

        signal.signal(signal.SIGTERM, on_signal)
        signal.signal(signal.SIGINT, on_signal)

        try:
            server.startup()
        except BaseException:
            self.fatal("Exiting Kafka.")
            return 1
        finally:
            if gc_was_enabled:
                # PORT: what start-up built lives as long as the broker: collected once, then frozen out of the
                # collector's view, so that no later full collection walks it again (one took 77 ms, all threads
                # stopped, in a broker serving acks=all produce requests: a latency spike of that size).
                gc.collect()
                gc.freeze()
                gc.enable()
        server.await_shutdown()
        for t in threading.enumerate():
            if t.name == "kafka-shutdown-hook":
                t.join()
        return 0


class _UsageError(Exception):
    pass


class _VersionRequested(Exception):
    pass


def main(argv: list[str] | None = None) -> int:
    return Kafka().main(sys.argv[1:] if argv is None else argv)


if __name__ == "__main__":
    sys.exit(main())
