package dates

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The packed database is Go's own, zone for zone (a Go upgrade with new rules makes this fail:
// run go generate ./internal/sandbox/opensearch/dates).
func TestPackedZonesAreGoDatabase(t *testing.T) {
	root, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Skipf("go env GOROOT: %v", err)
	}
	zr, err := zip.OpenReader(filepath.Join(strings.TrimSpace(string(root)), "lib", "time", "zoneinfo.zip"))
	if err != nil {
		t.Skipf("no zoneinfo.zip in GOROOT: %v", err)
	}
	defer zr.Close()
	zones, err := unpackZones(packedZones)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range zr.File {
		if f.FileInfo().IsDir() {
			continue
		}
		n++
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		want, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		if got, ok := zones[f.Name]; !ok || !bytes.Equal(got, want) {
			t.Errorf("packed zone %s differs from Go's (present %v): run go generate ./internal/sandbox/opensearch/dates", f.Name, ok)
		}
	}
	if n != len(zones) {
		t.Errorf("packed %d zone names, Go's database has %d", len(zones), n)
	}
}

// A packed zone is a working location: Paris is UTC+2 in July, UTC+1 in January, and a link
// (Asia/Calcutta) is its target's zone.
func TestPackedZoneOffsets(t *testing.T) {
	for _, c := range []struct {
		name  string
		month time.Month
		off   int
	}{{"Europe/Paris", time.July, 7200}, {"Europe/Paris", time.January, 3600}, {"Asia/Calcutta", time.July, 19800}, {"America/New_York", time.January, -18000}} {
		loc, err := packedZone(c.name)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if _, off := time.Date(2024, c.month, 15, 12, 0, 0, 0, time.UTC).In(loc).Zone(); off != c.off {
			t.Errorf("%s in %v: offset %d, want %d", c.name, c.month, off, c.off)
		}
	}
	if _, err := Zone("Mars/Olympus"); err == nil {
		t.Error("Zone(Mars/Olympus) found a zone")
	}
	if _, err := packedZone("Mars/Olympus"); err == nil {
		t.Error("packedZone(Mars/Olympus) found a zone")
	}
}

// A damaged database is an error, never a panic or a half-read table taken as whole.
func TestUnpackZonesMalformed(t *testing.T) {
	raw, err := io.ReadAll(flate.NewReader(strings.NewReader(packedZones)))
	if err != nil {
		t.Fatal(err)
	}
	for _, cut := range []int{1, 2, 5, 40, len(raw) - 1} {
		var buf bytes.Buffer
		w, _ := flate.NewWriter(&buf, flate.BestSpeed)
		w.Write(raw[:cut])
		w.Close()
		if _, err := unpackZones(buf.String()); err == nil {
			t.Errorf("a database cut at %d of %d bytes unpacked without error", cut, len(raw))
		}
	}
	if _, err := unpackZones("not deflate"); err == nil {
		t.Error("garbage unpacked without error")
	}
}
