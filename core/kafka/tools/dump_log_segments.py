"""Port of core/src/main/scala/kafka/tools/DumpLogSegments.scala (Kafka 2.8).

`kafka-dump-log.sh --files 00000000000000000000.log[,...]`: prints the batches (and with
`--deep-iteration` the records, with `--print-data-log` their keys and values) of segment files, the
entries of `.index`, `.timeindex` and `.txnindex` files, and the producer entries of `.snapshot`
files, in the same line layout as Kafka's tool, so that scripts written for one read the other.
Index files are checked against their log file; mismatches are reported on stderr at the end.

# PORT: of the decoder options of Kafka's tool, `--transaction-log-decoder` is offered (records of
`__transaction_state` print as their transactional ids and states); `--key-decoder-class`,
`--value-decoder-class`, `--offsets-decoder` and `--cluster-metadata-decoder` are not: other keys and
values print as UTF-8 text, which is what Kafka's default StringDecoder does. An error
(a missing file, a corrupt index under `--index-sanity-check`) prints the exception's lines of the stack trace
the JVM prints (without frames) and exits with 1, as Kafka does.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

from kafka.common.record.abstract_legacy_record_batch import AbstractLegacyRecordBatch
from kafka.common.record.control_record_type import ControlRecordType
from kafka.common.record.end_transaction_marker import EndTransactionMarker
from kafka.common.record.file_log_input_stream import FileChannelRecordBatch
from kafka.common.record.file_records import FileRecords
from kafka.common.record.record import Record
from kafka.common.record.record_batch import MAGIC_VALUE_V2, NO_TIMESTAMP
from kafka.coordinator.transaction import transaction_log
from kafka.log.log_file_utils import (
    INDEX_FILE_SUFFIX,
    LOG_FILE_SUFFIX,
    PRODUCER_SNAPSHOT_FILE_SUFFIX,
    TIME_INDEX_FILE_SUFFIX,
    TXN_INDEX_FILE_SUFFIX,
    offset_from_file,
)
from kafka.log.offset_index import OffsetIndex
from kafka.log.time_index import TimeIndex
from kafka.log.transaction_index import TransactionIndex
from kafka.tools.tools_utils import print_exception, run_reporting_errors, tool_main
from kafka.utils.command_line_utils import (
    CommandDefaultOptions,
    Integer,
    check_required_args,
    is_print_help_needed,
    print_usage_and_die,
    print_version_if_needed,
)
from kafka.utils.core_utils import scala_option

# Printed before each record line.
RECORD_INDENT = "|"

_DESCRIPTION = (
    "This tool helps to parse a log file and dump its contents to the console, useful for debugging a seemingly "
    "corrupt log segment."
)
_DEFAULT_MAX_MESSAGE_SIZE = 5 * 1024 * 1024

# (index offset, log offset) pairs per file path, newest first as Kafka prepends to a List.
_Mismatches = dict[str, list[tuple[int, int]]]


def _bool(value: bool) -> str:
    """Scala prints booleans in lower case."""
    return "true" if value else "false"


class TimeIndexDumpErrors:
    """The problems found while checking time indexes against their logs, printed at the end."""

    def __init__(self) -> None:
        self.mis_matches_for_time_index_files_map: dict[str, list[tuple[int, int]]] = {}
        self.out_of_order_timestamp: dict[str, list[tuple[int, int]]] = {}
        self.shallow_offset_not_found: dict[str, list[tuple[int, int]]] = {}

    def record_mismatch_time_index(self, file: Path, index_timestamp: int, log_timestamp: int) -> None:
        self.mis_matches_for_time_index_files_map.setdefault(str(file.absolute()), []).append(
            (index_timestamp, log_timestamp)
        )

    def record_out_of_order_index_timestamp(self, file: Path, index_timestamp: int, prev_index_timestamp: int) -> None:
        self.out_of_order_timestamp.setdefault(str(file.absolute()), []).append((index_timestamp, prev_index_timestamp))

    def record_shallow_offset_not_found(self, file: Path, index_offset: int, log_offset: int) -> None:
        self.shallow_offset_not_found.setdefault(str(file.absolute()), []).append((index_offset, log_offset))

    def print_errors(self, err: TextIO) -> None:
        for file_name, mismatches in self.mis_matches_for_time_index_files_map.items():
            print(f"Found timestamp mismatch in :{file_name}", file=err)
            for index_ts, log_ts in mismatches:
                print(f"  Index timestamp: {index_ts}, log timestamp: {log_ts}", file=err)
        for file_name, out_of_order in self.out_of_order_timestamp.items():
            print(f"Found out of order timestamp in :{file_name}", file=err)
            for index_ts, prev_ts in out_of_order:
                print(f"  Index timestamp: {index_ts}, Previously indexed timestamp: {prev_ts}", file=err)
        for not_found in self.shallow_offset_not_found.values():
            print("The following indexed offsets are not found in the log.", file=err)
            for indexed_offset, log_offset in not_found:
                print(f"Indexed offset: {indexed_offset}, found log offset: {log_offset}", file=err)


def _sibling(file: Path, suffix: str) -> Path:
    """The file with the same base name and another suffix, in the same directory."""
    return file.absolute().parent / (file.name.split(".")[0] + suffix)


def dump_txn_index(file: Path, out: TextIO) -> None:
    """Print each aborted transaction of a `.txnindex` file."""
    index = TransactionIndex(offset_from_file(file), file)
    try:
        for txn in index.all_aborted_txns():
            print(
                f"version: {txn.version} producerId: {txn.producer_id} firstOffset: {txn.first_offset} "
                f"lastOffset: {txn.last_offset} lastStableOffset: {txn.last_stable_offset}",
                file=out,
            )
    finally:
        index.close()


def dump_producer_id_snapshot(file: Path, out: TextIO, err: TextIO) -> None:
    """Print each producer entry of a `.snapshot` file."""
    from kafka.log.producer_state_manager import CorruptSnapshotException, read_snapshot

    try:
        for entry in read_snapshot(file):
            line = (
                f"producerId: {entry.producer_id} producerEpoch: {entry.producer_epoch} "
                f"coordinatorEpoch: {entry.coordinator_epoch} "
                f"currentTxnFirstOffset: {scala_option(entry.current_txn_first_offset)} "
            )
            if entry.batch_metadata:
                metadata = entry.batch_metadata[0]
                line += (
                    f"firstSequence: {metadata.first_seq} lastSequence: {metadata.last_seq} "
                    f"lastOffset: {metadata.last_offset} offsetDelta: {metadata.offset_delta} "
                    f"timestamp: {metadata.timestamp}"
                )
            print(line, file=out)
    except CorruptSnapshotException as e:
        print(str(e), file=err)


def dump_index(
    file: Path,
    index_sanity_only: bool,
    verify_only: bool,
    mis_matches_for_index_files_map: _Mismatches,
    max_message_size: int,
    out: TextIO,
) -> None:
    """Print the entries of an offset index, checking each against the batch it points to."""
    start_offset = int(file.name.split(".")[0])
    file_records = FileRecords.open(_sibling(file, LOG_FILE_SUFFIX), mutable=False)
    try:
        index = OffsetIndex(file, base_offset=start_offset, writable=False)
        try:
            if index.entries == 0:
                print(f"{file} is empty.", file=out)
                return
            # The check the broker makes at startup to decide whether to rebuild the index.
            if index_sanity_only:
                index.sanity_check()
                print(f"{file} passed sanity check.", file=out)
                return
            for i in range(index.entries):
                entry = index.entry(i)
                # A crash can leave the preallocated tail of zeros: a repeat of the base offset ends the entries.
                if entry.offset == index.base_offset and i > 0:
                    return
                slice_ = file_records.slice(entry.position, max_message_size)
                first_batch = next(iter(slice_.batches()), None)
                first_batch_last_offset = -1 if first_batch is None else first_batch.last_offset()
                if first_batch_last_offset != entry.offset:
                    mis_matches_for_index_files_map.setdefault(str(file.absolute()), []).insert(
                        0, (entry.offset, first_batch_last_offset)
                    )
                if not verify_only:
                    print(f"offset: {entry.offset} position: {entry.position}", file=out)
        finally:
            index.close_handler()
    finally:
        file_records.close_handlers()


def dump_time_index(
    file: Path,
    index_sanity_only: bool,
    verify_only: bool,
    time_index_dump_errors: TimeIndexDumpErrors,
    max_message_size: int,
    out: TextIO,
) -> None:
    """Print the entries of a time index, checking each timestamp against the batch at its offset."""
    start_offset = int(file.name.split(".")[0])
    file_records = FileRecords.open(_sibling(file, LOG_FILE_SUFFIX), mutable=False)
    index: OffsetIndex | None = None
    time_index: TimeIndex | None = None
    try:
        index = OffsetIndex(_sibling(file, INDEX_FILE_SUFFIX), base_offset=start_offset, writable=False)
        time_index = TimeIndex(file, base_offset=start_offset, writable=False)
        if index_sanity_only:
            time_index.sanity_check()
            print(f"{file} passed sanity check.", file=out)
            return
        prev_timestamp = NO_TIMESTAMP
        for i in range(time_index.entries):
            entry = time_index.entry(i)
            if entry.offset == time_index.base_offset and i > 0:
                return
            position = index.lookup(entry.offset).position
            partial_file_records = file_records.slice(position, 2**31 - 1)
            batch = next((b for b in partial_file_records.batches() if b.last_offset() >= entry.offset), None)
            if batch is None:
                time_index_dump_errors.record_shallow_offset_not_found(file, entry.offset, -1)
            elif batch.last_offset() != entry.offset:
                time_index_dump_errors.record_shallow_offset_not_found(file, entry.offset, batch.last_offset())
            else:
                max_timestamp = NO_TIMESTAMP
                for record in batch:
                    max_timestamp = max(max_timestamp, record.timestamp())
                if max_timestamp != entry.timestamp:
                    time_index_dump_errors.record_mismatch_time_index(file, entry.timestamp, max_timestamp)
                if prev_timestamp >= entry.timestamp:
                    time_index_dump_errors.record_out_of_order_index_timestamp(file, entry.timestamp, prev_timestamp)
            if not verify_only:
                print(f"timestamp: {entry.timestamp} offset: {entry.offset}", file=out)
            prev_timestamp = entry.timestamp
    finally:
        file_records.close_handlers()
        if index is not None:
            index.close_handler()
        if time_index is not None:
            time_index.close_handler()


def _decode(data: bytes | None) -> str | None:
    """Kafka's StringDecoder: the bytes as UTF-8 text (undecodable bytes become U+FFFD)."""
    return None if data is None else data.decode("utf-8", errors="replace")


