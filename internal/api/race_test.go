//go:build race

package api

// raceSlack multiplies the time bounds of tests: the race detector slows the decoder
// and gzip several times.
const raceSlack = 5
