// sdkgen writes the SDKs of the wsbridge provider plugin from its package schema with Pulumi's own
// code generators, the same code `pulumi package gen-sdk` runs inside each language host. We call the
// generators directly because the language hosts cannot be installed here (CONTRIBUTING.md, "Tests"):
// github.com/pulumi/pulumi/pkg/v3/codegen/{nodejs,go,python} of the release the CLI is built from,
// and for .NET the program in dotnet/ (dotnet.go says why it is a program of its own).
//
//	go run -mod=readonly . --schema ../../schema/schema.json --out ../../sdk --language nodejs,go,python,dotnet
//
// With `import-program` first, it prints instead the program `pulumi import` would print for imported
// resources in a Node.js project (import_program.go).
//
// The schema is bound (and so validated against Pulumi's meta-schema) first; any diagnostic, error
// or warning, fails the run before anything is written. Every language is generated before any is
// written, so a failing generator leaves sdk/ as it was. Each language's directory,
// <out>/<language>, is deleted and written afresh, so a file the generator no longer emits does not
// linger.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintf(os.Stderr, "sdkgen: %v\n", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) > 0 && args[0] == "import-program" {
		return runImportProgram(args[1:], os.Stdout)
	}
	flags := flag.NewFlagSet("sdkgen", flag.ContinueOnError)
	schemaPath := flags.String("schema", "", "the package schema (JSON)")
	out := flags.String("out", "", "the directory that receives one subdirectory per language")
	var languages languageList
	flags.Var(&languages, "language", "a language to generate ("+strings.Join(supportedLanguages(), ", ")+
		"); repeat the flag or separate with commas")
	if err := flags.Parse(args); err != nil {
		return err
	}
	if *schemaPath == "" || *out == "" || len(languages) == 0 {
		flags.Usage()
		return fmt.Errorf("--schema, --out and at least one --language are required")
	}
	for _, language := range languages {
		if _, ok := generators[language]; !ok {
			return fmt.Errorf("unsupported language %q (supported: %s)", language, strings.Join(supportedLanguages(), ", "))
		}
	}

	// Bound afresh for each language, as each language host binds the schema it is sent: a generator
	// records its language's settings in the package, and no generator sees another's.
	sdks := make([]map[string][]byte, len(languages))
	for i, language := range languages {
		pkg, err := bindSchemaFile(*schemaPath)
		if err != nil {
			return err
		}
		if sdks[i], err = generators[language].generate(pkg); err != nil {
			return fmt.Errorf("generating the %s SDK: %w", language, err)
		}
	}
	for i, language := range languages {
		dir := filepath.Join(*out, language)
		if err := replaceDirectory(dir, sdks[i]); err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "sdkgen: wrote %d files to %s/%s\n", len(sdks[i]), *out, language)
		if finish := generators[language].finish; finish != nil {
			if err := finish(dir); err != nil {
				return fmt.Errorf("completing the %s SDK: %w", language, err)
			}
		}
	}
	return nil
}

// languageList is the value of --language: "nodejs", "nodejs,go", or the flag repeated.
type languageList []string

func (l *languageList) String() string { return strings.Join(*l, ",") }

func (l *languageList) Set(value string) error {
	for _, language := range strings.Split(value, ",") {
		if language = strings.TrimSpace(language); language != "" && !contains(*l, language) {
			*l = append(*l, language)
		}
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, item := range list {
		if item == s {
			return true
		}
	}
	return false
}

func supportedLanguages() []string {
	names := make([]string, 0, len(generators))
	for name := range generators {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}