# Turns a record into the key and payload texts printed for it (Kafka's MessageParser); None: not printed.
MessageParser = Callable[[Record], tuple[str | None, str | None]]


def _decoder_message_parser(record: Record) -> tuple[str | None, str | None]:
    return _decode(record.key()), _decode(record.value())


def _print_batch_level(batch: FileChannelRecordBatch, accumulative_bytes: int, out: TextIO) -> None:
    if batch.magic() >= MAGIC_VALUE_V2:
        head = (
            f"baseOffset: {batch.base_offset()} lastOffset: {batch.last_offset()} count: {batch.count_or_null()} "
            f"baseSequence: {batch.base_sequence()} lastSequence: {batch.last_sequence()} "
            f"producerId: {batch.producer_id()} producerEpoch: {batch.producer_epoch()} "
            f"partitionLeaderEpoch: {batch.partition_leader_epoch()} "
            f"isTransactional: {_bool(batch.is_transactional())} "
            f"isControl: {_bool(batch.is_control_batch())}"
        )
    else:
        head = f"offset: {batch.last_offset()}"
    print(
        f"{head} position: {accumulative_bytes} {batch.timestamp_type()}: {batch.max_timestamp()} "
        f"size: {batch.size_in_bytes()} magic: {batch.magic()} "
        f"compresscodec: {batch.compression_type().name.upper()} crc: {batch.checksum()} "
        f"isvalid: {_bool(batch.is_valid())}",
        file=out,
    )


