// Package ui starts the console: logging, theme, client, the welcome screen when no
// token is configured, the Bubble Tea program and panic safety.
package ui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"runtime/debug"
	"sort"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/mattn/go-isatty"

	"github.com/svcui/svcui/internal/api"
	"github.com/svcui/svcui/internal/apilog"
	"github.com/svcui/svcui/internal/config"
	"github.com/svcui/svcui/internal/connect"
	"github.com/svcui/svcui/internal/journal"
	"github.com/svcui/svcui/internal/search"
	"github.com/svcui/svcui/internal/ui/app"
	"github.com/svcui/svcui/internal/ui/changes"
	"github.com/svcui/svcui/internal/ui/clipboard"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/keys"
	searchpane "github.com/svcui/svcui/internal/ui/pages/search"
	"github.com/svcui/svcui/internal/ui/theme"
	"github.com/svcui/svcui/internal/ui/watch"
)

var (
	_ common.Client           = (*api.Client)(nil)
	_ common.ServicesStreamer = (*api.Client)(nil)
)

// journalWrites marks the writes the console's API clients send in the journal of the
// profile in use ("here" in :changes).
var journalWrites = journal.NewHere(time.Now)

// TokenFromSandbox is the token source of the embedded sandbox (--sandbox, or the
// welcome screen's choice): the console runs under the profile "sandbox" and says the
// data is demo data.
const TokenFromSandbox = "sandbox"

// Options configure Run.
type Options struct {
	Settings config.Settings
	// ConfigPath is where the welcome screen saves the profile ("" = config.ConfigPath()).
	ConfigPath string
	Version    string
	// NewClient builds the API client; nil uses api.New with the version as user agent.
	NewClient func(baseURL, token string) (*api.Client, error)
	// StartSandbox starts an in-process sandbox for the welcome screen; nil hides the choice.
	StartSandbox func() (baseURL, adminToken string, stop func(), err error)
	// Input and Output default to the terminal.
	Input  io.Reader
	Output io.Writer
	// File is the config file as main read it at start: Run never reads it again
	// (":profile NAME" resolves from it).
	File *config.Config
	// ProgramOptions are appended to the program's options (tests).
	ProgramOptions []tea.ProgramOption
}

