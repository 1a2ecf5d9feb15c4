// Command lifecycle runs the Go program of bench/routes.ts (program.Workspaces) through the provider
// plugin on the real Pulumi CLI, one operation per command, so that the benchmark measures a Go
// program as it measures its TypeScript twins: each operation is one call of Pulumi's Go Automation
// API on an inline program, timed around that call.
//
// Once the stack exists it prints {"ready": true}. Then it reads commands from stdin, one per line,
// and answers each with one JSON line on stdout:
//
//	up <description>   up, after setting the workspaces' description
//	preview | refresh | destroy
//	export             the stack's deployment ({"deployment": …})
//
// An operation answers {"seconds", "engineSeconds" (to the engine's summary event; null if none),
// "cpuSeconds" (this process: the program and the Automation API), "changes"}; a failure {"error"}.
// The emulator, the CLI and PULUMI_HOME with the plugin installed come from the environment
// (harness.FromEnv).
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"syscall"
	"time"

	"github.com/pulumi-wsbridge/pulumi-wsbridge/test/go/harness"
	"github.com/pulumi-wsbridge/pulumi-wsbridge/test/go/program"
	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/events"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optdestroy"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optpreview"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optrefresh"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optup"
)

// result is one answer line.
type result struct {
	Ready         bool            `json:"ready,omitempty"`
	Seconds       *float64        `json:"seconds,omitempty"`
	EngineSeconds *float64        `json:"engineSeconds"`
	CPUSeconds    *float64        `json:"cpuSeconds,omitempty"`
	Changes       map[string]int  `json:"changes,omitempty"`
	Deployment    json.RawMessage `json:"deployment,omitempty"`
	Error         string          `json:"error,omitempty"`
}

// operation runs one Automation API call, sending its engine events to the channel it is given.
type operation func(ctx context.Context, stream chan<- events.EngineEvent) (map[string]int, error)

func main() {
	project := flag.String("project", "", "the project's name, also the prefix of the workspaces' names")
	n := flag.Int("n", 0, "how many workspaces the program declares")
	parallel := flag.Int("parallel", 0, "--parallel of every operation (0: the CLI's default)")
	flag.Parse()
	if *project == "" {
		fail(errors.New("-project is required"))
	}
	settings, err := harness.FromEnv()
	if err != nil {
		fail(err)
	}
	ctx := context.Background()
	description := ""
	stack, err := harness.NewStack(ctx, settings, *project, "dev", program.Workspaces(*project, *n, &description))
	if err != nil {
		fail(err)
	}
	out := json.NewEncoder(os.Stdout)
	if err := out.Encode(result{Ready: true}); err != nil {
		fail(err)
	}
	commands := bufio.NewScanner(os.Stdin)
	for commands.Scan() {
		verb, argument, _ := strings.Cut(commands.Text(), " ")
		var answer result
		switch verb {
		case "up":
			description = argument
			answer = timed(ctx, up(stack, *parallel))
		case "preview":
			answer = timed(ctx, preview(stack, *parallel))
		case "refresh":
			answer = timed(ctx, refresh(stack, *parallel))
		case "destroy":
			answer = timed(ctx, destroy(stack, *parallel))
		case "export":
			deployment, err := stack.Export(ctx)
			answer = result{Deployment: deployment.Deployment}
			if err != nil {
				answer = result{Error: err.Error()}
			}
		default:
			answer = result{Error: fmt.Sprintf("unknown command %q", verb)}
		}
		if err := out.Encode(answer); err != nil {
			fail(err)
		}
	}
	if err := commands.Err(); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "lifecycle:", err)
	os.Exit(1)
}

// timed runs an operation and reports its wall time, when the engine's summary event arrived and the
// CPU this process spent.
func timed(ctx context.Context, op operation) result {
	stream := make(chan events.EngineEvent)
	summaryAt := make(chan time.Time, 1)
	go func() {
		for event := range stream {
			if event.SummaryEvent != nil {
				select {
				case summaryAt <- time.Now():
				default:
				}
			}
		}
		close(summaryAt)
	}()
	cpuBefore := cpuSeconds()
	started := time.Now()
	changes, err := op(ctx, stream)
	seconds := time.Since(started).Seconds()
	cpu := cpuSeconds() - cpuBefore
	if err != nil {
		return result{Error: err.Error()}
	}
	answer := result{Seconds: &seconds, CPUSeconds: &cpu, Changes: changes}
	// The Automation API closes the stream once it has read the whole event log.
	select {
	case at, ok := <-summaryAt:
		if ok {
			engine := at.Sub(started).Seconds()
			answer.EngineSeconds = &engine
		}
	case <-time.After(10 * time.Second):
	}
	return answer
}

// cpuSeconds is the user and system CPU of this process so far.
func cpuSeconds() float64 {
	var usage syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &usage) != nil {
		return 0
	}
	return time.Duration(usage.Utime.Nano() + usage.Stime.Nano()).Seconds()
}

func up(stack auto.Stack, parallel int) operation {
	return func(ctx context.Context, stream chan<- events.EngineEvent) (map[string]int, error) {
		options := []optup.Option{optup.EventStreams(stream)}
		if parallel > 0 {
			options = append(options, optup.Parallel(parallel))
		}
		res, err := stack.Up(ctx, options...)
		return changesOf(res.Summary.ResourceChanges), err
	}
}

func preview(stack auto.Stack, parallel int) operation {
	return func(ctx context.Context, stream chan<- events.EngineEvent) (map[string]int, error) {
		options := []optpreview.Option{optpreview.EventStreams(stream)}
		if parallel > 0 {
			options = append(options, optpreview.Parallel(parallel))
		}
		res, err := stack.Preview(ctx, options...)
		changes := map[string]int{}
		for op, count := range res.ChangeSummary {
			changes[string(op)] = count
		}
		return changes, err
	}
}

func refresh(stack auto.Stack, parallel int) operation {
	return func(ctx context.Context, stream chan<- events.EngineEvent) (map[string]int, error) {
		options := []optrefresh.Option{optrefresh.EventStreams(stream)}
		if parallel > 0 {
			options = append(options, optrefresh.Parallel(parallel))
		}
		res, err := stack.Refresh(ctx, options...)
		return changesOf(res.Summary.ResourceChanges), err
	}
}

func destroy(stack auto.Stack, parallel int) operation {
	return func(ctx context.Context, stream chan<- events.EngineEvent) (map[string]int, error) {
		options := []optdestroy.Option{optdestroy.EventStreams(stream)}
		if parallel > 0 {
			options = append(options, optdestroy.Parallel(parallel))
		}
		res, err := stack.Destroy(ctx, options...)
		return changesOf(res.Summary.ResourceChanges), err
	}
}

func changesOf(changes *map[string]int) map[string]int {
	if changes == nil {
		return map[string]int{}
	}
	return *changes
}
