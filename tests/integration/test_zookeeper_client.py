"""ZooKeeperClient against a real ZooKeeper: requests and result codes, pipelining, watches and handlers, lost
connections, session expiry and re-creation, timeouts, and shutdown of every thread; and the bin scripts that start
and stop ZooKeeper."""

from __future__ import annotations

import os
import re
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from kazoo.client import KazooClient

from kafka.common.utils.time import Time
from kafka.zookeeper.zoo_keeper_client import (
    CheckOp,
    CreateOp,
    CreateRequest,
    DeleteRequest,
    ExistsRequest,
    GetAclRequest,
    GetChildrenRequest,
    GetDataRequest,
    MultiRequest,
    SetAclRequest,
    SetDataOp,
    SetDataRequest,
    StateChangeHandler,
    ZNodeChangeHandler,
    ZNodeChildChangeHandler,
    ZooKeeperClient,
    ZooKeeperClientTimeoutException,
)
from kafka.zookeeper.zookeeper_types import (
    CheckResult,
    Code,
    CreateMode,
    CreateResult,
    ErrorResult,
    Ids,
    NoNodeException,
    SetDataResult,
    States,
)
from tests.integration.zookeeper import (
    START_SCRIPT,
    STOP_SCRIPT,
    TEST_JVM_ENV,
    TcpProxy,
    ZooKeeperServer,
    four_letter_word,
    free_port,
    write_properties,
)
from tests.utils import wait_until_true

pytestmark = pytest.mark.integration

OPEN = Ids.OPEN_ACL_UNSAFE


def _kazoo(connect_string: str) -> KazooClient:
    client = KazooClient(hosts=connect_string, timeout=10.0)
    client.start(timeout=10.0)
    return client


@pytest.fixture
def root(zookeeper: ZooKeeperServer, zk_chroot: str) -> Iterator[KazooClient]:
    """A plain kazoo client on the test's chroot (created), to look at and change ZooKeeper behind the client."""
    admin = _kazoo(zookeeper.connect_string)
    admin.ensure_path(zk_chroot)
    admin.stop()
    admin.close()
    client = _kazoo(zookeeper.connect_string + zk_chroot)
    yield client
    client.stop()
    client.close()


@pytest.fixture
def client(zookeeper: ZooKeeperServer, zk_chroot: str, root: KazooClient) -> Iterator[ZooKeeperClient]:
    """A ZooKeeperClient on the test's chroot."""
    zk_client = ZooKeeperClient(zookeeper.connect_string + zk_chroot, 10000, 10000, 10, Time.SYSTEM, name="test")
    yield zk_client
    zk_client.close()


class RecordingHandler(ZNodeChangeHandler):
    def __init__(self, path: str) -> None:
        self.path = path
        self.events: list[str] = []

    def handle_creation(self) -> None:
        self.events.append("created")

    def handle_deletion(self) -> None:
        self.events.append("deleted")

    def handle_data_change(self) -> None:
        self.events.append("changed")


class RecordingChildHandler(ZNodeChildChangeHandler):
    def __init__(self, path: str) -> None:
        self.path = path
        self.events: list[str] = []

    def handle_child_change(self) -> None:
        self.events.append("children")


def test_create_get_set_delete_with_result_codes(client: ZooKeeperClient) -> None:
    """Each request answers with a result code instead of raising, and the data round-trips (null data stays null)."""
    created = client.handle_request(CreateRequest("/a", b"x", OPEN, CreateMode.PERSISTENT, ctx="c"))
    assert (created.result_code, created.name, created.ctx) == (Code.OK, "/a", "c")
    assert client.handle_request(CreateRequest("/a", b"y", OPEN, CreateMode.PERSISTENT)).result_code == Code.NODEEXISTS
    got = client.handle_request(GetDataRequest("/a"))
    assert (got.result_code, got.data) == (Code.OK, b"x")
    assert got.stat is not None and got.stat.version == 0

    set_response = client.handle_request(SetDataRequest("/a", b"z", 0))
    assert set_response.result_code == Code.OK and set_response.stat is not None and set_response.stat.version == 1
    assert client.handle_request(SetDataRequest("/a", b"w", 0)).result_code == Code.BADVERSION

    client.handle_request(CreateRequest("/n", None, OPEN, CreateMode.PERSISTENT))
    assert client.handle_request(GetDataRequest("/n")).data is None

    missing = client.handle_request(GetDataRequest("/missing"))
    assert missing.result_code == Code.NONODE
    with pytest.raises(NoNodeException, match="KeeperErrorCode = NoNode for /missing"):
        missing.maybe_throw()
    assert client.handle_request(ExistsRequest("/missing")).result_code == Code.NONODE
    assert client.handle_request(DeleteRequest("/a", 5)).result_code == Code.BADVERSION
    assert client.handle_request(DeleteRequest("/a", -1)).result_code == Code.OK
    assert client.handle_request(ExistsRequest("/a")).result_code == Code.NONODE


