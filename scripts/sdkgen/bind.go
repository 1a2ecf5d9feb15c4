package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/blang/semver"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// bindSchemaFile reads a package schema and binds it as `pulumi package gen-sdk` does (BindSpec, which
// validates it against Pulumi's meta-schema too). Any diagnostic fails: a warning from the binder is a
// schema feature some generator will mishandle, and the schema is ours to fix.
func bindSchemaFile(path string) (*schema.Package, error) {
	text, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(text, &spec); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	pkg, diags, err := schema.BindSpec(spec, noPackages{}, schema.ValidationOptions{})
	if err != nil {
		return nil, fmt.Errorf("binding %s: %w", path, err)
	}
	if len(diags) > 0 {
		lines := make([]string, 0, len(diags))
		for _, d := range diags {
			lines = append(lines, "  "+d.Error())
		}
		return nil, fmt.Errorf("binding %s reported %d diagnostic(s):\n%s", path, len(diags), strings.Join(lines, "\n"))
	}
	return pkg, nil
}

// noPackages is the loader for a schema that references no other package: the wsbridge schema refers
// only to itself and to pulumi.json's built-in types, which need no loader. Any request is a mistake.
type noPackages struct{}

func (noPackages) LoadPackage(name string, version *semver.Version) (*schema.Package, error) {
	return nil, fmt.Errorf("the schema refers to package %q; wsbridge depends on no other package", name)
}

func (l noPackages) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return l.LoadPackage(d.Name, d.Version)
}

func (noPackages) LoadPackageReference(name string, version *semver.Version) (schema.PackageReference, error) {
	return nil, fmt.Errorf("the schema refers to package %q; wsbridge depends on no other package", name)
}

func (l noPackages) LoadPackageReferenceV2(_ context.Context, d *schema.PackageDescriptor) (schema.PackageReference, error) {
	return l.LoadPackageReference(d.Name, d.Version)
}
