package connect

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Session is a planned connection. For KindExec, Cmd is the client, ready for
// tea.ExecProcess (Stdin, Stdout and Stderr unset); Session itself satisfies
// tea.ExecCommand (Run, SetStdin, SetStdout, SetStderr), which is the better way to run it.
type Session struct {
	Kind    Kind
	Cmd     *exec.Cmd // KindExec only
	URI     string    // KindOpenURI: the web address, without credentials
	Service string
	User    string // the user it connects (or logs in) as
	Client  string // KindExec: the client, as a person would type it ("clickhouse client")

	describe string
	prog     program
	args     []string // the client's arguments
	env      []string // the child's environment
	notes    []string // how credentials and TLS are handled, for Describe
	oneShot  bool     // the client prints and exits (kcat -L)

	mu     sync.Mutex
	dir    string    // the private directory; "" once removed
	sig    os.Signal // the signal that ended the session, if one did
	disarm func()    // stops the signal guard
	cancel context.CancelFunc
}

// waitDelay is how long a client may outlive the signal it was sent before it is killed.
const waitDelay = 5 * time.Second

// dirPrefix names the private directories: dirPrefix + PID + "-" + random.
const dirPrefix = "svcui-connect-"

func newSession(opts Options, d *details, prog program) (*Session, error) {
	parent := opts.TempDir
	if parent == "" {
		parent = defaultTempDir()
	}
	sweepStale(parent)
	dir, err := os.MkdirTemp(parent, fmt.Sprintf("%s%d-", dirPrefix, os.Getpid()))
	if err != nil {
		return nil, fmt.Errorf("cannot make a private directory for %s's connection files: %w", prog.name, err)
	}
	// MkdirTemp makes 0700 already; say it, in case a platform does otherwise.
	if err := os.Chmod(dir, 0o700); err != nil {
		_ = os.RemoveAll(dir)
		return nil, fmt.Errorf("cannot make %s private: %w", dir, err)
	}
	base := opts.Env
	if base == nil {
		base = os.Environ()
	}
	return &Session{Kind: KindExec, Service: d.service, User: d.user, Client: prog.name,
		prog: prog, dir: dir, env: scrubEnv(base)}, nil
}

// SweepStale removes the private directories (with their plaintext credentials) that a
// svcui killed with SIGKILL, or crashed, left under tempDir ("" as in Options): those
// whose process is gone and that belong to this user. The console calls it at start,
// so they do not wait for the next connect; Plan calls it too.
func SweepStale(tempDir string) {
	if tempDir == "" {
		tempDir = defaultTempDir()
	}
	sweepStale(tempDir)
}

// defaultTempDir prefers the per-user runtime directory (memory-backed, private, emptied
// at logout) to the shared temporary directory.
func defaultTempDir() string {
	if rt := os.Getenv("XDG_RUNTIME_DIR"); filepath.IsAbs(rt) {
		if fi, err := os.Stat(rt); err == nil && fi.IsDir() {
			return rt
		}
	}
	return os.TempDir()
}

// scrubbed are variables the client must not inherit: svcui's platform token, and
// credentials that would override the ones given here (PGPASSWORD beats PGPASSFILE,
// VALKEYCLI_AUTH beats REDISCLI_AUTH).
var scrubbed = []string{"SVCUI_TOKEN", "PGPASSWORD", "PGPASSFILE", "MYSQL_PWD", "REDISCLI_AUTH",
	"VALKEYCLI_AUTH", "CLICKHOUSE_USER", "CLICKHOUSE_PASSWORD", "KCAT_CONFIG"}

func scrubEnv(env []string) []string {
	out := make([]string, 0, len(env))
next:
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		for _, s := range scrubbed {
			if strings.EqualFold(k, s) {
				continue next
			}
		}
		out = append(out, kv)
	}
	return out
}

// file writes a 0600 file in the private directory and returns its path.
func (s *Session) file(name, content string) (string, error) {
	path := filepath.Join(s.dir, name)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", fmt.Errorf("cannot write %s's %s file: %w", s.Client, name, err)
	}
	_, werr := f.WriteString(content)
	if err := errors.Join(werr, f.Close()); err != nil {
		return "", fmt.Errorf("cannot write %s's %s file: %w", s.Client, name, err)
	}
	return path, nil
}

// tlsFiles writes the service CA and the user's certificate and key, when there are
// any; an empty path means none.
func (s *Session) tlsFiles(d *details) (ca, cert, key string, err error) {
	if d.caPEM != "" {
		if ca, err = s.file("ca.pem", d.caPEM); err != nil {
			return "", "", "", err
		}
	}
	if d.certPEM != "" {
		if cert, err = s.file("client.crt", d.certPEM); err != nil {
			return "", "", "", err
		}
		if key, err = s.file("client.key", d.keyPEM); err != nil {
			return "", "", "", err
		}
		s.notes = append(s.notes, "client certificate and key of "+d.user+" from temporary files")
	}
	s.notes = append(s.notes, tlsNote(d.tls))
	return ca, cert, key, nil
}

