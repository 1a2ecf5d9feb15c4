package gotest

import (
	"context"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/pulumi-wsbridge/pulumi-wsbridge/test/go/harness"
	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optdestroy"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optpreview"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optrefresh"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optup"
)

// scenario is one stack and the emulator, with what every operation printed (checked for tokens).
type scenario struct {
	t        *testing.T
	ctx      context.Context
	settings harness.Settings
	emulator harness.Emulator
	// explicit reaches the emulator as the explicit provider's organization does.
	explicit harness.Emulator
	stack    auto.Stack
	// outputs are the stack's outputs after the last up.
	outputs auto.OutputMap
	printed strings.Builder
}

// operation is what an operation reported and the requests the emulator received during it.
type operation struct {
	*harness.Recorder
	// Requests are the emulator's requests during the operation, as sorted harness.Lines.
	Requests []string
	// Changes are the change counts of the operation's summary.
	Changes map[string]int
	Err     error
}

// Writes are the requests that may change something: all but GET.
func (o operation) Writes() []string {
	return slices.DeleteFunc(slices.Clone(o.Requests), func(line string) bool { return strings.HasPrefix(line, "GET ") })
}

func (s *scenario) fatalf(format string, args ...any) {
	s.t.Helper()
	s.t.Fatalf(format, args...)
}

// run clears the request log, runs an operation (whose progress goes to the recorder, the scenario's
// printed text and this process's stdout) and collects what it did.
func (s *scenario) run(name string, op func(rec *harness.Recorder) (map[string]int, error)) operation {
	s.t.Helper()
	if err := s.emulator.ClearRequests(s.ctx); err != nil {
		s.fatalf("clearing the request log: %v", err)
	}
	rec := harness.Record()
	changes, err := op(rec)
	rec.Events()
	s.printed.WriteString(rec.Output.String())
	requests, logErr := s.emulator.Requests(s.ctx)
	if logErr != nil {
		s.fatalf("reading the request log after %s: %v", name, logErr)
	}
	lines := harness.Lines(requests)
	slices.Sort(lines)
	return operation{Recorder: rec, Requests: lines, Changes: changes, Err: err}
}

// must fails the test with what the operation printed when it failed.
func (s *scenario) must(name string, o operation) operation {
	s.t.Helper()
	if o.Err != nil {
		s.fatalf("%s failed: %v", name, o.Err)
	}
	return o
}

func (s *scenario) preview() operation {
	s.t.Helper()
	return s.previewOf(s.stack)
}

// previewOf previews another stack of the scenario (its operation's error is the caller's to check).
func (s *scenario) previewOf(stack auto.Stack) operation {
	s.t.Helper()
	return s.run("preview", func(rec *harness.Recorder) (map[string]int, error) {
		result, err := stack.Preview(s.ctx, optpreview.EventStreams(rec.Channel), optpreview.ProgressStreams(rec.Writers(os.Stdout)...))
		return opMap(result.ChangeSummary), err
	})
}

func (s *scenario) up() (operation, auto.OutputMap) {
	s.t.Helper()
	var outputs auto.OutputMap
	o := s.run("up", func(rec *harness.Recorder) (map[string]int, error) {
		result, err := s.stack.Up(s.ctx, optup.EventStreams(rec.Channel), optup.ProgressStreams(rec.Writers(os.Stdout)...))
		outputs = result.Outputs
		return changesOf(result.Summary), err
	})
	s.outputs = outputs
	return s.must("up", o), outputs
}

func (s *scenario) refresh() operation {
	s.t.Helper()
	return s.must("refresh", s.run("refresh", func(rec *harness.Recorder) (map[string]int, error) {
		result, err := s.stack.Refresh(s.ctx, optrefresh.EventStreams(rec.Channel), optrefresh.ProgressStreams(rec.Writers(os.Stdout)...))
		return changesOf(result.Summary), err
	}))
}

func (s *scenario) destroy() operation {
	s.t.Helper()
	return s.must("destroy", s.run("destroy", func(rec *harness.Recorder) (map[string]int, error) {
		result, err := s.stack.Destroy(s.ctx, optdestroy.EventStreams(rec.Channel), optdestroy.ProgressStreams(rec.Writers(os.Stdout)...))
		return changesOf(result.Summary), err
	}))
}

func opMap[K ~string](m map[K]int) map[string]int {
	out := make(map[string]int, len(m))
	for k, v := range m {
		out[string(k)] = v
	}
	return out
}

func changesOf(summary auto.UpdateSummary) map[string]int {
	if summary.ResourceChanges == nil {
		return map[string]int{}
	}
	return *summary.ResourceChanges
}

// expectEqual fails the test (and stops it) when got is not want, showing both.
func expectEqual[T any](t *testing.T, what string, got, want T) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s:\n got: %s\nwant: %s", what, show(got), show(want))
	}
}

func show(v any) string {
	return strings.ReplaceAll(fmt.Sprintf("%#v", v), "\n", "\n      ")
}
