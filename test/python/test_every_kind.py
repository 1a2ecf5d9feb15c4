"""A Python program through the provider plugin on the real Pulumi CLI: every kind and the four lookups in
one inline program run by Pulumi's Python Automation API, against the emulator the environment names
(harness.settings). Run by test/cli/python-program.test.ts, which starts the emulator with the fixtures of
program/fixtures.py and the release server the engine downloads the plugin from, with an empty PULUMI_HOME.

The steps are this class's test methods, numbered in the order they run (unittest runs them by name);
each needs the ones before it, so the first that fails stops the rest: run with `python -m unittest -v -f`.
unittest, not pytest: the steps are one ordered scenario, where pytest's fixtures and parametrization add
nothing, and the standard library's runner is one package less for every fresh virtual environment.
"""

from __future__ import annotations

import functools
import os
import unittest
from typing import Any, Callable, ClassVar, TypeVar

from harness.emulator import Emulator, downloads
from harness.events import Step
from harness.imported import inputs_of, workspace_args_from
from harness.settings import Settings
from harness.stack import new_stack
from program import fixtures
from program.all_kinds import Connection, Declared, all_kinds
from program.bad_inputs import BAD_KINDS, bad_input
from scenario import Scenario, plugin_asset, sdk_plugin

WORKSPACE_TYPE = "wsbridge:index:Workspace"

# What all_kinds declares besides the stack: nine resources and the explicit provider (summaries count
# explicit providers, not default ones).
DECLARED_RESOURCES = 10

ONE_DESCRIPTION_UPDATE = [Step(op="update", name="network", paths=["description: update"], diffs=["description"])]
ONE_PATCH = ["PATCH /workspaces/ws-…?include=effective_tag_bindings"]


def lookup_reads(organization: str) -> list[str]:
    """The requests of the four lookups, sorted, which every preview and up sends again."""
    return [
        f"GET /api/registry/v1/modules/{organization}/{fixtures.LOOKUP_MODULE}/aws/1.1.0",
        f"GET /api/registry/v1/modules/{organization}/{fixtures.LOOKUP_MODULE}/aws/versions",
        f"GET /organizations/{organization}/workspaces/{fixtures.LOOKUP_WORKSPACE}",
        f"GET /organizations/{organization}/workspaces?search%5Bwildcard-name%5D={fixtures.LOOKUP_PATTERN}"
        "&page%5Bnumber%5D=1&page%5Bsize%5D=100",
    ]


# Per kind, each property the preview of bad_input must name and (a part of) the rule it must state: the
# TypeScript route's tests expect the same (test/cli/plugin-matches-*, test/runtime/workspace-input-rules.test.ts),
# and so does the Go program (test/go/steps_test.go). The lock's wrong types are those of the TypeScript test.
EXPECTED_FAILURES: dict[str, list[tuple[str, str]]] = {
    "Workspace": [
        ("name", "only letters, digits"),
        ("autoDestroyActivityDuration", "greater than 0"),
        ("executionMode", '"remote", "local" or "agent"'),
    ],
    "WorkspaceLock": [
        ("workspaceId", 'must be a workspace id ("ws-…")'),
        ("reason", "must be a string"),
        ("forceUnlockOnDestroy", "must be a boolean"),
    ],
    "SshKeyAssignment": [("sshKeyId", 'must be an SSH key id ("sshkey-…")')],
    "DataRetentionPolicy": [("dontDelete", "must be true when given")],
    "WorkspaceTagBindings": [
        ("workspaceId", 'must be a workspace id ("ws-…")'),
        ("tags.hcp:owner", 'tag key "hcp:owner" must not start with the reserved prefixes hc: or hcp:'),
        ("tags.env", "may contain only letters, digits and _ . = + - @ :"),
    ],
    "RemoteStateConsumers": [
        ("consumerIds[1]", 'is "ws-valid000000001", the workspace itself (workspaceId)'),
        ("consumerIds[2]", 'repeats consumerIds[0] ("ws-valid000000002")'),
    ],
    "ModuleVersionDeprecation": [
        ("moduleName", "letters, digits, - and _ only"),
        ("provider", "lower-case letters, digits and _ only"),
        ("version", 'no leading "v"'),
        ("link", "absolute http or https URL"),
    ],
    "getWorkspace": [("id", "id and name must not both be given (give exactly one of them) (id)")],
}

