// Package harness runs inline Go programs through Pulumi's Go Automation API on the real Pulumi CLI,
// against an emulator of the Workspace Management API that some other process started (the jest test
// test/cli/go-program.test.ts, or
// bench/go-program.ts for bench/routes.ts). What to reach and where to keep state come from the environment (Settings).
package harness

import (
	"fmt"
	"os"
	"slices"
	"strings"
)

// The variables that name the emulator and the folder for the stacks' workspaces. They are not the
// provider's own variables (WSBRIDGE_ADDRESS, WSBRIDGE_TOKEN, …): the provider must get its settings
// from each stack's config or an explicit provider, never from the environment.
const (
	AddressVariable      = "WSBRIDGE_GO_ADDRESS"
	TokenVariable        = "WSBRIDGE_GO_TOKEN"
	OrganizationVariable = "WSBRIDGE_GO_ORGANIZATION"
	WorkDirVariable      = "WSBRIDGE_GO_WORKDIR"
	// SecretsProviderVariable, when set, is the secrets provider of the stacks NewStack creates
	// (`--secrets-provider`); unset, the passphrase's.
	SecretsProviderVariable = "WSBRIDGE_GO_SECRETS_PROVIDER"
)

// Settings is what the environment names. The CLI (`pulumi` on PATH), its PULUMI_HOME (where the engine
// installs the plugin it downloads), PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES, PULUMI_BACKEND_URL and
// the stacks' secrets (PULUMI_CONFIG_PASSPHRASE, or VAULT_SERVER_URL for a stack made with the test stacks'
// hashivault:// provider, test/support/transit-keeper.ts) come from the environment too: the CLI reads them itself.
type Settings struct {
	// Address is the emulator's base URL; the API is below /api/v2, its controls below /_emulator.
	Address string
	// Token is an owner token of Organization.
	Token        string
	Organization string
	// WorkDir holds one folder per stack: its project and stack settings.
	WorkDir string
}

// FromEnv reads the Settings, naming every variable that is missing.
func FromEnv() (Settings, error) {
	s := Settings{
		Address:      os.Getenv(AddressVariable),
		Token:        os.Getenv(TokenVariable),
		Organization: os.Getenv(OrganizationVariable),
		WorkDir:      os.Getenv(WorkDirVariable),
	}
	var missing []string
	for name, value := range map[string]string{
		AddressVariable: s.Address, TokenVariable: s.Token, OrganizationVariable: s.Organization, WorkDirVariable: s.WorkDir,
	} {
		if value == "" {
			missing = append(missing, name)
		}
	}
	for _, name := range []string{"PULUMI_HOME", "PULUMI_BACKEND_URL"} {
		if os.Getenv(name) == "" {
			missing = append(missing, name)
		}
	}
	if os.Getenv("PULUMI_CONFIG_PASSPHRASE") == "" && os.Getenv("VAULT_SERVER_URL") == "" {
		missing = append(missing, "PULUMI_CONFIG_PASSPHRASE")
	}
	slices.Sort(missing)
	if len(missing) > 0 {
		return s, fmt.Errorf("set %s (see test/go/harness/settings.go)", strings.Join(missing, ", "))
	}
	return s, nil
}
