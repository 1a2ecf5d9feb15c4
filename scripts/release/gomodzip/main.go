// gomodzip writes a Go module, as a module proxy serves it, into a folder in the GOPROXY file layout
// (https://go.dev/ref/mod#goproxy-protocol), so that `GOPROXY=file://<folder>` serves it to `go get`
// before the module's tag is pushed. scripts/release.js runs it on the Go SDK it generated:
//
//	go run . --dir <module tree> --version vX.Y.Z --time <RFC 3339> --out <folder>
//
// It writes <folder>/<escaped module path>/@v/{list, vX.Y.Z.info, vX.Y.Z.mod, vX.Y.Z.zip}, the zip made by
// golang.org/x/mod/zip (the code the go command and the proxies use, so the same files are left out),
// then checks the zip as the go command would, and prints as JSON what it wrote and the hashes go.sum
// will record for the module (h1: of the zip's files and of go.mod).
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	"golang.org/x/mod/sumdb/dirhash"
	modzip "golang.org/x/mod/zip"
)

type result struct {
	Module  string   `json:"module"`
	Version string   `json:"version"`
	Files   []string `json:"files"`
	ZipHash string   `json:"zipHash"`
	ModHash string   `json:"modHash"`
	Omitted []string `json:"omitted"`
}

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintf(os.Stderr, "gomodzip: %v\n", err)
		os.Exit(1)
	}
}

func run(args []string, stdout io.Writer) error {
	flags := flag.NewFlagSet("gomodzip", flag.ContinueOnError)
	dir := flags.String("dir", "", "the module's root folder (with its go.mod)")
	version := flags.String("version", "", "the module version, vX.Y.Z")
	stamp := flags.String("time", "", "the version's time (RFC 3339), written to the .info file")
	out := flags.String("out", "", "the GOPROXY folder to write into")
	if err := flags.Parse(args); err != nil {
		return err
	}
	if *dir == "" || *version == "" || *stamp == "" || *out == "" {
		return fmt.Errorf("--dir, --version, --time and --out are required")
	}
	when, err := time.Parse(time.RFC3339, *stamp)
	if err != nil {
		return fmt.Errorf("--time: %w", err)
	}
	goMod, err := os.ReadFile(filepath.Join(*dir, "go.mod"))
	if err != nil {
		return err
	}
	path := modfile.ModulePath(goMod)
	if path == "" {
		return fmt.Errorf("%s/go.mod names no module", *dir)
	}
	m := module.Version{Path: path, Version: *version}
	// Refuses a version the path cannot carry (v2 and later need a /vN suffix) and a non-canonical one.
	if err := module.Check(m.Path, m.Version); err != nil {
		return err
	}

	checked, err := modzip.CheckDir(*dir)
	if err != nil {
		return err
	}
	if err := checked.Err(); err != nil {
		return fmt.Errorf("the module tree cannot be zipped: %w", err)
	}
	escaped, err := module.EscapePath(m.Path)
	if err != nil {
		return err
	}
	versions := filepath.Join(*out, filepath.FromSlash(escaped), "@v")
	if err := os.MkdirAll(versions, 0o755); err != nil {
		return err
	}
	base := filepath.Join(versions, m.Version)
	if err := writeZip(base+".zip", m, *dir); err != nil {
		return err
	}
	if _, err := modzip.CheckZip(m, base+".zip"); err != nil {
		return fmt.Errorf("the zip written does not pass the go command's checks: %w", err)
	}
	if err := os.WriteFile(base+".mod", goMod, 0o644); err != nil {
		return err
	}
	info, err := json.Marshal(struct {
		Version string
		Time    string
	}{m.Version, when.UTC().Format(time.RFC3339)})
	if err != nil {
		return err
	}
	if err := os.WriteFile(base+".info", append(info, '\n'), 0o644); err != nil {
		return err
	}
	if err := addToList(filepath.Join(versions, "list"), m.Version); err != nil {
		return err
	}

	zipHash, err := dirhash.HashZip(base+".zip", dirhash.Hash1)
	if err != nil {
		return err
	}
	modHash, err := dirhash.Hash1([]string{"go.mod"}, func(string) (io.ReadCloser, error) { return os.Open(base + ".mod") })
	if err != nil {
		return err
	}
	files := make([]string, 0, len(checked.Valid))
	for _, f := range checked.Valid {
		rel, err := filepath.Rel(*dir, f)
		if err != nil {
			return err
		}
		files = append(files, filepath.ToSlash(rel))
	}
	omitted := make([]string, 0, len(checked.Omitted))
	for _, f := range checked.Omitted {
		omitted = append(omitted, f.Path+": "+f.Err.Error())
	}
	encoder := json.NewEncoder(stdout)
	encoder.SetIndent("", "  ")
	return encoder.Encode(result{Module: m.Path, Version: m.Version, Files: files, ZipHash: zipHash, ModHash: modHash, Omitted: omitted})
}

func writeZip(file string, m module.Version, dir string) error {
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	if err := modzip.CreateFromDir(f, m, dir); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// addToList adds the version to the proxy's list of versions, one a line, keeping any already there.
func addToList(file, version string) error {
	var lines []string
	if data, err := os.ReadFile(file); err == nil {
		lines = strings.Fields(string(data))
	} else if !os.IsNotExist(err) {
		return err
	}
	if !slices.Contains(lines, version) {
		lines = append(lines, version)
	}
	return os.WriteFile(file, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
}
