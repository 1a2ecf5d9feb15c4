"""What the emulator must hold for all_kinds: the jest test (test/cli/python-program.test.ts) starts it with
these fixtures, in the self-managed edition, where DataRetentionPolicy exists."""

# An SSH key of the organization.
SSH_KEY_ID = "sshkey-pytest0000001"
# Two workspaces the lookups find; no other matches LOOKUP_PATTERN.
LOOKUP_WORKSPACE = "py-lookup-network"
LOOKUP_OTHER = "py-lookup-dns"
LOOKUP_PATTERN = "py-lookup-*"
# LOOKUP_MODULE (provider aws) has versions 1.0.0, 1.1.0 (deprecated: DEPRECATED_REASON) and 1.2.0.
LOOKUP_MODULE = "vpc"
DEPRECATED_REASON = "use 1.2.0"
# DEPRECATED_MODULE (provider aws) has versions 2.0.0 and 2.1.0; the program deprecates 2.0.0.
DEPRECATED_MODULE = "dns"
# A second organization, reached only through the explicit provider.
EXPLICIT_ORGANIZATION = "py-explicit-org"
