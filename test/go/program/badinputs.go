package program

import (
	"github.com/pulumi-wsbridge/pulumi-wsbridge/sdk/go/wsbridge"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// Workspace ids the bad inputs name that pass their own check (no such workspaces exist).
const (
	validWorkspaceID = "ws-valid000000001"
	otherWorkspaceID = "ws-valid000000002"
)

// BadKinds are the kinds BadInput declares, in the order a test goes through them.
var BadKinds = []string{
	"Workspace", "WorkspaceLock", "SshKeyAssignment", "DataRetentionPolicy", "WorkspaceTagBindings",
	"RemoteStateConsumers", "ModuleVersionDeprecation", "getWorkspace",
}

// BadInput declares one resource named "bad" of the kind (or calls the lookup) with the bad inputs the
// TypeScript plugin-route tests use, as far as Go's types let a program write them: a value of the
// wrong type (a number for a string) does not compile in Go, so those are left out. The program reads
// *kind each time it runs.
func BadInput(kind *string) pulumi.RunFunc {
	return func(ctx *pulumi.Context) error {
		var err error
		switch *kind {
		case "Workspace":
			_, err = wsbridge.NewWorkspace(ctx, "bad", &wsbridge.WorkspaceArgs{
				Name: pulumi.String("has space"), AutoDestroyActivityDuration: pulumi.String("0d"), ExecutionMode: pulumi.String("cloud"),
			})
		case "WorkspaceLock":
			_, err = wsbridge.NewWorkspaceLock(ctx, "bad", &wsbridge.WorkspaceLockArgs{WorkspaceId: pulumi.String("attach-first")})
		case "SshKeyAssignment":
			_, err = wsbridge.NewSshKeyAssignment(ctx, "bad", &wsbridge.SshKeyAssignmentArgs{
				WorkspaceId: pulumi.String(validWorkspaceID), SshKeyId: pulumi.String("deploy-a"),
			})
		case "DataRetentionPolicy":
			_, err = wsbridge.NewDataRetentionPolicy(ctx, "bad", &wsbridge.DataRetentionPolicyArgs{
				WorkspaceId: pulumi.String(validWorkspaceID), DontDelete: pulumi.Bool(false),
			})
		case "WorkspaceTagBindings":
			_, err = wsbridge.NewWorkspaceTagBindings(ctx, "bad", &wsbridge.WorkspaceTagBindingsArgs{
				WorkspaceId: pulumi.String("tagged"), Tags: pulumi.StringMap{"hcp:owner": pulumi.String("x"), "env": pulumi.String("a b")},
			})
		case "RemoteStateConsumers":
			_, err = wsbridge.NewRemoteStateConsumers(ctx, "bad", &wsbridge.RemoteStateConsumersArgs{
				WorkspaceId: pulumi.String(validWorkspaceID),
				ConsumerIds: pulumi.ToStringArray([]string{otherWorkspaceID, validWorkspaceID, otherWorkspaceID}),
			})
		case "ModuleVersionDeprecation":
			_, err = wsbridge.NewModuleVersionDeprecation(ctx, "bad", &wsbridge.ModuleVersionDeprecationArgs{
				ModuleName: pulumi.String("my vpc"), Provider: pulumi.String("AWS"), Version: pulumi.String("v1.0.0"),
				Link: pulumi.String("ftp://x"),
			})
		case "getWorkspace":
			_, err = wsbridge.LookupWorkspace(ctx, &wsbridge.LookupWorkspaceArgs{Name: pulumi.StringRef("go-network"), Id: pulumi.StringRef("ws-both")})
		}
		return err
	}
}
