package sandbox

import (
	"net/http"
	"net/url"
	"sort"
	"strings"
	"time"
)

// call is one management request on its way through a handler.
type call struct {
	s      *Sandbox
	r      *http.Request
	body   []byte
	params map[string]string
	who    principal
	now    time.Time
}

// param returns a path parameter ({project}, {service}, ...).
func (c *call) param(name string) string { return c.params[name] }

// decode reads the request body strictly into dst (see decodeBody).
func (c *call) decode(dst any, required ...string) error {
	return decodeBody(c.r.Header.Get("Content-Type"), c.body, dst, required...)
}

type handlerFunc func(c *call) (any, error)

type route struct {
	method  string
	pattern []string // literal segments, or {name} for a parameter
	public  bool     // served without a token
	h       handlerFunc
}

func (s *Sandbox) routes() []route {
	const (
		prj = "/v1/project/{project}"
		svc = prj + "/service/{service}"
	)
	r := func(method, path string, h handlerFunc) route {
		return route{method: method, pattern: split(path), h: h}
	}
	clouds := r(http.MethodGet, "/v1/clouds", s.listClouds)
	clouds.public = true
	return []route{
		clouds,
		r(http.MethodGet, "/v1/service_types", s.listServiceTypes),
		r(http.MethodGet, prj+"/service_types/{type}/plans", s.listPlans),

		r(http.MethodGet, "/v1/project", s.listProjects),
		r(http.MethodPost, "/v1/project", s.createProject),
		r(http.MethodGet, prj, s.getProject),
		r(http.MethodPut, prj, s.updateProject),
		r(http.MethodDelete, prj, s.deleteProject),

		r(http.MethodGet, prj+"/service", s.listServices),
		r(http.MethodPost, prj+"/service", s.createService),
		r(http.MethodGet, svc, s.getService),
		r(http.MethodPut, svc, s.updateService),
		r(http.MethodDelete, svc, s.deleteService),

		r(http.MethodGet, svc+"/user", s.listUsers),
		r(http.MethodPost, svc+"/user", s.createUser),
		r(http.MethodPut, svc+"/user/{username}", s.resetUser),
		r(http.MethodDelete, svc+"/user/{username}", s.deleteUser),
		r(http.MethodGet, svc+"/connection_info", s.connectionInfo),

		r(http.MethodGet, svc+"/acl", s.listACLs),
		r(http.MethodPost, svc+"/acl", s.createACL),
		r(http.MethodGet, svc+"/topic", s.listTopics),
		r(http.MethodPost, svc+"/topic", s.createTopic),
		r(http.MethodGet, svc+"/database", s.listDatabases),
		r(http.MethodPost, svc+"/database", s.createDatabase),

		r(http.MethodGet, prj+"/estimate", s.projectEstimate),
		r(http.MethodGet, "/v1/account/{account}/billing-group", s.listBillingGroups),
		r(http.MethodPost, "/v1/account/{account}/billing-group", s.createBillingGroup),
		r(http.MethodGet, "/v1/billing-group/{group}", s.getBillingGroup),
		r(http.MethodPut, "/v1/billing-group/{group}", s.updateBillingGroup),
		r(http.MethodGet, "/v1/billing-group/{group}/invoice", s.listInvoices),
		r(http.MethodGet, "/v1/account/{account}/credits", s.accountCredits),
	}
}

func split(path string) []string { return strings.Split(strings.Trim(path, "/"), "/") }

// router finds the route of a request; when none matches it tells a wrong method (405,
// with the methods that would do) from an unknown path (404).
type router struct{ routes []route }

func (rt *router) match(r *http.Request) (*route, map[string]string, []string, bool) {
	segs := split(r.URL.EscapedPath())
	for i, s := range segs {
		if u, err := url.PathUnescape(s); err == nil {
			segs[i] = u
		}
	}
	var allowed []string
	for i := range rt.routes {
		rr := &rt.routes[i]
		params, ok := matchPattern(rr.pattern, segs)
		if !ok {
			continue
		}
		if rr.method == r.Method || (r.Method == http.MethodHead && rr.method == http.MethodGet) {
			return rr, params, nil, true
		}
		allowed = append(allowed, rr.method)
	}
	sort.Strings(allowed)
	return nil, nil, allowed, false
}

func matchPattern(pattern, segs []string) (map[string]string, bool) {
	if len(pattern) != len(segs) {
		return nil, false
	}
	var params map[string]string
	for i, p := range pattern {
		if strings.HasPrefix(p, "{") {
			if segs[i] == "" {
				return nil, false
			}
			if params == nil {
				params = map[string]string{}
			}
			params[p[1:len(p)-1]] = segs[i]
			continue
		}
		if p != segs[i] {
			return nil, false
		}
	}
	return params, true
}

// isWrite reports a method that changes state.
func isWrite(method string) bool {
	return method == http.MethodPost || method == http.MethodPut || method == http.MethodDelete || method == http.MethodPatch
}
