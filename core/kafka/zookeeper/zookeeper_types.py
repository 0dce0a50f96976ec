"""Port of the org.apache.zookeeper client types that Kafka 2.8 names (ZooKeeper 3.5.9 client API).

Kafka's ZooKeeperClient and KafkaZkClient speak in terms of the Java ZooKeeper client: result codes
(`KeeperException.Code`) and the exception raised for each, `CreateMode`, `Stat`, the results of the
operations of a multi (`OpResult`), the connection states (`ZooKeeper.States`), watch event types and the
predefined ACLs (`ZooDefs.Ids`). This module gives those names to what kazoo, our client library, provides.

# PORT: in Java these are classes of the ZooKeeper jar, not of Kafka. They live in one module here because
# kafka.zookeeper is the only place that talks to kazoo; ACLs are kazoo's own `ACL`/`Id` tuples.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, ClassVar

from kazoo.security import ACL, CREATOR_ALL_ACL, OPEN_ACL_UNSAFE, READ_ACL_UNSAFE, Id, Permissions

__all__ = [
    "ACL",
    "APIErrorException",
    "AuthFailedException",
    "BadArgumentsException",
    "BadVersionException",
    "CheckResult",
    "Code",
    "ConnectionLossException",
    "CreateMode",
    "CreateResult",
    "DataInconsistencyException",
    "DeleteResult",
    "ErrorResult",
    "EventType",
    "Id",
    "Ids",
    "InvalidACLException",
    "InvalidCallbackException",
    "KeeperException",
    "KeeperState",
    "MarshallingErrorException",
    "NoAuthException",
    "NoChildrenForEphemeralsException",
    "NoNodeException",
    "NodeExistsException",
    "NotEmptyException",
    "NotReadOnlyException",
    "OpResult",
    "OperationTimeoutException",
    "Permissions",
    "RuntimeInconsistencyException",
    "SessionExpiredException",
    "SessionMovedException",
    "SetDataResult",
    "Stat",
    "States",
    "SystemErrorException",
    "UnimplementedException",
]


class Code(enum.IntEnum):
    """KeeperException.Code: the result code of every ZooKeeper operation (OK or an error)."""

    OK = 0
    SYSTEMERROR = -1
    RUNTIMEINCONSISTENCY = -2
    DATAINCONSISTENCY = -3
    CONNECTIONLOSS = -4
    MARSHALLINGERROR = -5
    UNIMPLEMENTED = -6
    OPERATIONTIMEOUT = -7
    BADARGUMENTS = -8
    UNKNOWNSESSION = -12
    NEWCONFIGNOQUORUM = -13
    RECONFIGINPROGRESS = -14
    APIERROR = -100
    NONODE = -101
    NOAUTH = -102
    BADVERSION = -103
    NOCHILDRENFOREPHEMERALS = -108
    NODEEXISTS = -110
    NOTEMPTY = -111
    SESSIONEXPIRED = -112
    INVALIDCALLBACK = -113
    INVALIDACL = -114
    AUTHFAILED = -115
    SESSIONMOVED = -118
    NOTREADONLY = -119
    EPHEMERALONLOCALSESSION = -120
    NOWATCHER = -121
    REQUESTTIMEOUT = -122
    RECONFIGDISABLED = -123
    SESSIONCLOSEDREQUIRESASLAUTH = -124
    QUOTAEXCEEDED = -125
    THROTTLEDOP = -127

    @classmethod
    def get(cls, code: int) -> Code:
        """The code with value `code` (Java's `Code.get`); ValueError for an unknown value."""
        return cls(code)

    def __str__(self) -> str:
        return self.name


# The text Java's KeeperException puts in its messages for each code (getCodeMessage).
_CODE_MESSAGES: dict[Code, str] = {
    Code.OK: "ok",
    Code.SYSTEMERROR: "SystemError",
    Code.RUNTIMEINCONSISTENCY: "RuntimeInconsistency",
    Code.DATAINCONSISTENCY: "DataInconsistency",
    Code.CONNECTIONLOSS: "ConnectionLoss",
    Code.MARSHALLINGERROR: "MarshallingError",
    Code.UNIMPLEMENTED: "Unimplemented",
    Code.OPERATIONTIMEOUT: "OperationTimeout",
    Code.BADARGUMENTS: "BadArguments",
    Code.UNKNOWNSESSION: "Unknown session",
    Code.NEWCONFIGNOQUORUM: "New config has no quorum",
    Code.RECONFIGINPROGRESS: "Another reconfiguration is in progress",
    Code.APIERROR: "APIError",
    Code.NONODE: "NoNode",
    Code.NOAUTH: "NoAuth",
    Code.BADVERSION: "BadVersion",
    Code.NOCHILDRENFOREPHEMERALS: "NoChildrenForEphemerals",
    Code.NODEEXISTS: "NodeExists",
    Code.NOTEMPTY: "Directory not empty",
    Code.SESSIONEXPIRED: "Session expired",
    Code.INVALIDCALLBACK: "Invalid callback",
    Code.INVALIDACL: "InvalidACL",
    Code.AUTHFAILED: "AuthFailed",
    Code.SESSIONMOVED: "Session moved",
    Code.NOTREADONLY: "Not a read-only call",
    Code.EPHEMERALONLOCALSESSION: "Ephemeral node on local session",
    Code.NOWATCHER: "No such watcher",
    Code.REQUESTTIMEOUT: "Request timeout",
    Code.RECONFIGDISABLED: "Reconfig is disabled",
    Code.SESSIONCLOSEDREQUIRESASLAUTH: "Session closed because client failed to authenticate",
    Code.QUOTAEXCEEDED: "Quota has exceeded",
    Code.THROTTLEDOP: "Op throttled due to high load",
}


class KeeperException(Exception):
    """A ZooKeeper operation failed with `code` (on `path`, when known); `create` picks the subclass."""

    CODE: ClassVar[Code] = Code.SYSTEMERROR
    _BY_CODE: ClassVar[dict[Code, type[KeeperException]]] = {}

    def __init__(self, code: Code | None = None, path: str | None = None) -> None:
        self.code = type(self).CODE if code is None else code
        self.path = path
        text = f"KeeperErrorCode = {_CODE_MESSAGES.get(self.code, self.code.name)}"
        super().__init__(text if path is None else f"{text} for {path}")

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        KeeperException._BY_CODE[cls.CODE] = cls

    @staticmethod
    def create(code: Code | int, path: str | None = None) -> KeeperException:
        """The exception for a non-OK result code (Java's `KeeperException.create`)."""
        code = Code.get(int(code))
        if code == Code.OK:
            raise ValueError("Invalid exception code: OK")
        cls = KeeperException._BY_CODE.get(code)
        return KeeperException(code, path) if cls is None else cls(code, path)


class SystemErrorException(KeeperException):
    CODE = Code.SYSTEMERROR


class RuntimeInconsistencyException(KeeperException):
    CODE = Code.RUNTIMEINCONSISTENCY


class DataInconsistencyException(KeeperException):
    CODE = Code.DATAINCONSISTENCY


class ConnectionLossException(KeeperException):
    CODE = Code.CONNECTIONLOSS


class MarshallingErrorException(KeeperException):
    CODE = Code.MARSHALLINGERROR


class UnimplementedException(KeeperException):
    CODE = Code.UNIMPLEMENTED


class OperationTimeoutException(KeeperException):
    CODE = Code.OPERATIONTIMEOUT


class BadArgumentsException(KeeperException):
    CODE = Code.BADARGUMENTS


class APIErrorException(KeeperException):
    CODE = Code.APIERROR


class NoNodeException(KeeperException):
    CODE = Code.NONODE


class NoAuthException(KeeperException):
    CODE = Code.NOAUTH


class BadVersionException(KeeperException):
    CODE = Code.BADVERSION


class NoChildrenForEphemeralsException(KeeperException):
    CODE = Code.NOCHILDRENFOREPHEMERALS


class NodeExistsException(KeeperException):
    CODE = Code.NODEEXISTS


class NotEmptyException(KeeperException):
    CODE = Code.NOTEMPTY


class SessionExpiredException(KeeperException):
    CODE = Code.SESSIONEXPIRED


class InvalidCallbackException(KeeperException):
    CODE = Code.INVALIDCALLBACK


class InvalidACLException(KeeperException):
    CODE = Code.INVALIDACL


class AuthFailedException(KeeperException):
    CODE = Code.AUTHFAILED


class SessionMovedException(KeeperException):
    CODE = Code.SESSIONMOVED


class NotReadOnlyException(KeeperException):
    CODE = Code.NOTREADONLY


class CreateMode(enum.Enum):
    """How a znode is created: persistent or ephemeral, with or without a sequence number appended."""

    PERSISTENT = (0, False, False)
    EPHEMERAL = (1, True, False)
    PERSISTENT_SEQUENTIAL = (2, False, True)
    EPHEMERAL_SEQUENTIAL = (3, True, True)

    def __init__(self, flag: int, ephemeral: bool, sequential: bool) -> None:
        self.flag = flag
        self.is_ephemeral = ephemeral
        self.is_sequential = sequential


@dataclass(frozen=True, slots=True)
class Stat:
    """A znode's metadata (org.apache.zookeeper.data.Stat); all zero for Kafka's ZkStat.NoStat."""

    czxid: int = 0
    mzxid: int = 0
    ctime: int = 0
    mtime: int = 0
    version: int = 0
    cversion: int = 0
    aversion: int = 0
    ephemeral_owner: int = 0
    data_length: int = 0
    num_children: int = 0
    pzxid: int = 0

    @classmethod
    def of(cls, znode_stat: Any) -> Stat:
        """From kazoo's ZnodeStat (same eleven fields, same order)."""
        return cls(*znode_stat)

    def __str__(self) -> str:
        # Java's Stat.toString: the eleven fields, comma separated, with a trailing newline.
        return (
            f"{self.czxid},{self.mzxid},{self.ctime},{self.mtime},{self.version},{self.cversion},{self.aversion},"
            f"{self.ephemeral_owner},{self.data_length},{self.num_children},{self.pzxid}\n"
        )


class States(enum.Enum):
    """ZooKeeper.States: the state of a client's session handle."""

    CONNECTING = "CONNECTING"
    ASSOCIATING = "ASSOCIATING"
    CONNECTED = "CONNECTED"
    CONNECTEDREADONLY = "CONNECTEDREADONLY"
    CLOSED = "CLOSED"
    AUTH_FAILED = "AUTH_FAILED"
    NOT_CONNECTED = "NOT_CONNECTED"

    @property
    def is_alive(self) -> bool:
        """False once the handle can never connect again (closed, expired or failed authentication)."""
        return self not in (States.CLOSED, States.AUTH_FAILED)

    @property
    def is_connected(self) -> bool:
        return self in (States.CONNECTED, States.CONNECTEDREADONLY)

    def __str__(self) -> str:
        return self.value


class KeeperState(enum.Enum):
    """Watcher.Event.KeeperState: the connection state a state-change event reports (Java's names)."""

    DISCONNECTED = "Disconnected"
    SYNC_CONNECTED = "SyncConnected"
    AUTH_FAILED = "AuthFailed"
    CONNECTED_READ_ONLY = "ConnectedReadOnly"
    SASL_AUTHENTICATED = "SaslAuthenticated"
    EXPIRED = "Expired"
    CLOSED = "Closed"

    def __str__(self) -> str:
        return self.value


class EventType(enum.Enum):
    """Watcher.Event.EventType: what a watch event reports (Java's names)."""

    NONE = "None"
    NODE_CREATED = "NodeCreated"
    NODE_DELETED = "NodeDeleted"
    NODE_DATA_CHANGED = "NodeDataChanged"
    NODE_CHILDREN_CHANGED = "NodeChildrenChanged"

    def __str__(self) -> str:
        return self.value


class OpResult:
    """The result of one operation of a multi (org.apache.zookeeper.OpResult)."""


@dataclass(frozen=True, slots=True)
class CreateResult(OpResult):
    path: str


@dataclass(frozen=True, slots=True)
class DeleteResult(OpResult):
    pass


@dataclass(frozen=True, slots=True)
class SetDataResult(OpResult):
    stat: Stat


@dataclass(frozen=True, slots=True)
class CheckResult(OpResult):
    pass


@dataclass(frozen=True, slots=True)
class ErrorResult(OpResult):
    """An operation of a failed multi: the one that failed carries its code, the others OK or
    RUNTIMEINCONSISTENCY (rolled back / not run)."""

    err: int


class Ids:
    """ZooDefs.Ids: the predefined ACL lists."""

    OPEN_ACL_UNSAFE: ClassVar[list[ACL]] = list(OPEN_ACL_UNSAFE)
    CREATOR_ALL_ACL: ClassVar[list[ACL]] = list(CREATOR_ALL_ACL)
    READ_ACL_UNSAFE: ClassVar[list[ACL]] = list(READ_ACL_UNSAFE)
