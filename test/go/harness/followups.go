package harness

import (
	"context"
	"encoding/json"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/auto"
)

// secretSignature is Pulumi's marker of a secret value in serialized state.
const secretSignature = "4dabf18193072939515e22adb298388d"

// operationKinds maps the CLI commands that change a stack to the kind `stack history` names them.
var operationKinds = map[string]string{"up": "update", "refresh": "refresh", "destroy": "destroy"}

// followUps is the CLI for one stack, with one difference. After `up`, `refresh` and `destroy` the
// Automation API runs more CLI commands only to fill in its result: `stack output --json` twice
// (after up) and `stack history --json` (after each), each a start of the CLI, about a second of CPU
// on a 2-core machine. The same facts are at hand without them: the engine's summary event (the
// change counts `stack history` reports; an eventProxy sees it go by) and the stack's state file
// (the outputs). So those commands are answered from these, as scripts/lib/stack-harness.ts does for
// TypeScript programs; the operation itself still runs on the real CLI. Where they are not enough (no
// summary event, a secret output, no state file) and for every other command, the CLI answers.
type followUps struct {
	auto.PulumiCommand
	project, stack string

	mu sync.Mutex
	// runs counts the operations (the stack's history number); last is the latest that succeeded.
	runs int
	last *finishedRun
}

type finishedRun struct {
	kind           string
	started, ended time.Time
	changes        map[string]int
}

func newFollowUps(command auto.PulumiCommand, project, stack string) *followUps {
	return &followUps{PulumiCommand: command, project: project, stack: stack}
}

// Run runs a CLI command, or answers a follow-up from the last operation.
func (f *followUps) Run(ctx context.Context, workdir string, stdin io.Reader, out, errOut []io.Writer,
	env []string, args ...string,
) (string, string, int, error) {
	if len(args) > 0 && !slices.Contains(args, "--preview-only") {
		if kind, ok := operationKinds[args[0]]; ok {
			return f.operation(ctx, kind, workdir, stdin, out, errOut, env, args)
		}
	}
	if answer, ok := f.answer(args); ok {
		return answer, "", 0, nil
	}
	return f.PulumiCommand.Run(ctx, workdir, stdin, out, errOut, env, args...)
}

// operation runs up, refresh or destroy with its engine events through an eventProxy, and records
// the summary for the follow-ups.
func (f *followUps) operation(ctx context.Context, kind, workdir string, stdin io.Reader, out, errOut []io.Writer,
	env []string, args []string,
) (string, string, int, error) {
	started := time.Now()
	proxy, err := startEventProxy(valueOf(args, "--event-log"))
	if err != nil {
		return "", "", -1, err
	}
	args = append(withoutFlag(args, "--event-log"), "--event-log", proxy.address)
	stdout, stderr, code, err := f.PulumiCommand.Run(ctx, workdir, stdin, out, errOut, env, args...)
	changes, found := proxy.stop()
	f.mu.Lock()
	defer f.mu.Unlock()
	f.runs++
	f.last = nil
	if err == nil && found {
		f.last = &finishedRun{kind: kind, started: started, ended: time.Now(), changes: changes}
	}
	return stdout, stderr, code, err
}

func (f *followUps) answer(args []string) (string, bool) {
	if len(args) < 3 || args[0] != "stack" || !slices.Contains(args, "--json") || valueOf(args, "--stack") != f.stack {
		return "", false
	}
	switch args[1] {
	case "output":
		return f.outputs()
	case "history":
		return f.history()
	}
	return "", false
}

func (f *followUps) history() (string, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.last == nil {
		return "", false
	}
	ended := f.last.ended.Format(time.RFC3339)
	changes := f.last.changes
	summary := []auto.UpdateSummary{{
		Version: f.runs, Kind: f.last.kind, StartTime: f.last.started.Format(time.RFC3339), Message: "",
		Environment: map[string]string{}, Config: auto.ConfigMap{}, Result: "succeeded", EndTime: &ended,
		ResourceChanges: &changes,
	}}
	text, err := json.Marshal(summary)
	return string(text), err == nil
}

// outputs answers `stack output --json` from the stack resource's outputs in the file backend's state
// (`.pulumi/stacks/<project>/<stack>.json`), unless one is a secret (only the CLI can show those).
func (f *followUps) outputs() (string, bool) {
	backend, err := url.Parse(os.Getenv("PULUMI_BACKEND_URL"))
	if err != nil || backend.Scheme != "file" {
		return "", false
	}
	text, err := os.ReadFile(filepath.Join(backend.Path, ".pulumi", "stacks", f.project, f.stack+".json"))
	if err != nil {
		return "", false
	}
	var state struct {
		Checkpoint struct {
			Latest struct {
				Resources []struct {
					Type    string          `json:"type"`
					Outputs json.RawMessage `json:"outputs"`
				} `json:"resources"`
			} `json:"latest"`
		} `json:"checkpoint"`
	}
	if json.Unmarshal(text, &state) != nil {
		return "", false
	}
	for _, r := range state.Checkpoint.Latest.Resources {
		if r.Type != "pulumi:pulumi:Stack" {
			continue
		}
		if len(r.Outputs) == 0 {
			return "{}", true
		}
		return string(r.Outputs), !strings.Contains(string(r.Outputs), secretSignature)
	}
	return "{}", true
}

// valueOf is the value after a flag in args ("" when absent).
func valueOf(args []string, flag string) string {
	for i, arg := range args {
		if arg == flag && i+1 < len(args) {
			return args[i+1]
		}
		if value, ok := strings.CutPrefix(arg, flag+"="); ok {
			return value
		}
	}
	return ""
}

// withoutFlag is args without a flag and its value (either "--flag value" or "--flag=value").
func withoutFlag(args []string, flag string) []string {
	kept := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		switch {
		case args[i] == flag:
			i++
		case strings.HasPrefix(args[i], flag+"="):
		default:
			kept = append(kept, args[i])
		}
	}
	return kept
}
