"""The inputs `pulumi import` recorded, declared as a Python program would declare them."""

from __future__ import annotations

import inspect
import re
from typing import Any, Mapping

import pulumi_wsbridge as wsbridge
from pulumi import automation as auto


def inputs_of(deployment: auto.Deployment, name: str) -> dict[str, Any]:
    """The inputs the deployment holds for the resource named `name` (its URN's last part)."""
    state: Mapping[str, Any] = deployment.deployment or {}
    for resource in state.get("resources", []):
        if str(resource["urn"]).endswith("::" + name):
            return dict(resource.get("inputs", {}))
    raise LookupError(f"the state holds no resource named {name!r}")


def workspace_args_from(inputs: dict[str, Any]) -> wsbridge.WorkspaceArgs:
    """Declares the Workspace inputs the state holds (what `pulumi import` printed as the program to write):
    each input as the argument of its name in Python's spelling. An input WorkspaceArgs has no argument
    for, or a value of a type the test does not expect, is an error."""
    parameters = inspect.signature(wsbridge.WorkspaceArgs.__init__).parameters
    arguments: dict[str, Any] = {}
    for key, value in inputs.items():
        argument = _snake(key)
        if argument not in parameters:
            raise TypeError(f"WorkspaceArgs has no argument for the input {key!r}")
        arguments[argument] = _input_of(key, value)
    return wsbridge.WorkspaceArgs(**arguments)


def _input_of(key: str, value: Any) -> Any:
    """The value a program writes for a plain value of the state."""
    if isinstance(value, (str, bool)):
        return value
    if isinstance(value, (int, float)):
        if value != int(value):
            raise TypeError(f"the input {key!r} is not a whole number: {value}")
        return int(value)
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return list(value)
    if isinstance(value, dict) and key == "settingOverwrites":
        unknown = set(value) - {"executionMode", "agentPool"}
        if unknown or not all(isinstance(item, bool) for item in value.values()):
            raise TypeError(f"the input {key!r} does not fit WorkspaceSettingOverwritesArgs: {value}")
        return wsbridge.WorkspaceSettingOverwritesArgs(
            execution_mode=value.get("executionMode"), agent_pool=value.get("agentPool")
        )
    if isinstance(value, dict) and all(isinstance(item, str) for item in value.values()):
        return dict(value)
    raise TypeError(f"the input {key!r} holds {value!r}, which the test does not declare")


def _snake(name: str) -> str:
    """camelCase as Python spells it: settingOverwrites → setting_overwrites."""
    return re.sub(r"(?<!^)([A-Z])", r"_\1", name).lower()
