// Package changes is the console's side of the journal: the background reader that
// reads the account every refresh interval and hands each answer to the profile's
// journal (package journal diffs it where it is decoded, not in a view), the :changes
// view, the read-only view of the last snapshot shown while the platform cannot be
// reached, and the "since you last looked" notice.
package changes

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/journal"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/watch"
)

// Reader is the root's background reader. The root hands it every message first
// (Update reports whether it was one of its own).
type Reader struct {
	ctx  *common.Context
	here *journal.Here

	profile string
	j       *journal.Journal
	gen     int
	// cursor is where the next round's reads start, of the projects' service lists,
	// of services' details (users, topics, databases) and of billing (groups, credits,
	// invoices, estimates): a large account is read a slice per round, all of it over
	// a few rounds.
	cursor [3]int
	// cycled says every read has been made once in this run, told that what it found
	// of the time the console was closed has been said; away counts those changes.
	cycled, told bool
	away         int
	// notice is "since you last looked (N changes)" in the header, until :changes is
	// opened.
	notice string
	// file is the journal's file, apiURL the address it is of.
	file, apiURL string
	// reached says the platform answered in this run; offline is set while the last
	// snapshot is shown because it did not.
	reached bool
	offline bool
	saving  bool
	savedAt time.Time
	// waits counts the looks for the project list at start.
	waits int
	// plan is the last round's list of reads (only rounds' commands build it).
	plan *plan
}

// LargeAccount is the most projects the journal follows: reading every service of
// more each interval would cost the platform's rate budget and the console's memory
// (an 80,000-project account is left to the panes).
const LargeAccount = 2_000

// maxPerRound bounds a round's detail reads whatever the platform allows: the journal
// is background work, and what it decodes each round is garbage the console carries
// until the next collection (a 10,000-service account is read over ~30 minutes at
// the default 10 s).
const maxPerRound = 64

// listsPerRound is how many projects' service lists a round reads: every one of a
// small account; two of a larger one, whose services list already refreshes a rolling
// share of its projects (the journal must not double what an idle console spends).
func listsPerRound(projects int) int {
	if projects <= smallAccount {
		return projects
	}
	return 2
}

const smallAccount = 16

// The reader looks for the project list every firstLookStep, firstLookWaits times.
const (
	firstLookStep  = 100 * time.Millisecond
	firstLookWaits = 50
)

// Seen says :changes was opened: the header's notice has been read.
type Seen struct{}

// Changed tells the focused view that the journal has new entries.
type Changed struct{}

// Online tells the focused view that the platform answers again (the offline view
// gives way to the live one).
type Online struct{}

type loaded struct {
	gen     int
	profile string
	apiURL  string
	file    string
	j       *journal.Journal
	err     error
}

type tick struct{ gen int }

type round struct {
	gen    int
	found  []journal.Entry
	cursor [3]int
	cycled bool
	// err is the projects read's failure: the platform could not be read this round.
	err error
	// saveErr is the failure of the save the round ended with.
	saveErr error
	// plan is the list of reads the round used, for the next one.
	plan *plan
}

type saved struct{ err error }

// NewReader returns the reader; here is the switch the API client's transport marks
// this console's writes through.
func NewReader(ctx *common.Context, here *journal.Here) *Reader {
	return &Reader{ctx: ctx, here: here}
}

// Init loads the profile's journal (in a command: it is a file).
func (r *Reader) Init() tea.Cmd { return r.load() }

func (r *Reader) load() tea.Cmd {
	r.gen++
	gen, profile, apiURL, now := r.gen, r.ctx.Profile, r.ctx.APIURL, r.ctx.Now()
	if r.ctx.StateDir == "" {
		return func() tea.Msg { return loaded{gen: gen, profile: profile, apiURL: apiURL, j: journal.New()} }
	}
	path := journal.Path(r.ctx.StateDir, profile, apiURL)
	return func() tea.Msg {
		j, err := journal.Load(path, now)
		return loaded{gen: gen, profile: profile, apiURL: apiURL, file: path, j: j, err: err}
	}
}

