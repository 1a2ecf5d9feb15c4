"""Runs inline Python programs through Pulumi's Python Automation API on the real Pulumi CLI, against an
emulator of the Workspace Management API that another process started (the jest test
test/cli/python-program.test.ts). What to reach and where to keep state come from the environment
(settings.Settings)."""
