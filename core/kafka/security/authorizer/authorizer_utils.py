"""Port of core/src/main/scala/kafka/security/authorizer/AuthorizerUtils.scala (Kafka 2.8).

Creating the authorizer that `authorizer.class.name` names, and the checks shared by authorizers.

# PORT: a Java class name is resolved to the Python class of the same name in the module named after it in snake
# case (`kafka.security.authorizer.AclAuthorizer` -> kafka.security.authorizer.acl_authorizer.AclAuthorizer), so
# server.properties files written for Kafka work unchanged; `module:Class` names any other Python class. Kafka
# 2.8's deprecated `kafka.security.auth.SimpleAclAuthorizer` wraps AclAuthorizer with the same rules and storage,
# so it is answered with AclAuthorizer.
"""

from __future__ import annotations

import importlib
import re

from kafka.common.acl.acl_binding import AclBinding
from kafka.common.config.config_exception import ConfigException
from kafka.common.resource.resource import CLUSTER_NAME
from kafka.server.authorizer.authorizer import Authorizer

__all__ = ["create_authorizer", "is_cluster_resource", "validate_acl_binding"]

_ALIASES = {"kafka.security.auth.SimpleAclAuthorizer": "kafka.security.authorizer.AclAuthorizer"}


def create_authorizer(class_name: str) -> Authorizer:
    name = _ALIASES.get(class_name.strip(), class_name.strip())
    if ":" in name:
        module_name, _, attr = name.partition(":")
    else:
        package, _, attr = name.rpartition(".")
        module_name = f"{package}.{re.sub(r'(?<!^)(?=[A-Z])', '_', attr).lower()}" if package else attr
    try:
        cls = getattr(importlib.import_module(module_name), attr)
    except (ImportError, AttributeError, ValueError) as e:
        raise ConfigException(f"Class {class_name} cannot be found") from e
    instance = cls() if isinstance(cls, type) else None
    if not isinstance(instance, Authorizer):
        raise ConfigException(f"Authorizer does not implement {Authorizer.__module__}.Authorizer.")
    return instance


def validate_acl_binding(acl_binding: AclBinding) -> None:
    if acl_binding.is_unknown:
        raise ValueError("ACL binding contains unknown elements")


def is_cluster_resource(name: str) -> bool:
    return name == CLUSTER_NAME