def test_children_acls_and_sequential_and_ephemeral_nodes(client: ZooKeeperClient, root: KazooClient) -> None:
    """GetChildren lists children with the parent's stat; ACLs are read and set; sequential and ephemeral modes
    reach the server."""
    client.handle_request(CreateRequest("/p", None, OPEN, CreateMode.PERSISTENT))
    seq = client.handle_request(CreateRequest("/p/s_", b"", OPEN, CreateMode.PERSISTENT_SEQUENTIAL))
    assert seq.name == "/p/s_0000000000"
    eph = client.handle_request(CreateRequest("/p/e", b"", OPEN, CreateMode.EPHEMERAL))
    assert eph.result_code == Code.OK
    assert root.exists("/p/e").ephemeralOwner == client.session_id() != 0

    children = client.handle_request(GetChildrenRequest("/p", register_watch=False))
    assert sorted(children.children) == ["e", "s_0000000000"]
    assert children.stat is not None and children.stat.num_children == 2

    acl = client.handle_request(GetAclRequest("/p"))
    assert acl.result_code == Code.OK and list(acl.acl) == OPEN
    assert client.handle_request(SetAclRequest("/p", Ids.READ_ACL_UNSAFE, -1)).result_code == Code.OK
    assert list(client.handle_request(GetAclRequest("/p")).acl) == Ids.READ_ACL_UNSAFE
    assert client.handle_request(CreateRequest("/p/x", b"", OPEN, CreateMode.PERSISTENT)).result_code == Code.NOAUTH


def test_multi_commits_all_or_reports_the_failing_operation(client: ZooKeeperClient) -> None:
    """A multi applies every operation, or none and answers with the first error code and per-operation results."""
    ok = client.handle_request(
        MultiRequest([CreateOp("/m", None, OPEN, CreateMode.PERSISTENT), SetDataOp("/m", b"data", 0)], ctx=7)
    )
    assert ok.result_code == Code.OK and ok.ctx == 7
    assert ok.zk_op_results is not None
    assert ok.zk_op_results[0].raw_op_result == CreateResult("/m")
    set_result = ok.zk_op_results[1].raw_op_result
    assert isinstance(set_result, SetDataResult) and set_result.stat.version == 1

    failed = client.handle_request(
        MultiRequest([CheckOp("/m", 1), CreateOp("/m", None, OPEN, CreateMode.PERSISTENT), SetDataOp("/m", b"", 5)])
    )
    assert failed.result_code == Code.NODEEXISTS
    assert failed.zk_op_results is not None
    assert [r.raw_op_result for r in failed.zk_op_results] == [
        ErrorResult(0),
        ErrorResult(int(Code.NODEEXISTS)),
        ErrorResult(int(Code.RUNTIMEINCONSISTENCY)),
    ]
    assert client.handle_request(GetDataRequest("/m")).data == b"data"
    checked = client.handle_request(MultiRequest([CheckOp("/m", 1)]))
    assert checked.zk_op_results is not None and checked.zk_op_results[0].raw_op_result == CheckResult()


def test_pipelined_batch_answers_every_request_in_order(
    zookeeper: ZooKeeperServer, zk_chroot: str, root: KazooClient
) -> None:
    """A batch larger than max_in_flight_requests is sent through and answered request by request, in order."""
    zk_client = ZooKeeperClient(zookeeper.connect_string + zk_chroot, 10000, 10000, 3, Time.SYSTEM)
    try:
        paths = [f"/b{i}" for i in range(60)]
        creates = zk_client.handle_requests(
            [CreateRequest(p, p.encode(), OPEN, CreateMode.PERSISTENT, ctx=p) for p in paths]
        )
        assert [r.ctx for r in creates] == paths and {r.result_code for r in creates} == {Code.OK}
        gets = zk_client.handle_requests([GetDataRequest(p, ctx=p) for p in paths])
        assert [r.data for r in gets] == [p.encode() for p in paths]
        assert zk_client.handle_requests([]) == []
    finally:
        zk_client.close()


def test_data_watch_fires_handler_on_creation_change_and_deletion(client: ZooKeeperClient, root: KazooClient) -> None:
    """A read of a path with a registered handler sets the watch; creation, data change and deletion reach it."""
    handler = RecordingHandler("/w")
    client.register_z_node_change_handler(handler)
    assert client.handle_request(ExistsRequest("/w")).result_code == Code.NONODE
    root.create("/w", b"1")
    wait_until_true(lambda: handler.events == ["created"], "creation event")
    client.handle_request(GetDataRequest("/w"))
    root.set("/w", b"2")
    wait_until_true(lambda: handler.events == ["created", "changed"], "data change event")
    client.handle_request(GetDataRequest("/w"))
    root.delete("/w")
    wait_until_true(lambda: handler.events == ["created", "changed", "deleted"], "deletion event")


