// Command gen-zones packs Go's IANA time zone database ($GOROOT/lib/time/zoneinfo.zip, what
// time/tzdata embeds) for the search emulation's time_zone parameters: each distinct zone file
// once, every name that is a link to it listed with it, all in one DEFLATE stream. That is
// about 52 KB in the binary instead of the 410 KB time/tzdata costs.
//
//	go run ./scripts/gen-zones -o internal/sandbox/opensearch/dates/zones.flate
//
// or `go generate ./internal/sandbox/opensearch/dates/`. The format is read by dates.Zone:
// a sequence of records, each the uvarint count of names, each name as a uvarint length and
// its bytes, then the zone file as a uvarint length and its bytes.
package main

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"encoding/binary"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

func main() {
	out := flag.String("o", "zones.flate", "file to write")
	src := flag.String("zip", "", "zoneinfo.zip to read (default: $(go env GOROOT)/lib/time/zoneinfo.zip)")
	flag.Parse()
	if *src == "" {
		root, err := exec.Command("go", "env", "GOROOT").Output()
		if err != nil {
			fail(fmt.Errorf("go env GOROOT: %v", err))
		}
		*src = filepath.Join(strings.TrimSpace(string(root)), "lib", "time", "zoneinfo.zip")
	}
	packed, err := pack(*src)
	if err != nil {
		fail(err)
	}
	if err := os.WriteFile(*out, packed, 0o644); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintf(os.Stderr, "gen-zones: %v\n", err)
	os.Exit(1)
}

// pack reads the zip and writes the records in the order of their first name, so the output
// is the same for the same database.
func pack(path string) ([]byte, error) {
	zr, err := zip.OpenReader(path)
	if err != nil {
		return nil, err
	}
	defer zr.Close()
	type zone struct {
		names []string
		data  []byte
	}
	byData := map[string]*zone{}
	var zones []*zone
	for _, f := range zr.File {
		if f.FileInfo().IsDir() {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			return nil, err
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %v", f.Name, err)
		}
		z := byData[string(data)]
		if z == nil {
			z = &zone{data: data}
			byData[string(data)] = z
			zones = append(zones, z)
		}
		z.names = append(z.names, f.Name)
	}
	for _, z := range zones {
		sort.Strings(z.names)
	}
	sort.Slice(zones, func(i, j int) bool { return zones[i].names[0] < zones[j].names[0] })
	var raw []byte
	for _, z := range zones {
		raw = binary.AppendUvarint(raw, uint64(len(z.names)))
		for _, n := range z.names {
			raw = binary.AppendUvarint(raw, uint64(len(n)))
			raw = append(raw, n...)
		}
		raw = binary.AppendUvarint(raw, uint64(len(z.data)))
		raw = append(raw, z.data...)
	}
	var buf bytes.Buffer
	w, err := flate.NewWriter(&buf, flate.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := w.Write(raw); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
