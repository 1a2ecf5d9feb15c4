package gotest

import (
	"fmt"
	"slices"
	"strings"

	"github.com/pulumi-wsbridge/pulumi-wsbridge/test/go/harness"
	"github.com/pulumi-wsbridge/pulumi-wsbridge/test/go/program"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optimport"
)

const workspaceType = "wsbridge:index:Workspace"

// declaredResources is what AllKinds declares besides the stack: nine resources and the explicit
// provider (summaries count explicit providers, not default ones).
const declaredResources = 10

// lookupReads are the requests of the four lookups, sorted, which every preview and up sends again.
func lookupReads(organization string) []string {
	return []string{
		"GET /api/registry/v1/modules/" + organization + "/" + program.LookupModule + "/aws/1.1.0",
		"GET /api/registry/v1/modules/" + organization + "/" + program.LookupModule + "/aws/versions",
		"GET /organizations/" + organization + "/workspaces/" + program.LookupWorkspace,
		"GET /organizations/" + organization + "/workspaces?search%5Bwildcard-name%5D=" + program.LookupPattern + "&page%5Bnumber%5D=1&page%5Bsize%5D=100",
	}
}

// serverWorkspace is a workspace as the API shows it.
type serverWorkspace struct {
	ID          string
	Name        string
	Description string
}

func (s *scenario) workspace(api harness.Emulator, organization, name string) (serverWorkspace, int) {
	s.t.Helper()
	var doc struct {
		Data struct {
			ID         string `json:"id"`
			Attributes struct {
				Name        string  `json:"name"`
				Description *string `json:"description"`
			} `json:"attributes"`
		} `json:"data"`
	}
	status, err := api.API(s.ctx, "GET", fmt.Sprintf("/organizations/%s/workspaces/%s", organization, name), nil, &doc)
	if err != nil {
		s.fatalf("reading workspace %s/%s: %v", organization, name, err)
	}
	w := serverWorkspace{ID: doc.Data.ID, Name: doc.Data.Attributes.Name}
	if doc.Data.Attributes.Description != nil {
		w.Description = *doc.Data.Attributes.Description
	}
	return w, status
}

// workspaceNames are the names of every workspace of the organization (one page: the test makes few).
func (s *scenario) workspaceNames(api harness.Emulator, organization string) []string {
	s.t.Helper()
	var doc struct {
		Data []struct {
			Attributes struct {
				Name string `json:"name"`
			} `json:"attributes"`
		} `json:"data"`
	}
	if _, err := api.API(s.ctx, "GET", fmt.Sprintf("/organizations/%s/workspaces?page%%5Bsize%%5D=100", organization), nil, &doc); err != nil {
		s.fatalf("listing the workspaces of %s: %v", organization, err)
	}
	names := make([]string, 0, len(doc.Data))
	for _, w := range doc.Data {
		names = append(names, w.Attributes.Name)
	}
	slices.Sort(names)
	return names
}

func upCreatesEveryKind(s *scenario, d *program.Declared) {
	o, outputs := s.up()
	expectEqual(s.t, "changes", o.Changes, map[string]int{"create": declaredResources + 1})
	network, _ := s.workspace(s.emulator, s.settings.Organization, "go-network")
	shared, _ := s.workspace(s.emulator, s.settings.Organization, program.LookupWorkspace)
	got := map[string]any{}
	for key, output := range outputs {
		got[key] = output.Value
	}
	expectEqual(s.t, "outputs", got, map[string]any{
		"networkId":         network.ID,
		"networkUrl":        fmt.Sprintf("%s/app/%s/workspaces/go-network", s.settings.Address, s.settings.Organization),
		"awayOrganization":  program.ExplicitOrganization,
		"lookedUpId":        shared.ID,
		"lookedUpName":      program.LookupWorkspace,
		"listed":            []any{program.LookupOther, program.LookupWorkspace},
		"deprecationReason": program.DeprecatedReason,
		"versions":          []any{"1.0.0 deprecated=false", "1.1.0 deprecated=true", "1.2.0 deprecated=false"},
	})
	// The explicit provider's workspace is in its own organization only.
	if _, status := s.workspace(s.explicit, program.ExplicitOrganization, "go-away"); status != 200 {
		s.fatalf("go-away is not in %s (status %d)", program.ExplicitOrganization, status)
	}
	if slices.Contains(s.workspaceNames(s.emulator, s.settings.Organization), "go-away") {
		s.fatalf("go-away was created in %s too", s.settings.Organization)
	}
	expectEqual(s.t, "the network workspace's description", network.Description, d.NetworkDescription)
}

