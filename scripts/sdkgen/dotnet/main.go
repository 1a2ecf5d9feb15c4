// The .NET generator of scripts/sdkgen: Pulumi's C# SDK generator (codegen/dotnet of
// github.com/pulumi/pulumi/pkg/v3 v3.225.1, its last release there; ../dotnet.go says why it runs
// here). It reads a package schema on standard input, binds it, generates the SDK with the arguments
// pulumi-language-dotnet passes for `pulumi package gen-sdk` (no overlays, no local dependencies), and
// prints the files as one JSON object: path → contents (base64). Nothing is fetched (logo.go).
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	dotnetgen "github.com/pulumi/pulumi/pkg/v3/codegen/dotnet"
)

func main() {
	if err := run(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintf(os.Stderr, "sdkgen (dotnet): %v\n", err)
		os.Exit(1)
	}
}

func run(in io.Reader, out io.Writer) error {
	text, err := io.ReadAll(in)
	if err != nil {
		return err
	}
	pkg, err := bindSchema(text)
	if err != nil {
		return err
	}
	withOfflineLogo(pkg.LogoURL)
	files, err := dotnetgen.GeneratePackage("pulumi-language-dotnet", pkg, nil, nil)
	if err != nil {
		return err
	}
	return json.NewEncoder(out).Encode(files)
}
