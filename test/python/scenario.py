"""One stack and the emulator: runs an operation and collects what it did (its events, what the CLI printed,
the emulator's requests during it, the plugin downloads during it)."""

from __future__ import annotations

import json
import platform
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Callable, Optional

from pulumi import automation as auto

from harness.emulator import Emulator, downloads, lines
from harness.events import Recorder, Step
from harness.settings import Settings


@dataclass
class Operation:
    """What an operation reported and the requests the emulator received during it."""

    recorder: Recorder
    # The emulator's requests during the operation, as sorted harness.emulator.lines.
    requests: list[str]
    # The plugin archives the engine downloaded during the operation.
    downloads: list[str]
    # The change counts of the operation's summary.
    changes: dict[str, int]
    error: Optional[Exception] = None

    def writes(self) -> list[str]:
        """The requests that may change something: all but GET."""
        return [line for line in self.requests if not line.startswith("GET ")]

    def steps(self, resource_type: str = "") -> list[Step]:
        return self.recorder.steps(resource_type)

    @property
    def printed(self) -> str:
        return self.recorder.printed


@dataclass
class Scenario:
    settings: Settings
    emulator: Emulator
    stack: auto.Stack
    # Everything every operation printed (checked for tokens).
    printed: list[str] = field(default_factory=list)

    def run(self, name: str, operation: Callable[[Recorder], dict[str, int]]) -> Operation:
        """Clears the request log, runs an operation (its progress goes to a Recorder, and to this process's
        stdout) and collects what it did. A failed operation is returned with its error; `must` raises it."""
        self.emulator.clear_requests()
        downloaded_before = len(downloads(self.settings.downloads))
        recorder = Recorder()
        changes: dict[str, int] = {}
        error: Optional[Exception] = None
        try:
            changes = operation(recorder)
        except auto.CommandError as failure:
            error = failure
        self.printed.append(recorder.printed)
        if error is not None:
            self.printed.append(str(error))
        requests = sorted(lines(self.emulator.requests()))
        return Operation(recorder, requests, downloads(self.settings.downloads)[downloaded_before:], changes, error)

    @staticmethod
    def must(name: str, operation: Operation) -> Operation:
        """The operation, or a failure naming it with what the CLI said."""
        if operation.error is not None:
            raise AssertionError(f"{name} failed: {operation.error}")
        return operation

    def preview(self, stack: Optional[auto.Stack] = None) -> Operation:
        """A preview of the scenario's stack, or of another (its error is the caller's to check)."""
        previewed = stack or self.stack

        def operation(r: Recorder) -> dict[str, int]:
            result = previewed.preview(on_output=r.on_output, on_error=r.on_error, on_event=r.on_event)
            return {_text(op): count for op, count in result.change_summary.items()}

        return self.run("preview", operation)

    def up(self) -> tuple[Operation, dict[str, Any]]:
        outputs: dict[str, Any] = {}

        def operation(r: Recorder) -> dict[str, int]:
            result = self.stack.up(on_output=r.on_output, on_error=r.on_error, on_event=r.on_event)
            outputs.update({key: output.value for key, output in result.outputs.items()})
            return _changes(result.summary)

        return self.must("up", self.run("up", operation)), outputs

    def refresh(self) -> Operation:
        def operation(r: Recorder) -> dict[str, int]:
            result = self.stack.refresh(on_output=r.on_output, on_error=r.on_error, on_event=r.on_event)
            return _changes(result.summary)

        return self.must("refresh", self.run("refresh", operation))

    def destroy(self) -> Operation:
        def operation(r: Recorder) -> dict[str, int]:
            result = self.stack.destroy(on_output=r.on_output, on_error=r.on_error, on_event=r.on_event)
            return _changes(result.summary)

        return self.must("destroy", self.run("destroy", operation))

    def import_resource(self, resource_type: str, name: str, resource_id: str) -> tuple[Operation, str]:
        """`pulumi import` of one resource, unprotected; returns the operation and the program the CLI printed
        (YAML: the project's runtime)."""
        generated: list[str] = []

        def operation(r: Recorder) -> dict[str, int]:
            result = self.stack.import_resources(
                resources=[{"type": resource_type, "name": name, "id": resource_id}],
                protect=False,
                on_output=r.on_output,
            )
            generated.append(result.generated_code)
            return _changes(result.summary)

        imported = self.must("import", self.run("import", operation))
        return imported, generated[0]


def sdk_plugin() -> dict[str, Any]:
    """The installed SDK's pulumi-plugin.json: the plugin's name and version, and where it is released."""
    text = resources.files("pulumi_wsbridge").joinpath("pulumi-plugin.json").read_text()
    return dict(json.loads(text))


def plugin_asset() -> str:
    """The path the engine asks the release server for: the archive of this machine's platform, of the
    version and the GitHub repository the installed SDK names."""
    plugin = sdk_plugin()
    owner_repo = str(plugin["server"]).removeprefix("github://api.github.com/")
    name, version = plugin["name"], plugin["version"]
    system = platform.system().lower()
    arch = {"x86_64": "amd64", "amd64": "amd64", "aarch64": "arm64", "arm64": "arm64"}[platform.machine().lower()]
    return f"/{owner_repo}/releases/download/v{version}/pulumi-resource-{name}-v{version}-{system}-{arch}.tar.gz"


def _changes(summary: auto.UpdateSummary) -> dict[str, int]:
    return {_text(op): count for op, count in (summary.resource_changes or {}).items()}


def _text(value: object) -> str:
    """An enum's value (OpType is a str enum), or the text itself."""
    return str(getattr(value, "value", value))
