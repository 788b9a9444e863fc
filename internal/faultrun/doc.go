// Package faultrun holds the CI fault run (faultrun_test.go): the API client creates
// 200 services and 200 users against an in-process sandbox that injects 500s, 429s,
// latency, dropped connections and drops after execution, resolves every write of
// unknown outcome by reading it back, and checks that nothing was created twice and
// that no write reported as failed had in fact happened. broken_test.go serves broken
// project lists (a 40 MiB entry, a reset mid-entry, a 1 GiB gzip bomb), refreshes them
// and checks that each refresh ends with an error and the process is idle after. Both run
// only when SVCUI_FAULTRUN=1, so that `go test ./...` stays fast.
package faultrun
