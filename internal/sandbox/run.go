package sandbox

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// Run is the `svcui sandbox` subcommand: it serves the platform on loopback until ctx is
// cancelled, after printing exactly three lines (the address and the two tokens).
func Run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("svcui sandbox", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	addr := fs.String("addr", "127.0.0.1:8080", "loopback address to listen on (port 0 picks one)")
	data := fs.String("data", "demo", "data set: demo, empty, hostile (demo plus text with terminal control sequences, for sanitizer tests) or scale:N")
	delay := fs.Duration("provision-delay", DefaultProvisionDelay, "how long services stay REBUILDING or REBALANCING")
	faults := fs.String("faults", "", "fault injection, e.g. seed=7,500=0.1,429=0.05,latency=0.2:300ms,drop=0.02,drop-after=0.05 (drop-after: writes executed, then the connection closed)")
	state := fs.String("state", "", "state file: loaded when present, saved after changes")
	rate := fs.Int("rate-limit", DefaultRateLimit, "requests per minute per token")
	seed := fs.Int64("seed", 0, "seed for demo data, passwords and faults (0: random)")
	caFile := fs.String("ca-cert", "", "write the CA certificate of the search interfaces (TLS) to FILE, for clients that verify it (curl --cacert, the official OpenSearch clients)")
	var attachArgs []string // checked after parsing, so that no error repeats a password
	fs.Func("attach", "SERVICE=URI or PROJECT/SERVICE=URI (repeatable): answer that service's connection details from a real server's URI, e.g. pg-main=postgres://user:pass@127.0.0.1:5432/db?sslmode=disable; URI env:NAME reads it from the environment", func(v string) error {
		attachArgs = append(attachArgs, v)
		return nil
	})
	fail := func(err error) error {
		fmt.Fprintln(stderr, "svcui sandbox: "+err.Error())
		return err
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.SetOutput(stderr)
			fmt.Fprintln(stderr, "Usage: svcui sandbox [--addr 127.0.0.1:8080] [--data demo|empty|hostile|scale:N] [--provision-delay 20s] [--faults SPEC] [--state FILE] [--rate-limit N] [--seed N] [--ca-cert FILE] [--attach SERVICE=URI]...")
			fs.PrintDefaults()
			return nil
		}
		return fail(fmt.Errorf("%s (see svcui sandbox --help)", strings.TrimSuffix(err.Error(), "\n")))
	}
	if fs.NArg() > 0 {
		return fail(fmt.Errorf("unexpected argument %q (see svcui sandbox --help)", fs.Arg(0)))
	}
	if *delay <= 0 {
		return fail(fmt.Errorf("--provision-delay must be positive, not %s", *delay))
	}
	if *rate <= 0 {
		return fail(fmt.Errorf("--rate-limit must be a positive number of requests per minute, not %d", *rate))
	}
	if err := checkLoopback(*addr); err != nil {
		return fail(err)
	}
	attach, err := parseAttachArgs(attachArgs)
	if err != nil {
		return fail(err)
	}
	sb, err := New(Options{
		Data: *data, ProvisionDelay: *delay, Faults: *faults, StateFile: *state,
		RateLimit: *rate, Search: true, Seed: *seed, Attach: attach,
	})
	if err != nil {
		return fail(err)
	}
	for _, w := range sb.Warnings() {
		fmt.Fprintln(stderr, w)
	}
	if *caFile != "" {
		if err := os.WriteFile(*caFile, []byte(sb.CACertPEM()), 0o644); err != nil {
			_ = sb.Close()
			return fail(fmt.Errorf("--ca-cert: %w", err))
		}
	}
	base, err := sb.Start(*addr)
	if err != nil {
		_ = sb.Close()
		return fail(err)
	}
	fmt.Fprintf(stdout, "svcui sandbox listening on %s\nadmin token: %s\ndeveloper token: %s\naccount id: %s\n", base, sb.AdminToken(), sb.DeveloperToken(), sb.AccountID())
	<-ctx.Done()
	done := make(chan error, 1)
	go func() { done <- sb.Close() }()
	select {
	case err := <-done:
		if err != nil {
			return fail(fmt.Errorf("closing: %w", err))
		}
	case <-time.After(10 * time.Second):
		return fail(errors.New("closing took longer than 10s; the state file may be stale"))
	}
	return nil
}

// parseAttachArgs reads the --attach values (SERVICE=URI) into Options.Attach.
func parseAttachArgs(args []string) (map[string]string, error) {
	attach := map[string]string{}
	for _, v := range args {
		name, uri, ok := strings.Cut(v, "=")
		if !ok || name == "" || uri == "" || strings.Contains(name, "://") {
			return nil, fmt.Errorf("--attach %s: the form is SERVICE=URI, like pg-main=postgres://user:pass@127.0.0.1:5432/db", redactURI(v))
		}
		if _, dup := attach[name]; dup {
			return nil, fmt.Errorf("--attach names %s twice", name)
		}
		attach[name] = uri
	}
	return attach, nil
}
