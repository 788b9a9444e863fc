package ui

import (
	"bytes"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/svcui/svcui/internal/api"
	"github.com/svcui/svcui/internal/config"
	"github.com/svcui/svcui/internal/ui/app"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/theme"
)

type panicView struct{}

func (panicView) Init() tea.Cmd { return nil }
func (panicView) ID() int64     { return 0 }
func (panicView) Update(msg tea.Msg) (common.View, tea.Cmd) {
	if _, ok := msg.(tea.KeyMsg); ok {
		panic("boom: a bug in a view's Update")
	}
	return panicView{}, nil
}
func (panicView) View() string              { return "" }
func (panicView) SetSize(int, int)          {}
func (panicView) Title() string             { return "p" }
func (panicView) ShortHelp() []key.Binding  { return nil }
func (panicView) FullHelp() [][]key.Binding { return nil }
func (panicView) Capturing() bool           { return false }

func TestPanicInUpdateIsLoggedWithStackAndRepanics(t *testing.T) {
	t.Parallel()
	var logBuf bytes.Buffer
	root := app.New(app.Options{Tabs: []app.Tab{{Name: "P", New: func(*common.Context) common.View { return panicView{} }}}})
	m := &safeModel{inner: root, log: slog.New(slog.NewTextHandler(&logBuf, nil))}
	m.Init()
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	func() {
		defer func() {
			if recover() == nil {
				t.Fatal("the panic must reach Bubble Tea so it restores the terminal")
			}
		}()
		m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("z")})
	}()
	out := logBuf.String()
	if !strings.Contains(out, "panic") || !strings.Contains(out, "boom: a bug in a view") || !strings.Contains(out, "goroutine") {
		t.Fatalf("log lacks the panic and its stack:\n%s", out)
	}
}

func TestOpenLogOnlyWhenAsked(t *testing.T) {
	t.Parallel()
	l, closeFn, err := openLog(config.Settings{})
	if err != nil || l == nil {
		t.Fatal(err)
	}
	closeFn()
	path := filepath.Join(t.TempDir(), "sub", "svcui.log")
	l, closeFn, err = openLog(config.Settings{LogFile: path, Debug: true})
	if err != nil {
		t.Fatal(err)
	}
	l.Debug("hello")
	closeFn()
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("log file: %v %v", fi, err)
	}
}

func TestWelcomeChecksAndSavesProfile(t *testing.T) {
	t.Parallel()
	e := startSandbox(t)
	cfg := filepath.Join(t.TempDir(), "svcui", "config.yaml")
	opts := Options{Settings: config.Settings{ProfileName: "work"}, ConfigPath: cfg,
		NewClient: func(u, tok string) (*api.Client, error) { return api.New(api.Options{BaseURL: u, Token: tok}) }}
	w := newWelcome(opts, theme.New(theme.Dark, true), slog.Default())
	tm := teatest.NewTestModel(t, w, teatest.WithInitialTermSize(100, 30))
	sc := &screen{t: t, tm: tm}
	sc.waitFor("API URL")
	tm.Type(e.url)
	sc.advance("API token", "enter")
	tm.Type("wrong-token")
	sc.mark()
	sc.keys("enter")
	// The platform's 401 above the questions, and the focus back on the token, as typed:
	// not on the first question.
	sc.waitFor("✗ Invalid token", "┃ API token")
	for range len("wrong-token") {
		tm.Send(tea.KeyMsg{Type: tea.KeyBackspace})
	}
	tm.Type(e.admin)
	sc.keys("enter")
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	if w.result.quit || w.result.url != e.url || w.result.token != e.admin {
		t.Fatalf("result: quit=%v url=%q", w.result.quit, w.result.url)
	}
	fi, err := os.Stat(cfg)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("config: %v %v", fi, err)
	}
	data, _ := os.ReadFile(cfg)
	if !strings.Contains(string(data), "work") || !strings.Contains(string(data), e.url) {
		t.Fatalf("config content:\n%s", data)
	}
}