def _record_validity(record: Record) -> tuple[bool, int | None]:
    """Kafka's Record.isValid and checksumOrNull: a legacy message's CRC check and CRC, else (true, null)."""
    if isinstance(record, AbstractLegacyRecordBatch):
        return record.is_valid(), record.checksum()
    return True, None


def dump_log(
    file: Path,
    print_contents: bool,
    non_consecutive_pairs_for_log_files_map: _Mismatches,
    is_deep_iteration: bool,
    skip_record_metadata: bool,
    out: TextIO,
    parser: MessageParser = _decoder_message_parser,
) -> None:
    """Print the batches of a `.log` file, and with deep iteration every record."""
    start_offset = int(file.name.split(".")[0])
    print(f"Starting offset: {start_offset}", file=out)
    file_records = FileRecords.open(file, mutable=False)
    try:
        valid_bytes = 0
        last_offset = -1
        for batch in file_records.batches():
            _print_batch_level(batch, valid_bytes, out)
            if is_deep_iteration:
                for record in batch:
                    offset = record.offset()
                    if last_offset == -1:
                        last_offset = offset
                    elif offset != last_offset + 1:
                        non_consecutive_pairs_for_log_files_map.setdefault(str(file.absolute()), []).insert(
                            0, (last_offset, offset)
                        )
                    last_offset = offset

                    prefix = f"{RECORD_INDENT} "
                    parts: list[str] = []
                    if not skip_record_metadata:
                        is_valid, crc = _record_validity(record)
                        crc_text = "null" if crc is None else str(crc)
                        parts.append(
                            f"{prefix}offset: {offset} isValid: {_bool(is_valid)} crc: {crc_text} "
                            f"keySize: {record.key_size()} valueSize: {record.value_size()} "
                            f"{batch.timestamp_type()}: {record.timestamp()} baseOffset: {batch.base_offset()} "
                            f"lastOffset: {batch.last_offset()} baseSequence: {batch.base_sequence()} "
                            f"lastSequence: {batch.last_sequence()} producerEpoch: {batch.producer_epoch()} "
                            f"partitionLeaderEpoch: {batch.partition_leader_epoch()} "
                            f"batchSize: {batch.size_in_bytes()} magic: {batch.magic()} "
                            f"compressType: {batch.compression_type().name.upper()} position: {valid_bytes}"
                        )
                        prefix = " "
                        if batch.magic() >= MAGIC_VALUE_V2:
                            header_keys = ",".join(h.key() for h in record.headers())
                            parts.append(f" sequence: {record.sequence()} headerKeys: [{header_keys}]")
                        else:
                            parts.append(f" crc: {crc_text} isvalid: {_bool(is_valid)}")
                        if batch.is_control_batch():
                            parts.append(_control_record_text(record))
                    if print_contents and not batch.is_control_batch():
                        key, payload = parser(record)
                        if key is not None:
                            parts.append(f"{prefix}key: {key}")
                            prefix = " "
                        if payload is not None:
                            parts.append(f" payload: {payload}")
                    print("".join(parts), file=out)
            valid_bytes += batch.size_in_bytes()
        trailing_bytes = file_records.size_in_bytes() - valid_bytes
        if trailing_bytes > 0:
            print(f"Found {trailing_bytes} invalid bytes at the end of {file.name}", file=out)
    finally:
        file_records.close_handlers()


