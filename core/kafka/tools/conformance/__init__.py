"""The conformance suite's tools: record Kafka client traffic, replay it against a broker, compare.

Not a port of a Kafka class: Kafka has no such tool. The pieces, one module each:

- `capture`: the capture format (JSON lines, one event a line: connection opened or closed, a request
  or response frame as hex with its api key, version and correlation id) and its reader and writer.
- `manifest`: what a recorded session needs and what its replay may skip or ignore, with the reasons.
- `frames`: splitting a byte stream on the size prefix, request headers, pairing responses with requests.
- `pcap_reader`: pcap and pcapng files (tcpdump, tshark) to captures, reassembling TCP streams.
- `traffic_recorder`: a recording TCP proxy (`bin/kafka-traffic-record.sh`).
- `message_tree`, `field_kinds`, `normaliser`, `comparer`: decoded messages as trees, normalised by
  what the message definitions say a field is, and compared path by path.
- `invariants`: what every response of a broker must satisfy, whatever its content.
- `rewriter`: requests whose content came from earlier responses, rewritten from the replayed ones.
- `session_setup`: topics and groups a session needs, made on the broker before a replay.
- `traffic_replayer`: the replay itself (`bin/kafka-traffic-replay.sh`).
- `capture_summary`: a decoded, readable listing of a capture, for checking a recording by hand.

docs/conformance.md describes the format and how to record and add a session.
"""
