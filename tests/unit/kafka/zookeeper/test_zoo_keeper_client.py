"""The request, response and error types of ZooKeeperClient behave as Kafka's and the ZooKeeper client's."""

from __future__ import annotations

import pytest

from kafka.zookeeper.zoo_keeper_client import (
    CreateRequest,
    ExistsResponse,
    MultiRequest,
    ResponseMetadata,
    SetDataOp,
)
from kafka.zookeeper.zookeeper_types import (
    BadVersionException,
    Code,
    ConnectionLossException,
    CreateMode,
    Ids,
    KeeperException,
    NodeExistsException,
    NoNodeException,
    SessionExpiredException,
    Stat,
    States,
)


def test_keeper_exception_create_picks_the_subclass_and_message() -> None:
    """Each error code maps to its KeeperException subclass with Java's message; OK has no exception."""
    e = KeeperException.create(Code.NONODE, "/a")
    assert isinstance(e, NoNodeException) and str(e) == "KeeperErrorCode = NoNode for /a" and e.path == "/a"
    assert isinstance(KeeperException.create(-110), NodeExistsException)
    assert isinstance(KeeperException.create(Code.BADVERSION), BadVersionException)
    assert isinstance(KeeperException.create(Code.CONNECTIONLOSS), ConnectionLossException)
    assert str(KeeperException.create(Code.SESSIONEXPIRED)) == "KeeperErrorCode = Session expired"
    assert isinstance(KeeperException.create(Code.SESSIONEXPIRED), SessionExpiredException)
    assert type(KeeperException.create(Code.QUOTAEXCEEDED)) is KeeperException
    with pytest.raises(ValueError):
        KeeperException.create(Code.OK)


def test_response_result_exception_and_maybe_throw() -> None:
    """A response's error code becomes its exception on demand; OK raises nothing."""
    metadata = ResponseMetadata(10, 25)
    assert metadata.response_time_ms == 15
    ok = ExistsResponse(result_code=Code.OK, path="/x", ctx=None, stat=Stat(version=3), metadata=metadata)
    ok.maybe_throw()
    assert ok.result_exception is None
    missing = ExistsResponse(result_code=Code.NONODE, path="/x", ctx=1, stat=None, metadata=metadata)
    assert isinstance(missing.result_exception, NoNodeException)
    with pytest.raises(NoNodeException, match="for /x"):
        missing.maybe_throw()


def test_states_modes_and_stat() -> None:
    """Connection states tell alive from connected; create modes carry ZooKeeper's flags; Stat prints as Java's."""
    assert States.CONNECTING.is_alive and not States.CONNECTING.is_connected
    assert States.CONNECTEDREADONLY.is_connected
    assert not States.CLOSED.is_alive and not States.AUTH_FAILED.is_alive
    assert [m.flag for m in CreateMode] == [0, 1, 2, 3]
    assert CreateMode.EPHEMERAL_SEQUENTIAL.is_ephemeral and CreateMode.EPHEMERAL_SEQUENTIAL.is_sequential
    assert str(Stat(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)) == "1,2,3,4,5,6,7,8,9,10,11\n"
    assert Stat.of((1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)).pzxid == 11


def test_requests_are_values() -> None:
    """Requests are immutable values compared by content; a multi has no path."""
    a = CreateRequest("/p", b"x", Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT, ctx=1)
    assert a == CreateRequest("/p", b"x", Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT, ctx=1)
    assert MultiRequest([SetDataOp("/p", b"", 0)]).path is None
    with pytest.raises(AttributeError):
        a.path = "/q"  # type: ignore[misc]