// Run runs the console until the user quits or ctx is cancelled.
func Run(ctx context.Context, opts Options) (err error) {
	s := opts.Settings
	logger, closeLog, err := openLog(s)
	if err != nil {
		return err
	}
	defer closeLog()
	logger.Info("svcui starting", "version", opts.Version, "profile", s.ProfileName, "api", s.APIURL, "read_only", s.ReadOnly)
	// Credentials a connect session of a svcui killed with SIGKILL left behind go now,
	// not at the next connect.
	connect.SweepStale("")
	holdMemory()

	if opts.ConfigPath == "" {
		opts.ConfigPath = config.ConfigPath()
	}
	// The session's API log (:log) sees every request of both clients; the log file
	// gets its entries only with --debug.
	logRequests(s, logger)
	if opts.NewClient == nil {
		opts.NewClient = func(baseURL, token string) (*api.Client, error) {
			return api.New(api.Options{BaseURL: baseURL, Token: token, UserAgent: "svcui/" + opts.Version, Logger: logger,
				WrapTransport: func(rt http.RoundTripper) http.RoundTripper {
					return apilog.Session.Wrap("api", journalWrites.Transport(rt))
				}})
		}
	}
	th, err := terminalTheme(&opts, s)
	if err != nil {
		return err
	}

	var programs []*tea.Program
	defer func() {
		// Panics outside Bubble Tea's own recovery (our setup code): restore the terminal,
		// log the stack, and say where it is.
		if r := recover(); r != nil {
			for _, p := range programs {
				p.Kill()
				_ = p.ReleaseTerminal()
			}
			logger.Error("panic", "value", fmt.Sprint(r), "stack", string(debug.Stack()))
			err = crashError(s)
		}
	}()

	if !s.Configured() {
		res, werr := runWelcome(ctx, opts, th, logger, &programs)
		if werr != nil {
			return werr
		}
		if res.quit {
			return nil
		}
		if res.stop != nil {
			defer res.stop()
			// The sandbox runs under its own profile name, and the header says it is demo data.
			s.ProfileName, s.TokenSource = "sandbox", TokenFromSandbox
		}
		s.APIURL, s.Token = res.url, res.token
	}

	client, err := opts.NewClient(s.APIURL, s.Token)
	if err != nil {
		return err
	}
	model := newRoot(s, th, logger, client, profileSwitcher(ctx, opts, s, th, logger))
	model.inner.Watches().Ring = watch.Ring // the terminal's bell, tmux, OSC 9 (not in tests)
	if opts.File != nil {
		for name := range opts.File.Profiles {
			model.inner.Context().Profiles = append(model.inner.Context().Profiles, name)
		}
	}
	sort.Strings(model.inner.Context().Profiles)
	if opts.File != nil {
		// The config file's own warnings (readable by others): shown once at start,
		// last so the footer keeps them, and in ":messages" like every message.
		model.warnings = append(model.warnings, opts.File.Warnings...)
	}
	ex := &execState{}
	p := tea.NewProgram(model, programOptions(opts, ex)...)
	programs = append(programs, p)
	_, err = runProgram(ctx, p, ex, opts.Input, opts.Output)
	// What the journal learned since its last save is kept for the next start.
	if ferr := model.journal.Flush(); ferr != nil {
		logger.Warn("journal not saved", "error", ferr)
	}
	if errors.Is(err, tea.ErrProgramPanic) {
		return crashError(s)
	}
	return err
}

// logRequests wraps every search client's transport in the session's API log, and with
// --debug also writes the log's (masked) entries to the log file.
func logRequests(s config.Settings, logger *slog.Logger) {
	search.WrapTransports(func(rt http.RoundTripper) http.RoundTripper { return apilog.Session.Wrap("search", rt) })
	if !s.Debug {
		apilog.Session.SetSink(nil)
		return
	}
	apilog.Session.SetSink(func(e apilog.Entry) {
		logger.Debug("http", "source", e.Source, "method", e.Method, "url", e.URL, "attempt", e.Attempt, "status", e.Status,
			"latency", e.Latency, "bytes", e.Size, "error", e.Err, "request_headers", e.ReqHeader, "request_body", e.ReqBody,
			"answer_headers", e.RespHeader, "answer_body", e.RespBody)
	})
}

func programOptions(opts Options, ex *execState) []tea.ProgramOption {
	// Signals: see signals.go (runProgram quits the program when main's context ends).
	po := []tea.ProgramOption{tea.WithAltScreen(), tea.WithReportFocus(), tea.WithoutSignalHandler(),
		tea.WithFilter(ex.filter)}
	if opts.Input != nil {
		po = append(po, tea.WithInput(opts.Input))
	}
	if opts.Output != nil {
		po = append(po, tea.WithOutput(opts.Output))
	}
	return append(po, opts.ProgramOptions...)
}

// newRoot builds the root model for settings and a client.
func newRoot(s config.Settings, th *theme.Theme, logger *slog.Logger, client *api.Client, switchProfile func(string) tea.Cmd) *safeModel {
	cctx, session, warnings := newContext(s, th, logger, client)
	reader := changes.NewReader(cctx, journalWrites)
	root := app.New(app.Options{Context: cctx, Session: session, Tabs: Tabs(), Commands: Commands(), SwitchProfile: switchProfile,
		Background: []app.Background{reader}})
	for _, w := range warnings {
		logger.Warn("config", "warning", w)
	}
	return &safeModel{inner: root, log: logger, warnings: warnings, journal: reader}
}

