package services

import (
	"context"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/base"
	"github.com/svcui/svcui/internal/ui/common"
)

// The rolling refresh of the all-projects list (issue 26). Once the list has been read
// whole, a live refresh (or coming back to the list) reads only a share of the
// projects: every project once per cycle of max(refresh, projects × rollSpacing), the
// oldest first, with the projects never read (or that failed) first; with a service
// in progress the cycle shortens while the account is small. Its requests are
// background work, so they spend only what key presses leave of the rate budget. The
// breadcrumb says how old the oldest project's answer is.

// kindRoll is the rolling refresh's request.
var kindRoll = common.NewKind("roll")

// rollSpacing is the average time per project the rolling refresh allows itself: at
// most 200 requests a minute, a sixth of the platform's usual 1,200, however many
// projects there are.
const rollSpacing = 300 * time.Millisecond

// rolling is what the rolling refresh knows: when each project was last read.
type rolling struct {
	// read is when each project's services were last read; zero: asked, not read.
	read map[string]time.Time
	// last is when the rolling refresh last took its share.
	last time.Time
}

// note records one project's answer.
func (r *rolling) note(project string, ok bool, now time.Time) {
	if r.read == nil {
		r.read = map[string]time.Time{}
	}
	if ok {
		r.read[project] = now
	} else if _, seen := r.read[project]; !seen {
		r.read[project] = time.Time{}
	}
}

// cycle is how long the rolling refresh takes to read every one of n projects once.
func cycle(refresh time.Duration, n int) time.Duration {
	return max(refresh, time.Duration(n)*rollSpacing)
}

// due picks the projects to read now: those never read (or that failed), then the
// share of the others that the time since the last share has earned, oldest first.
func (r *rolling) due(projects []string, now time.Time, refresh time.Duration) []string {
	if len(projects) == 0 {
		return nil
	}
	c := cycle(refresh, len(projects))
	share := min(len(projects), int(int64(len(projects))*int64(now.Sub(r.last))/int64(c)))
	var out, rest []string
	for _, p := range projects {
		if t, ok := r.read[p]; !ok || t.IsZero() {
			out = append(out, p)
		} else {
			rest = append(rest, p)
		}
	}
	sort.SliceStable(rest, func(i, j int) bool { return r.read[rest[i]].Before(r.read[rest[j]]) })
	if share > 0 {
		out = append(out, rest[:min(share, len(rest))]...)
		r.last = now
	}
	return out
}

// oldest is when the least recently read project was read, and how many were never read.
func (r *rolling) oldest(projects []string) (time.Time, int) {
	var oldest time.Time
	unread := 0
	for _, p := range projects {
		t := r.read[p]
		switch {
		case t.IsZero():
			unread++
		case oldest.IsZero() || t.Before(oldest):
			oldest = t
		}
	}
	return oldest, unread
}

