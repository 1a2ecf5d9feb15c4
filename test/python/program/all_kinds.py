"""The seven kinds, an explicit provider and the four lookups in one program."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import pulumi
import pulumi_wsbridge as wsbridge
from pulumi import automation as auto

from . import fixtures


@dataclass(frozen=True)
class Connection:
    """An explicit provider's settings."""

    address: str
    token: str
    organization: str


@dataclass
class Declared:
    """What all_kinds declares that a test changes between operations."""

    # The description of the workspace "network".
    network_description: str
    # Where the explicit provider points: its own address, token and organization.
    explicit: Connection
    # Once set, declares the workspace "outside" (made outside Pulumi, then imported) with these inputs.
    imported: Optional[wsbridge.WorkspaceArgs] = None


def all_kinds(d: Declared) -> auto.PulumiFn:
    """Declares the seven kinds (two workspaces, tag bindings, remote state consumers, an SSH key assignment,
    a data retention policy, a lock, a module version deprecation) through the default provider, a workspace
    through an explicit provider, and the four lookups, whose results are stack outputs. The program reads
    d each time it runs."""

    def program() -> None:
        network = wsbridge.Workspace(
            "network", name="py-network", description=d.network_description, tag_bindings={"layer": "network"}
        )
        app = wsbridge.Workspace("app", name="py-app")
        _attachments(network.id, app.id)
        explicit = wsbridge.Provider(
            "explicit",
            address=d.explicit.address,
            token=pulumi.Output.secret(d.explicit.token),
            organization=d.explicit.organization,
        )
        away = wsbridge.Workspace("away", name="py-away", opts=pulumi.ResourceOptions(provider=explicit))
        if d.imported is not None:
            wsbridge.Workspace("outside", d.imported)
        pulumi.export("networkId", network.id)
        pulumi.export("networkUrl", network.html_url)
        pulumi.export("awayOrganization", away.organization)
        _lookups()

    return program


def _attachments(network: pulumi.Output[str], app: pulumi.Output[str]) -> None:
    """The five kinds that attach to the two workspaces, and the deprecation."""
    wsbridge.WorkspaceTagBindings("app-tags", workspace_id=app, tags={"team": "apps"})
    wsbridge.RemoteStateConsumers("readers", workspace_id=network, consumer_ids=[app])
    wsbridge.SshKeyAssignment("key", workspace_id=app, ssh_key_id=fixtures.SSH_KEY_ID)
    wsbridge.DataRetentionPolicy("retention", workspace_id=network, delete_older_than_n_days=30)
    wsbridge.WorkspaceLock("freeze", workspace_id=app, reason="held by the Python program")
    wsbridge.ModuleVersionDeprecation(
        "old-dns", module_name=fixtures.DEPRECATED_MODULE, provider="aws", version="2.0.0", reason="use 2.1.0"
    )


def _lookups() -> None:
    """Runs the four lookups and exports what they found."""
    shared = wsbridge.get_workspace_output(name=fixtures.LOOKUP_WORKSPACE)
    listed = wsbridge.list_workspaces_output(wildcard_name=fixtures.LOOKUP_PATTERN)
    version = wsbridge.get_module_version_output(module_name=fixtures.LOOKUP_MODULE, provider="aws", version="1.1.0")
    versions = wsbridge.list_module_versions_output(module_name=fixtures.LOOKUP_MODULE, provider="aws")
    pulumi.export("lookedUpId", shared.id)
    pulumi.export("lookedUpName", shared.name)
    pulumi.export("listed", listed.workspaces.apply(lambda found: sorted(w.name for w in found)))
    pulumi.export("deprecationReason", version.deprecation.apply(lambda d: None if d is None else d.reason))
    pulumi.export(
        "versions",
        versions.versions.apply(lambda found: [f"{v.version} deprecated={str(v.deprecated).lower()}" for v in found]),
    )
