package ui

import (
	"context"
	"errors"
	"log/slog"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"
	"github.com/charmbracelet/lipgloss"

	"github.com/svcui/svcui/internal/api"
	"github.com/svcui/svcui/internal/config"
	"github.com/svcui/svcui/internal/ui/components"
	"github.com/svcui/svcui/internal/ui/safe"
	"github.com/svcui/svcui/internal/ui/theme"
)

// welcomeResult is what the welcome screen decided.
type welcomeResult struct {
	url, token string
	stop       func()
	quit       bool
}

const (
	choiceToken   = "token"
	choiceSandbox = "sandbox"
)

// welcome asks for an API URL and token (checked with a real ListProjects, then saved to
// the profile with mode 0600) or opens the sandbox.
type welcome struct {
	opts   Options
	theme  *theme.Theme
	log    *slog.Logger
	form   *huh.Form
	choice string
	url    string
	token  string

	checking bool
	errText  string
	result   welcomeResult
	w, h     int
}

type welcomeChecked struct {
	err  error
	stop func()
	url  string
	tok  string
}

func newWelcome(opts Options, th *theme.Theme, log *slog.Logger) *welcome {
	w := &welcome{opts: opts, theme: th, log: log, choice: choiceToken, url: opts.Settings.APIURL}
	w.form = w.buildForm(false)
	return w
}

// buildForm builds the questions; retry (after the platform refused what was typed)
// leaves out the first question, whose answer stands.
func (w *welcome) buildForm(retry bool) *huh.Form {
	var fields []huh.Field
	if w.opts.StartSandbox != nil && !retry {
		fields = append(fields, huh.NewSelect[string]().Title("How do you want to start?").
			Options(huh.NewOption("Connect to a platform with an API URL and token", choiceToken),
				huh.NewOption("Open the sandbox (an in-process demo platform)", choiceSandbox)).
			Value(&w.choice))
	}
	connect := []huh.Field{
		huh.NewInput().Title("API URL").Placeholder("https://api.example.com").Value(&w.url).
			Validate(func(s string) error {
				if w.choice == choiceSandbox {
					return nil
				}
				return config.ValidateAPIURL(s)
			}),
		huh.NewInput().Title("API token").Description("Generated in the web console (user menu › tokens); saved 0600.").
			EchoMode(huh.EchoModePassword).Value(&w.token).
			Validate(func(s string) error {
				if w.choice == choiceSandbox || strings.TrimSpace(s) != "" {
					return nil
				}
				return errors.New("enter a token")
			}),
	}
	groups := []*huh.Group{}
	if len(fields) > 0 {
		groups = append(groups, huh.NewGroup(fields...))
	}
	groups = append(groups, huh.NewGroup(connect...).WithHideFunc(func() bool { return w.choice == choiceSandbox }))
	f := huh.NewForm(groups...).WithShowHelp(true).WithWidth(welcomeTextWidth)
	return f.WithTheme(components.HuhTheme(w.theme))
}

func (w *welcome) Init() tea.Cmd { return w.form.Init() }

func (w *welcome) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		w.w, w.h = msg.Width, msg.Height
	case tea.KeyMsg:
		if msg.Type == tea.KeyCtrlC || (msg.Type == tea.KeyEsc && !w.checking) {
			w.result.quit = true
			return w, tea.Quit
		}
		if w.checking {
			return w, nil
		}
	case welcomeChecked:
		w.checking = false
		if msg.err != nil {
			w.errText = api.Message(msg.err)
			if w.errText == "" {
				w.errText = msg.err.Error()
			}
			if w.choice == choiceSandbox {
				w.form = w.buildForm(false)
				return w, w.form.Init()
			}
			// Back where the answer was wrong, as typed: the token when the platform
			// refused it, else the URL (it could not be reached).
			w.form = w.buildForm(true)
			cmd := w.form.Init()
			if api.IsUnauthorized(msg.err) || api.IsForbidden(msg.err) {
				w.form.NextField()
			}
			return w, cmd
		}
		w.result = welcomeResult{url: msg.url, token: msg.tok, stop: msg.stop}
		return w, tea.Quit
	}
	m, cmd := w.form.Update(msg)
	if f, ok := m.(*huh.Form); ok {
		w.form = f
	}
	switch w.form.State {
	case huh.StateCompleted:
		w.checking = true
		w.errText = ""
		return w, w.check()
	case huh.StateAborted:
		w.result.quit = true
		return w, tea.Quit
	}
	return w, cmd
}

// check validates the choice with a real request and saves the profile.
func (w *welcome) check() tea.Cmd {
	opts, choice := w.opts, w.choice
	url, tok := config.NormalizeAPIURL(w.url), strings.TrimSpace(w.token)
	return func() tea.Msg {
		if choice == choiceSandbox {
			u, t, stop, err := opts.StartSandbox()
			return welcomeChecked{err: err, stop: stop, url: u, tok: t}
		}
		client, err := opts.NewClient(url, tok)
		if err != nil {
			return welcomeChecked{err: err}
		}
		ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
		defer cancel()
		if _, err := client.ListProjects(ctx); err != nil {
			return welcomeChecked{err: err}
		}
		name := opts.Settings.ProfileName
		if name == "" {
			name = "default"
		}
		if err := config.SaveProfile(opts.ConfigPath, name, config.Profile{APIURL: url, Token: tok}); err != nil {
			return welcomeChecked{err: err}
		}
		return welcomeChecked{url: url, tok: tok}
	}
}

func (w *welcome) View() string { return screenText(w.theme, w.view()) }

func (w *welcome) view() string {
	t := w.theme
	var b strings.Builder
	b.WriteString(t.Title.Render("Welcome to svcui") + "\n\n")
	b.WriteString("No API token is configured. Connect to your platform, or try the sandbox.\n\n")
	if w.checking {
		if w.choice == choiceSandbox {
			b.WriteString(t.Muted.Render("Starting the sandbox…"))
		} else {
			b.WriteString(t.Muted.Render("Checking the URL and token with the platform…"))
		}
	} else {
		if w.errText != "" {
			// Above the questions it is about, wrapped to the form's width: a long refusal
			// must not widen the box past the screen.
			b.WriteString(t.Danger.Width(welcomeTextWidth).Render("✗ "+safe.Text(w.errText)) + "\n\n")
		}
		b.WriteString(w.form.View())
	}
	b.WriteString("\n\n" + t.Muted.Render("esc: quit"))
	box := t.ModalBox.Render(b.String())
	if w.w == 0 {
		return box
	}
	return lipgloss.Place(w.w, w.h, lipgloss.Center, lipgloss.Center, box)
}

// welcomeTextWidth is the width of the welcome form and of its messages; with the box's
// border and padding it fits the 80-column minimum.
const welcomeTextWidth = 70

func runWelcome(ctx context.Context, opts Options, th *theme.Theme, log *slog.Logger, programs *[]*tea.Program) (welcomeResult, error) {
	w := newWelcome(opts, th, log)
	ex := &execState{}
	p := tea.NewProgram(w, programOptions(opts, ex)...)
	*programs = append(*programs, p)
	_, err := runProgram(ctx, p, ex, opts.Input, opts.Output)
	if ctx.Err() != nil {
		return welcomeResult{quit: true}, nil // SIGTERM or SIGHUP quit it
	}
	if err != nil {
		return welcomeResult{}, err
	}
	return w.result, nil
}
