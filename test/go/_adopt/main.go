// Command _adopt previews, through the provider plugin on the real Pulumi CLI, the Go program that
// `wsbridge adopt --language go` wrote, as the program of a stack that has already adopted the estate
// (test/cli/adopt.test.ts copies this file and the program's Program function, as program.go, into a
// module of their own in a temporary folder, then runs `go run . <project> <stack>` there with
// harness.FromEnv's environment). It prints the preview's change summary as one JSON line, e.g. {"same":320}.
//
// The folder's name starts with "_", so `go vet ./...` and `go build ./...` leave it out: without the
// program beside it, it does not compile.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/pulumi-wsbridge/pulumi-wsbridge/test/go/harness"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) != 2 {
		return fmt.Errorf("usage: go run . <project> <stack>")
	}
	settings, err := harness.FromEnv()
	if err != nil {
		return err
	}
	ctx := context.Background()
	stack, err := harness.NewStack(ctx, settings, args[0], args[1], Program)
	if err != nil {
		return err
	}
	result, err := stack.Preview(ctx)
	if err != nil {
		return err
	}
	return json.NewEncoder(os.Stdout).Encode(result.ChangeSummary)
}
