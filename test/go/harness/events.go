package harness

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/auto/events"
)

// Recorder collects what one operation reported: the engine's events, and what the CLI printed (also
// copied to Printed, when set, so that a caller can check all of it for leaks).
type Recorder struct {
	Channel chan events.EngineEvent
	done    chan struct{}
	events  []events.EngineEvent
	Output  strings.Builder
}

// Record starts collecting; pass Channel to the operation's EventStreams, Writers to its ProgressStreams.
func Record() *Recorder {
	r := &Recorder{Channel: make(chan events.EngineEvent), done: make(chan struct{})}
	go func() {
		for event := range r.Channel {
			r.events = append(r.events, event)
		}
		close(r.done)
	}()
	return r
}

// Writers is where the operation prints: the recorder and, when not nil, also.
func (r *Recorder) Writers(also io.Writer) []io.Writer {
	if also == nil {
		return []io.Writer{&r.Output}
	}
	return []io.Writer{&r.Output, also}
}

// Events waits until the operation closed the channel (the Automation API does when it returns).
func (r *Recorder) Events() []events.EngineEvent {
	<-r.done
	return r.events
}

// Step is one planned or applied step of a resource other than "same", as the CLI shows it.
type Step struct {
	Op string
	// Name is the resource's name in the program.
	Name string
	// Paths are the detailed diff's entries, `path: kind`, sorted ("description: update").
	Paths []string
	// Diffs are the keys the engine says change, sorted.
	Diffs []string
}

func (s Step) String() string {
	return fmt.Sprintf("%s %s %v %v", s.Op, s.Name, s.Paths, s.Diffs)
}

// Steps are the steps other than "same" of resources of the type (a type token, or "" for every
// resource but the stack itself), in the order the engine reported them.
func (r *Recorder) Steps(resourceType string) []Step {
	var steps []Step
	for _, event := range r.Events() {
		if event.ResourcePreEvent == nil {
			continue
		}
		m := event.ResourcePreEvent.Metadata
		if m.Op == "same" || m.Type == "pulumi:pulumi:Stack" || resourceType != "" && m.Type != resourceType {
			continue
		}
		step := Step{Op: string(m.Op), Name: m.URN[strings.LastIndex(m.URN, "::")+2:], Paths: []string{}, Diffs: slices.Clone(m.Diffs)}
		for path, diff := range m.DetailedDiff {
			step.Paths = append(step.Paths, fmt.Sprintf("%s: %s", path, diff.Kind))
		}
		slices.Sort(step.Paths)
		if step.Diffs == nil {
			step.Diffs = []string{}
		}
		slices.Sort(step.Diffs)
		steps = append(steps, step)
	}
	return steps
}

// Diagnostics are the messages of the engine's diagnostic events at the severity ("error", "warning"…).
func (r *Recorder) Diagnostics(severity string) []string {
	var messages []string
	for _, event := range r.Events() {
		if d := event.DiagnosticEvent; d != nil && d.Severity == severity {
			messages = append(messages, strings.TrimSpace(d.Message))
		}
	}
	return messages
}
