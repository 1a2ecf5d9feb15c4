package main

import (
	nodejsgen "github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// generateNodejs calls the generator with the arguments pulumi-language-nodejs passes for a published
// (not local) SDK: no overlays, no local dependencies. Then each resource constructor registers with
// stack traces paused (nodejs_registration.go).
func generateNodejs(pkg *schema.Package) (map[string][]byte, error) {
	files, err := nodejsgen.GeneratePackage("pulumi-language-nodejs", pkg, nil, nil, false, noPackages{})
	if err != nil {
		return nil, err
	}
	return withPausedRegistration(files)
}
