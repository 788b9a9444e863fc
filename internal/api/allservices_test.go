package api

import (
	"net/http"
	"strings"
	"testing"
)

func TestListServicesAcrossProjects(t *testing.T) {
	answers := map[string]string{
		"zeta":  `{"services":[{"service_name":"kafka-b"},{"service_name":"kafka-a"}]}`,
		"alpha": `{"services":[{"service_name":"pg-2"},{"service_name":"pg-1"}]}`,
		"empty": `{"services":[]}`,
	}
	c, _, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		project := strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/v1/project/"), "/service")
		if a, ok := answers[project]; ok {
			writeJSON(w, 200, a)
			return
		}
		if project == "locked" {
			writeErr(w, 403, "Not allowed")
			return
		}
		writeErr(w, 404, "Project "+project+" does not exist")
	}), func(o *Options) { o.MaxConcurrent = 2 })
	svcs, errs := c.ListServicesAcrossProjects(ctxT(t), []string{"zeta", "missing", "alpha", "locked", "empty", "alpha"})
	var got []string
	for _, s := range svcs {
		got = append(got, s.Project+"/"+s.Service.ServiceName)
	}
	if want := "alpha/pg-1 alpha/pg-2 zeta/kafka-a zeta/kafka-b"; strings.Join(got, " ") != want {
		t.Errorf("services %v, want %s", got, want)
	}
	if len(errs) != 2 || errs[0].Project != "locked" || !IsForbidden(errs[0].Err) || errs[1].Project != "missing" || !IsNotFound(errs[1].Err) {
		t.Errorf("errors %+v", errs)
	}
	if c.Stats().Requests != 5 {
		t.Errorf("requests %d, want one per distinct project", c.Stats().Requests)
	}
	if s, e := c.ListServicesAcrossProjects(ctxT(t), nil); len(s) != 0 || len(e) != 0 {
		t.Errorf("no projects: %v %v", s, e)
	}
}
