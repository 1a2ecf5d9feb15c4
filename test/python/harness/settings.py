"""What the environment names: the emulator, the folder for the stacks, the Pulumi CLI and its settings.

The jest test test/cli/python-program.test.ts sets them. The WSBRIDGE_PY_* variables are not the
provider's own (WSBRIDGE_ADDRESS, WSBRIDGE_TOKEN, …): the provider must get its settings from each
stack's config or an explicit provider, never from the environment.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

ADDRESS_VARIABLE = "WSBRIDGE_PY_ADDRESS"
TOKEN_VARIABLE = "WSBRIDGE_PY_TOKEN"
ORGANIZATION_VARIABLE = "WSBRIDGE_PY_ORGANIZATION"
WORK_DIR_VARIABLE = "WSBRIDGE_PY_WORKDIR"
CLI_ROOT_VARIABLE = "WSBRIDGE_PY_CLI_ROOT"
DOWNLOADS_VARIABLE = "WSBRIDGE_PY_DOWNLOADS"

# The CLI's own settings, passed on to every Pulumi command the Automation API runs.
PULUMI_VARIABLES = (
    "PULUMI_HOME",
    "PULUMI_BACKEND_URL",
    "PULUMI_CONFIG_PASSPHRASE",
    "PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES",
)


@dataclass(frozen=True)
class Settings:
    # The emulator's base URL; the API is below /api/v2, its controls below /_emulator.
    address: str
    # An owner token of `organization`.
    token: str
    organization: str
    # Holds one folder per stack: its project and stack settings.
    work_dir: str
    # The folder whose bin/ holds the `pulumi` to run (PulumiCommand's root).
    cli_root: str
    # The URL that answers the list of plugin downloads so far (the release server's request log).
    downloads: str
    pulumi_home: str
    backend_url: str
    passphrase: str
    # PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: where the engine downloads the plugin from.
    download_overrides: str

    @staticmethod
    def from_env() -> Settings:
        """Reads the settings, naming every variable that is missing."""
        names = (
            ADDRESS_VARIABLE,
            TOKEN_VARIABLE,
            ORGANIZATION_VARIABLE,
            WORK_DIR_VARIABLE,
            CLI_ROOT_VARIABLE,
            DOWNLOADS_VARIABLE,
        ) + PULUMI_VARIABLES
        values = {name: os.environ.get(name, "") for name in names}
        missing = sorted(name for name, value in values.items() if value == "")
        if missing:
            raise RuntimeError(f"set {', '.join(missing)} (see test/python/harness/settings.py)")
        return Settings(
            address=values[ADDRESS_VARIABLE],
            token=values[TOKEN_VARIABLE],
            organization=values[ORGANIZATION_VARIABLE],
            work_dir=values[WORK_DIR_VARIABLE],
            cli_root=values[CLI_ROOT_VARIABLE],
            downloads=values[DOWNLOADS_VARIABLE],
            pulumi_home=values["PULUMI_HOME"],
            backend_url=values["PULUMI_BACKEND_URL"],
            passphrase=values["PULUMI_CONFIG_PASSPHRASE"],
            download_overrides=values["PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES"],
        )