// rollProjects are the projects of the all-projects list: the account's, else those
// the list has asked about.
func (l *List) rollProjects() []string {
	if len(l.Ctx.ProjectNames) > 0 {
		return l.Ctx.ProjectNames
	}
	out := make([]string, 0, len(l.roll.read))
	for p := range l.roll.read {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// rolls reports that a refresh of the list reads a share of its projects: the list is
// all projects' and has been read whole once.
func (l *List) rolls() bool { return l.all && l.Loaded() && len(l.roll.read) > 0 }

// rollCmd reads the projects due now, as background work.
func (l *List) rollCmd() tea.Cmd {
	// While services are in progress the interval is shorter, and so is the cycle of
	// a small account; a large one's stays bound by rollSpacing.
	due := l.roll.due(l.rollProjects(), l.Ctx.Now(), l.interval())
	if len(due) == 0 {
		return common.Send(common.RefreshDone{Idle: true})
	}
	api := l.Ctx.API
	return common.Fetch(l.Req, kindRoll, func(ctx context.Context) ([]projectAnswer, error) {
		return readProjects(common.Background(ctx), api, due), nil
	})
}

// readProjects lists the services of each project, through the streaming fan-out when
// the API has it.
func readProjects(ctx context.Context, api common.API, projects []string) []projectAnswer {
	out := make([]projectAnswer, 0, len(projects))
	if sa, ok := api.(streamingAPI); ok {
		sa.StreamServicesAcrossProjects(ctx, projects, func(p string, svcs []models.Service, err error) {
			out = append(out, projectAnswer{p, svcs, err})
		})
		return out
	}
	for _, p := range projects {
		svcs, err := api.ListServices(ctx, p)
		out = append(out, projectAnswer{p, svcs, err})
	}
	return out
}

// rolled takes a rolling refresh's answers into the list: the projects read replace
// their rows, those that failed keep theirs.
func (l *List) rolled(answers []projectAnswer) tea.Cmd {
	now := l.Ctx.Now()
	fresh := map[string][]models.Service{}
	var fails []projectAnswer
	for _, a := range answers {
		l.roll.note(a.project, a.err == nil, now)
		if a.err != nil {
			fails = append(fails, a)
			continue
		}
		fresh[a.project] = a.services
	}
	var cmds []tea.Cmd
	es := l.Items()
	if changed(es, fresh) {
		// Rows are rebuilt only when something they show changed: an idle account's
		// refreshes leave no copies of the list behind.
		es = mergeProjects(es, fresh)
		l.show(es)
		cmds = append(cmds, l.loaded(es))
	}
	err := failures(l.Ctx.Platform, fails, len(answers), len(es) > 0, now)
	done := common.RefreshDone{}
	switch e := err.(type) {
	case nil:
		if _, unread := l.roll.oldest(l.rollProjects()); unread == 0 {
			// Whole again: neither the last load's warning nor ours is so any more.
			cmds = append(cmds, common.RetractText(l.Table.Err), common.RetractText(l.rollSaid))
			l.Table.Err, l.rollSaid = "", ""
		}
	case *base.Partial:
		done.RetryAt = e.RetryAt
		l.Table.Err = e.Text
		if e.Text != l.rollSaid {
			cmds = append(cmds, common.Warn(e.Text))
			l.rollSaid = e.Text
		}
	default:
		done.Err = err
		text, at, limited := l.Ctx.RateLimitedText(err)
		if limited {
			done.RetryAt = at
		} else {
			text = l.Ctx.ErrorText(err)
		}
		l.Table.Err = text
		if text != l.rollSaid {
			cmds = append(cmds, common.Warn(text))
			l.rollSaid = text
		}
	}
	return tea.Batch(append(cmds, common.Send(done))...)
}

// failures is what a fan-out's failed projects make of its answer: nil when none
// failed, the error itself when every project failed and nothing is shown, else a
// *base.Partial naming them (one that waits for the rate limit says until when).
func failures(platform common.Platform, fails []projectAnswer, asked int, shown bool, now time.Time) error {
	if len(fails) == 0 {
		return nil
	}
	if !shown && len(fails) == asked {
		return fails[0].err
	}
	var limited []string
	var retryAt time.Time
	byPlatform := false
	var parts []string
	for _, f := range fails {
		if platform.RateLimited != nil {
			if at, plat, ok := platform.RateLimited(f.err); ok {
				limited = append(limited, f.project)
				byPlatform = byPlatform || plat
				if at.After(retryAt) {
					retryAt = at
				}
				continue
			}
		}
		text := f.err.Error()
		if platform.Message != nil {
			text = platform.Message(f.err)
		}
		parts = append(parts, f.project+" ("+strings.TrimSuffix(text, ".")+")")
	}
	var sentences []string
	if len(limited) > 0 {
		if !retryAt.After(now) {
			retryAt = now.Add(time.Second)
		}
		sentences = append(sentences, common.RateLimitedSentence(byPlatform, retryAt)+" "+projectsNamed(limited))
	}
	if len(parts) > 0 {
		sentences = append(sentences, "Could not list the services of "+strings.Join(parts, ", ")+"; showing the others.")
	}
	return &base.Partial{Text: strings.Join(sentences, "; "), RetryAt: retryAt}
}

// projectsNamed is "(3 projects to read: a, b, c)", cut after a few names.
func projectsNamed(ps []string) string {
	slices.Sort(ps)
	names := ps
	if len(names) > 3 {
		names = names[:3]
	}
	s := "(" + strconv.Itoa(len(ps)) + " project"
	if len(ps) != 1 {
		s += "s"
	}
	s += " to read: " + strings.Join(names, ", ")
	if len(ps) > len(names) {
		s += ", …"
	}
	return s + ")"
}

// mergeProjects puts each fresh project's services (any order) in place of what es had
// of it, in one pass; es is ordered by project then name, and so is the answer.
func mergeProjects(es []entry, fresh map[string][]models.Service) []entry {
	if len(fresh) == 0 {
		return es
	}
	names := make([]string, 0, len(fresh))
	n := len(es)
	for p, svcs := range fresh {
		names = append(names, p)
		n += len(svcs)
	}
	sort.Strings(names)
	out := make([]entry, 0, n)
	i := 0
	for _, p := range names {
		for i < len(es) && es[i].Project < p {
			out = append(out, es[i])
			i++
		}
		for i < len(es) && es[i].Project == p {
			i++
		}
		start := len(out)
		for _, s := range fresh[p] {
			out = append(out, listed(p, s))
		}
		mid := out[start:]
		sort.SliceStable(mid, func(a, b int) bool { return mid[a].Service.ServiceName < mid[b].Service.ServiceName })
	}
	return append(out, es[i:]...)
}

// changed reports whether any fresh project's services differ from what es shows.
func changed(es []entry, fresh map[string][]models.Service) bool {
	shown := map[string][]models.Service{}
	for p := range fresh {
		shown[p] = nil
	}
	for _, e := range es {
		if _, ok := shown[e.Project]; ok {
			shown[e.Project] = append(shown[e.Project], e.Service)
		}
	}
	for p, svcs := range fresh {
		old := shown[p]
		if len(old) != len(svcs) {
			return true
		}
		byName := make(map[string]*models.Service, len(old))
		for i := range old {
			byName[old[i].ServiceName] = &old[i]
		}
		for i := range svcs {
			o, ok := byName[svcs[i].ServiceName]
			if !ok || !reflect.DeepEqual(*o, listed(p, svcs[i]).Service) {
				return true
			}
		}
	}
	return false
}

// freshness is the breadcrumb's word on how old the list is: the oldest project's
// answer, and how many projects have not been read yet.
func (l *List) freshness() string {
	if !l.rolls() {
		return ""
	}
	oldest, unread := l.roll.oldest(l.rollProjects())
	var parts []string
	if unread > 0 {
		parts = append(parts, strconv.Itoa(unread)+" not read yet")
	}
	if !oldest.IsZero() {
		parts = append(parts, "oldest read "+common.Ago(l.Ctx.Now().Sub(oldest)))
	}
	if len(parts) == 0 {
		return ""
	}
	return " · " + strings.Join(parts, ", ")
}

// noteWhole records a whole load of the all-projects list: the projects with services
// in it were read now (a streaming load has noted each answer already), and the
// rolling refresh's shares start from now.
func (l *List) noteWhole(es []entry, whole bool) {
	now := l.Ctx.Now()
	l.roll.last = now
	if whole {
		for _, p := range l.Ctx.ProjectNames {
			if _, ok := l.roll.read[p]; !ok {
				l.roll.note(p, true, now)
			}
		}
	}
	for _, e := range es {
		if _, ok := l.roll.read[e.Project]; !ok {
			l.roll.note(e.Project, true, now)
		}
	}
}

func isPartial(err error) bool {
	_, ok := err.(*base.Partial)
	return ok
}
