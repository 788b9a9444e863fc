// Package sandbox is the embedded platform: the whole management API of the spec as an
// http.Handler over an in-memory store, with the state machine, roles, strict validation,
// rate limits, injected faults, demo and scale data, a state file, and the OpenSearch
// interface of opensearch services served over TLS on loopback.
package sandbox

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	mrand "math/rand/v2"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Options configure a sandbox.
type Options struct {
	Data           string        // "demo" (default), "empty", "hostile" (see hostile.go), "scale:N"
	ProvisionDelay time.Duration // REBUILDING/REBALANCING → RUNNING after this; default 20s
	Faults         string        // fault spec, e.g. "seed=7,500=0.1,429=0.05,latency=0.2:300ms,drop=0.02,drop-after=0.05"
	StateFile      string        // loaded at New when it exists; saved after changes and on Close
	Clock          Clock         // nil = real time
	RateLimit      int           // requests per minute per token; 0 = 1200
	Search         bool          // serve the OpenSearch interface of opensearch services over TLS on loopback
	Seed           int64         // demo data, passwords and faults determinism; 0 = random
	// Attach points services at real servers: "SERVICE" (unique in the data) or
	// "PROJECT/SERVICE" → a URI like postgres://user:pass@127.0.0.1:5432/db?sslmode=disable,
	// or "env:NAME" to read the URI from that environment variable. See connDetails.
	Attach map[string]string
}

// DefaultProvisionDelay is how long a service stays REBUILDING or REBALANCING.
const DefaultProvisionDelay = 20 * time.Second

// DefaultRateLimit is the requests per minute per token.
const DefaultRateLimit = 1200

type tokenPair struct {
	Admin     string `json:"admin"`
	Developer string `json:"developer"`
}

// Sandbox is one running emulation of the platform.
type Sandbox struct {
	opts   Options
	clock  Clock
	delay  time.Duration
	router *router

	mu     sync.RWMutex // guards st and rng
	st     *store
	rng    *mrand.Rand
	tokens tokenPair
	ca     *certAuthority
	// attached: connection details of services pointed at real servers, by searchKey;
	// fixed at New, so read without the lock.
	attached map[string]*connDetails

	limiter *rateLimiter
	faults  *faultInjector // nil when no faults are configured
	search  *searchHost
	persist *persister
	// warnings are what New has to say about its input (a state file others could read).
	warnings []string

	srvMu   sync.Mutex
	servers []*http.Server
	closed  bool
}

// Warnings are sentences about what New was given, for the person who started it.
func (s *Sandbox) Warnings() []string { return s.warnings }

// New builds a sandbox: from the state file when it exists, otherwise from Options.Data.
func New(opts Options) (*Sandbox, error) {
	if opts.Data == "" {
		opts.Data = "demo"
	}
	if opts.ProvisionDelay <= 0 {
		opts.ProvisionDelay = DefaultProvisionDelay
	}
	if opts.RateLimit <= 0 {
		opts.RateLimit = DefaultRateLimit
	}
	if opts.Seed == 0 {
		var b [8]byte
		_, _ = rand.Read(b[:])
		opts.Seed = int64(binary.LittleEndian.Uint64(b[:]) >> 1)
		if opts.Seed == 0 {
			opts.Seed = 1
		}
	}
	fs, err := parseFaults(opts.Faults)
	if err != nil {
		return nil, err
	}
	s := &Sandbox{
		opts:    opts,
		clock:   opts.Clock,
		delay:   opts.ProvisionDelay,
		rng:     mrand.New(mrand.NewPCG(uint64(opts.Seed), 0x5eed)),
		limiter: newRateLimiter(opts.RateLimit),
	}
	if s.clock == nil {
		s.clock = realClock{}
	}
	if fs.active() {
		s.faults = newFaultInjector(fs, opts.Seed)
	}
	s.router = &router{routes: s.routes()}

	loaded := false
	if opts.StateFile != "" {
		loaded, err = s.loadState(opts.StateFile)
		if err != nil {
			return nil, err
		}
	}
	if !loaded {
		if err := s.generate(opts.Data); err != nil {
			return nil, err
		}
	}
	if err := s.resolveAttachments(opts.Attach); err != nil {
		return nil, err
	}
	s.search = newSearchHost(s)
	if opts.Search {
		if err := s.search.startAll(); err != nil {
			s.search.closeAll()
			return nil, err
		}
	}
	if opts.StateFile != "" {
		s.persist = newPersister(s, opts.StateFile)
		if !loaded {
			if err := s.persist.saveNow(); err != nil {
				s.search.closeAll()
				return nil, err
			}
		}
	}
	return s, nil
}

