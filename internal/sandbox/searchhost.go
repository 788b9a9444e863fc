package sandbox

import (
	"crypto/subtle"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/svcui/svcui/internal/models"
)

// searchEngine is the OpenSearch emulation of one service (package opensearch).
type searchEngine interface {
	Handler() http.Handler
	Export() ([]byte, error)
	Import([]byte) error
	LoadDemo(seed int64) error
}

// searchHost runs one TLS listener on loopback per opensearch service, in front of that
// service's engine, with basic auth against the service's current users.
type searchHost struct {
	s       *Sandbox
	mu      sync.Mutex
	engines map[string]searchEngine
	servers map[string]*searchServer
	cert    *tls.Certificate
}

type searchServer struct {
	srv  *http.Server
	port int
}

func newSearchHost(s *Sandbox) *searchHost {
	return &searchHost{s: s, engines: map[string]searchEngine{}, servers: map[string]*searchServer{}}
}

func searchKey(project, service string) string { return project + "/" + service }

// startAll starts the listeners of every opensearch service (at New; no lock needed yet).
func (h *searchHost) startAll() error {
	for _, p := range h.s.st.sortedProjects() {
		for _, sv := range p.sortedServices() {
			if sv.Type != models.TypeOpenSearch || !sv.Search || sv.Phase == models.StatePowerOff {
				continue
			}
			if err := h.start(p, sv); err != nil {
				return err
			}
		}
	}
	return nil
}

// engine returns the service's engine, creating it (from saved data, or the demo data
// set) the first time. Callers hold h.mu.
func (h *searchHost) engine(key string, sv *service) (searchEngine, error) {
	if e := h.engines[key]; e != nil {
		return e, nil
	}
	e := newSearchEngine(sv.Name, h.s.clock.Now, sv.NodeCount)
	switch {
	case len(sv.SearchData) > 0:
		if err := e.Import(sv.SearchData); err != nil {
			return nil, fmt.Errorf("restoring the search data of %s: %w", sv.Name, err)
		}
		sv.SearchData = nil
	case sv.SearchDemo:
		if err := e.LoadDemo(h.s.opts.Seed); err != nil {
			return nil, fmt.Errorf("loading the search demo data of %s: %w", sv.Name, err)
		}
		sv.SearchDemo = false
	}
	h.engines[key] = e
	return e, nil
}

// start listens for the service, on its previous port when that is free. Callers hold
// the sandbox's write lock (or are in New).
func (h *searchHost) start(p *project, sv *service) error {
	key := searchKey(p.Name, sv.Name)
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.servers[key] != nil {
		return nil
	}
	eng, err := h.engine(key, sv)
	if err != nil {
		return err
	}
	if h.cert == nil {
		c, err := h.s.ca.serverCert(h.s.clock.Now())
		if err != nil {
			return err
		}
		h.cert = &c
	}
	var ln net.Listener
	if sv.SearchPort > 0 {
		// A configured port is a promise to whoever configured it: busy is an error, not
		// a reason to pick another one silently.
		ln, err = net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(sv.SearchPort))
		if err != nil {
			return fmt.Errorf("search port %d for %s: %w", sv.SearchPort, sv.Name, err)
		}
	}
	if ln == nil {
		ln, err = net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return fmt.Errorf("search listener for %s: %w", sv.Name, err)
		}
	}
	port := ln.Addr().(*net.TCPAddr).Port
	sv.SearchPort = port
	check := func(user, password string) bool { return h.s.checkSearchUser(p.Name, sv.Name, user, password) }
	inner := authWrapper(eng.Handler(), check)
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !h.s.searchReady(p.Name, sv.Name) {
			writeSearchUnavailable(w, sv.Name)
			return
		}
		inner.ServeHTTP(w, r)
	})
	srv := &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: 10 * time.Second,
		TLSConfig:         &tls.Config{Certificates: []tls.Certificate{*h.cert}, MinVersion: tls.VersionTLS12},
	}
	// HTTP/1.1 only, as the release binary serves it (README, "Binary size").
	srv.Protocols = new(http.Protocols)
	srv.Protocols.SetHTTP1(true)
	h.servers[key] = &searchServer{srv: srv, port: port}
	go func() { _ = srv.ServeTLS(ln, "", "") }()
	return nil
}

// port is the listener's port, 0 when it does not listen.
func (h *searchHost) port(key string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	if ss := h.servers[key]; ss != nil {
		return ss.port
	}
	return 0
}

// stop closes the listener (connections are refused) and keeps the data.
func (h *searchHost) stop(key string) {
	h.mu.Lock()
	ss := h.servers[key]
	delete(h.servers, key)
	h.mu.Unlock()
	if ss != nil {
		_ = ss.srv.Close()
	}
}

// remove stops the listener and drops the data: the service is gone.
func (h *searchHost) remove(key string) {
	h.stop(key)
	h.mu.Lock()
	delete(h.engines, key)
	h.mu.Unlock()
}

func (h *searchHost) closeAll() {
	h.mu.Lock()
	servers := h.servers
	h.servers = map[string]*searchServer{}
	h.mu.Unlock()
	for _, ss := range servers {
		_ = ss.srv.Close()
	}
}

// export returns the engine data of every service that has an engine.
func (h *searchHost) export() (map[string][]byte, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make(map[string][]byte, len(h.engines))
	for key, e := range h.engines {
		b, err := e.Export()
		if err != nil {
			return nil, fmt.Errorf("exporting search data of %s: %w", key, err)
		}
		out[key] = b
	}
	return out, nil
}

// lookupService finds a service by project and name, nil when either is gone; the caller
// holds s.mu.
func (s *Sandbox) lookupService(projectName, serviceName string) *service {
	p := s.st.Projects[projectName]
	if p == nil {
		return nil
	}
	return p.Services[serviceName]
}

// checkSearchUser checks basic-auth credentials against the service's current users.
func (s *Sandbox) checkSearchUser(projectName, serviceName, user, password string) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	sv := s.lookupService(projectName, serviceName)
	if sv == nil {
		return false
	}
	u := sv.user(user)
	if u == nil {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(password), []byte(u.Password)) == 1
}

// searchReady reports whether the service answers queries: RUNNING, or REBALANCING (a
// plan or cloud change keeps the old nodes serving); a REBUILDING service listens but
// does not answer yet.
func (s *Sandbox) searchReady(projectName, serviceName string) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	sv := s.lookupService(projectName, serviceName)
	if sv == nil {
		return false
	}
	st := sv.state(s.clock.Now())
	return st == models.StateRunning || st == models.StateRebalancing
}

func writeSearchUnavailable(w http.ResponseWriter, name string) {
	reason := "service " + name + " is not running yet; it answers once its state is RUNNING"
	cause := map[string]any{"type": "cluster_block_exception", "reason": reason}
	b, _ := json.Marshal(map[string]any{
		"error":  map[string]any{"root_cause": []any{cause}, "type": "cluster_block_exception", "reason": reason},
		"status": http.StatusServiceUnavailable,
	})
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	w.WriteHeader(http.StatusServiceUnavailable)
	_, _ = w.Write(b)
}

// splitKey undoes searchKey.
func splitKey(key string) (string, string) {
	p, s, _ := strings.Cut(key, "/")
	return p, s
}
