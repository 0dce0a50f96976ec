"""Port of clients/src/main/java/org/apache/kafka/server/authorizer (Kafka 2.8): the broker's pluggable authorizer API.

# PORT: Java keeps this package in the clients jar (org.apache.kafka.server.authorizer); kafka.server is served from
# core/ here, so the package lives beside the broker that uses it.
"""

from kafka.server.authorizer.acl_create_result import AclCreateResult
from kafka.server.authorizer.acl_delete_result import AclBindingDeleteResult, AclDeleteResult
from kafka.server.authorizer.action import Action
from kafka.server.authorizer.authorizable_request_context import AuthorizableRequestContext
from kafka.server.authorizer.authorization_result import AuthorizationResult
from kafka.server.authorizer.authorizer import Authorizer
from kafka.server.authorizer.authorizer_server_info import AuthorizerServerInfo

__all__ = [
    "AclBindingDeleteResult",
    "AclCreateResult",
    "AclDeleteResult",
    "Action",
    "AuthorizableRequestContext",
    "AuthorizationResult",
    "Authorizer",
    "AuthorizerServerInfo",
]