func noOpPreview(s *scenario, _ *program.Declared) {
	o := s.must("preview", s.preview())
	expectEqual(s.t, "planned steps", o.Steps(""), []harness.Step(nil))
	expectEqual(s.t, "changes", o.Changes, map[string]int{"same": declaredResources + 1})
	expectEqual(s.t, "writes", o.Writes(), []string{})
	expectEqual(s.t, "requests", o.Requests, lookupReads(s.settings.Organization))
}

func oneChangePreviewedExactly(s *scenario, d *program.Declared) {
	d.NetworkDescription = "VPCs, peering and DNS"
	preview := s.must("preview", s.preview())
	expectEqual(s.t, "planned steps", preview.Steps(""), []harness.Step{
		{Op: "update", Name: "network", Paths: []string{"description: update"}, Diffs: []string{"description"}},
	})
	expectEqual(s.t, "writes of the preview", preview.Writes(), []string{})
	up, _ := s.up()
	expectEqual(s.t, "changes", up.Changes, map[string]int{"update": 1, "same": declaredResources})
	expectEqual(s.t, "writes of the up", up.Writes(), []string{"PATCH /workspaces/ws-…?include=effective_tag_bindings"})
	network, _ := s.workspace(s.emulator, s.settings.Organization, "go-network")
	expectEqual(s.t, "description on the server", network.Description, d.NetworkDescription)
}

func driftRestored(s *scenario, d *program.Declared) {
	network, _ := s.workspace(s.emulator, s.settings.Organization, "go-network")
	body := map[string]any{"data": map[string]any{"type": "workspaces", "attributes": map[string]any{"description": "changed in the UI"}}}
	if status, err := s.emulator.API(s.ctx, "PATCH", "/workspaces/"+network.ID, body, nil); err != nil || status != 200 {
		s.fatalf("drifting the description: %d %v", status, err)
	}
	refresh := s.refresh()
	expectEqual(s.t, "changes of the refresh", refresh.Changes, map[string]int{"update": 1, "same": declaredResources})
	preview := s.must("preview", s.preview())
	expectEqual(s.t, "planned steps", preview.Steps(""), []harness.Step{
		{Op: "update", Name: "network", Paths: []string{"description: update"}, Diffs: []string{"description"}},
	})
	up, _ := s.up()
	expectEqual(s.t, "writes of the up", up.Writes(), []string{"PATCH /workspaces/ws-…?include=effective_tag_bindings"})
	network, _ = s.workspace(s.emulator, s.settings.Organization, "go-network")
	expectEqual(s.t, "description on the server", network.Description, d.NetworkDescription)
}