// generate fills a fresh store: tokens, CA and the data set asked for.
func (s *Sandbox) generate(data string) error {
	now := s.clock.Now().UTC()
	ca, err := newCertAuthority(now)
	if err != nil {
		return fmt.Errorf("creating the sandbox CA: %w", err)
	}
	s.ca = ca
	s.tokens = tokenPair{Admin: newToken(), Developer: newToken()}
	s.st = newStore()
	switch {
	case data == "demo":
		s.buildDemo(now)
	case data == "empty":
		s.buildEmpty(now)
	case data == "hostile":
		s.buildHostile(now)
	case strings.HasPrefix(data, "scale:"):
		n, err := parseScale(data)
		if err != nil {
			return err
		}
		s.buildScale(now, n)
	default:
		return fmt.Errorf("unknown data set %q: use demo, empty, hostile or scale:N", data)
	}
	return nil
}

// Handler serves the management API under /v1 and the invoice download files.
func (s *Sandbox) Handler() http.Handler { return http.HandlerFunc(s.serveHTTP) }

// AdminToken is the token of the account owner (admin in two demo projects).
func (s *Sandbox) AdminToken() string { return s.tokens.Admin }

// DeveloperToken is the token of a developer in every demo project.
func (s *Sandbox) DeveloperToken() string { return s.tokens.Developer }

// AccountID is the demo account's id.
func (s *Sandbox) AccountID() string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.st.AccountID
}

// CACertPEM is the CA certificate that connection info returns.
func (s *Sandbox) CACertPEM() string { return s.ca.CertPEM }

// Start listens on a loopback address and serves Handler; "127.0.0.1:0" picks a port.
// It returns the base URL, like http://127.0.0.1:8080.
func (s *Sandbox) Start(addr string) (string, error) {
	if err := checkLoopback(addr); err != nil {
		return "", err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", fmt.Errorf("cannot listen on %s: %w", addr, err)
	}
	srv := &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second}
	s.srvMu.Lock()
	if s.closed {
		s.srvMu.Unlock()
		ln.Close()
		return "", errors.New("the sandbox is closed")
	}
	s.servers = append(s.servers, srv)
	s.srvMu.Unlock()
	go func() { _ = srv.Serve(ln) }()
	s.startLiveDemo()
	return "http://" + ln.Addr().String(), nil
}

// checkLoopback refuses to serve the sandbox (and its tokens) beyond this machine.
func checkLoopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("address %q is not HOST:PORT: %w", addr, err)
	}
	if host == "localhost" {
		return nil
	}
	ip := net.ParseIP(host)
	if ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("address %q is not a loopback address; the sandbox only listens on 127.0.0.1, ::1 or localhost", addr)
	}
	return nil
}

// Close stops the API and search listeners and saves the state file.
func (s *Sandbox) Close() error {
	s.srvMu.Lock()
	if s.closed {
		s.srvMu.Unlock()
		return nil
	}
	s.closed = true
	servers := s.servers
	s.servers = nil
	s.srvMu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	for _, srv := range servers {
		if err := srv.Shutdown(ctx); err != nil {
			_ = srv.Close()
		}
	}
	var err error
	if s.persist != nil {
		err = s.persist.close()
	}
	s.search.closeAll()
	return err
}

// changed is called after every successful write; it schedules a save of the state file.
func (s *Sandbox) changed() {
	if s.persist != nil {
		s.persist.schedule()
	}
}