// IntoHeader shows "since you last looked (N changes)" until :changes is opened.
func (r *Reader) IntoHeader(header string) string {
	for _, s := range r.noticeForms() {
		if h := watch.IntoGap(header, r.ctx.Styles.Warn.Render(s)); h != header {
			return h
		}
	}
	return header
}

// HeaderRoom is what the notice's shortest form needs: the header keeps it free.
func (r *Reader) HeaderRoom() int {
	forms := r.noticeForms()
	if len(forms) == 0 {
		return 0
	}
	return watch.GapRoom(forms[len(forms)-1])
}

// noticeForms are the notice's forms, longest first: the shorter where the line
// leaves little room (none once :changes has been opened).
func (r *Reader) noticeForms() []string {
	if r.notice == "" {
		return nil
	}
	return []string{r.notice + " :changes", r.notice, strings.TrimPrefix(r.notice, "since you last looked ")}
}

// Update takes the reader's messages.
func (r *Reader) Update(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case loaded:
		if msg.gen != r.gen {
			return nil, true
		}
		r.profile, r.apiURL, r.file, r.j = msg.profile, msg.apiURL, msg.file, msg.j
		// The first save comes a minute in (and at exit): a console opened for a moment
		// writes nothing while it runs.
		r.savedAt = r.ctx.Now()
		r.cursor, r.cycled, r.told, r.away, r.reached, r.offline, r.notice, r.plan = [3]int{}, false, false, 0, false, false, "", nil
		r.ctx.Journal = msg.j
		r.here.Use(r.ctx.APIURL, msg.j)
		var warn tea.Cmd
		if msg.err != nil {
			warn = common.Warn(msg.err.Error())
		}
		return tea.Batch(warn, r.read()), true
	case tick:
		if msg.gen != r.gen {
			return nil, true
		}
		if r.ctx.Profile != r.profile || r.ctx.APIURL != r.apiURL {
			// :profile switched: keep what this one learned, then read the other's.
			return tea.Batch(r.save(true), r.load()), true
		}
		return r.read(), true
	case round:
		if msg.gen != r.gen {
			return nil, true
		}
		return r.took(msg), true
	case Seen:
		r.notice = ""
		return nil, false // the view that sent it may want it too
	case saved:
		r.saving = false
		if msg.err != nil {
			return common.Warn("The journal could not be saved: " + msg.err.Error()), true
		}
		return nil, true
	}
	return nil, false
}

// took handles a round's answers.
func (r *Reader) took(m round) tea.Cmd {
	var cmds []tea.Cmd
	next := r.ctx.Refresh
	_, _, limited := r.ctx.RateLimitedText(m.err)
	if m.err != nil && !limited {
		if !r.reached && !r.offline && r.j.Last(journal.Projects()) != nil {
			r.offline = true
			cmds = append(cmds, common.Send(common.PushView{View: newOffline(r.ctx, r.j, m.err, func() bool { return r.reached })}))
		}
	} else if m.err == nil {
		if r.offline {
			r.offline = false
			cmds = append(cmds, common.Send(Online{}))
		}
		r.reached = true
	}
	r.cursor = m.cursor
	if m.plan != nil {
		r.plan = m.plan
	}
	for _, e := range m.found {
		if announced(e) {
			r.away++
		}
	}
	if len(m.found) > 0 {
		cmds = append(cmds, common.Send(Changed{}))
	}
	r.cycled = r.cycled || m.cycled
	if r.cycled && !r.told && r.reached {
		r.told = true
		r.j.SetCovered()
		cmds = append(cmds, common.Send(Changed{}))
		// In the header, not the footer: a warning there stays until it is read.
		if r.away > 0 {
			r.notice = "since you last looked (" + count(r.away) + ")"
		}
	}
	if m.saveErr != nil {
		cmds = append(cmds, common.Warn("The journal could not be saved: "+m.saveErr.Error()))
	}
	r.gen++
	cmds = append(cmds, r.ctx.After(next, tick{r.gen}))
	return tea.Batch(cmds...)
}

