package program

import (
	"fmt"

	"github.com/pulumi-wsbridge/pulumi-wsbridge/sdk/go/wsbridge"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// Workspaces declares n workspaces, "ws-0" … "ws-<n-1>", named "<prefix>-<i>", each with the
// description *description holds when the program runs: the program bench/routes.ts runs on every
// route (its TypeScript twins declare the same resources with the same arguments).
func Workspaces(prefix string, n int, description *string) pulumi.RunFunc {
	return func(ctx *pulumi.Context) error {
		for i := range n {
			_, err := wsbridge.NewWorkspace(ctx, fmt.Sprintf("ws-%d", i), &wsbridge.WorkspaceArgs{
				Name: pulumi.String(fmt.Sprintf("%s-%d", prefix, i)), Description: pulumi.String(*description),
			})
			if err != nil {
				return err
			}
		}
		return nil
	}
}
