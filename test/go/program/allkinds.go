package program

import (
	"fmt"
	"sort"

	"github.com/pulumi-wsbridge/pulumi-wsbridge/sdk/go/wsbridge"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// Declared is what AllKinds declares that a test changes between operations.
type Declared struct {
	// NetworkDescription is the description of the workspace "network".
	NetworkDescription string
	// Explicit is where the explicit provider points: its own address, token and organization.
	Explicit Connection
	// Imported, once set, declares the workspace "outside" (made outside Pulumi, then imported) with these inputs.
	Imported *wsbridge.WorkspaceArgs
}

// Connection is an explicit provider's settings.
type Connection struct {
	Address, Token, Organization string
}

// AllKinds declares the seven kinds (two workspaces, tag bindings, remote state consumers, an SSH key
// assignment, a data retention policy, a lock, a module version deprecation) through the default
// provider, a workspace through an explicit provider, and the four lookups, whose results are stack
// outputs. The program reads d each time it runs.
func AllKinds(d *Declared) pulumi.RunFunc {
	return func(ctx *pulumi.Context) error {
		network, err := wsbridge.NewWorkspace(ctx, "network", &wsbridge.WorkspaceArgs{
			Name: pulumi.String("go-network"), Description: pulumi.String(d.NetworkDescription),
			TagBindings: pulumi.StringMap{"layer": pulumi.String("network")},
		})
		if err != nil {
			return err
		}
		app, err := wsbridge.NewWorkspace(ctx, "app", &wsbridge.WorkspaceArgs{Name: pulumi.String("go-app")})
		if err != nil {
			return err
		}
		if err := attachments(ctx, network.ID().ToStringOutput(), app.ID().ToStringOutput()); err != nil {
			return err
		}
		explicit, err := wsbridge.NewProvider(ctx, "explicit", &wsbridge.ProviderArgs{
			Address: pulumi.String(d.Explicit.Address), Token: pulumi.ToSecret(pulumi.String(d.Explicit.Token)).(pulumi.StringOutput),
			Organization: pulumi.String(d.Explicit.Organization),
		})
		if err != nil {
			return err
		}
		away, err := wsbridge.NewWorkspace(ctx, "away", &wsbridge.WorkspaceArgs{Name: pulumi.String("go-away")}, pulumi.Provider(explicit))
		if err != nil {
			return err
		}
		if d.Imported != nil {
			if _, err := wsbridge.NewWorkspace(ctx, "outside", d.Imported); err != nil {
				return err
			}
		}
		ctx.Export("networkId", network.ID())
		ctx.Export("networkUrl", network.HtmlUrl)
		ctx.Export("awayOrganization", away.Organization)
		lookups(ctx)
		return nil
	}
}

// attachments declares the five kinds that attach to the two workspaces, and the deprecation.
func attachments(ctx *pulumi.Context, network, app pulumi.StringOutput) error {
	if _, err := wsbridge.NewWorkspaceTagBindings(ctx, "app-tags", &wsbridge.WorkspaceTagBindingsArgs{
		WorkspaceId: app, Tags: pulumi.StringMap{"team": pulumi.String("apps")},
	}); err != nil {
		return err
	}
	if _, err := wsbridge.NewRemoteStateConsumers(ctx, "readers", &wsbridge.RemoteStateConsumersArgs{
		WorkspaceId: network, ConsumerIds: pulumi.StringArray{app},
	}); err != nil {
		return err
	}
	if _, err := wsbridge.NewSshKeyAssignment(ctx, "key", &wsbridge.SshKeyAssignmentArgs{
		WorkspaceId: app, SshKeyId: pulumi.String(SSHKeyID),
	}); err != nil {
		return err
	}
	if _, err := wsbridge.NewDataRetentionPolicy(ctx, "retention", &wsbridge.DataRetentionPolicyArgs{
		WorkspaceId: network, DeleteOlderThanNDays: pulumi.Int(30),
	}); err != nil {
		return err
	}
	if _, err := wsbridge.NewWorkspaceLock(ctx, "freeze", &wsbridge.WorkspaceLockArgs{
		WorkspaceId: app, Reason: pulumi.String("held by the Go program"),
	}); err != nil {
		return err
	}
	_, err := wsbridge.NewModuleVersionDeprecation(ctx, "old-dns", &wsbridge.ModuleVersionDeprecationArgs{
		ModuleName: pulumi.String(DeprecatedModule), Provider: pulumi.String("aws"), Version: pulumi.String("2.0.0"),
		Reason: pulumi.String("use 2.1.0"),
	})
	return err
}

// lookups runs the four lookups and exports what they found.
func lookups(ctx *pulumi.Context) {
	shared := wsbridge.LookupWorkspaceOutput(ctx, wsbridge.LookupWorkspaceOutputArgs{Name: pulumi.String(LookupWorkspace)})
	listed := wsbridge.ListWorkspacesOutput(ctx, wsbridge.ListWorkspacesOutputArgs{WildcardName: pulumi.String(LookupPattern)})
	version := wsbridge.GetModuleVersionOutput(ctx, wsbridge.GetModuleVersionOutputArgs{
		ModuleName: pulumi.String(LookupModule), Provider: pulumi.String("aws"), Version: pulumi.String("1.1.0"),
	})
	versions := wsbridge.ListModuleVersionsOutput(ctx, wsbridge.ListModuleVersionsOutputArgs{
		ModuleName: pulumi.String(LookupModule), Provider: pulumi.String("aws"),
	})
	ctx.Export("lookedUpId", shared.Id())
	ctx.Export("lookedUpName", shared.Name())
	ctx.Export("listed", listed.Workspaces().ApplyT(func(all []wsbridge.WorkspaceLookupResult) []string {
		names := make([]string, 0, len(all))
		for _, w := range all {
			names = append(names, w.Name)
		}
		sort.Strings(names)
		return names
	}))
	ctx.Export("deprecationReason", version.Deprecation().Reason())
	ctx.Export("versions", versions.Versions().ApplyT(func(all []wsbridge.ModuleVersionSummary) []string {
		shown := make([]string, 0, len(all))
		for _, v := range all {
			shown = append(shown, fmt.Sprintf("%s deprecated=%t", v.Version, v.Deprecated))
		}
		return shown
	}))
}