// profileSwitcher implements ":profile NAME": it re-reads the config file, resolves the
// profile as if --profile NAME had been given (read-only stays on when it was on), builds
// a client and hands the root a Reconnect.
func profileSwitcher(ctx context.Context, opts Options, cur config.Settings, th *theme.Theme, logger *slog.Logger) func(string) tea.Cmd {
	return func(name string) tea.Cmd {
		file := opts.File
		return func() tea.Msg {
			if file == nil {
				return common.Notify{Level: theme.LevelWarn, Text: "No config file was read at start, so there is no profile “" + name + "” to switch to"}
			}
			if _, ok := file.Profiles[name]; !ok {
				return common.Notify{Level: theme.LevelWarn, Text: "No profile named “" + name + "” in the config file"}
			}
			rctx, cancel := context.WithTimeout(ctx, requestTimeout)
			defer cancel()
			s, err := config.ResolveContext(rctx, config.Flags{Profile: name}, os.Getenv, file)
			if err != nil {
				return common.Notify{Level: theme.LevelError, Text: err.Error()}
			}
			if !s.Configured() {
				return common.Notify{Level: theme.LevelWarn, Text: "Profile “" + name + "” has no API URL or token"}
			}
			s.ReadOnly = s.ReadOnly || cur.ReadOnly
			s.Theme, s.NoColor, s.Clipboard, s.LogFile, s.Debug = cur.Theme, cur.NoColor, cur.Clipboard, cur.LogFile, cur.Debug
			client, err := opts.NewClient(s.APIURL, s.Token)
			if err != nil {
				return common.Notify{Level: theme.LevelError, Text: err.Error()}
			}
			logger.Info("switching profile", "profile", name, "api", s.APIURL)
			return common.Reconnect{Profile: name, Apply: func(c *common.Context) {
				fresh, _, _ := newContext(s, th, logger, client)
				c.ConnectAs(fresh)
				c.Platform, c.Keys, c.Clipboard = fresh.Platform, fresh.Keys, fresh.Clipboard
				c.Profile, c.ReadOnly, c.Refresh, c.DefaultProject, c.ProfileAccount = s.ProfileName, s.ReadOnly, fresh.Refresh, s.DefaultProject, s.AccountID
				c.SearchInsecure = s.SearchInsecure
				c.APIURL = s.APIURL
			}}
		}
	}
}

// newContext builds the shared context from settings and a client.
func newContext(s config.Settings, th *theme.Theme, logger *slog.Logger, client *api.Client) (*common.Context, *common.SessionWriter, []string) {
	var warnings []string
	km, errs := keys.New(s.Keys)
	for _, e := range errs {
		warnings = append(warnings, e.Error())
	}
	cbMode, err := clipboard.ParseMode(s.Clipboard)
	if err != nil {
		warnings = append(warnings, err.Error())
	}
	searchpane.SetTimeZone(s.TimeZone)
	c, session := common.NewRootContext()
	c.Styles = th
	c.Keys = km
	c.Connect(client)
	c.Platform = common.Platform{
		RateLimit: func() common.RateLimit {
			rl := client.RateLimit()
			return common.RateLimit{Limit: rl.Limit, Remaining: rl.Remaining, Reset: rl.Reset, Known: rl.Known}
		},
		Message:     api.Message,
		IsForbidden: api.IsForbidden,
		IsConflict:  api.IsConflict,
		IsNotFound:  api.IsNotFound,
		// Writes whose answer never came, and the full account of an error for the log.
		IsOutcomeUnknown: api.IsOutcomeUnknown,
		Detail:           api.Detail,
		RateLimited:      api.RateLimited,
		WaitBulk:         func(ctx context.Context) error { return client.Budget().Wait(ctx, api.Bulk) },
		SkipReport: func(ctx context.Context) (context.Context, func() string) {
			ctx, r := api.WithSkipReport(ctx)
			return ctx, func() string { return r.Skipped().Sentence() }
		},
	}
	c.Clipboard = clipboard.New(cbMode, nil)
	c.Log = logger
	c.Profile = s.ProfileName
	c.NoMotion = s.NoMotion
	c.Demo = s.TokenSource == TokenFromSandbox
	c.StateDir = config.StateDir()
	c.APIURL = s.APIURL
	c.ConfigDir = config.ConfigDir()
	c.ReadOnly = s.ReadOnly
	c.SearchInsecure = s.SearchInsecure
	if s.Refresh > 0 {
		c.Refresh = s.Refresh
	}
	c.DefaultProject = s.DefaultProject
	c.ProfileAccount = s.AccountID
	return c, session, warnings
}

