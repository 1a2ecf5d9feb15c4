package main

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
)

// The .NET generator writes logo.png, the NuGet package's icon, by downloading the schema's logoUrl
// or, without one, Pulumi's generic logo from raw.githubusercontent.com at a fixed commit. No network
// is reached from here, so the download is answered from this copy of that image (taken from the
// expected output of Pulumi's own .NET generator tests, pkg/v3 v3.219.0 codegen/dotnet/testdata);
// any other request fails the run.

//go:embed pulumi_logo_64x64.png
var defaultLogo []byte

const (
	defaultLogoURL    = "https://raw.githubusercontent.com/pulumi/pulumi/dbc96206bec722b7791a22ff50e895ab7c0abdc0/sdk/dotnet/pulumi_logo_64x64.png"
	defaultLogoSHA256 = "5eaacfd31b3fd2669f08d4ea00b8a6a78480f6cdb794621c358f59caff534fe9"
)

// withOfflineLogo makes http.Get (which the generator calls) answer from defaultLogo.
func withOfflineLogo() {
	http.DefaultTransport = offlineLogo{}
}

type offlineLogo struct{}

func (offlineLogo) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method != http.MethodGet || req.URL.String() != defaultLogoURL {
		return nil, fmt.Errorf("the .NET generator asked for %s; nothing is fetched here (only Pulumi's default logo is known: set no logoUrl)", req.URL)
	}
	if sum := sha256.Sum256(defaultLogo); hex.EncodeToString(sum[:]) != defaultLogoSHA256 {
		return nil, fmt.Errorf("pulumi_logo_64x64.png is not the image at %s", defaultLogoURL)
	}
	return &http.Response{
		Status:        "200 OK",
		StatusCode:    http.StatusOK,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        http.Header{"Content-Type": []string{"image/png"}},
		Body:          io.NopCloser(bytes.NewReader(defaultLogo)),
		ContentLength: int64(len(defaultLogo)),
		Request:       req,
	}, nil
}
