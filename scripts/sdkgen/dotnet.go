package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"

	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// The .NET generator is not in the Pulumi release the CLI is built from: Pulumi moved it to the
// pulumi-dotnet repository (github.com/pulumi/pulumi-dotnet/pulumi-language-dotnet/v3/codegen), whose
// module the Go module proxy here does not serve. Its last copy in github.com/pulumi/pulumi/pkg/v3
// (codegen/dotnet, frozen when it moved) is in v3.225.1. One Go build holds one version of a module,
// so the program in dotnet/ (a module of its own, pinned to that release) runs it; sdkgen calls that
// program as the CLI calls a language host: it sends the bound package's JSON and gets the files back.
const dotnetGeneratorDir = "dotnet"

// generateDotnet runs `go run .` in dotnet/ (relative to the working directory, scripts/sdkgen, as
// for every sdkgen run) with the package on standard input; the program prints the files as JSON.
func generateDotnet(pkg *schema.Package) (map[string][]byte, error) {
	if info, err := os.Stat(dotnetGeneratorDir); err != nil || !info.IsDir() {
		return nil, fmt.Errorf("the .NET generator program is not in ./%s: run sdkgen in scripts/sdkgen", dotnetGeneratorDir)
	}
	spec, err := pkg.MarshalJSON()
	if err != nil {
		return nil, err
	}
	var stdout bytes.Buffer
	cmd := exec.Command("go", "run", ".")
	cmd.Dir = dotnetGeneratorDir
	cmd.Stdin, cmd.Stdout, cmd.Stderr = bytes.NewReader(spec), &stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("the .NET generator program (%s): %w", dotnetGeneratorDir, err)
	}
	var files map[string][]byte
	if err := json.Unmarshal(stdout.Bytes(), &files); err != nil {
		return nil, fmt.Errorf("reading what the .NET generator program printed: %w", err)
	}
	return files, nil
}