_Test = TypeVar("_Test", bound="EveryKindAndTheLookupsRunThroughThePluginOnTheRealCLI")


def step(number: int) -> Callable[[Callable[[_Test], None]], Callable[[_Test], None]]:
    """Marks a step: it runs only when every step before it passed (also without -f)."""

    def decorate(run: Callable[[_Test], None]) -> Callable[[_Test], None]:
        @functools.wraps(run)
        def guarded(self: _Test) -> None:
            if type(self).passed != number - 1:
                self.skipTest(f"step {type(self).passed + 1} did not pass")
            run(self)
            type(self).passed = number

        return guarded

    return decorate


class EveryKindAndTheLookupsRunThroughThePluginOnTheRealCLI(unittest.TestCase):
    maxDiff = None
    settings: ClassVar[Settings]
    scenario: ClassVar[Scenario]
    declared: ClassVar[Declared]
    # Reaches the emulator as the explicit provider's organization does.
    explicit: ClassVar[Emulator]
    # The number of steps that passed, in order.
    passed: ClassVar[int] = 0

    @classmethod
    def setUpClass(cls) -> None:
        cls.settings = Settings.from_env()
        emulator = Emulator(cls.settings.address, cls.settings.token)
        explicit_token = emulator.issue_token({"kind": "owner", "organization": fixtures.EXPLICIT_ORGANIZATION})
        cls.explicit = Emulator(cls.settings.address, explicit_token)
        cls.declared = Declared(
            network_description="VPCs and peering",
            explicit=Connection(cls.settings.address, explicit_token, fixtures.EXPLICIT_ORGANIZATION),
        )
        stack = new_stack(cls.settings, "wsbridge-py", "dev", all_kinds(cls.declared))
        cls.scenario = Scenario(cls.settings, emulator, stack)

    # Reading the server, as an outside client.

    def workspace(self, api: Emulator, organization: str, name: str) -> tuple[int, dict[str, Any]]:
        """The status and the workspace's id, name and description as the API shows them."""
        status, document = api.api("GET", f"/organizations/{organization}/workspaces/{name}")
        if status != 200:
            return status, {}
        attributes = document["data"]["attributes"]
        return status, {"id": document["data"]["id"], "name": attributes["name"], "description": attributes.get("description")}

    def workspace_names(self, api: Emulator, organization: str) -> list[str]:
        """The names of every workspace of the organization (one page: the test makes few)."""
        status, document = api.api("GET", f"/organizations/{organization}/workspaces?page%5Bsize%5D=100")
        self.assertEqual(status, 200, f"listing the workspaces of {organization}")
        return sorted(w["attributes"]["name"] for w in document["data"])

    def plugins(self) -> list[str]:
        """What PULUMI_HOME's plugin folder holds."""
        folder = os.path.join(self.settings.pulumi_home, "plugins")
        return sorted(os.listdir(folder)) if os.path.isdir(folder) else []

    # The steps.

    @step(1)
    def test_1_up_creates_every_kind(self) -> None:
        """up creates every kind, the explicit provider's workspace in its own organization, and exports the
        lookups' results; the engine downloads the plugin for it, once"""
        s, organization = self.scenario, self.settings.organization
        self.assertEqual(self.plugins(), [], "PULUMI_HOME holds no plugin before the first up")
        self.assertEqual(downloads(self.settings.downloads), [], "nothing was downloaded before the first up")
        up, outputs = s.up()
        self.assertEqual(up.changes, {"create": DECLARED_RESOURCES + 1})
        self.assertEqual(up.downloads, [plugin_asset()], "the first up downloads the plugin's archive, once")
        installed = f"resource-wsbridge-v{sdk_plugin()['version']}"
        self.assertEqual(self.plugins(), [installed, f"{installed}.lock"], "the engine unpacked it into PULUMI_HOME")
        _, network = self.workspace(s.emulator, organization, "py-network")
        _, shared = self.workspace(s.emulator, organization, fixtures.LOOKUP_WORKSPACE)
        self.assertEqual(
            outputs,
            {
                "networkId": network["id"],
                "networkUrl": f"{self.settings.address}/app/{organization}/workspaces/py-network",
                "awayOrganization": fixtures.EXPLICIT_ORGANIZATION,
                "lookedUpId": shared["id"],
                "lookedUpName": fixtures.LOOKUP_WORKSPACE,
                "listed": [fixtures.LOOKUP_OTHER, fixtures.LOOKUP_WORKSPACE],
                "deprecationReason": fixtures.DEPRECATED_REASON,
                "versions": ["1.0.0 deprecated=false", "1.1.0 deprecated=true", "1.2.0 deprecated=false"],
            },
        )
        # The explicit provider's workspace is in its own organization only.
        status, _ = self.workspace(self.explicit, fixtures.EXPLICIT_ORGANIZATION, "py-away")
        self.assertEqual(status, 200, f"py-away is in {fixtures.EXPLICIT_ORGANIZATION}")
        self.assertNotIn("py-away", self.workspace_names(s.emulator, organization))
        self.assertEqual(network["description"], self.declared.network_description)

    @step(2)
    def test_2_a_no_op_preview(self) -> None:
        """a preview with nothing changed plans no step and sends only the lookups' four reads"""
        preview = self.scenario.must("preview", self.scenario.preview())
        self.assertEqual(preview.steps(), [])
        self.assertEqual(preview.changes, {"same": DECLARED_RESOURCES + 1})
        self.assertEqual(preview.writes(), [])
        self.assertEqual(preview.requests, lookup_reads(self.settings.organization))

    @step(3)
    def test_3_one_change_previewed_exactly(self) -> None:
        """a new description previews as exactly that path, and up applies it with one PATCH"""
        s = self.scenario
        self.declared.network_description = "VPCs, peering and DNS"
        preview = s.must("preview", s.preview())
        self.assertEqual(preview.steps(), ONE_DESCRIPTION_UPDATE)
        self.assertEqual(preview.writes(), [], "writes of the preview")
        up, _ = s.up()
        self.assertEqual(up.changes, {"update": 1, "same": DECLARED_RESOURCES})
        self.assertEqual(up.writes(), ONE_PATCH, "writes of the up")
        _, network = self.workspace(s.emulator, self.settings.organization, "py-network")
        self.assertEqual(network["description"], self.declared.network_description)

    @step(4)
    def test_4_drift_restored(self) -> None:
        """drift made through the API is found by refresh, previewed as exactly the restore, and restored by up"""
        s, organization = self.scenario, self.settings.organization
        _, network = self.workspace(s.emulator, organization, "py-network")
        drift = {"data": {"type": "workspaces", "attributes": {"description": "changed in the UI"}}}
        status, _ = s.emulator.api("PATCH", f"/workspaces/{network['id']}", drift)
        self.assertEqual(status, 200, "drifting the description")
        refresh = s.refresh()
        self.assertEqual(refresh.changes, {"update": 1, "same": DECLARED_RESOURCES}, "changes of the refresh")
        preview = s.must("preview", s.preview())
        self.assertEqual(preview.steps(), ONE_DESCRIPTION_UPDATE)
        up, _ = s.up()
        self.assertEqual(up.writes(), ONE_PATCH, "writes of the up")
        _, network = self.workspace(s.emulator, organization, "py-network")
        self.assertEqual(network["description"], self.declared.network_description)

    @step(5)
    def test_5_import_adopts(self) -> None:
        """pulumi import adopts a workspace made outside Pulumi, and the program declaring its imported inputs
        previews no change"""
        s, organization = self.scenario, self.settings.organization
        body = {"data": {"type": "workspaces", "attributes": {"name": "py-outside", "description": "made in the UI"}}}
        status, created = s.emulator.api("POST", f"/organizations/{organization}/workspaces", body)
        self.assertEqual(status, 201, "creating py-outside through the API")
        imported, program = s.import_resource(WORKSPACE_TYPE, "outside", created["data"]["id"])
        # The project's runtime is YAML (harness.stack), so the CLI printed YAML.
        self.assertIn("py-outside", program, "the program pulumi import printed declares py-outside")
        self.assertEqual(imported.writes(), [], "writes of the import")
        inputs = inputs_of(s.stack.export_stack(), "outside")
        print(f"the imported inputs: {inputs}", flush=True)
        self.assertEqual(
            [inputs.get("name"), inputs.get("description"), inputs.get("organization")],
            ["py-outside", "made in the UI", organization],
        )
        self.declared.imported = workspace_args_from(inputs)
        preview = s.must("preview", s.preview())
        self.assertEqual(preview.steps(), [], "planned steps with the imported inputs declared")
        self.assertEqual(preview.writes(), [], "writes of the preview")

    @step(6)
    def test_6_bad_inputs_fail(self) -> None:
        """bad inputs of each kind and of a lookup fail the preview with the TypeScript route's messages,
        without a request"""
        s = self.scenario
        # The kind the program declares, read each time it runs.
        declaring = [""]
        bad = new_stack(self.settings, "wsbridge-py-bad", "dev", bad_input(lambda: declaring[0]))
        for k in BAD_KINDS:
            declaring[0] = k
            preview = s.preview(bad)
            self.assertIsNotNone(preview.error, f"the preview of a bad {k} fails")
            text = f"{preview.printed}\n{preview.error}"
            for prop, rule in EXPECTED_FAILURES[k]:
                said = f"wsbridge:index:{k} resource 'bad': property {prop} value {{"
                if k == "getWorkspace":
                    # Each language's SDK words the frame of a failed invoke its own way; the reason inside
                    # is the plugin's, the same.
                    said = "invoke of wsbridge:index:getWorkspace failed: "
                for part in (said, rule):
                    self.assertIn(part, text, f"the preview of a bad {k} says it")
            self.assertEqual(preview.requests, [], f"requests of the preview of a bad {k}")

    @step(7)
    def test_7_destroy_deletes_everything(self) -> None:
        """destroy deletes everything the stack made, and only the fixtures' workspaces are left"""
        s = self.scenario
        destroy = s.destroy()
        self.assertEqual(destroy.changes, {"delete": DECLARED_RESOURCES + 2})
        self.assertEqual(
            self.workspace_names(s.emulator, self.settings.organization),
            [fixtures.LOOKUP_OTHER, fixtures.LOOKUP_WORKSPACE],
        )
        self.assertEqual(self.workspace_names(self.explicit, fixtures.EXPLICIT_ORGANIZATION), [])

    @step(8)
    def test_8_the_plugin_was_downloaded_once(self) -> None:
        """the engine downloaded the plugin once, during the first up: no later operation downloaded it again"""
        self.assertEqual(downloads(self.settings.downloads), [plugin_asset()])

    @step(9)
    def test_9_no_token_is_printed(self) -> None:
        """neither the explicit provider's token nor the emulator's is in anything the CLI printed"""
        printed = "\n".join(self.scenario.printed)
        self.assertNotIn(self.explicit.token, printed, "the explicit provider's token")
        self.assertNotIn(self.settings.token, printed, "the emulator's token")


if __name__ == "__main__":
    unittest.main(verbosity=2, failfast=True)
