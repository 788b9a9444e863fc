// Command svcui is a full-screen terminal console for the managed data platform.
//
//	svcui [flags]                 the TUI
//	svcui --sandbox [...]         the TUI on an in-process sandbox
//	svcui sandbox [...]           the platform emulation alone
//	svcui version
//
// main reads flags and subcommands and wires config, client and program; nothing else.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/svcui/svcui/internal/config"
	"github.com/svcui/svcui/internal/sandbox"
	"github.com/svcui/svcui/internal/ui"
)

// Stamped by the release build (-ldflags "-X main.version=...").
var (
	version = "dev"
	commit  = "none"
	date    = "unknown"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	// The TUI takes ctrl+c as a key; SIGINT reaches svcui only from outside, or from a
	// client opened with `o` (psql) that shares the terminal's process group, where
	// ctrl+c is meant for the client. So the TUI ends on SIGTERM and SIGHUP only; the
	// sandbox alone also ends on ctrl+c. This context is the one owner of SIGTERM and
	// SIGHUP: the TUI's program runs without Bubble Tea's signal handler (ui/signals.go).
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGHUP)
	defer stop()

	if len(args) > 0 {
		switch args[0] {
		case "version":
			fmt.Fprintf(stdout, "svcui %s (commit %s, built %s)\n", version, commit, date)
			return 0
		case "sandbox":
			ctx, stop := signal.NotifyContext(ctx, os.Interrupt)
			defer stop()
			if err := sandbox.Run(ctx, args[1:], stdout, stderr); err != nil {
				if errors.Is(err, flag.ErrHelp) {
					return 0
				}
				return 1
			}
			return 0
		}
	}

	fs := flag.NewFlagSet("svcui", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var flags config.Flags
	flags.Register(fs)
	useSandbox := fs.Bool("sandbox", false, "run the TUI on an in-process sandbox with demo data")
	sandboxData := fs.String("sandbox-data", "demo", "sandbox data with --sandbox: demo, empty or scale:N")
	showVersion := fs.Bool("version", false, "print the version and exit")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage:\n  svcui [flags]\n  svcui --sandbox [--sandbox-data demo|empty|scale:N]\n  svcui sandbox [--addr 127.0.0.1:8080] [--data demo|empty|hostile|scale:N] [--provision-delay 20s] [--faults SPEC] [--state FILE] [--rate-limit N] [--seed N] [--attach SERVICE=URI]...\n  svcui version\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "svcui: unknown command %q (try svcui --help)\n", fs.Arg(0))
		return 2
	}
	if *showVersion {
		fmt.Fprintf(stdout, "svcui %s (commit %s, built %s)\n", version, commit, date)
		return 0
	}
	flags.Capture(fs)

	cfgPath := config.ConfigPath()
	file, err := config.Load(cfgPath)
	if err != nil {
		fmt.Fprintf(stderr, "svcui: %v\n", err)
		return 1
	}
	settings, err := config.ResolveContext(ctx, flags, os.Getenv, file)
	if err != nil {
		fmt.Fprintf(stderr, "svcui: %v\n", err)
		return 1
	}

	startSandbox := func() (string, string, func(), error) {
		sb, err := sandbox.New(sandbox.Options{Data: *sandboxData, Search: true})
		if err != nil {
			return "", "", nil, err
		}
		url, err := sb.Start("127.0.0.1:0")
		if err != nil {
			sb.Close()
			return "", "", nil, err
		}
		return url, sb.AdminToken(), func() { sb.Close() }, nil
	}
	if *useSandbox {
		url, token, closeSandbox, err := startSandbox()
		if err != nil {
			fmt.Fprintf(stderr, "svcui: cannot start the sandbox: %v\n", err)
			return 1
		}
		defer closeSandbox()
		settings.APIURL, settings.Token, settings.TokenSource = url, token, ui.TokenFromSandbox
		settings.ProfileName = "sandbox"
	}

	err = ui.Run(ctx, ui.Options{
		Settings:     settings,
		ConfigPath:   cfgPath,
		Version:      version,
		StartSandbox: startSandbox,
		File:         file,
	})
	if err != nil {
		fmt.Fprintf(stderr, "svcui: %v\n", err)
		return 1
	}
	return 0
}
