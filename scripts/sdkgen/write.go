package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// replaceDirectory deletes dir (<out>/<language>) and writes files into it: what the generator no
// longer emits disappears with it (as `pulumi package gen-sdk` does).
func replaceDirectory(dir string, files map[string][]byte) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		clean := filepath.Clean(filepath.FromSlash(name))
		if filepath.IsAbs(clean) || clean == ".." || strings.HasPrefix(clean, ".."+string(filepath.Separator)) {
			return fmt.Errorf("the generator named a file outside %s: %q", dir, name)
		}
		path := filepath.Join(dir, clean)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, files[name], 0o644); err != nil {
			return err
		}
	}
	return nil
}