def _control_record_text(record: Record) -> str:
    control_type_id = ControlRecordType.parse_type_id(record.key())
    control_type = ControlRecordType.from_type_id(control_type_id)
    if control_type is ControlRecordType.ABORT or control_type is ControlRecordType.COMMIT:
        marker = EndTransactionMarker.deserialize(record)
        return f" endTxnMarker: {marker.control_type()} coordinatorEpoch: {marker.coordinator_epoch()}"
    return f" controlType: {control_type}({control_type_id})"


class DumpLogSegmentsOptions(CommandDefaultOptions):
    """The tool's command line (DumpLogSegmentsOptions)."""

    def __init__(self, args: Sequence[str]) -> None:
        super().__init__(args)
        parser = self.parser
        self.print_opt = parser.accepts(
            "print-data-log",
            "if set, printing the messages content when dumping data logs. Automatically set if any decoder option "
            "is specified.",
        )
        self.verify_opt = parser.accepts(
            "verify-index-only", "if set, just verify the index log without printing its content."
        )
        self.index_sanity_opt = parser.accepts(
            "index-sanity-check",
            "if set, just checks the index sanity without printing its content. This is the same check that is "
            "executed on broker startup to determine if an index needs rebuilding or not.",
        )
        self.files_opt = (
            parser.accepts("files", "REQUIRED: The comma separated list of data and index log files to be dumped.")
            .with_required_arg()
            .described_as("file1, file2, ...")
            .of_type(str)
        )
        self.max_message_size_opt = (
            parser.accepts("max-message-size", "Size of largest message.")
            .with_required_arg()
            .described_as("size")
            .of_type(Integer)
            .defaults_to(_DEFAULT_MAX_MESSAGE_SIZE)
        )
        self.deep_iterate_opt = parser.accepts(
            "deep-iteration",
            "if set, uses deep instead of shallow iteration. Automatically set if print-data-log is enabled.",
        )
        self.transaction_log_opt = parser.accepts(
            "transaction-log-decoder",
            "if set, log data will be parsed as transaction metadata from the __transaction_state topic.",
        )
        self.skip_record_metadata_opt = parser.accepts(
            "skip-record-metadata", "whether to skip printing metadata for each record."
        )
        self.options = parser.parse(args)

    @property
    def message_parser(self) -> MessageParser:
        if self.options.has(self.transaction_log_opt):
            return transaction_log.format_record_key_and_value
        return _decoder_message_parser

    @property
    def should_print_data_log(self) -> bool:
        return self.options.has(self.print_opt) or self.options.has(self.transaction_log_opt)

    @property
    def is_deep_iteration(self) -> bool:
        return self.options.has(self.deep_iterate_opt) or self.should_print_data_log

    def check_args(self) -> None:
        check_required_args(self.parser, self.options, self.files_opt)


