"""Reaches a running emulator over HTTP: its API as an outside client, its request log and its tokens."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any, Optional


@dataclass(frozen=True)
class Request:
    """One API request in the emulator's log."""

    method: str
    path: str
    query: str


@dataclass(frozen=True)
class Emulator:
    address: str
    # The owner token the API calls present.
    token: str

    def requests(self) -> list[Request]:
        """The request log since its last clear (`GET /_emulator/requests`)."""
        _, log = self._call("GET", "/_emulator/requests")
        return [Request(r["method"], r["path"], r.get("query") or "") for r in log]

    def clear_requests(self) -> None:
        """Empties the request log (`DELETE /_emulator/requests`)."""
        self._call("DELETE", "/_emulator/requests")

    def issue_token(self, spec: dict[str, str]) -> str:
        """Asks for a token (`POST /_emulator/tokens`), e.g. another organization's owner."""
        status, issued = self._call("POST", "/_emulator/tokens", body=spec)
        if status != 201:
            raise RuntimeError(f"POST /_emulator/tokens answered {status}")
        return str(issued["token"])

    def api(self, method: str, path: str, body: Optional[dict[str, Any]] = None) -> tuple[int, Any]:
        """Sends a JSON:API request below /api/v2 with the owner token; returns the status and the decoded answer."""
        return self._call(method, "/api/v2" + path, body=body, token=self.token)

    def _call(self, method: str, path: str, body: Optional[dict[str, Any]] = None, token: str = "") -> tuple[int, Any]:
        request = urllib.request.Request(
            self.address + path,
            method=method,
            data=None if body is None else json.dumps(body).encode(),
            headers={"content-type": "application/vnd.api+json"},
        )
        if token != "":
            request.add_header("authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                status, text = response.status, response.read()
        except urllib.error.HTTPError as error:
            status, text = error.code, error.read()
        return status, (json.loads(text) if text else None)


_WORKSPACE_IDS = re.compile(r"ws-[A-Za-z0-9]+")


def lines(requests: list[Request]) -> list[str]:
    """Shows requests as "METHOD /path?query", below /api/v2, with workspace ids as "ws-…"."""
    shown = []
    for r in requests:
        path = r.path[len("/api/v2"):] if r.path.startswith("/api/v2") else r.path
        line = f"{r.method} {_WORKSPACE_IDS.sub('ws-…', path)}"
        shown.append(f"{line}?{r.query}" if r.query else line)
    return shown


def downloads(url: str) -> list[str]:
    """The plugin downloads so far: the paths the release server was asked for."""
    with urllib.request.urlopen(url, timeout=60) as response:
        return [str(path) for path in json.loads(response.read())]
