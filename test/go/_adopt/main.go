// Command _adopt previews or updates, through the provider plugin on the real Pulumi CLI, the Go program
// that `wsbridge adopt --language go` wrote: its Program (main.go without main) and Adopted (adopted.go,
// with the batches later runs added), run as main.go's main runs them. The tests copy this file and the
// program's files into a module of their own in a temporary folder, then run
// `go run . <project> <stack> [preview|up]` there with harness.FromEnv's environment. It prints the
// operation's change summary as one JSON line, e.g. {"same":320}.
//
// The folder's name starts with "_", so `go vet ./...` and `go build ./...` leave it out: without the
// program beside it, it does not compile.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	"github.com/pulumi-wsbridge/pulumi-wsbridge/test/go/harness"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) != 2 && len(args) != 3 {
		return fmt.Errorf("usage: go run . <project> <stack> [preview|up]")
	}
	action := "preview"
	if len(args) == 3 {
		action = args[2]
	}
	settings, err := harness.FromEnv()
	if err != nil {
		return err
	}
	ctx := context.Background()
	stack, err := harness.NewStack(ctx, settings, args[0], args[1], func(pctx *pulumi.Context) error {
		if err := Program(pctx); err != nil {
			return err
		}
		return Adopted(pctx)
	})
	if err != nil {
		return err
	}
	switch action {
	case "preview":
		result, err := stack.Preview(ctx)
		if err != nil {
			return err
		}
		return json.NewEncoder(os.Stdout).Encode(result.ChangeSummary)
	case "up":
		result, err := stack.Up(ctx)
		if err != nil {
			return err
		}
		return json.NewEncoder(os.Stdout).Encode(result.Summary.ResourceChanges)
	default:
		return fmt.Errorf("unknown action %q: preview or up", action)
	}
}
