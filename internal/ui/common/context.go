// Package common is what every part of the UI shares: the Context handed to each view
// and component (size, theme, keys, API client, read-only flag, logger, clipboard, clock,
// current project, name caches, palette commands), the messages views send to the root,
// the View/Modal interfaces of the view stack, and the addressed-request helpers.
package common

import (
	"io"

	tea "github.com/charmbracelet/bubbletea"
	"log/slog"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/svcui/svcui/internal/journal"
	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/clipboard"
	"github.com/svcui/svcui/internal/ui/keys"
	"github.com/svcui/svcui/internal/ui/theme"
)

// Layout limits from docs/interaction.md.
const (
	MinWidth     = 80
	MinHeight    = 24
	CompactBelow = 120
	// RequestTimeout bounds every API call made by a view.
	RequestTimeout = 15 * time.Second
	// FastRefresh is the live-refresh interval while something is in progress.
	FastRefresh = 2 * time.Second
)

// Context is shared by pointer between the root and every view. It is three things,
// embedded so views read them as ctx.API, ctx.Project(), ctx.ServiceNames:
//
//   - Deps: what the program was started with (client, theme, keys, clock, logger);
//   - the Session: where the person is (project, service, billing group), read
//     through getters (ctx.Project()); only the root holds its SessionWriter, so
//     views change it only by sending a message (SelectProject, SelectService,
//     SelectBillingGroup, Gone): a view that writes it does not compile;
//   - Cache: what panes learned from the platform for completion and lookups.
//
// Everything happens on the Bubble Tea goroutine.
type Context struct {
	// Width and Height are the size of the main pane (the screen minus header, tabs and
	// footer), which is what views lay themselves out in.
	Width, Height int
	// ScreenWidth and ScreenHeight are the whole terminal.
	ScreenWidth, ScreenHeight int
	// SpinnerFrame is the frame of the screen's one spinner; the root advances it.
	SpinnerFrame int
	// NoMotion (--no-motion, motion: false) stops the spinner and the ticks that move
	// times on screen: what is drawn changes only when data does.
	NoMotion bool

	Deps
	Cache

	// place is the session (session.go): read through Project(), Service(), …,
	// written only through the root's SessionWriter.
	place *place
}

// Deps are fixed for a profile: the root replaces them only on :profile.
type Deps struct {
	Styles *theme.Theme
	Keys   *keys.KeyMap
	// Tabs names the tabs in order (the root's registry): a tab's key is its place.
	Tabs      []string
	API       API
	Platform  Platform
	Clipboard *clipboard.Clipboard
	Log       *slog.Logger
	// Now and After are the UI's clock: every timer (live refresh, spinner, message
	// expiry, progress) is After(d, msg), so tests inject a clock that fires timers only
	// when told, instead of waiting real time.
	Now   func() time.Time
	After func(d time.Duration, msg tea.Msg) tea.Cmd

	Profile  string
	Profiles []string
	// Demo is set on the embedded sandbox: the header says the data is demo data.
	Demo     bool
	ReadOnly bool
	// APIURL is the platform's address, written into runbooks as their default; the
	// journal marks this console's writes per API host.
	APIURL string
	// StateDir is where the UI keeps what it remembers between runs (search history,
	// editor text, column choices): config.StateDir(), or a test's temporary directory.
	StateDir string
	// ConfigDir is where the user's own files are (saved searches): config.ConfigDir(),
	// or a test's temporary directory.
	ConfigDir string
	// SearchInsecure skips TLS verification of search interfaces (profile setting); the
	// Search tab warns on screen while it is on.
	SearchInsecure bool
	// Refresh is the configured live-refresh interval (default 10 s).
	Refresh time.Duration
	// DefaultProject is the profile's default project ("" = first admin project).
	DefaultProject string
	// ProfileAccount is the profile's account, for what needs one before a project is
	// current (AccountID prefers the current project's).
	ProfileAccount string

	Commands *Commands

	// Journal is what the console read of this profile and what changed in it (package
	// journal); the background reader (package changes) loads it and sets it here, nil
	// until then.
	Journal *journal.Journal

	// writer is the client's write methods, reached only through the write pipeline
	// (write.go): no view can send a change any other way.
	writer Writer

	// takes is the root's taker of navigation moves (Go); nil without a root.
	takes func(Move)
}

// Cache is what panes learned from the platform, for palette completion and lookups
// across panes; panes fill it as they load.
type Cache struct {
	// ProjectNames are the listed projects' names, sorted; RoleOf and AccountOf answer
	// what the list said of each.
	ProjectNames []string
	projects     projectIndex
	ServiceNames map[string][]string
	// ServiceTypes is project → service → type, so commands offer only the services
	// they can show (":search" only opensearch ones).
	ServiceTypes map[string]map[string]string
	// BillingGroups is id → name of the groups last listed, for ":billing group NAME".
	BillingGroups map[string]string
	// BillingWrites counts billing changes made in this session (a group created or
	// edited, a project moved): what was kept about billing before one is stale.
	BillingWrites int
	// Passwords this session received (a created user, a reset): connect may use them.
	// Never persisted, never logged.
	Passwords map[string]string
}

// NewContext returns a context with safe defaults (discarding logger, real clock,
// 10 s refresh, default keys, dark theme); callers replace what they configure.
func NewContext() *Context {
	k, _ := keys.New(nil)
	return &Context{
		place: &place{},
		Deps: Deps{
			Styles:    theme.New(theme.Dark, false),
			Keys:      k,
			Log:       slog.New(slog.NewTextHandler(io.Discard, nil)),
			Now:       time.Now,
			After:     After,
			Refresh:   10 * time.Second,
			Commands:  NewCommands(),
			Clipboard: clipboard.New(clipboard.Off, nil),
		},
		Cache: Cache{
			ServiceNames:  map[string][]string{},
			ServiceTypes:  map[string]map[string]string{},
			Passwords:     map[string]string{},
			BillingGroups: map[string]string{},
		},
	}
}

