package main

import (
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// generator writes one language's SDK.
type generator struct {
	// generate turns a bound package into the SDK: file path (relative to the language's directory) → contents.
	generate func(pkg *schema.Package) (map[string][]byte, error)
	// finish, if set, completes the directory once the files are written (what only a tool can do).
	finish func(dir string) error
}

// generators holds one entry per language, named as `pulumi package gen-sdk --language` names them.
var generators = map[string]generator{
	"nodejs": {generate: generateNodejs},
	"go":     {generate: generateGo, finish: tidyGoModule},
	"python": {generate: generatePython},
	"dotnet": {generate: generateDotnet},
}
