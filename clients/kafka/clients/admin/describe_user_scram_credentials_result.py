"""Port of clients/src/main/java/org/apache/kafka/clients/admin/DescribeUserScramCredentialsResult.java (Kafka 3.7).

The answer of describeUserScramCredentials: every user's description (all), the users described (users), or one
user's (description; RESOURCE_NOT_FOUND for a user without credentials).
"""

from __future__ import annotations

from typing import Any

from kafka.clients.admin.scram_credential_info import ScramCredentialInfo
from kafka.clients.admin.scram_mechanism import ScramMechanism
from kafka.clients.admin.user_scram_credentials_description import UserScramCredentialsDescription
from kafka.common.errors import ResourceNotFoundException
from kafka.common.kafka_future import KafkaFuture, KafkaFutureImpl
from kafka.common.protocol.errors import Errors

__all__ = ["DescribeUserScramCredentialsResult"]


def _infos(result: Any) -> list[ScramCredentialInfo]:
    return [ScramCredentialInfo(ScramMechanism.from_type(c.mechanism), c.iterations) for c in result.credential_infos]


class DescribeUserScramCredentialsResult:
    def __init__(self, data_future: KafkaFuture[Any]) -> None:
        self._data_future = data_future

    def all(self) -> KafkaFuture[dict[str, UserScramCredentialsDescription]]:
        retval: KafkaFutureImpl[dict[str, UserScramCredentialsDescription]] = KafkaFutureImpl()

        def done(data: Any, throwable: BaseException | None) -> None:
            if throwable is not None:
                retval.complete_exceptionally(throwable)
                return
            for r in data.results:
                if r.error_code not in (Errors.NONE.code, Errors.RESOURCE_NOT_FOUND.code):
                    retval.complete_exceptionally(_exception(r.error_code, r.error_message))
                    return
            retval.complete({r.user: UserScramCredentialsDescription(r.user, _infos(r)) for r in data.results})

        self._data_future.when_complete(done)
        return retval

    def users(self) -> KafkaFuture[list[str]]:
        return self._data_future.then_apply(
            lambda data: [r.user for r in data.results if r.error_code != Errors.RESOURCE_NOT_FOUND.code]
        )

    def description(self, user_name: str) -> KafkaFuture[UserScramCredentialsDescription]:
        retval: KafkaFutureImpl[UserScramCredentialsDescription] = KafkaFutureImpl()

        def done(data: Any, throwable: BaseException | None) -> None:
            if throwable is not None:
                retval.complete_exceptionally(throwable)
                return
            result = next((r for r in data.results if r.user == user_name), None)
            if result is None:
                retval.complete_exceptionally(ResourceNotFoundException(f"No such user: {user_name}"))
            elif result.error_code != Errors.NONE.code:
                retval.complete_exceptionally(_exception(result.error_code, result.error_message))
            else:
                retval.complete(UserScramCredentialsDescription(result.user, _infos(result)))

        self._data_future.when_complete(done)
        return retval


def _exception(code: int, message: str | None) -> BaseException:
    exc = Errors.for_code(code).exception(message)
    assert exc is not None
    return exc
