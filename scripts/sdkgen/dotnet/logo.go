package main

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
)

// The .NET generator writes logo.png, the NuGet package's icon, by downloading the schema's logoUrl
// or, without one, Pulumi's generic logo from raw.githubusercontent.com at a fixed commit. No network
// is reached from here, so the download is answered from this copy of that image (taken from the
// expected output of Pulumi's own .NET generator tests, pkg/v3 v3.219.0 codegen/dotnet/testdata);
// any other request fails the run. A schema whose logoUrl names a file of this repository on GitHub
// (raw.githubusercontent.com/<owner>/<repo>/main/<path>, as the package schema's does) is answered from
// that file of the working tree (the repository root is three levels up from this program's folder).

//go:embed pulumi_logo_64x64.png
var defaultLogo []byte

const (
	defaultLogoURL    = "https://raw.githubusercontent.com/pulumi/pulumi/dbc96206bec722b7791a22ff50e895ab7c0abdc0/sdk/dotnet/pulumi_logo_64x64.png"
	defaultLogoSHA256 = "5eaacfd31b3fd2669f08d4ea00b8a6a78480f6cdb794621c358f59caff534fe9"
)

var repositoryFileURL = regexp.MustCompile(`^https://raw\.githubusercontent\.com/[^/]+/[^/]+/main/([A-Za-z0-9_./-]+\.png)$`)

// withOfflineLogo makes http.Get (which the generator calls) answer from defaultLogo, or for logoURL
// from the repository's own file.
func withOfflineLogo(logoURL string) {
	http.DefaultTransport = offlineLogo{logoURL: logoURL}
}

type offlineLogo struct{ logoURL string }

func (o offlineLogo) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method != http.MethodGet {
		return nil, fmt.Errorf("the .NET generator sent %s %s; nothing is fetched here", req.Method, req.URL)
	}
	image := defaultLogo
	switch url := req.URL.String(); {
	case url == defaultLogoURL:
		if sum := sha256.Sum256(defaultLogo); hex.EncodeToString(sum[:]) != defaultLogoSHA256 {
			return nil, fmt.Errorf("pulumi_logo_64x64.png is not the image at %s", defaultLogoURL)
		}
	case url == o.logoURL && repositoryFileURL.MatchString(url):
		path := filepath.Join("..", "..", "..", filepath.FromSlash(repositoryFileURL.FindStringSubmatch(url)[1]))
		file, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("the logoUrl %s names %s, which cannot be read: %w", url, path, err)
		}
		image = file
	default:
		return nil, fmt.Errorf("the .NET generator asked for %s; nothing is fetched here (only Pulumi's default logo and a logoUrl of this repository's main branch are known)", url)
	}
	return &http.Response{
		Status:        "200 OK",
		StatusCode:    http.StatusOK,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        http.Header{"Content-Type": []string{"image/png"}},
		Body:          io.NopCloser(bytes.NewReader(image)),
		ContentLength: int64(len(image)),
		Request:       req,
	}, nil
}
