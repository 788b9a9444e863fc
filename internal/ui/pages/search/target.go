package search

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"strings"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/search"
	"github.com/svcui/svcui/internal/ui/common"
)

// connection is everything the pane needs to talk to one opensearch service.
type connection struct {
	project, service string
	user             string
	client           *search.Client
	history          *search.History
	// historyErr explains why the history is unavailable (the editor still works).
	historyErr string
	// editorText is the buffer kept for this service from an earlier session.
	editorText    string
	hasEditorText bool
	// timeFields are the time fields picked per index pattern (T), kept in the state dir.
	timeFields map[string]string
}

// stateKey names the service's files in the state directory (history, editor text).
func stateKey(project, service string) string { return search.ServiceKey(project, service) }

// targetResult is the outcome of resolving the project's opensearch service: a
// connection, a list to pick from, or a sentence saying why there is nothing to search.
type targetResult struct {
	conn    *connection
	choices []string
	reason  string
}

// dialer finds and connects to a project's opensearch service. It runs inside commands:
// every call here does network or disk I/O.
type dialer struct {
	api common.API
	// insecure skips TLS verification (the profile's search_insecure_skip_verify).
	insecure bool
	// stateDir keeps history and editor text; log takes error details.
	stateDir string
	log      *slog.Logger
}

func newDialer(ctx *common.Context) dialer {
	return dialer{api: ctx.API, insecure: ctx.SearchInsecure, stateDir: ctx.StateDir, log: ctx.Log}
}

func notOpenSearch(service, typ string) string {
	return "Service " + service + " is " + typ + ", not opensearch: only opensearch services have a search interface."
}

// resolveTarget finds the opensearch service to connect to in project: the wanted one
// when named, the only one, or a list to pick from.
func (d dialer) resolveTarget(ctx context.Context, project, wanted string) (targetResult, error) {
	if project == "" {
		return targetResult{reason: "No project is selected yet: pick one in the Projects tab (1), then come back."}, nil
	}
	services, err := d.api.ListServices(ctx, project)
	if err != nil {
		return targetResult{}, err
	}
	var names []string
	types := map[string]string{}
	for _, s := range services {
		types[s.ServiceName] = s.ServiceType
		if s.ServiceType == models.TypeOpenSearch {
			names = append(names, s.ServiceName)
		}
	}
	sort.Strings(names)
	if wanted != "" {
		t, ok := types[wanted]
		switch {
		case !ok:
			return targetResult{reason: "Project " + project + " has no service named “" + wanted + "”, so there is nothing to search."}, nil
		case t != models.TypeOpenSearch:
			return targetResult{reason: notOpenSearch(wanted, t)}, nil
		}
		return d.connectTo(ctx, project, wanted, "", "")
	}
	switch len(names) {
	case 0:
		return targetResult{reason: "Project " + project + " has no opensearch service, so there is nothing to search. Create one in the Services tab (2), or switch project."}, nil
	case 1:
		return d.connectTo(ctx, project, names[0], "", "")
	}
	return targetResult{choices: names}, nil
}

// primaryTarget reads the service's address and its primary user's credentials: from
// the service URI, completed by the connection details.
func (d dialer) primaryTarget(ctx context.Context, project, service string) (search.Target, string, error) {
	svc, err := d.api.GetService(ctx, project, service)
	if err != nil {
		return search.Target{}, "", err
	}
	if svc.ServiceType != models.TypeOpenSearch {
		return search.Target{}, notOpenSearch(service, svc.ServiceType), nil
	}
	if svc.ServiceURI == "" {
		return search.Target{}, "Service " + service + " has no service URI yet (state " + string(svc.State) + "): wait until it is RUNNING.", nil
	}
	info, err := d.api.GetConnectionInfo(ctx, project, service)
	if err != nil {
		return search.Target{}, "", err
	}
	t, err := search.TargetFromServiceURI(svc.ServiceURI, info.CACert)
	if err != nil {
		return search.Target{}, "", err
	}
	if t.Username == "" {
		t.Username = info.User
	}
	if t.Password == "" && (info.User == "" || info.User == t.Username) {
		t.Password = info.Password
	}
	t.ServiceName = service
	t.InsecureSkipVerify = d.insecure
	return t, "", nil
}

