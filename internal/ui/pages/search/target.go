package search

import (
	"context"
	"errors"
	"sort"
	"strconv"
	"strings"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/search"
	"github.com/svcui/svcui/internal/ui/common"
)

// connection is everything the pane needs to talk to one opensearch service.
type connection struct {
	service string
	user    string
	client  *search.Client
	history *search.History
	// historyErr explains why the history is unavailable (the editor still works).
	historyErr string
}

// targetResult is the outcome of resolving the project's opensearch service: a
// connection, a list to pick from, or a sentence saying why there is nothing to search.
type targetResult struct {
	conn    *connection
	choices []string
	reason  string
}

// HistoryDir is where request history is kept ("" = the XDG state dir); tests point it
// at a temporary directory.
var HistoryDir = ""

// resolveTarget finds the opensearch service to connect to in project: the wanted one
// when named, the only one, or a list to pick from.
// dialer finds and connects to a project's opensearch service.
type dialer struct {
	api common.API
	// insecure skips TLS verification (the profile's search_insecure_skip_verify).
	insecure bool
}

func (d dialer) resolveTarget(ctx context.Context, project, wanted string) (targetResult, error) {
	api := d.api
	if project == "" {
		return targetResult{reason: "No project is selected yet: pick one in the Projects tab (1), then come back."}, nil
	}
	services, err := api.ListServices(ctx, project)
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
			return targetResult{reason: "Service " + wanted + " is " + t + ", not opensearch: only opensearch services have a search interface."}, nil
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

// connectTo builds a client for service from its service URI and connection info. With
// user set, that user and password are used instead of the primary user's.
func (d dialer) connectTo(ctx context.Context, project, service, user, password string) (targetResult, error) {
	api := d.api
	svc, err := api.GetService(ctx, project, service)
	if err != nil {
		return targetResult{}, err
	}
	if svc.ServiceType != models.TypeOpenSearch {
		return targetResult{reason: "Service " + service + " is " + svc.ServiceType + ", not opensearch: only opensearch services have a search interface."}, nil
	}
	if svc.ServiceURI == "" {
		return targetResult{reason: "Service " + service + " has no service URI yet (state " + string(svc.State) + "): wait until it is RUNNING."}, nil
	}
	info, err := api.GetConnectionInfo(ctx, project, service)
	if err != nil {
		return targetResult{}, err
	}
	t, err := search.TargetFromServiceURI(svc.ServiceURI, info.CACert)
	if err != nil {
		return targetResult{}, err
	}
	if t.Username == "" {
		t.Username = info.User
	}
	if t.Password == "" && (info.User == "" || info.User == t.Username) {
		t.Password = info.Password
	}
	if user != "" {
		t.Username, t.Password = user, password
	}
	t.ServiceName = service
	t.InsecureSkipVerify = d.insecure
	c, err := search.NewClient(t, search.WithUserAgent("svcui"))
	if err != nil {
		return targetResult{}, err
	}
	conn := &connection{service: service, user: t.Username, client: c}
	h, herr := search.OpenHistory(HistoryDir, project+"-"+service)
	if herr != nil {
		conn.historyErr = "History is unavailable: " + herr.Error()
	} else {
		conn.history = h
	}
	return targetResult{conn: conn}, nil
}

// overview is the index list and cluster health of a connected service.
type overview struct {
	indices []search.IndexInfo
	health  *search.ClusterHealth
	fields  []string
}

func loadOverview(ctx context.Context, c *search.Client) (overview, error) {
	var o overview
	idx, err := c.CatIndices(ctx)
	if err != nil {
		return o, err
	}
	o.indices = idx
	// Health and the mapping are extras: the editor is usable without them.
	if h, err := c.Health(ctx); err == nil {
		o.health = h
	}
	seen := map[string]bool{}
	for i, ix := range idx {
		if i == 50 || strings.HasPrefix(ix.Index, ".") {
			break
		}
		m, err := c.Mapping(ctx, ix.Index)
		if err != nil {
			continue
		}
		for _, f := range search.FieldNames(m) {
			if !seen[f] {
				seen[f] = true
				o.fields = append(o.fields, f)
			}
		}
	}
	sort.Strings(o.fields)
	return o, nil
}

// errorSentence turns an engine or transport error into text for a person.
func errorSentence(err error) string {
	var ee *search.EngineError
	if errors.As(err, &ee) {
		return engineErrorText(ee)
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return "The service did not answer within the time limit."
	}
	return err.Error()
}

func engineErrorText(ee *search.EngineError) string {
	s := ee.Type
	if ee.Reason != "" {
		if s != "" {
			s += ": "
		}
		s += ee.Reason
	}
	if ee.Details != "" && ee.Details != ee.Reason {
		s += " (" + ee.Details + ")"
	}
	if s == "" {
		s = "HTTP " + strconv.Itoa(ee.Status)
	}
	return s
}
