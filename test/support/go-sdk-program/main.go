// A Go program that uses the generated Go SDK (sdk/go) as a user's program would: its go.mod, written
// by the test, requires github.com/pulumi-wsbridge/pulumi-wsbridge/sdk/go and replaces it with the
// local path. Under Pulumi's mocks it creates the provider, every resource and calls every function,
// then prints what reached the (mocked) engine as JSON: each registration's type, name, plugin version
// and input names, and each invoke's token.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"sync"

	"github.com/pulumi-wsbridge/pulumi-wsbridge/sdk/go/wsbridge"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

type registration struct {
	Type    string   `json:"type"`
	Name    string   `json:"name"`
	Version string   `json:"version"`
	Inputs  []string `json:"inputs"`
}

type engine struct {
	mu            sync.Mutex
	Registrations []registration `json:"registrations"`
	Invokes       []string       `json:"invokes"`
}

func (e *engine) NewResource(args pulumi.MockResourceArgs) (string, resource.PropertyMap, error) {
	inputs := make([]string, 0, len(args.Inputs))
	for key := range args.Inputs {
		inputs = append(inputs, string(key))
	}
	sort.Strings(inputs)
	e.mu.Lock()
	defer e.mu.Unlock()
	e.Registrations = append(e.Registrations, registration{
		Type: args.TypeToken, Name: args.Name, Version: args.RegisterRPC.GetVersion(), Inputs: inputs,
	})
	return args.Name + "-id", args.Inputs, nil
}

func (e *engine) Call(args pulumi.MockCallArgs) (resource.PropertyMap, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.Invokes = append(e.Invokes, args.Token)
	return resource.PropertyMap{}, nil
}

func program(ctx *pulumi.Context) error {
	provider, err := wsbridge.NewProvider(ctx, "go-provider", &wsbridge.ProviderArgs{
		Organization: pulumi.String("org"), Token: pulumi.String("tok"),
	})
	if err != nil {
		return err
	}
	opts := pulumi.Provider(provider)
	workspace, err := wsbridge.NewWorkspace(ctx, "go-Workspace", &wsbridge.WorkspaceArgs{Name: pulumi.String("ws")}, opts)
	if err != nil {
		return err
	}
	id := workspace.ID().ToStringOutput()
	steps := []func() error{
		func() error {
			_, err := wsbridge.NewWorkspaceLock(ctx, "go-WorkspaceLock", &wsbridge.WorkspaceLockArgs{WorkspaceId: id}, opts)
			return err
		},
		func() error {
			_, err := wsbridge.NewSshKeyAssignment(ctx, "go-SshKeyAssignment", &wsbridge.SshKeyAssignmentArgs{
				WorkspaceId: id, SshKeyId: pulumi.String("sshkey-1"),
			}, opts)
			return err
		},
		func() error {
			_, err := wsbridge.NewDataRetentionPolicy(ctx, "go-DataRetentionPolicy", &wsbridge.DataRetentionPolicyArgs{WorkspaceId: id}, opts)
			return err
		},
		func() error {
			_, err := wsbridge.NewWorkspaceTagBindings(ctx, "go-WorkspaceTagBindings", &wsbridge.WorkspaceTagBindingsArgs{
				WorkspaceId: id, Tags: pulumi.StringMap{"team": pulumi.String("platform")},
			}, opts)
			return err
		},
		func() error {
			_, err := wsbridge.NewRemoteStateConsumers(ctx, "go-RemoteStateConsumers", &wsbridge.RemoteStateConsumersArgs{
				WorkspaceId: id, ConsumerIds: pulumi.StringArray{pulumi.String("ws-2")},
			}, opts)
			return err
		},
		func() error {
			_, err := wsbridge.NewModuleVersionDeprecation(ctx, "go-ModuleVersionDeprecation", &wsbridge.ModuleVersionDeprecationArgs{
				ModuleName: pulumi.String("vpc"), Provider: pulumi.String("aws"), Version: pulumi.String("1.0.0"),
			}, opts)
			return err
		},
		func() error {
			_, err := wsbridge.LookupWorkspace(ctx, &wsbridge.LookupWorkspaceArgs{Name: pulumi.StringRef("ws")})
			return err
		},
		func() error {
			_, err := wsbridge.ListWorkspaces(ctx, &wsbridge.ListWorkspacesArgs{Tags: []string{"team"}})
			return err
		},
		func() error {
			_, err := wsbridge.GetModuleVersion(ctx, &wsbridge.GetModuleVersionArgs{ModuleName: "vpc", Provider: "aws", Version: "1.0.0"})
			return err
		},
		func() error {
			_, err := wsbridge.ListModuleVersions(ctx, &wsbridge.ListModuleVersionsArgs{ModuleName: "vpc", Provider: "aws"})
			return err
		},
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

func main() {
	mocks := &engine{}
	if err := pulumi.RunErr(program, pulumi.WithMocks("project", "stack", mocks)); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	sort.Slice(mocks.Registrations, func(i, j int) bool { return mocks.Registrations[i].Name < mocks.Registrations[j].Name })
	sort.Strings(mocks.Invokes)
	if err := json.NewEncoder(os.Stdout).Encode(mocks); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
