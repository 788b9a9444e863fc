package sandbox

import (
	"time"
)

// Clock tells the sandbox what time it is. State transitions, topic configuration, rate
// limit windows and estimates are all computed from it, so tests can move time by hand.
type Clock interface{ Now() time.Time }

type realClock struct{}

func (realClock) Now() time.Time { return time.Now().UTC() }
