"""What one operation reported: the engine's events and what the CLI printed."""

from __future__ import annotations

import sys
import threading
from dataclasses import dataclass, field

from pulumi.automation import events


@dataclass(frozen=True)
class Step:
    """One planned or applied step of a resource other than "same", as the CLI shows it."""

    op: str
    # The resource's name in the program.
    name: str
    # The detailed diff's entries, `path: kind`, sorted ("description: update").
    paths: list[str] = field(default_factory=list)
    # The keys the engine says change, sorted.
    diffs: list[str] = field(default_factory=list)


class Recorder:
    """Collects one operation's events (pass `on_event`) and printed lines (pass `on_output`, `on_error`).

    The printed lines also go to this process's stdout, where the jest test shows them when a step fails.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.events: list[events.EngineEvent] = []
        self._printed: list[str] = []

    def on_event(self, event: events.EngineEvent) -> None:
        with self._lock:
            self.events.append(event)

    def on_output(self, line: str) -> None:
        with self._lock:
            self._printed.append(line)
        print(line, flush=True)

    def on_error(self, line: str) -> None:
        with self._lock:
            self._printed.append(line)
        print(line, file=sys.stderr, flush=True)

    @property
    def printed(self) -> str:
        with self._lock:
            return "\n".join(self._printed)

    def steps(self, resource_type: str = "") -> list[Step]:
        """The steps other than "same" of resources of the type (a type token, or "" for every resource but
        the stack itself), in the order the engine reported them."""
        found = []
        for event in self.events:
            pre = event.resource_pre_event
            if pre is None:
                continue
            m = pre.metadata
            op = _text(m.op)
            if op == "same" or m.type == "pulumi:pulumi:Stack" or (resource_type != "" and m.type != resource_type):
                continue
            paths = sorted(f"{path}: {_text(diff.diff_kind)}" for path, diff in (m.detailed_diff or {}).items())
            found.append(Step(op=op, name=m.urn[m.urn.rindex("::") + 2:], paths=paths, diffs=sorted(m.diffs or [])))
        return found

    def diagnostics(self, severity: str) -> list[str]:
        """The messages of the engine's diagnostic events at the severity ("error", "warning"…)."""
        return [
            event.diagnostic_event.message.strip()
            for event in self.events
            if event.diagnostic_event is not None and event.diagnostic_event.severity == severity
        ]


def _text(value: object) -> str:
    """An enum's value (OpType, DiffKind are str enums), or the text itself."""
    return str(getattr(value, "value", value))
