package dates

import (
	"bytes"
	"compress/flate"
	_ "embed"
	"encoding/binary"
	"errors"
	"io"
	"sync"
	"time"
)

//go:generate go run ../../../../scripts/gen-zones -o zones.flate

// packedZones is Go's IANA zone database (what time/tzdata embeds, 410 KB in the binary),
// each distinct zone file once, in one DEFLATE stream: about 60 KB. Format: scripts/gen-zones.
//
//go:embed zones.flate
var packedZones string

var (
	unpackOnce sync.Once
	unpacked   map[string][]byte // zone name → TZif file, filled on the first miss
	unpackErr  error
)

// Zone is the IANA time zone named name, as time.LoadLocation finds it (the host's zone
// database), else from the zones packed in the binary, so time_zone parameters work on hosts
// without a database too (Windows without Go, scratch containers).
func Zone(name string) (*time.Location, error) {
	loc, err := time.LoadLocation(name)
	if err == nil {
		return loc, nil
	}
	if packed, perr := packedZone(name); perr == nil {
		return packed, nil
	}
	return nil, err
}

// packedZone is the zone named name from the packed database alone.
func packedZone(name string) (*time.Location, error) {
	unpackOnce.Do(func() { unpacked, unpackErr = unpackZones(packedZones) })
	if unpackErr != nil {
		return nil, unpackErr
	}
	data, ok := unpacked[name]
	if !ok {
		return nil, errors.New("unknown time zone " + name)
	}
	return time.LoadLocationFromTZData(name, data)
}

// unpackZones reads the records of scripts/gen-zones: per zone file the count of its names,
// the names, then the file, each length a uvarint.
func unpackZones(packed string) (map[string][]byte, error) {
	raw, err := io.ReadAll(flate.NewReader(bytes.NewReader([]byte(packed))))
	if err != nil {
		return nil, err
	}
	bad := errors.New("packed zone database is malformed")
	next := func() ([]byte, bool) {
		n, w := binary.Uvarint(raw)
		if w <= 0 || n > uint64(len(raw)-w) {
			return nil, false
		}
		b := raw[w : w+int(n)]
		raw = raw[w+int(n):]
		return b, true
	}
	zones := map[string][]byte{}
	for len(raw) > 0 {
		count, w := binary.Uvarint(raw)
		if w <= 0 || count == 0 || count > uint64(len(raw)) {
			return nil, bad
		}
		raw = raw[w:]
		names := make([]string, 0, count)
		for range count {
			n, ok := next()
			if !ok {
				return nil, bad
			}
			names = append(names, string(n))
		}
		data, ok := next()
		if !ok {
			return nil, bad
		}
		for _, n := range names {
			zones[n] = data
		}
	}
	return zones, nil
}
