package harness

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/common/tokens"
	"github.com/pulumi/pulumi/sdk/v3/go/common/workspace"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

var (
	cliOnce sync.Once
	cli     auto.PulumiCommand
	cliErr  error
)

// pulumiCLI is the `pulumi` on PATH, found once per process (finding it runs `pulumi version`).
func pulumiCLI() (auto.PulumiCommand, error) {
	cliOnce.Do(func() {
		cli, cliErr = auto.NewPulumiCommand(&auto.PulumiCommandOptions{SkipVersionCheck: true})
	})
	return cli, cliErr
}

// NewStack creates the stack `stack` of `project` for an inline Go program, in a folder of its own
// below Settings.WorkDir, and points the default provider at the emulator through the stack's config
// (the token stored as a secret).
//
// The project's runtime is `yaml`: `pulumi import` asks the project's language host which packages
// the program needs, and Pulumi's YAML host (beside the CLI) is the one these machines can run. An
// inline program's operations never start the language host: the Automation API hosts the program in
// this process and passes its address with --client.
//
// The stack answers the commands the Automation API runs after an operation only to fill in its
// result from the run itself (followUps), as scripts/lib/stack-harness.ts does for TypeScript programs.
func NewStack(ctx context.Context, s Settings, project, stack string, program pulumi.RunFunc) (auto.Stack, error) {
	command, err := pulumiCLI()
	if err != nil {
		return auto.Stack{}, err
	}
	dir := filepath.Join(s.WorkDir, project+"."+stack)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return auto.Stack{}, err
	}
	settings := workspace.Project{
		Name:    tokens.PackageName(project),
		Runtime: workspace.NewProjectRuntimeInfo("yaml", nil),
		Backend: &workspace.ProjectBackend{URL: os.Getenv("PULUMI_BACKEND_URL")},
	}
	options := []auto.LocalWorkspaceOption{auto.WorkDir(dir), auto.Project(settings), auto.Pulumi(newFollowUps(command, project, stack))}
	if provider := os.Getenv(SecretsProviderVariable); provider != "" {
		options = append(options, auto.SecretsProvider(provider))
	}
	st, err := auto.UpsertStackInlineSource(ctx, stack, project, program, options...)
	if err != nil {
		return st, fmt.Errorf("stack %s/%s: %w", project, stack, err)
	}
	err = st.SetAllConfig(ctx, auto.ConfigMap{
		"wsbridge:address":      {Value: s.Address},
		"wsbridge:token":        {Value: s.Token, Secret: true},
		"wsbridge:organization": {Value: s.Organization},
	})
	if err != nil {
		return st, fmt.Errorf("config of %s/%s: %w", project, stack, err)
	}
	return st, nil
}
