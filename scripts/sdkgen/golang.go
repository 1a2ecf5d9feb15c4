package main

import (
	"fmt"
	"runtime/debug"

	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"golang.org/x/mod/modfile"
)

const pulumiGoSDK = "github.com/pulumi/pulumi/sdk/v3"

// generateGo calls the generator as pulumi-language-go does for `pulumi package gen-sdk`: no local
// dependencies (the Go generator takes no overlays). With the schema's meta.supportPack it also writes
// the module's go.mod, one level above the package (sdk/go/go.mod for sdk/go/wsbridge).
//
// That go.mod requires github.com/pulumi/pulumi/sdk/v3 v3.30.0, yet the code it writes calls
// Context.InvokeOutput, which that release lacks. The requirement is raised to the Pulumi release the
// generator comes from (sdkgen's own go.mod), the release the SDK is built against here; tidyGoModule
// then completes go.mod and writes go.sum.
func generateGo(pkg *schema.Package) (map[string][]byte, error) {
	files, err := gogen.GeneratePackage("pulumi-language-go", pkg, nil)
	if err != nil {
		return nil, err
	}
	goMod, ok := files["go.mod"]
	if !ok {
		return nil, fmt.Errorf("the Go generator wrote no go.mod: the schema needs meta.supportPack")
	}
	version, err := builtWith(pulumiGoSDK)
	if err != nil {
		return nil, err
	}
	if files["go.mod"], err = requireVersion(goMod, pulumiGoSDK, version); err != nil {
		return nil, fmt.Errorf("go.mod: %w", err)
	}
	return files, nil
}

// requireVersion sets the version of a module the go.mod already requires.
func requireVersion(goMod []byte, module, version string) ([]byte, error) {
	file, err := modfile.Parse("go.mod", goMod, nil)
	if err != nil {
		return nil, err
	}
	found := false
	for _, r := range file.Require {
		found = found || r.Mod.Path == module
	}
	if !found {
		return nil, fmt.Errorf("no requirement of %s to raise", module)
	}
	if err := file.AddRequire(module, version); err != nil {
		return nil, err
	}
	return file.Format()
}

// builtWith is the version of a module this program is built with.
func builtWith(module string) (string, error) {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "", fmt.Errorf("sdkgen has no build information to read the version of %s from", module)
	}
	for _, dep := range info.Deps {
		if dep.Path == module {
			return dep.Version, nil
		}
	}
	return "", fmt.Errorf("sdkgen is not built with %s", module)
}