func tlsNote(l tlsLevel) string {
	switch l {
	case tlsVerifyFull:
		return "TLS, server certificate and host name verified against the service CA"
	case tlsVerifyCA:
		return "TLS, server certificate verified against the service CA"
	}
	return "TLS required (no service CA to verify the server with)"
}

func (s *Session) setenv(k, v string) { s.env = append(s.env, k+"="+v) }

// finish makes the command and arms the signal guard.
func (s *Session) finish(oneShot bool) {
	ctx, cancel := context.WithCancel(context.Background())
	s.cancel, s.oneShot = cancel, oneShot
	cmd := exec.CommandContext(ctx, s.prog.path, append(append([]string(nil), s.prog.pre...), s.args...)...)
	cmd.Env = s.env
	cmd.WaitDelay = waitDelay
	// The guard cancels ctx on SIGTERM or SIGHUP: pass that signal on; kill only when it
	// cannot be sent (or when Cleanup cancels a client still running).
	cmd.Cancel = func() error {
		if sig := s.Signalled(); sig != nil && cmd.Process.Signal(sig) == nil {
			return nil
		}
		return cmd.Process.Kill()
	}
	s.Cmd = cmd
	s.describe = shellJoin(append(strings.Fields(s.Client), s.args...)) + " (" + strings.Join(s.notes, "; ") + ")"
	s.disarm = s.guard()
}

// Describe says what will run or happen, without secrets.
func (s *Session) Describe() string { return s.describe }

// Signalled is the signal (SIGTERM or SIGHUP) that ended the session, or nil. After one,
// svcui is being stopped or has lost its terminal: the caller should quit.
func (s *Session) Signalled() os.Signal {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sig
}

// Cleanup removes the session's files and disarms the signal guard. It is idempotent;
// call it in the tea.Exec callback, and whenever a planned session is dropped unused.
func (s *Session) Cleanup() error {
	s.mu.Lock()
	disarm := s.disarm
	s.disarm = nil
	s.mu.Unlock()
	if disarm != nil {
		disarm()
	}
	if s.cancel != nil {
		s.cancel()
	}
	return s.removeFiles()
}

func (s *Session) removeFiles() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.dir == "" {
		return nil
	}
	if err := os.RemoveAll(s.dir); err != nil {
		return fmt.Errorf("could not remove the connection files in %s: %w", s.dir, err)
	}
	s.dir = ""
	return nil
}

// SetStdin sets the client's standard input unless already set (tea.ExecCommand).
func (s *Session) SetStdin(r io.Reader) {
	if s.Cmd != nil && s.Cmd.Stdin == nil {
		s.Cmd.Stdin = r
	}
}

// SetStdout sets the client's standard output unless already set (tea.ExecCommand).
func (s *Session) SetStdout(w io.Writer) {
	if s.Cmd != nil && s.Cmd.Stdout == nil {
		s.Cmd.Stdout = w
	}
}

// SetStderr sets the client's standard error unless already set (tea.ExecCommand).
func (s *Session) SetStderr(w io.Writer) {
	if s.Cmd != nil && s.Cmd.Stderr == nil {
		s.Cmd.Stderr = w
	}
}

// Run runs the client and removes the session's files as soon as it exits. When the
// client failed, or only printed something (kcat -L), it waits for Enter first: the
// console's screen would otherwise cover the client's last words at once.
func (s *Session) Run() error {
	if s.Kind != KindExec || s.Cmd == nil {
		return errors.New("this connection is not a client to run")
	}
	err := s.Cmd.Run()
	rmErr := s.removeFiles()
	if s.Signalled() == nil && (err != nil || s.oneShot) {
		s.hold(err)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", s.Client, err)
	}
	return rmErr
}

func (s *Session) hold(err error) {
	out, in := s.Cmd.Stdout, s.Cmd.Stdin
	if out == nil || in == nil {
		return
	}
	what := s.Client + " finished"
	if err != nil {
		what = s.Client + " ended: " + err.Error()
	}
	fmt.Fprintf(out, "\n%s. Press Enter to return to svcui.", what)
	// One byte at a time, so nothing after the newline is taken from the console.
	b := make([]byte, 1)
	for {
		if n, rerr := in.Read(b); rerr != nil || (n == 1 && (b[0] == '\n' || b[0] == '\r')) {
			return
		}
	}
}

// shellJoin writes argv as a person could paste it into a shell.
func shellJoin(args []string) string {
	out := make([]string, len(args))
	for i, a := range args {
		if a != "" && !strings.ContainsFunc(a, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_=./:,@+", r))
		}) {
			out[i] = a
			continue
		}
		out[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return strings.Join(out, " ")
}
