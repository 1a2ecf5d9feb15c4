package harness

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
)

// Emulator reaches a running emulator over HTTP: its API as an outside client, and its request log.
type Emulator struct {
	Address string
	// Token is the owner token the API calls present.
	Token string
}

// Request is one API request in the emulator's log.
type Request struct {
	Method string `json:"method"`
	Path   string `json:"path"`
	Query  string `json:"query"`
	Status *int   `json:"status"`
}

// Requests is the emulator's request log since its last clear (`GET /_emulator/requests`).
func (e Emulator) Requests(ctx context.Context) ([]Request, error) {
	var log []Request
	_, err := e.call(ctx, http.MethodGet, e.Address+"/_emulator/requests", "", nil, &log)
	return log, err
}

// ClearRequests empties the request log (`DELETE /_emulator/requests`).
func (e Emulator) ClearRequests(ctx context.Context) error {
	_, err := e.call(ctx, http.MethodDelete, e.Address+"/_emulator/requests", "", nil, nil)
	return err
}

// IssueToken asks the emulator for a token (`POST /_emulator/tokens`), e.g. another organization's owner.
func (e Emulator) IssueToken(ctx context.Context, spec map[string]string) (string, error) {
	var issued struct {
		Token string `json:"token"`
	}
	status, err := e.call(ctx, http.MethodPost, e.Address+"/_emulator/tokens", "", spec, &issued)
	if err == nil && status != http.StatusCreated {
		err = fmt.Errorf("POST /_emulator/tokens answered %d", status)
	}
	return issued.Token, err
}

// API sends a JSON:API request below /api/v2 with the owner token and decodes the answer into `into`
// (when not nil); it returns the status.
func (e Emulator) API(ctx context.Context, method, path string, body, into any) (int, error) {
	return e.call(ctx, method, e.Address+"/api/v2"+path, e.Token, body, into)
}

func (e Emulator) call(ctx context.Context, method, url, token string, body, into any) (int, error) {
	var payload io.Reader
	if body != nil {
		text, err := json.Marshal(body)
		if err != nil {
			return 0, err
		}
		payload = bytes.NewReader(text)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, payload)
	if err != nil {
		return 0, err
	}
	req.Header.Set("content-type", "application/vnd.api+json")
	if token != "" {
		req.Header.Set("authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	text, err := io.ReadAll(res.Body)
	if err != nil || into == nil || len(text) == 0 {
		return res.StatusCode, err
	}
	if err := json.Unmarshal(text, into); err != nil {
		return res.StatusCode, fmt.Errorf("%s %s answered %d with %q: %w", method, url, res.StatusCode, text, err)
	}
	return res.StatusCode, nil
}

var workspaceIDs = regexp.MustCompile(`ws-[A-Za-z0-9]+`)

// Lines shows requests as "METHOD /path?query", below /api/v2, with workspace ids as "ws-…".
func Lines(requests []Request) []string {
	lines := make([]string, 0, len(requests))
	for _, r := range requests {
		line := r.Method + " " + workspaceIDs.ReplaceAllString(strings.TrimPrefix(r.Path, "/api/v2"), "ws-…")
		if r.Query != "" {
			line += "?" + r.Query
		}
		lines = append(lines, line)
	}
	return lines
}
