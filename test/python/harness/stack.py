"""Stacks of inline Python programs, run by Pulumi's Python Automation API on the real Pulumi CLI."""

from __future__ import annotations

import functools
import os
from pulumi import automation as auto

from .settings import Settings


@functools.lru_cache(maxsize=None)
def pulumi_command(root: str) -> auto.PulumiCommand:
    """The CLI below `root` (its bin/pulumi), found once per process (finding it runs `pulumi version`)."""
    return auto.PulumiCommand(root=root)


def new_stack(settings: Settings, project: str, stack: str, program: auto.PulumiFn) -> auto.Stack:
    """Creates (or selects) the stack `stack` of `project` for an inline program, in a folder of its own below
    Settings.work_dir, and points the default provider at the emulator through the stack's config (the token
    stored as a secret).

    Every Pulumi command of the stack gets the CLI's settings from the workspace's options: PULUMI_HOME,
    the backend, the passphrase, and PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES, which sends the engine to the
    release server when it downloads the plugin.

    The project's runtime is `yaml`: `pulumi import` asks the project's language host which packages the
    program needs, and Pulumi's YAML host (beside the CLI) is the one these machines can run. An inline
    program's operations never start the language host: the Automation API hosts the program in this
    process and passes its address with --client.
    """
    work_dir = os.path.join(settings.work_dir, f"{project}.{stack}")
    os.makedirs(work_dir, mode=0o700, exist_ok=True)
    options = auto.LocalWorkspaceOptions(
        work_dir=work_dir,
        pulumi_home=settings.pulumi_home,
        env_vars={
            "PULUMI_BACKEND_URL": settings.backend_url,
            "PULUMI_CONFIG_PASSPHRASE": settings.passphrase,
            "PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES": settings.download_overrides,
            "PULUMI_SKIP_UPDATE_CHECK": "true",
        },
        pulumi_command=pulumi_command(settings.cli_root),
        project_settings=auto.ProjectSettings(
            name=project,
            # The Automation API's ProjectSettings takes only its own SDK's languages by name.
            runtime=auto.ProjectRuntimeInfo(name="yaml"),
            # The program folder (without it, the Automation API names the current folder, test/python).
            main=work_dir,
            backend=auto.ProjectBackend(url=settings.backend_url),
        ),
    )
    created = auto.create_or_select_stack(stack, project_name=project, program=program, opts=options)
    created.set_all_config(
        {
            "wsbridge:address": auto.ConfigValue(settings.address),
            "wsbridge:token": auto.ConfigValue(settings.token, secret=True),
            "wsbridge:organization": auto.ConfigValue(settings.organization),
        }
    )
    return created