// After is the real clock's timer: msg arrives after d.
func After(d time.Duration, msg tea.Msg) tea.Cmd {
	return tea.Tick(d, func(time.Time) tea.Msg { return msg })
}

// Compact reports whether the layout should hide optional columns.
func (c *Context) Compact() bool { return c.ScreenWidth < CompactBelow }

// SetProjects records the project list for completion and role lookup.
func (c *Context) SetProjects(list models.ProjectList) {
	c.SetProjectsOf(len(list.Projects), func(i int) (string, string, models.Role) {
		p := &list.Projects[i]
		return p.ProjectName, p.AccountID, list.RoleOf(p.ProjectName)
	})
}

// SetProjectsOf records n projects, the i-th given by project, for completion and role
// lookup. What project gives is asked again when a role or an account is looked up, so
// it must answer from data that is not changed afterwards (the projects pane's loaded
// items): the context keeps their names' order, not a copy of the projects (two maps of
// 80,000 roles and accounts were 8.5 MB, live beside the list and at a refresh's peak).
func (c *Context) SetProjectsOf(n int, project func(i int) (name, account string, role models.Role)) {
	name := func(i int32) string { s, _, _ := project(int(i)); return s }
	if !c.projects.sameNames(c.ProjectNames, n, name) {
		order := make([]int32, n)
		for i := range order {
			order[i] = int32(i)
		}
		slices.SortStableFunc(order, func(a, b int32) int { return strings.Compare(name(a), name(b)) })
		names := make([]string, n)
		for k, i := range order {
			names[k] = name(i)
		}
		c.ProjectNames, c.projects.order = names, order
	}
	c.projects.of = project
}

// ForgetProjects drops what the last project list said (another profile).
func (c *Context) ForgetProjects() { c.ProjectNames, c.projects = nil, projectIndex{} }

// projectIndex finds what a project list said of a project by its name: order[k] is
// the place, in the list, of the k-th of the sorted names; of answers for a place.
type projectIndex struct {
	order []int32
	of    func(i int) (name, account string, role models.Role)
}

// sameNames reports whether the n projects named by name, in their order, are those
// already indexed (names sorted): a refresh that renamed none reuses the index.
func (x *projectIndex) sameNames(names []string, n int, name func(i int32) string) bool {
	if n != len(x.order) || n != len(names) {
		return false
	}
	for k, i := range x.order {
		if name(i) != names[k] {
			return false
		}
	}
	return true
}

// lookup is what the last project list said of project (ok false when it did not list it).
func (c *Cache) lookup(project string) (account string, role models.Role, ok bool) {
	k, found := slices.BinarySearch(c.ProjectNames, project)
	if !found || c.projects.of == nil || len(c.projects.order) != len(c.ProjectNames) {
		return "", "", false
	}
	_, account, role = c.projects.of(int(c.projects.order[k]))
	return account, role, true
}

// RoleOf is the caller's role in project as the project list said ("" when it did
// not say), and whether the list had that project.
func (c *Cache) RoleOf(project string) (models.Role, bool) {
	_, r, ok := c.lookup(project)
	return r, ok
}

// AccountOf is project's account as the project list said ("" unknown).
func (c *Cache) AccountOf(project string) string {
	a, _, _ := c.lookup(project)
	return a
}

// SetServices records a project's services for completion: names and types.
func (c *Context) SetServices(project string, svcs []models.Service) {
	names := make([]string, len(svcs))
	types := make(map[string]string, len(svcs))
	for i, s := range svcs {
		names[i] = s.ServiceName
		types[s.ServiceName] = s.ServiceType
	}
	c.SetServiceNames(project, names)
	c.ServiceTypes[project] = types
}

// ServiceTypeOf is a service's type as last listed ("" and false when not known).
func (c *Context) ServiceTypeOf(project, name string) (string, bool) {
	t, ok := c.ServiceTypes[project][name]
	return t, ok && t != ""
}

// SetServiceNames records a project's service names for completion.
func (c *Context) SetServiceNames(project string, names []string) {
	s := append([]string(nil), names...)
	sort.Strings(s)
	c.ServiceNames[project] = s
}

// RememberPassword keeps a password this session received for a service user.
func (c *Context) RememberPassword(project, service, user, password string) {
	if models.SecretAvailable(password) {
		c.Passwords[project+"/"+service+"/"+user] = password
	}
}

// Password is a password this session received for a service user, if any.
func (c *Context) Password(project, service, user string) (string, bool) {
	pw, ok := c.Passwords[project+"/"+service+"/"+user]
	return pw, ok
}

// CanAdminister reports whether the caller's role in the current project may change it
// (sandbox rule). The platform still has the last word: views send the request anyway
// when this is unknown and show its 403.
func (c *Context) CanAdminister(project string) bool {
	r, ok := c.RoleOf(project)
	return !ok || r == "" || r.CanAdminister()
}

var viewIDs atomic.Int64

// NewViewID returns a process-unique id for addressing async results to a view.
func NewViewID() int64 { return viewIDs.Add(1) }

// GlobalKeys are the keys every view leaves to the root: the tabs', the palette, help,
// refresh, back and quit.
func (c *Context) GlobalKeys() keys.Actions { return c.Keys.Global(c.Tabs) }
