package main

// The `import-program` mode: the program `pulumi import` prints for the resources it imported, in a
// language whose host cannot be installed here (Node.js, CONTRIBUTING.md "Tests"), written by the same code
// the CLI and that host run:
//
//	go run -mod=readonly . import-program --state export.json --imports import.json --schema ../../schema/schema.json
//
// `pulumi import` (pkg/cmd/pulumi/operations/import.go, generateImportedDefinitions) takes the imported
// resources' states from the stack's snapshot and hands them to
// github.com/pulumi/pulumi/pkg/v3/importer.GenerateLanguageDefinitions, which turns them into a PCL
// program; the language host's GenerateProgram parses and binds that program again (not strictly, as
// the CLI asks) and, for Node.js, calls codegen/nodejs.GenerateProgram. This mode does the same with
// the states of `pulumi stack export`, the resources named in the import file `pulumi import --file`
// took, and the package schema the plugin serves (schema/schema.json). The TypeScript goes to stdout.

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/blang/semver"
	"github.com/hashicorp/hcl/v2"
	"github.com/pulumi/pulumi/pkg/v3/codegen/hcl2/syntax"
	nodejsgen "github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/pcl"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/pkg/v3/importer"
	"github.com/pulumi/pulumi/pkg/v3/resource/stack"
	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/config"
	"github.com/pulumi/pulumi/sdk/v3/go/common/tokens"
)

// programGenerators holds, per language, the host's GenerateProgram after its parse and bind.
var programGenerators = map[string]func(*pcl.Program) (map[string][]byte, hcl.Diagnostics, error){
	"nodejs": nodejsgen.GenerateProgram,
}

// importFile is the part of `pulumi import --file`'s format this mode reads: each resource's type and
// name (its id is already in the state). Parents and explicit providers are not supported.
type importFile struct {
	Resources []struct {
		Type     string `json:"type"`
		Name     string `json:"name"`
		ID       string `json:"id"`
		Parent   string `json:"parent"`
		Provider string `json:"provider"`
	} `json:"resources"`
}

func runImportProgram(args []string, stdout io.Writer) error {
	flags := flag.NewFlagSet("sdkgen import-program", flag.ContinueOnError)
	statePath := flags.String("state", "", "the stack's state, as `pulumi stack export` prints it")
	importsPath := flags.String("imports", "", "the import file given to `pulumi import --file` (its types and names)")
	schemaPath := flags.String("schema", "", "the package schema (JSON)")
	language := flags.String("language", "nodejs", "the program's language")
	if err := flags.Parse(args); err != nil {
		return err
	}
	if *statePath == "" || *importsPath == "" || *schemaPath == "" {
		flags.Usage()
		return fmt.Errorf("--state, --imports and --schema are required")
	}
	generate, ok := programGenerators[*language]
	if !ok {
		return fmt.Errorf("unsupported language %q for import-program", *language)
	}
	pkg, err := bindSchemaFile(*schemaPath)
	if err != nil {
		return err
	}
	snapshot, err := readSnapshot(*statePath)
	if err != nil {
		return err
	}
	imported, err := importedStates(*importsPath, snapshot)
	if err != nil {
		return err
	}
	loader := onePackage{pkg: pkg}
	var text bytes.Buffer
	err = importer.GenerateLanguageDefinitions(&text, loader, func(w io.Writer, p *pcl.Program) error {
		files, err := generateAsTheHostDoes(p, loader, generate)
		if err != nil {
			return err
		}
		// As the CLI: the contents of the (one) file the host returned.
		if len(files) != 1 {
			return fmt.Errorf("the generator returned %d files, not 1", len(files))
		}
		for _, contents := range files {
			_, err = w.Write(contents)
		}
		return err
	}, imported, snapshot, nil)
	if err != nil {
		return err
	}
	_, err = stdout.Write(text.Bytes())
	return err
}

