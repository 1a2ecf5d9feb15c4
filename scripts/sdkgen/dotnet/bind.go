package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/blang/semver"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// bindSchema binds the package schema as the language host does, with this release's binder; any
// diagnostic fails, as in sdkgen (../bind.go).
func bindSchema(text []byte) (*schema.Package, error) {
	var spec schema.PackageSpec
	if err := json.Unmarshal(text, &spec); err != nil {
		return nil, err
	}
	pkg, diags, err := schema.BindSpec(spec, noPackages{}, schema.ValidationOptions{})
	if err != nil {
		return nil, fmt.Errorf("binding the schema: %w", err)
	}
	if len(diags) > 0 {
		lines := make([]string, 0, len(diags))
		for _, d := range diags {
			lines = append(lines, "  "+d.Error())
		}
		return nil, fmt.Errorf("binding the schema reported %d diagnostic(s):\n%s", len(diags), strings.Join(lines, "\n"))
	}
	return pkg, nil
}

// noPackages is the loader for a schema that references no other package (as ../bind.go).
type noPackages struct{}

func (noPackages) LoadPackage(name string, _ *semver.Version) (*schema.Package, error) {
	return nil, fmt.Errorf("the schema refers to package %q; wsbridge depends on no other package", name)
}

func (l noPackages) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return l.LoadPackage(d.Name, d.Version)
}
