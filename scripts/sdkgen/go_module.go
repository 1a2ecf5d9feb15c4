package main

import (
	"fmt"
	"os"
	"os/exec"
)

// tidyGoModule completes the generated module in dir with `go mod tidy`: the requirements its
// dependencies need and go.sum, so that a build with -mod=readonly checks every module it uses. The
// modules come from the module cache (the Pulumi CLI's build fills it), else the module proxy.
func tidyGoModule(dir string) error {
	cmd := exec.Command("go", "mod", "tidy")
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go mod tidy in %s: %w", dir, err)
	}
	fmt.Fprintf(os.Stderr, "sdkgen: completed the module in %s with go mod tidy (go.mod, go.sum)\n", dir)
	return nil
}