// announced says e is one of the changes made while the console was closed that the
// notice counts: values that move on their own are listed, not announced (an
// estimate's month-to-date total grows a cent between any two starts).
func announced(e journal.Entry) bool { return e.Away && !e.Drifted() }

func count(n int) string {
	if n == 1 {
		return "1 change"
	}
	return strconv.Itoa(n) + " changes"
}

// save writes the journal in a command; force writes it even when it is unchanged.
func (r *Reader) save(force bool) tea.Cmd {
	if r.j == nil || r.file == "" || r.saving || (!force && !r.j.Unsaved()) {
		return nil
	}
	r.saving, r.savedAt = true, r.ctx.Now()
	j, path, now := r.j, r.file, r.ctx.Now()
	return func() tea.Msg { return saved{err: j.Save(path, now)} }
}

// Flush saves the journal now (the console is leaving; not called from Update).
func (r *Reader) Flush() error {
	if r.j == nil || r.file == "" {
		return nil
	}
	return r.j.Save(r.file, r.ctx.Now())
}

// read starts a round in a command.
func (r *Reader) read() tea.Cmd {
	r.gen++
	// The projects pane's first list says how large the account is; the reader waits a
	// moment for it rather than read the projects a second time at start.
	if n := len(r.ctx.ProjectNames); n == 0 && r.waits < firstLookWaits {
		r.waits++
		return r.ctx.After(firstLookStep, tick{r.gen})
	} else if n > LargeAccount {
		if r.j != nil {
			r.j.SetTooLarge(n)
		}
		return r.ctx.After(r.ctx.Refresh, tick{r.gen})
	}
	if r.j != nil {
		r.j.SetTooLarge(0)
	}
	api, j, gen, cursor, now, cached := r.ctx.API, r.j, r.gen, r.cursor, r.ctx.Now, r.plan
	allowance := r.allowance()
	if api == nil || j == nil {
		return nil
	}
	// The round ends with a save at most every saveEvery while the journal changes
	// (and at exit, by Flush): one command, no message of its own.
	path := ""
	if r.file != "" && r.ctx.Now().Sub(r.savedAt) >= saveEvery {
		path, r.savedAt = r.file, r.ctx.Now()
	}
	return func() tea.Msg {
		out := readRound(api, j, gen, cursor, now, allowance, cached)
		if path != "" && j.Unsaved() {
			out.saveErr = j.Save(path, now())
		}
		return out
	}
}

const saveEvery = time.Minute

// readRound reads what a round reads (in the command's goroutine).
func readRound(api common.API, j *journal.Journal, gen int, cursor [3]int, now func() time.Time, allowance int, cached *plan) round {
	ctx, cancel := context.WithTimeout(context.Background(), 2*common.RequestTimeout)
	defer cancel()
	// Background work for the client's budget owner: held while the person's half of
	// the platform's limit is all that is left.
	ctx = common.Background(ctx)
	out := round{gen: gen, cursor: cursor}
	found, err := readTop(ctx, api, j, now)
	out.found = found
	if err != nil {
		out.err = err
		return out
	}
	// The service lists of listsPerRound projects (one request each, never
	// all 10,000 services decoded at once), then details: billing moves slowly and
	// gets a quarter of them, services the rest.
	p := planOf(j, cached)
	more, next0, cycled0 := readDetails(ctx, api, j, now, p.lists, cursor[0], listsPerRound(len(p.lists)))
	out.found = append(out.found, more...)
	p = planOf(j, p)
	out.plan = p
	billing := max(1, allowance/4)
	more, next1, cycled1 := readDetails(ctx, api, j, now, p.svcs, cursor[1], allowance-billing)
	out.found = append(out.found, more...)
	more, next2, cycled2 := readDetails(ctx, api, j, now, p.bill, cursor[2], billing)
	out.found = append(out.found, more...)
	out.cursor, out.cycled = [3]int{next0, next1, next2}, cycled0 && cycled1 && cycled2
	return out
}

