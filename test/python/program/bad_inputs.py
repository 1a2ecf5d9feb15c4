"""One resource named "bad" of a kind, or one lookup, with bad inputs."""

from __future__ import annotations

from typing import Any, Callable

import pulumi_wsbridge as wsbridge

# Workspace ids the bad inputs name that pass their own check (no such workspaces exist).
VALID_WORKSPACE_ID = "ws-valid000000001"
OTHER_WORKSPACE_ID = "ws-valid000000002"

# The kinds bad_input declares, in the order a test goes through them.
BAD_KINDS = (
    "Workspace",
    "WorkspaceLock",
    "SshKeyAssignment",
    "DataRetentionPolicy",
    "WorkspaceTagBindings",
    "RemoteStateConsumers",
    "ModuleVersionDeprecation",
    "getWorkspace",
)


def untyped(value: object) -> Any:
    """A value of the wrong type for its argument: Python's type hints are not checked when a program runs,
    so a program can pass it, and the plugin must name it."""
    return value


def bad_input(kind: Callable[[], str]) -> Callable[[], None]:
    """Declares the bad inputs the TypeScript plugin-route tests use, for the kind `kind()` names each time
    the program runs. Those of the Go program, and for the lock also the wrong types the Go compiler refuses."""

    def program() -> None:
        declared = kind()
        if declared == "Workspace":
            wsbridge.Workspace("bad", name="has space", auto_destroy_activity_duration="0d", execution_mode="cloud")
        elif declared == "WorkspaceLock":
            wsbridge.WorkspaceLock(
                "bad", workspace_id="attach-first", reason=untyped(7), force_unlock_on_destroy=untyped("yes")
            )
        elif declared == "SshKeyAssignment":
            wsbridge.SshKeyAssignment("bad", workspace_id=VALID_WORKSPACE_ID, ssh_key_id="deploy-a")
        elif declared == "DataRetentionPolicy":
            wsbridge.DataRetentionPolicy("bad", workspace_id=VALID_WORKSPACE_ID, dont_delete=False)
        elif declared == "WorkspaceTagBindings":
            wsbridge.WorkspaceTagBindings("bad", workspace_id="tagged", tags={"hcp:owner": "x", "env": "a b"})
        elif declared == "RemoteStateConsumers":
            wsbridge.RemoteStateConsumers(
                "bad",
                workspace_id=VALID_WORKSPACE_ID,
                consumer_ids=[OTHER_WORKSPACE_ID, VALID_WORKSPACE_ID, OTHER_WORKSPACE_ID],
            )
        elif declared == "ModuleVersionDeprecation":
            wsbridge.ModuleVersionDeprecation(
                "bad", module_name="my vpc", provider="AWS", version="v1.0.0", link="ftp://x"
            )
        elif declared == "getWorkspace":
            wsbridge.get_workspace(name="py-network", id="ws-both")
        else:
            raise ValueError(f"bad_input declares no {declared}")

    return program
