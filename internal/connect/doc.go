// Package connect opens a service in its own command-line client: psql, mysql or mariadb,
// valkey-cli or redis-cli, clickhouse client, kcat. It builds the command; the UI runs it
// with tea.Exec (or tea.ExecProcess) while the console is suspended.
//
// Plan turns a service, its connection information and a user into a Session. Three kinds:
//
//   - KindExec: a client process (Session.Cmd). Credentials never reach argv: they go in
//     0600 files inside a private 0700 directory (os.MkdirTemp under $XDG_RUNTIME_DIR when
//     set, else the system temporary directory), or in the child's environment.
//   - KindSearchTab: an opensearch service is queried in svcui's own Search tab.
//   - KindOpenURI: a grafana service is a web page; Session.URI is its address without
//     credentials, for the UI to open (or copy when no opener exists).
//
// Lifecycle of a KindExec session and its temporary files:
//
//  1. Plan writes the files and arms a signal guard.
//  2. The UI runs the session: tea.Exec(session, callback) runs Session.Run, which removes
//     the files as soon as the client exits and, when the client failed or only printed
//     something (kcat -L), waits for Enter so its output stays readable.
//     tea.ExecProcess(session.Cmd, callback) works too, without the pause.
//  3. The callback calls Session.Cleanup: removes whatever is left and disarms the guard.
//     Cleanup is idempotent and must also run when the session is dropped unused.
//
// Signals to svcui while a session is armed:
//
//   - SIGINT: ignored. Ctrl-C on the terminal reaches the client too (same process group),
//     and the client decides (psql cancels the query); the session goes on.
//   - SIGTERM, SIGHUP: the guard removes the files at once, sends the same signal to the
//     client, and records it (Session.Signalled); the UI should quit once Run returns. A
//     client that ignores the signal is killed after a few seconds.
//   - SIGKILL cannot be caught: the directory stays, readable only by its owner. Every
//     directory is named after the process that made it, and the next console's start
//     (SweepStale) and every Plan remove the ones whose process is gone.
package connect