func importAdopts(s *scenario, d *program.Declared) {
	body := map[string]any{"data": map[string]any{"type": "workspaces", "attributes": map[string]any{
		"name": "go-outside", "description": "made in the UI",
	}}}
	var created struct {
		Data struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if status, err := s.emulator.API(s.ctx, "POST", "/organizations/"+s.settings.Organization+"/workspaces", body, &created); err != nil || status != 201 {
		s.fatalf("creating go-outside through the API: %d %v", status, err)
	}
	o := s.run("import", func(rec *harness.Recorder) (map[string]int, error) {
		result, err := s.stack.ImportResources(s.ctx,
			optimport.Resources([]*optimport.ImportResource{{Type: workspaceType, Name: "outside", ID: created.Data.ID}}),
			optimport.Protect(false), optimport.ProgressStreams(rec.Writers(nil)...))
		close(rec.Channel)
		if err == nil && !strings.Contains(result.GeneratedCode, "go-outside") {
			err = fmt.Errorf("the program pulumi import printed does not declare go-outside:\n%s", result.GeneratedCode)
		}
		return map[string]int{}, err
	})
	s.must("import", o)
	expectEqual(s.t, "writes of the import", o.Writes(), []string{})
	inputs := s.stateInputs("outside")
	s.t.Logf("the imported inputs: %v", inputs)
	expectEqual(s.t, "the imported name, description and organization",
		[]any{inputs["name"], inputs["description"], inputs["organization"]}, []any{"go-outside", "made in the UI", s.settings.Organization})
	args, err := harness.WorkspaceArgsFrom(inputs)
	if err != nil {
		s.fatalf("the imported inputs %v: %v", inputs, err)
	}
	d.Imported = args
	preview := s.must("preview", s.preview())
	expectEqual(s.t, "planned steps with the imported inputs declared", preview.Steps(""), []harness.Step(nil))
	expectEqual(s.t, "writes of the preview", preview.Writes(), []string{})
}

// stateInputs are the inputs the stack's state holds for the resource of that name.
func (s *scenario) stateInputs(name string) map[string]any {
	s.t.Helper()
	deployment, err := s.stack.Export(s.ctx)
	if err != nil {
		s.fatalf("exporting the stack: %v", err)
	}
	inputs, err := harness.InputsOf(deployment, name)
	if err != nil {
		s.fatalf("%v", err)
	}
	return inputs
}

func badInputsFail(s *scenario, _ *program.Declared) {
	kind := ""
	bad, err := harness.NewStack(s.ctx, s.settings, "wsbridge-go-bad", "dev", program.BadInput(&kind))
	if err != nil {
		s.fatalf("%v", err)
	}
	for _, k := range program.BadKinds {
		kind = k
		o := s.previewOf(bad)
		if o.Err == nil {
			s.fatalf("the preview of a bad %s succeeded", k)
		}
		text := o.Output.String()
		for _, failure := range expectedFailures[k] {
			said := fmt.Sprintf("wsbridge:index:%s resource 'bad': property %s value {", k, failure[0])
			if k == "getWorkspace" {
				// Each language's SDK words the frame of a failed invoke its own way (Node.js: "Invoke of
				// 'wsbridge:index:getWorkspace' failed: "); the reason inside is the plugin's, the same.
				said = "wsbridge:index:getWorkspace invoke failed: "
			}
			for _, part := range []string{said, failure[1]} {
				if !strings.Contains(text, part) {
					s.fatalf("the preview of a bad %s does not say %q; it printed:\n%s", k, part, text)
				}
			}
		}
		expectEqual(s.t, "requests of the preview of a bad "+k, o.Requests, []string{})
	}
}

// expectedFailures are, per kind, each property the preview of program.BadInput must name and (a part
// of) the rule it must state: the TypeScript route's tests expect the same (test/cli/plugin-matches-*
// and test/runtime/workspace-input-rules.test.ts; the messages are the runtime's, the same on every route).
var expectedFailures = map[string][][2]string{
	"Workspace": {
		{"name", "only letters, digits"},
		{"autoDestroyActivityDuration", "greater than 0"},
		{"executionMode", `"remote", "local" or "agent"`},
	},
	"WorkspaceLock":       {{"workspaceId", `must be a workspace id ("ws-…")`}},
	"SshKeyAssignment":    {{"sshKeyId", `must be an SSH key id ("sshkey-…")`}},
	"DataRetentionPolicy": {{"dontDelete", "must be true when given"}},
	"WorkspaceTagBindings": {
		{"workspaceId", `must be a workspace id ("ws-…")`},
		{"tags.hcp:owner", `tag key "hcp:owner" must not start with the reserved prefixes hc: or hcp:`},
		{"tags.env", "may contain only letters, digits and _ . = + - @ :"},
	},
	"RemoteStateConsumers": {
		{"consumerIds[1]", `is "ws-valid000000001", the workspace itself (workspaceId)`},
		{"consumerIds[2]", `repeats consumerIds[0] ("ws-valid000000002")`},
	},
	"ModuleVersionDeprecation": {
		{"moduleName", "letters, digits, - and _ only"},
		{"provider", "lower-case letters, digits and _ only"},
		{"version", `no leading "v"`},
		{"link", "absolute http or https URL"},
	},
	"getWorkspace": {{"id", "id and name must not both be given (give exactly one of them) (id)"}},
}

func destroyDeletesEverything(s *scenario, _ *program.Declared) {
	o := s.destroy()
	expectEqual(s.t, "changes", o.Changes, map[string]int{"delete": declaredResources + 2})
	expectEqual(s.t, "workspaces left", s.workspaceNames(s.emulator, s.settings.Organization),
		[]string{program.LookupOther, program.LookupWorkspace})
	expectEqual(s.t, "workspaces left in the explicit organization", s.workspaceNames(s.explicit, program.ExplicitOrganization), []string{})
}