// safeModel logs the stack of a panic in Update or View before Bubble Tea's own
// recovery restores the terminal, and shows config warnings (of the settings and of
// the config file) once at start.
type safeModel struct {
	inner    *app.Model
	journal  *changes.Reader
	log      *slog.Logger
	warnings []string
}

func (m *safeModel) Init() tea.Cmd {
	// Finding how to copy may run `tmux -V`: a command, never in Update.
	cb := m.inner.Context().Clipboard
	cmd := tea.Batch(m.inner.Init(), func() tea.Msg { cb.Detect(); return nil })
	if len(m.warnings) > 0 {
		// Every warning is logged for ":messages"; the footer keeps the last.
		warns := make([]tea.Cmd, len(m.warnings))
		for i, w := range m.warnings {
			warns[i] = common.Warn(w)
		}
		cmd = tea.Batch(cmd, tea.Sequence(warns...))
	}
	return cmd
}

func (m *safeModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	defer m.logPanic()
	_, cmd := m.inner.Update(msg)
	return m, cmd
}

// View filters the frame through safe.Frame: whatever platform text a view forgot to
// sanitize, no sequence the console did not emit reaches the terminal.
func (m *safeModel) View() string {
	defer m.logPanic()
	return screenText(m.inner.Context().Styles, m.inner.View())
}

func (m *safeModel) logPanic() {
	if r := recover(); r != nil {
		m.log.Error("panic", "value", fmt.Sprint(r), "stack", string(debug.Stack()))
		panic(r)
	}
}

func crashError(s config.Settings) error {
	if s.LogFile != "" {
		fmt.Fprintf(os.Stderr, "svcui crashed; the stack trace is in %s\n", s.LogFile)
		return fmt.Errorf("svcui crashed (details in %s)", s.LogFile)
	}
	fmt.Fprintln(os.Stderr, "svcui crashed; run with --debug to write the stack trace to a log file")
	return errors.New("svcui crashed")
}

// openLog opens the log file when Debug or LogFile asks for one; otherwise everything
// is discarded. Logs never go to the terminal.
func openLog(s config.Settings) (*slog.Logger, func(), error) {
	path := s.LogFile
	if path == "" && s.Debug {
		path = config.DefaultLogFile()
	}
	if path == "" {
		return slog.New(slog.NewTextHandler(io.Discard, nil)), func() {}, nil
	}
	if err := os.MkdirAll(dirOf(path), 0o700); err != nil {
		return nil, nil, fmt.Errorf("log file: %w", err)
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, nil, fmt.Errorf("log file: %w", err)
	}
	level := slog.LevelInfo
	if s.Debug {
		level = slog.LevelDebug
	}
	return slog.New(slog.NewTextHandler(f, &slog.HandlerOptions{Level: level})), func() { _ = f.Close() }, nil
}

func dirOf(path string) string {
	for i := len(path) - 1; i >= 0; i-- {
		if path[i] == '/' || path[i] == os.PathSeparator {
			if i == 0 {
				return "/"
			}
			return path[:i]
		}
	}
	return "."
}

func isTerminal(w any) bool {
	if w == nil {
		w = os.Stdout
	}
	f, ok := w.(interface{ Fd() uintptr })
	return ok && isatty.IsTerminal(f.Fd())
}

// requestTimeout bounds the welcome screen's check.
const requestTimeout = 15 * time.Second
