// A Go program through the provider plugin on the real Pulumi CLI: every kind and the four lookups in
// one inline program run by Pulumi's Go Automation API, against the emulator the environment names
// (harness.Settings). Run by test/cli/go-program.test.ts,
// which starts the emulator with program's fixtures and a stand-in for the releases the engine fetches
// the plugin from; the steps run in order, and the first that fails stops the rest.
package gotest

import (
	"context"
	"strings"
	"testing"

	"github.com/pulumi-wsbridge/pulumi-wsbridge/test/go/harness"
	"github.com/pulumi-wsbridge/pulumi-wsbridge/test/go/program"
)

func TestEveryKindAndTheLookupsRunThroughThePluginOnTheRealCLI(t *testing.T) {
	settings, err := harness.FromEnv()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	s := &scenario{t: t, ctx: ctx, settings: settings, emulator: harness.Emulator{Address: settings.Address, Token: settings.Token}}
	explicitToken, err := s.emulator.IssueToken(ctx, map[string]string{"kind": "owner", "organization": program.ExplicitOrganization})
	if err != nil {
		t.Fatal(err)
	}
	declared := &program.Declared{
		NetworkDescription: "VPCs and peering",
		Explicit:           program.Connection{Address: settings.Address, Token: explicitToken, Organization: program.ExplicitOrganization},
	}
	s.explicit = harness.Emulator{Address: settings.Address, Token: explicitToken}
	if s.stack, err = harness.NewStack(ctx, settings, "wsbridge-go", "dev", program.AllKinds(declared)); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		name string
		run  func(s *scenario, d *program.Declared)
	}{
		{"up creates every kind, the explicit provider's workspace in its own organization, and exports the lookups' results", upCreatesEveryKind},
		{"a preview with nothing changed plans no step and sends only the lookups' four reads", noOpPreview},
		{"a new description previews as exactly that path, and up applies it with one PATCH", oneChangePreviewedExactly},
		{"drift made through the API is found by refresh, previewed as exactly the restore, and restored by up", driftRestored},
		{"pulumi import adopts a workspace made outside Pulumi, and the program declaring its imported inputs previews no change", importAdopts},
		{"bad inputs of each kind and of a lookup fail the preview with the TypeScript route's messages, without a request", badInputsFail},
		{"destroy deletes everything the stack made, and only the fixtures' workspaces are left", destroyDeletesEverything},
	}
	for _, step := range steps {
		if !t.Run(step.name, func(t *testing.T) {
			s.t = t
			step.run(s, declared)
		}) {
			t.FailNow()
		}
	}
	s.t = t
	if strings.Contains(s.printed.String(), explicitToken) {
		t.Fatal("the explicit provider's token appears in what the CLI printed")
	}
}
