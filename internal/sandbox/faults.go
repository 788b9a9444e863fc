package sandbox

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"time"
)

// faultSpec is a parsed --faults value: "seed=7,500=0.1,429=0.05,latency=0.2:300ms,drop=0.02".
//
// drop=R closes R of all connections unanswered; a dropped write (POST, PUT, DELETE) is
// executed first half of the time. drop-after=R closes R of the writes after executing
// them, always: the write happened and the caller cannot know, which is the case a
// client must report as of unknown outcome rather than as failed.
type faultSpec struct {
	Seed          int64
	Rate500       float64
	Rate429       float64
	RateLatency   float64
	Latency       time.Duration
	RateDrop      float64
	RateDropAfter float64
}

func (f faultSpec) active() bool {
	return f.Rate500 > 0 || f.Rate429 > 0 || f.RateLatency > 0 || f.RateDrop > 0 || f.RateDropAfter > 0
}

const faultKeys = "seed, 500, 429, latency, drop, drop-after"

// parseFaults reads a fault spec; every mistake names the part that is wrong.
func parseFaults(spec string) (faultSpec, error) {
	var f faultSpec
	spec = strings.TrimSpace(spec)
	if spec == "" {
		return f, nil
	}
	seen := map[string]bool{}
	for _, part := range strings.Split(spec, ",") {
		part = strings.TrimSpace(part)
		key, val, ok := strings.Cut(part, "=")
		if !ok || key == "" || val == "" {
			return f, fmt.Errorf("fault spec part %q must be KEY=VALUE (keys: %s)", part, faultKeys)
		}
		if seen[key] {
			return f, fmt.Errorf("fault spec names %q twice", key)
		}
		seen[key] = true
		switch key {
		case "seed":
			n, err := strconv.ParseInt(val, 10, 64)
			if err != nil {
				return f, fmt.Errorf("fault spec part %q: the seed must be an integer", part)
			}
			f.Seed = n
		case "500", "429", "drop", "drop-after":
			r, err := parseRate(part, val)
			if err != nil {
				return f, err
			}
			switch key {
			case "500":
				f.Rate500 = r
			case "429":
				f.Rate429 = r
			case "drop-after":
				f.RateDropAfter = r
			default:
				f.RateDrop = r
			}
		case "latency":
			rs, ds, ok := strings.Cut(val, ":")
			if !ok {
				return f, fmt.Errorf("fault spec part %q must be latency=RATE:DURATION, like latency=0.2:300ms", part)
			}
			r, err := parseRate(part, rs)
			if err != nil {
				return f, err
			}
			d, err := time.ParseDuration(ds)
			if err != nil || d < 0 {
				return f, fmt.Errorf("fault spec part %q: %q is not a duration like 300ms", part, ds)
			}
			f.RateLatency, f.Latency = r, d
		default:
			return f, fmt.Errorf("fault spec part %q: unknown fault %q (known: %s)", part, key, faultKeys)
		}
	}
	return f, nil
}

func parseRate(part, val string) (float64, error) {
	r, err := strconv.ParseFloat(val, 64)
	if err != nil || r < 0 || r > 1 {
		return 0, fmt.Errorf("fault spec part %q: the rate must be a number from 0 to 1", part)
	}
	return r, nil
}

// faultKind is what happens to one request instead of (or besides) a normal answer.
type faultKind int

const (
	faultNone      faultKind = iota
	faultDrop                // close the connection without answering
	faultDropAfter           // execute the write, then close without answering
	fault500
	fault429
)

type faultDecision struct {
	kind  faultKind
	delay time.Duration
}

// faultInjector draws every request's fate from one seeded generator, so the same seed
// and the same sequence of requests give the same faults.
type faultInjector struct {
	spec faultSpec
	mu   sync.Mutex
	rng  *rand.Rand
}

func newFaultInjector(spec faultSpec, fallbackSeed int64) *faultInjector {
	seed := spec.Seed
	if seed == 0 {
		seed = fallbackSeed
	}
	return &faultInjector{spec: spec, rng: rand.New(rand.NewPCG(uint64(seed), 0x5ca1ab1e))}
}

// decide draws the same number of values for every request, whatever they decide. The
// drop-after draw is made only when that fault is configured, so the specs without it
// give the same faults for the same seed as before it existed.
func (fi *faultInjector) decide(write bool) faultDecision {
	fi.mu.Lock()
	dLat, dDrop, dAfter, d500, d429 := fi.rng.Float64(), fi.rng.Float64(), fi.rng.Float64(), fi.rng.Float64(), fi.rng.Float64()
	dDropAfter := 1.0
	if fi.spec.RateDropAfter > 0 {
		dDropAfter = fi.rng.Float64()
	}
	fi.mu.Unlock()
	var d faultDecision
	if dLat < fi.spec.RateLatency {
		d.delay = fi.spec.Latency
	}
	switch {
	case dDrop < fi.spec.RateDrop:
		d.kind = faultDrop
		if write && dAfter < 0.5 {
			d.kind = faultDropAfter
		}
	case write && dDropAfter < fi.spec.RateDropAfter:
		d.kind = faultDropAfter
	case d500 < fi.spec.Rate500:
		d.kind = fault500
	case d429 < fi.spec.Rate429:
		d.kind = fault429
	}
	return d
}
