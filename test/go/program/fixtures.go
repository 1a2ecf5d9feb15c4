// Package program holds the Go programs the tests and the benchmark run inline: every kind of the
// wsbridge package and its lookups in one program (AllKinds), resources with bad inputs (BadInputs),
// and N workspaces (Workspaces, for bench/routes.ts).
package program

// What the emulator must hold for AllKinds (the jest test starts it with these fixtures, in the
// self-managed edition, where DataRetentionPolicy exists).
const (
	// SSHKeyID is an SSH key of the organization.
	SSHKeyID = "sshkey-gotest0000001"
	// LookupWorkspaces are two workspaces the lookups find, and no other matches LookupPattern.
	LookupWorkspace = "go-lookup-network"
	LookupOther     = "go-lookup-dns"
	LookupPattern   = "go-lookup-*"
	// LookupModule (provider aws) has versions 1.0.0, 1.1.0 (deprecated: DeprecatedReason) and 1.2.0.
	LookupModule     = "vpc"
	DeprecatedReason = "use 1.2.0"
	// DeprecatedModule (provider aws) has versions 2.0.0 and 2.1.0; the program deprecates 2.0.0.
	DeprecatedModule = "dns"
	// ExplicitOrganization is a second organization, reached only through the explicit provider.
	ExplicitOrganization = "go-explicit-org"
)
