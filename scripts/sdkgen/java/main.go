// The Java generator of the wsbridge SDKs: Pulumi's Java SDK generator (pkg/codegen/java of
// github.com/pulumi/pulumi-java v1.34.0), run as `pulumi package gen-sdk --language java` runs it
// inside pulumi-language-java (pkg/cmd/pulumi-language-java, GeneratePackage): the schema's types are
// deduplicated by case (DeduplicateTypes), bound with AllowDanglingReferences, and generated with no
// extra files, no local dependencies, local=false and legacyBuildFiles=false, so the generator writes
// its Gradle project (build.gradle, settings.gradle). Beside it this program writes a Maven project
// (maven.go), because the generator has no Maven option and Gradle's own distribution cannot be
// fetched here.
//
// Why a module of its own: at v1.34.0 the generator is in pulumi-java's root module (pkg/ has no
// go.mod there; the module proxy refuses github.com/pulumi/pulumi-java/pkg@v1.34.0), which requires
// github.com/pulumi/pulumi/pkg/v3 v3.254.0 and Go 1.25.11, not the v3.246.0 the other generators
// (scripts/sdkgen) are pinned to with the CLI, and one Go build holds one version of a module (as
// ../dotnet.go).
//
//	go run -mod=readonly . --schema ../../../schema/schema.json --out ../../../sdk/java
//
// Any diagnostic of the binder fails the run, as in scripts/sdkgen. Everything is generated before
// anything is written; then <out> is deleted and written afresh.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	javagen "github.com/pulumi/pulumi-java/pkg/codegen/java"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintf(os.Stderr, "sdkgen (java): %v\n", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	flags := flag.NewFlagSet("sdkgen-java", flag.ContinueOnError)
	schemaPath := flags.String("schema", "", "the package schema (JSON)")
	out := flags.String("out", "", "the directory that receives the Java SDK (deleted and written afresh)")
	if err := flags.Parse(args); err != nil {
		return err
	}
	if *schemaPath == "" || *out == "" {
		flags.Usage()
		return fmt.Errorf("--schema and --out are required")
	}
	text, err := os.ReadFile(*schemaPath)
	if err != nil {
		return err
	}
	files, err := generate(text)
	if err != nil {
		return fmt.Errorf("%s: %w", *schemaPath, err)
	}
	if err := replaceDirectory(*out, files); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "sdkgen (java): wrote %d files to %s\n", len(files), *out)
	return nil
}

// generate returns the Java SDK's files (path → contents) for the schema text.
func generate(text []byte) (map[string][]byte, error) {
	var spec schema.PackageSpec
	if err := json.Unmarshal(text, &spec); err != nil {
		return nil, err
	}
	pkg, err := bindSchema(&spec)
	if err != nil {
		return nil, err
	}
	files, err := javagen.GeneratePackage("pulumi-language-java", pkg, nil, nil, false, false)
	if err != nil {
		return nil, err
	}
	info, ok := pkg.Language["java"].(*javagen.PackageInfo)
	if !ok {
		return nil, fmt.Errorf("the generator left no Java package info on the package (%T)", pkg.Language["java"])
	}
	maven, err := mavenProject(pkg, info, []byte(spec.Language["java"]))
	if err != nil {
		return nil, err
	}
	for path, contents := range maven {
		if _, clash := files[path]; clash {
			return nil, fmt.Errorf("the generator wrote %s, which the Maven project writes too", path)
		}
		files[path] = contents
	}
	return files, nil
}

// bindSchema deduplicates and binds the schema as pulumi-language-java does; unlike the language host,
// which fails on errors only, any diagnostic fails (as scripts/sdkgen/bind.go: the schema is ours to fix).
func bindSchema(spec *schema.PackageSpec) (*schema.Package, error) {
	deduped, diags, err := javagen.DeduplicateTypes(spec)
	if err != nil {
		return nil, fmt.Errorf("deduplicating the schema's types: %w", err)
	}
	pkg, bindDiags, err := schema.BindSpec(*deduped, noPackages{}, schema.ValidationOptions{AllowDanglingReferences: true})
	if err != nil {
		return nil, fmt.Errorf("binding the schema: %w", err)
	}
	diags = diags.Extend(bindDiags)
	if len(diags) > 0 {
		lines := make([]string, 0, len(diags))
		for _, d := range diags {
			lines = append(lines, "  "+d.Error())
		}
		return nil, fmt.Errorf("binding the schema reported %d diagnostic(s):\n%s", len(diags), strings.Join(lines, "\n"))
	}
	return pkg, nil
}

// replaceDirectory deletes dir and writes files into it.
func replaceDirectory(dir string, files map[string][]byte) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	paths := make([]string, 0, len(files))
	for path := range files {
		paths = append(paths, path)
	}
	sort.Strings(paths)
	for _, path := range paths {
		target := filepath.Join(dir, filepath.FromSlash(path))
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(target, files[path], 0o644); err != nil {
			return err
		}
	}
	return nil
}