def test_no_watch_without_handler_and_after_unregistering(client: ZooKeeperClient, root: KazooClient) -> None:
    """Reads set no watch for paths without a handler; an unregistered handler hears nothing more."""
    root.create("/u", b"1")
    client.handle_request(GetDataRequest("/u"))  # no handler yet: no watch
    handler = RecordingHandler("/u")
    client.register_z_node_change_handler(handler)
    root.set("/u", b"2")
    client.handle_request(GetDataRequest("/u"))  # now watched
    client.unregister_z_node_change_handler("/u")
    root.set("/u", b"3")
    other = RecordingHandler("/v")
    client.register_z_node_change_handler(other)
    client.handle_request(ExistsRequest("/v"))
    root.create("/v", b"")
    wait_until_true(lambda: other.events == ["created"], "the control event")
    assert handler.events == []


def test_child_watch_fires_only_when_asked_for(client: ZooKeeperClient, root: KazooClient) -> None:
    """A child handler hears of child changes after a GetChildren that registers a watch, not after one that does
    not."""
    root.create("/c")
    handler = RecordingChildHandler("/c")
    client.register_z_node_child_change_handler(handler)
    client.handle_request(GetChildrenRequest("/c", register_watch=False))
    root.create("/c/1")
    client.handle_request(GetChildrenRequest("/c", register_watch=True))
    assert handler.events == []
    root.create("/c/2")
    wait_until_true(lambda: handler.events == ["children"], "child change event")


def test_connection_timeout_raises_and_leaves_no_thread() -> None:
    """With nothing listening, the constructor raises ZooKeeperClientTimeoutException and stops its threads."""
    before = set(threading.enumerate())
    with pytest.raises(ZooKeeperClientTimeoutException, match="Timed out waiting for connection while in state"):
        ZooKeeperClient(f"127.0.0.1:{free_port()}", 2000, 500, 10, Time.SYSTEM)
    wait_until_true(lambda: set(threading.enumerate()) <= before, "client threads to stop", timeout=10)


def test_close_stops_every_thread_and_fails_later_requests(
    zookeeper: ZooKeeperServer, zk_chroot: str, root: KazooClient
) -> None:
    """close() ends the session and every thread the client started; a request afterwards gets SESSIONEXPIRED."""
    before = set(threading.enumerate())
    zk_client = ZooKeeperClient(zookeeper.connect_string + zk_chroot, 10000, 10000, 10, Time.SYSTEM, name="closing")
    zk_client.handle_request(CreateRequest("/eph", b"", OPEN, CreateMode.EPHEMERAL))
    assert len(set(threading.enumerate()) - before) >= 3  # kazoo's connection, callback and completion threads
    zk_client.close()
    wait_until_true(lambda: set(threading.enumerate()) <= before, "client threads to stop", timeout=10)
    assert zk_client.connection_state == States.CLOSED
    assert zk_client.handle_request(GetDataRequest("/eph")).result_code == Code.SESSIONEXPIRED
    wait_until_true(lambda: root.exists("/eph") is None, "the ephemeral znode to go with the session")


def _expire(zookeeper: ZooKeeperServer, zk_client: ZooKeeperClient) -> int:
    """Ends the client's session from another connection (same session id and password); returns the old id."""
    zoo_keeper = zk_client.current_zoo_keeper()
    session_id = zoo_keeper.session_id
    other = KazooClient(hosts=zookeeper.connect_string, client_id=(session_id, zoo_keeper.session_password))
    other.start(timeout=10.0)
    other.stop()
    other.close()
    return session_id


def test_session_expiry_creates_new_session_and_rewatches(
    zookeeper: ZooKeeperServer, client: ZooKeeperClient, root: KazooClient
) -> None:
    """After the session expires, a new one is created on the reinit thread between the state handlers' calls, and
    registered handlers' paths are watched again on it."""
    calls: list[tuple[str, str]] = []

    class Handler(StateChangeHandler):
        name = "test-handler"

        def before_initializing_session(self) -> None:
            calls.append(("before", threading.current_thread().name))

        def after_initializing_session(self) -> None:
            calls.append(("after", threading.current_thread().name))

    client.register_state_change_handler(Handler())
    data_handler = RecordingHandler("/x")
    child_handler = RecordingChildHandler("/p")
    root.create("/p")
    client.register_z_node_change_handler(data_handler)
    client.register_z_node_child_change_handler(child_handler)
    client.handle_request(ExistsRequest("/x"))
    client.handle_request(GetChildrenRequest("/p", register_watch=True))

    old_session = _expire(zookeeper, client)
    wait_until_true(lambda: len(calls) == 2, "the state handlers to run")
    assert calls == [("before", "zk-client-test-reinit-0"), ("after", "zk-client-test-reinit-0")]
    client.wait_until_connected()
    assert client.session_id() not in (0, old_session)

    # The paths are watched on the new session without any read by the caller. ZooKeeper answers a session's
    # requests in order: once this one is answered, the client's own re-watching requests have been served.
    client.handle_request(ExistsRequest("/unrelated"))
    root.create("/x", b"")
    root.create("/p/child")
    wait_until_true(lambda: data_handler.events == ["created"], "creation event on the new session")
    wait_until_true(lambda: child_handler.events == ["children"], "child event on the new session")


