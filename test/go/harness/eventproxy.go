package harness

import (
	"encoding/json"
	"errors"
	"io"
	"net"
	"strings"
	"sync"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/types/known/emptypb"
)

// eventProxy stands between the CLI and the Automation API's engine-event server: since CLI v3.206 the
// Automation API passes `--event-log tcp://host:port` and receives the events over gRPC, so they are
// in no file that followUps could read afterwards. The proxy receives them in its place, forwards each
// one as it comes (the caller's EventStreams see them live, as before) and keeps the summary's change
// counts. With no upstream (the caller asked for no events) it only keeps the summary.
type eventProxy struct {
	pulumirpc.UnimplementedEventsServer
	upstream string
	server   *grpc.Server
	address  string

	mu      sync.Mutex
	changes map[string]int
	found   bool
}

// startEventProxy listens on a free loopback port; upstream is the `--event-log` value the Automation
// API passed ("tcp://host:port"), or "".
func startEventProxy(upstream string) (*eventProxy, error) {
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &eventProxy{upstream: strings.TrimPrefix(upstream, "tcp://"), server: grpc.NewServer(), address: "tcp://" + listener.Addr().String()}
	pulumirpc.RegisterEventsServer(p.server, p)
	go func() { _ = p.server.Serve(listener) }()
	return p, nil
}

// StreamEvents forwards one stream of the CLI's events, and acknowledges its end only once upstream has.
func (p *eventProxy) StreamEvents(in pulumirpc.Events_StreamEventsServer) error {
	var out pulumirpc.Events_StreamEventsClient
	if p.upstream != "" {
		conn, err := grpc.NewClient(p.upstream, grpc.WithTransportCredentials(insecure.NewCredentials()))
		if err != nil {
			return err
		}
		defer conn.Close()
		if out, err = pulumirpc.NewEventsClient(conn).StreamEvents(in.Context()); err != nil {
			return err
		}
	}
	for {
		request, err := in.Recv()
		if errors.Is(err, io.EOF) {
			if out != nil {
				if _, err := out.CloseAndRecv(); err != nil {
					return err
				}
			}
			return in.SendAndClose(&emptypb.Empty{})
		}
		if err != nil {
			return err
		}
		p.keepSummary(request.GetEvent())
		if out != nil {
			if err := out.Send(request); err != nil {
				return err
			}
		}
	}
}

func (p *eventProxy) keepSummary(text string) {
	var event struct {
		SummaryEvent *struct {
			ResourceChanges map[string]int `json:"resourceChanges"`
		} `json:"summaryEvent"`
	}
	if json.Unmarshal([]byte(text), &event) != nil || event.SummaryEvent == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.changes, p.found = event.SummaryEvent.ResourceChanges, true
}

// stop waits for the streams to end and returns the summary's change counts, if one came.
func (p *eventProxy) stop() (map[string]int, bool) {
	p.server.GracefulStop()
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.changes, p.found
}