// allowance is how many detail reads a round may make: the platform's rate budget
// spread over what is left of its window above the half the budget owner keeps for the
// person's own requests; half the interval's share of the limit at most, so that a
// demo-sized account is read whole every two intervals. Unknown budget: 16.
func (r *Reader) allowance() int {
	if r.ctx.Platform.RateLimit == nil {
		return 16
	}
	rl := r.ctx.Platform.RateLimit()
	if !rl.Known || rl.Limit <= 0 {
		return 16
	}
	interval := max(r.ctx.Refresh, time.Second)
	most := int(float64(rl.Limit) * interval.Seconds() / 60 / 2)
	spare := rl.Remaining - rl.Limit/2
	if spare <= 0 {
		return 0
	}
	left := rl.Reset.Sub(r.ctx.Now())
	if left < interval {
		left = interval
	}
	return max(0, min(most, maxPerRound, int(float64(spare)*interval.Seconds()/left.Seconds())))
}

// readTop reads the projects.
func readTop(ctx context.Context, api common.API, j *journal.Journal, now func() time.Time) ([]journal.Entry, error) {
	pl, err := api.ListProjects(ctx)
	if err != nil {
		return nil, err
	}
	items := make([]journal.Item, len(pl.Projects))
	for i, p := range pl.Projects {
		items[i] = journal.FromProject(p)
	}
	return j.Observe(journal.Projects(), items, now()), nil
}

// plan is what there is to read, in a stable order: each project's service list, the
// services' details (users, databases, ACLs, topics) and billing (groups, credits,
// invoices, estimates). Rebuilt only when the journal's layout changes: built every
// round, a 10,000-service account's list was megabytes of garbage each time.
type plan struct {
	layout            int
	lists, svcs, bill []journal.Scope
}

// planOf is cached when it still holds, else a new plan of what the journal knows.
func planOf(j *journal.Journal, cached *plan) *plan {
	layout := j.Layout()
	if cached != nil && cached.layout == layout {
		return cached
	}
	p := &plan{layout: layout}
	projects := j.Last(journal.Projects())
	if projects == nil {
		return p
	}
	names := projects.Names()
	accounts := map[string]bool{}
	for _, it := range projects.Items() {
		if a := it.Value(journal.KindProject, "account"); a != "" {
			accounts[a] = true
		}
	}
	for _, pr := range names {
		p.lists = append(p.lists, journal.ServicesOf(pr))
		svcs := j.Last(journal.ServicesOf(pr))
		if svcs == nil {
			continue
		}
		for _, it := range svcs.Items() {
			s := it.Name()
			p.svcs = append(p.svcs, journal.UsersOf(pr, s))
			switch it.Value(journal.KindService, "type") {
			case "pg", "mysql":
				p.svcs = append(p.svcs, journal.DatabasesOf(pr, s))
			case "kafka":
				p.svcs = append(p.svcs, journal.ACLsOf(pr, s), journal.TopicsOf(pr, s))
			}
		}
	}
	for _, a := range slices.Sorted(mapsKeys(accounts)) {
		p.bill = append(p.bill, journal.BillingGroupsOf(a), journal.CreditsOf(a))
		if gs := j.Last(journal.BillingGroupsOf(a)); gs != nil {
			for _, g := range gs.Names() {
				p.bill = append(p.bill, journal.InvoicesOf(g))
			}
		}
	}
	for _, pr := range names {
		p.bill = append(p.bill, journal.EstimateOf(pr))
	}
	return p
}

// readDetails makes up to n detail reads from cursor on; cycled says the reads reached
// the end of the list (every one has been made since the cursor was 0).
func readDetails(ctx context.Context, api common.API, j *journal.Journal, now func() time.Time, all []journal.Scope, cursor, n int) ([]journal.Entry, int, bool) {
	if len(all) == 0 {
		return nil, 0, true
	}
	if cursor >= len(all) {
		cursor = 0
	}
	var found []journal.Entry
	cycled := false
	for i := 0; i < n && i < len(all); i++ {
		scope := all[cursor]
		if items, err := read(ctx, api, scope); err == nil {
			found = append(found, j.Observe(scope, items, now())...)
		}
		cursor++
		if cursor == len(all) {
			cursor, cycled = 0, true
		}
	}
	return found, cursor, cycled
}