// generateAsTheHostDoes is the language host's GenerateProgram (pulumi-language-nodejs, main.go): the
// program's source is parsed and bound again, with the loader, preferring output-versioned invokes,
// not strictly (the CLI's request for imports), and then generated.
func generateAsTheHostDoes(
	p *pcl.Program, loader schema.ReferenceLoader, generate func(*pcl.Program) (map[string][]byte, hcl.Diagnostics, error),
) (map[string][]byte, error) {
	parser := syntax.NewParser()
	sources := p.Source()
	names := make([]string, 0, len(sources))
	for name := range sources {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if err := parser.ParseFile(strings.NewReader(sources[name]), name); err != nil {
			return nil, err
		}
		if parser.Diagnostics.HasErrors() {
			return nil, parser.Diagnostics
		}
	}
	options := append([]pcl.BindOption{pcl.Loader(schema.NewCachedLoader(loader)), pcl.PreferOutputVersionedInvokes},
		pcl.NonStrictBindOptions()...)
	bound, diags, err := pcl.BindProgram(parser.Files, options...)
	if err != nil {
		return nil, err
	}
	if diags.HasErrors() {
		return nil, diags
	}
	files, diags, err := generate(bound)
	if err != nil {
		return nil, err
	}
	if diags.HasErrors() {
		return nil, diags
	}
	return files, nil
}

// readSnapshot deserializes the resources of `pulumi stack export`. Secrets stay secret: each is read
// as the string "[secret]" (no passphrase is needed, and no secret is ever in the generated program:
// imported inputs hold none, only the provider's token is one).
func readSnapshot(path string) ([]*resource.State, error) {
	text, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var untyped apitype.UntypedDeployment
	if err := json.Unmarshal(text, &untyped); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if untyped.Version != 3 {
		return nil, fmt.Errorf("%s: deployment version %d, not 3", path, untyped.Version)
	}
	var deployment apitype.DeploymentV3
	if err := json.Unmarshal(untyped.Deployment, &deployment); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	states := make([]*resource.State, 0, len(deployment.Resources))
	for _, r := range deployment.Resources {
		state, err := stack.DeserializeResource(r, redacted{})
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", path, r.URN, err)
		}
		if !state.Delete {
			states = append(states, state)
		}
	}
	return states, nil
}

// importedStates finds the state of each resource of the import file, by the URN the CLI gives it: the
// stack and project are the root stack resource's.
func importedStates(path string, snapshot []*resource.State) ([]*resource.State, error) {
	text, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var file importFile
	if err := json.Unmarshal(text, &file); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var root resource.URN
	for _, s := range snapshot {
		if s.Type == resource.RootStackType {
			root = s.URN
		}
	}
	if root == "" {
		return nil, fmt.Errorf("the state has no stack resource")
	}
	byURN := map[resource.URN]*resource.State{}
	for _, s := range snapshot {
		byURN[s.URN] = s
	}
	states := make([]*resource.State, 0, len(file.Resources))
	for _, spec := range file.Resources {
		if spec.Parent != "" || spec.Provider != "" {
			return nil, fmt.Errorf("%s: %s %s: parents and providers are not supported", path, spec.Type, spec.Name)
		}
		urn := resource.NewURN(root.Stack(), root.Project(), "", tokens.Type(spec.Type), spec.Name)
		state, ok := byURN[urn]
		if !ok {
			return nil, fmt.Errorf("%s: %s is not in the state (was it imported?)", path, urn)
		}
		states = append(states, state)
	}
	return states, nil
}

// redacted decrypts every secret as the JSON string "[secret]".
type redacted struct{}

func (redacted) DecryptValue(context.Context, string) (string, error) { return `"[secret]"`, nil }

func (r redacted) BatchDecrypt(ctx context.Context, ciphertexts []string) ([]string, error) {
	return config.DefaultBatchDecrypt(ctx, r, ciphertexts)
}

// onePackage is the loader of the one package the imported resources belong to: the bound schema, as
// the CLI's plugin loader gets it from the installed plugin (which serves this same schema).
type onePackage struct{ pkg *schema.Package }

func (l onePackage) LoadPackage(name string, _ *semver.Version) (*schema.Package, error) {
	if name != l.pkg.Name {
		return nil, fmt.Errorf("the program refers to package %q; only %q is loaded", name, l.pkg.Name)
	}
	return l.pkg, nil
}

func (l onePackage) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return l.LoadPackage(d.Name, d.Version)
}

func (l onePackage) LoadPackageReference(name string, version *semver.Version) (schema.PackageReference, error) {
	pkg, err := l.LoadPackage(name, version)
	if err != nil {
		return nil, err
	}
	return pkg.Reference(), nil
}

func (l onePackage) LoadPackageReferenceV2(_ context.Context, d *schema.PackageDescriptor) (schema.PackageReference, error) {
	return l.LoadPackageReference(d.Name, d.Version)
}