def test_lost_connection_keeps_session_and_delivers_missed_events(
    zookeeper: ZooKeeperServer, zk_chroot: str, root: KazooClient
) -> None:
    """When the connection breaks and comes back within the session, watches are set again and the changes made
    meanwhile reach the handlers, as the Java client's SetWatches does."""
    proxy = TcpProxy(zookeeper.port)
    zk_client = ZooKeeperClient(proxy.connect_string + zk_chroot, 10000, 10000, 10, Time.SYSTEM)
    try:
        root.create("/w", b"1")
        root.create("/p")
        changed, created, children = RecordingHandler("/w"), RecordingHandler("/x"), RecordingChildHandler("/p")
        for h in (changed, created):
            zk_client.register_z_node_change_handler(h)
        zk_client.register_z_node_child_change_handler(children)
        zk_client.handle_requests([GetDataRequest("/w"), ExistsRequest("/x")])
        zk_client.handle_request(GetChildrenRequest("/p", register_watch=True))
        session = zk_client.session_id()

        proxy.cut()
        wait_until_true(lambda: zk_client.connection_state == States.CONNECTING, "the connection to drop")
        root.set("/w", b"2")
        root.create("/x", b"")
        root.create("/p/c")
        proxy.restore()
        zk_client.wait_until_connected()

        wait_until_true(lambda: changed.events == ["changed"], "the missed data change")
        wait_until_true(lambda: created.events == ["created"], "the missed creation")
        wait_until_true(lambda: children.events == ["children"], "the missed child change")
        assert zk_client.session_id() == session
    finally:
        zk_client.close()
        proxy.close()


def test_force_reinitialize_replaces_the_session(client: ZooKeeperClient) -> None:
    """force_reinitialize closes the session and connects a new one."""
    old_session = client.session_id()
    client.force_reinitialize()
    client.wait_until_connected()
    assert client.session_id() not in (0, old_session)
    assert client.handle_request(CreateRequest("/after", b"", OPEN, CreateMode.PERSISTENT)).result_code == Code.OK


def test_start_script_daemon_mode_and_stop_script(tmp_path: Path) -> None:
    """`zookeeper-server-start.sh -daemon` runs ZooKeeper in the background with its console output (Kafka's log
    layout) and GC log in $LOG_DIR; `zookeeper-server-stop.sh <properties>` stops that server only."""
    port = free_port()
    properties = tmp_path / "zookeeper.properties"
    write_properties(properties, tmp_path / "data", port)
    log_dir = tmp_path / "logs"
    env = {**os.environ, **TEST_JVM_ENV, "LOG_DIR": str(log_dir)}
    started = subprocess.run([str(START_SCRIPT), "-daemon", str(properties)], env=env, timeout=30, check=False)
    assert started.returncode == 0  # returns at once, the server runs on
    try:
        wait_until_true(lambda: "Mode: standalone" in (_answers(port, "srvr") or ""), "the daemon to serve", timeout=60)
        assert _answers(port, "ruok") == "imok"
        console = (log_dir / "zookeeper.out").read_text()
        assert re.search(r"^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}\] INFO .* \(org\.apache\.zookeeper\.", console, re.M)
        assert (log_dir / "zookeeper-gc.log").exists()
        assert "AdminServer" not in console  # disabled: ZooKeeper does not even try to start it
    finally:
        stopped = subprocess.run([str(STOP_SCRIPT), str(properties)], capture_output=True, text=True, timeout=30)
    assert stopped.returncode == 0
    wait_until_true(lambda: _answers(port, "ruok") is None, "the daemon to stop", timeout=30)
    again = subprocess.run([str(STOP_SCRIPT), str(properties)], capture_output=True, text=True, timeout=30)
    assert (again.returncode, again.stdout.strip()) == (1, "No zookeeper server to stop")


def _answers(port: int, word: str) -> str | None:
    try:
        return four_letter_word(port, word)
    except OSError:
        return None