def run(args: Sequence[str], out: TextIO, err: TextIO) -> int:
    """Run the tool with `args`, printing to `out` and `err`; returns the exit status."""
    parse_failure_help = DumpLogSegmentsOptions([]).parser
    return run_reporting_errors(lambda: _run(args, out, err), err, lambda: parse_failure_help)


def _run(args: Sequence[str], out: TextIO, err: TextIO) -> int:
    opts = DumpLogSegmentsOptions(args)
    if is_print_help_needed(opts):
        print_usage_and_die(opts.parser, _DESCRIPTION)
    if print_version_if_needed(opts, out):
        return 0
    opts.check_args()
    options = opts.options

    should_print_data_log = opts.should_print_data_log
    is_deep_iteration = opts.is_deep_iteration
    index_sanity_check = options.has(opts.index_sanity_opt)
    verify_only = options.has(opts.verify_opt)
    max_message_size = int(options.value_of(opts.max_message_size_opt))
    mis_matches_for_index_files_map: _Mismatches = {}
    time_index_dump_errors = TimeIndexDumpErrors()
    non_consecutive_pairs_for_log_files_map: _Mismatches = {}

    status = 0
    try:
        for arg in str(options.value_of(opts.files_opt)).split(","):
            file = Path(arg)
            print(f"Dumping {arg}", file=out)
            filename = file.name
            suffix = filename[filename.rfind(".") :] if "." in filename else ""
            if suffix == LOG_FILE_SUFFIX:
                dump_log(
                    file,
                    should_print_data_log,
                    non_consecutive_pairs_for_log_files_map,
                    is_deep_iteration,
                    options.has(opts.skip_record_metadata_opt),
                    out,
                    opts.message_parser,
                )
            elif suffix == INDEX_FILE_SUFFIX:
                dump_index(
                    file,
                    index_sanity_check,
                    verify_only,
                    mis_matches_for_index_files_map,
                    max_message_size,
                    out,
                )
            elif suffix == TIME_INDEX_FILE_SUFFIX:
                dump_time_index(
                    file,
                    index_sanity_check,
                    verify_only,
                    time_index_dump_errors,
                    max_message_size,
                    out,
                )
            elif suffix == PRODUCER_SNAPSHOT_FILE_SUFFIX:
                dump_producer_id_snapshot(file, out, err)
            elif suffix == TXN_INDEX_FILE_SUFFIX:
                dump_txn_index(file, out)
            else:
                print(f"Ignoring unknown file {arg}", file=err)
    except Exception as e:
        # The failure ends the tool as an uncaught exception ends the JVM; the index problems found so far
        # are still reported.
        print_exception(e, err, 'Exception in thread "main" ')
        status = 1
    finally:
        out.flush()

    for file_name, mismatches in mis_matches_for_index_files_map.items():
        print(f"Mismatches in :{file_name}", file=err)
        for index_offset, log_offset in mismatches:
            print(f"  Index offset: {index_offset}, log offset: {log_offset}", file=err)
    time_index_dump_errors.print_errors(err)
    for file_name, pairs in non_consecutive_pairs_for_log_files_map.items():
        print(f"Non-consecutive offsets in {file_name}", file=err)
        for first, second in pairs:
            print(f"  {first} is followed by {second}", file=err)
    return status


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of `kafka-dump-log.sh` (via kafka-run-class.sh); returns the exit status."""
    return tool_main(run, argv)


if __name__ == "__main__":
    sys.exit(main())