// connectTo builds a client for service. With user set, that user and password are
// used instead of the primary user's. History and the kept editor text are read here.
func (d dialer) connectTo(ctx context.Context, project, service, user, password string) (targetResult, error) {
	t, reason, err := d.primaryTarget(ctx, project, service)
	if err != nil || reason != "" {
		return targetResult{reason: reason}, err
	}
	primary := user == "" || user == t.Username
	if user != "" {
		t.Username, t.Password = user, password
	}
	c, err := search.NewClient(t, search.WithUserAgent("svcui"), search.WithReauth(d.reauth(project, service, t.Username, primary)))
	if err != nil {
		return targetResult{}, err
	}
	conn := &connection{project: project, service: service, user: t.Username, client: c}
	key := stateKey(project, service)
	if h, herr := search.OpenHistory(d.stateDir, key); herr != nil {
		conn.historyErr = "History is unavailable: " + herr.Error()
	} else {
		conn.history = h
	}
	text, ok, terr := search.LoadEditorText(d.stateDir, key)
	if terr != nil {
		d.log.Debug("search: editor text not read", "service", key, "err", terr)
	}
	conn.editorText, conn.hasEditorText = text, ok
	tf, terr := search.LoadTimeFields(d.stateDir)
	if terr != nil {
		d.log.Debug("search: time fields not read", "err", terr)
	}
	conn.timeFields = tf
	return targetResult{conn: conn}, nil
}

// reauth reads the user's credentials again after the service refused them (a password
// reset elsewhere): the primary user's from the service URI and connection details,
// another user's from the service's user list.
func (d dialer) reauth(project, service, user string, primary bool) search.ReauthFunc {
	return func(ctx context.Context) (string, string, error) {
		if primary {
			t, reason, err := d.primaryTarget(ctx, project, service)
			if err != nil {
				return "", "", err
			}
			if reason != "" {
				return "", "", errors.New(strings.TrimSuffix(reason, "."))
			}
			return t.Username, t.Password, nil
		}
		users, err := d.api.ListUsers(ctx, project, service)
		if err != nil {
			return "", "", err
		}
		for _, u := range users {
			if u.Username == user {
				if u.Password == "" {
					return "", "", fmt.Errorf("the platform does not give the password of %s", user)
				}
				return u.Username, u.Password, nil
			}
		}
		return "", "", fmt.Errorf("%s is no longer a user of %s", user, service)
	}
}

// overview is the cluster health and the mapping of a connected service's indices.
type overview struct {
	health  *search.ClusterHealth
	mapping search.Mapping
}

// maxMappedIndices bounds the mapping requests made for field names.
const maxMappedIndices = 50

func loadOverview(ctx context.Context, c *search.Client, indices []string) (overview, error) {
	var o overview
	// Both are extras: the editor is usable without them, so failures leave them out.
	if h, err := c.Health(ctx); err == nil {
		o.health = h
	}
	for i, name := range indices {
		if i == maxMappedIndices {
			break
		}
		if strings.HasPrefix(name, ".") {
			continue
		}
		m, err := c.Mapping(ctx, name)
		if err != nil {
			continue
		}
		o.mapping.Indices = append(o.mapping.Indices, m.Indices...)
	}
	return o, nil
}

// describedError carries search.Describe's sentence as its text (what the index list
// and footer show) and the original error for errors.Is/As.
type describedError struct {
	short string
	err   error
}

func (e *describedError) Error() string { return e.short }
func (e *describedError) Unwrap() error { return e.err }

// describe turns an error into its sentence and logs the detail; nil stays nil.
func describe(log *slog.Logger, what string, err error) error {
	if err == nil {
		return nil
	}
	short, detail := search.Describe(err)
	log.Debug("search: "+what+" failed", "detail", detail)
	return &describedError{short: short, err: err}
}
