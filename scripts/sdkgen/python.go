package main

import (
	"fmt"
	"strings"

	"github.com/blang/semver"
	pythongen "github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// generatePython calls the generator as pulumi-language-python does for `pulumi package gen-sdk`:
// no overlays, and the loader for referenced packages (wsbridge references none). First, the Pulumi
// SDK the schema requires must not be older than the generator's own floor: the code it writes needs
// that release.
func generatePython(pkg *schema.Package) (map[string][]byte, error) {
	if err := pkg.ImportLanguages(map[string]schema.Language{"python": pythongen.Importer}); err != nil {
		return nil, err
	}
	info, _ := pkg.Language["python"].(pythongen.PackageInfo)
	if required, ok := info.Requires["pulumi"]; ok {
		if err := atLeastFloor(required, pythongen.MinimumValidSDKVersion); err != nil {
			return nil, fmt.Errorf("language.python.requires.pulumi: %w", err)
		}
	}
	return pythongen.GeneratePackage("pulumi-language-python", pkg, nil, noPackages{})
}

// atLeastFloor checks that the lower bound of a requirement (">=3.231.0,<4.0.0") is at least that of floor.
func atLeastFloor(requirement, floor string) error {
	have, err := lowerBound(requirement)
	if err != nil {
		return err
	}
	need, err := lowerBound(floor)
	if err != nil {
		return err
	}
	if have.LT(need) {
		return fmt.Errorf("%q allows releases older than the generator's floor %q", requirement, floor)
	}
	return nil
}

func lowerBound(requirement string) (semver.Version, error) {
	for _, part := range strings.Split(requirement, ",") {
		if bound, ok := strings.CutPrefix(strings.TrimSpace(part), ">="); ok {
			return semver.Parse(strings.TrimSpace(bound))
		}
	}
	return semver.Version{}, fmt.Errorf("%q has no lower bound (>=)", requirement)
}
