package faultrun

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/svcui/svcui/internal/api"
	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/sandbox"
)

const (
	project   = "faultrun"
	count     = 200 // services, and as many users (one per service)
	workers   = 4
	attempts  = 8 // sends of one create, each after finding it had not happened
	findTries = 5 // reads to settle one unknown outcome, each retried by the client
)

// faults: every kind the sandbox injects, drops after execution included. The seed
// makes a failing run repeatable (SVCUI_FAULTRUN_SEED).
const faultSpec = "seed=%d,500=0.1,429=0.05,latency=0.2:20ms,drop=0.05,drop-after=0.05"

// tally counts what happened to the creates; every field is guarded by mu.
type tally struct {
	mu                 sync.Mutex
	created            int // answered with success
	unknown            int // outcome unknown, then read back
	unknownHappened    int // … and found: it had happened
	unknownNotHappened int // … and not found: sent again
	usersWithoutSecret int // users found after an unknown outcome: password not received
	failed             int // reported as failed
	failedButHappened  []string
	conflicts          []string // 409: the resource existed before this send
	unresolved         []string
}

func (t *tally) add(f func(*tally)) {
	t.mu.Lock()
	defer t.mu.Unlock()
	f(t)
}

type creator struct {
	c *api.Client
	t *tally
}

// ensure creates one resource the way the console must: a success is done; an
// unknown outcome is read back (found: done; not found: it did not happen, send
// again); a failure is read back too, to prove it did not happen, and sent again.
func (cr *creator) ensure(ctx context.Context, what string, create func() error, find func() (bool, error)) {
	for range attempts {
		err := create()
		switch {
		case err == nil:
			cr.t.add(func(t *tally) { t.created++ })
			return
		case api.IsConflict(err):
			cr.t.add(func(t *tally) { t.conflicts = append(t.conflicts, what) })
			return
		}
		unknown := api.IsOutcomeUnknown(err)
		found, ferr := cr.settle(find)
		if ferr != nil {
			cr.t.add(func(t *tally) {
				t.unresolved = append(t.unresolved, fmt.Sprintf("%s: %s; read back: %s", what, api.Message(err), api.Message(ferr)))
			})
			return
		}
		switch {
		case unknown && found:
			cr.t.add(func(t *tally) { t.unknown++; t.unknownHappened++ })
			return
		case unknown:
			cr.t.add(func(t *tally) { t.unknown++; t.unknownNotHappened++ })
		case found:
			cr.t.add(func(t *tally) {
				t.failed++
				t.failedButHappened = append(t.failedButHappened, what+": "+api.Message(err))
			})
			return
		default:
			cr.t.add(func(t *tally) { t.failed++ })
		}
	}
	cr.t.add(func(t *tally) { t.unresolved = append(t.unresolved, what+": not created after every attempt") })
}

// settle reads back until the platform answers (the reads themselves meet faults).
func (cr *creator) settle(find func() (bool, error)) (bool, error) {
	var err error
	for range findTries {
		var found bool
		if found, err = find(); err == nil {
			return found, nil
		}
	}
	return false, err
}

func serviceName(i int) string { return fmt.Sprintf("fr-svc-%03d", i) }
func userName(i int) string    { return fmt.Sprintf("fr_user_%03d", i) }

func TestFaultRun(t *testing.T) {
	if os.Getenv("SVCUI_FAULTRUN") != "1" {
		t.Skip("the fault run runs with SVCUI_FAULTRUN=1 (CI sets it)")
	}
	seed := int64(11)
	if s := os.Getenv("SVCUI_FAULTRUN_SEED"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n == 0 {
			t.Fatalf("SVCUI_FAULTRUN_SEED=%q is not a non-zero integer", s)
		}
		seed = n
	}
	spec := fmt.Sprintf(faultSpec, seed)
	sb, err := sandbox.New(sandbox.Options{Data: "demo", Faults: spec, Seed: seed, RateLimit: 1 << 30})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(sb.Handler())
	t.Cleanup(func() { srv.Close(); _ = sb.Close() })
	c, err := api.New(api.Options{BaseURL: srv.URL, Token: sb.AdminToken(), MaxRetries: 8, Timeout: 10 * time.Second,
		UserAgent: "svcui/faultrun", Sleep: shortSleep})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	start := time.Now()
	tl := &tally{}
	cr := &creator{c: c, t: tl}

	cr.ensure(ctx, "project "+project, func() error {
		_, err := c.CreateProject(ctx, models.CreateProjectRequest{Project: project})
		return err
	}, func() (bool, error) {
		_, ok, err := c.FindProject(ctx, project)
		return ok, err
	})
	forEach(count, func(i int) {
		name := serviceName(i)
		cr.ensure(ctx, "service "+name, func() error {
			_, err := c.CreateService(ctx, project, models.CreateServiceRequest{ServiceName: name, ServiceType: "pg", Plan: "startup-4", Cloud: "google-europe-north1"})
			return err
		}, func() (bool, error) {
			_, ok, err := c.FindService(ctx, project, name)
			return ok, err
		})
	})
	forEach(count, func(i int) {
		svc, name := serviceName(i), userName(i)
		var unknown bool
		cr.ensure(ctx, "user "+name, func() error {
			_, err := c.CreateUser(ctx, project, svc, models.CreateUserRequest{Username: name})
			unknown = api.IsOutcomeUnknown(err)
			return err
		}, func() (bool, error) {
			u, ok, err := c.FindUser(ctx, project, svc, name)
			if ok && unknown && !models.SecretAvailable(u.Password) {
				tl.add(func(t *tally) { t.usersWithoutSecret++ })
			}
			return ok, err
		})
	})

	// What is there now: every service and user once, nothing twice.
	duplicates, missing := checkState(t, ctx, c)
	st := c.Stats()
	fmt.Printf("faultrun: seed %d (%s); %d services and %d users: %d created, %d of unknown outcome (%d had happened, %d had not and were sent again), "+
		"%d users found without their password, %d reported failed (%d of them had happened), %d conflicts, %d duplicates, %d missing, %d unresolved; %d requests (%d retries) in %s\n",
		seed, spec, count, count, tl.created, tl.unknown, tl.unknownHappened, tl.unknownNotHappened,
		tl.usersWithoutSecret, tl.failed, len(tl.failedButHappened), len(tl.conflicts), duplicates, missing, len(tl.unresolved),
		st.Requests, st.Retries, time.Since(start).Round(100*time.Millisecond))

	for _, s := range tl.failedButHappened {
		t.Errorf("reported as failed, yet it happened: %s", s)
	}
	for _, s := range tl.conflicts {
		t.Errorf("409 on a create: %s existed before it was sent, so an earlier send ran", s)
	}
	for _, s := range tl.unresolved {
		t.Errorf("unresolved: %s", s)
	}
	if duplicates > 0 || missing > 0 {
		t.Errorf("%d duplicates, %d missing", duplicates, missing)
	}
	if tl.unknownHappened == 0 || tl.failed == 0 {
		t.Errorf("the faults produced %d unknown outcomes that had happened and %d failures: the run proves nothing", tl.unknownHappened, tl.failed)
	}
}

// checkState lists the project's services and each service's users and counts names
// seen more than once and names not seen.
func checkState(t *testing.T, ctx context.Context, c *api.Client) (duplicates, missing int) {
	svcs, err := c.ListServices(ctx, project)
	if err != nil {
		t.Fatalf("listing the services: %s", api.Message(err))
	}
	seen := map[string]int{}
	for _, s := range svcs {
		seen[s.ServiceName]++
	}
	var mu sync.Mutex
	forEach(count, func(i int) {
		users, err := c.ListUsers(ctx, project, serviceName(i))
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			if !api.IsNotFound(err) {
				t.Errorf("listing the users of %s: %s", serviceName(i), api.Message(err))
			}
			return
		}
		for _, u := range users {
			seen[u.Username]++
		}
	})
	for i := range count {
		for _, name := range []string{serviceName(i), userName(i)} {
			switch n := seen[name]; {
			case n == 0:
				missing++
				t.Errorf("%s is missing", name)
			case n > 1:
				duplicates++
				t.Errorf("%s exists %d times", name, n)
			}
		}
	}
	return duplicates, missing
}

// forEach runs f(0..n-1) on a few workers, as a console's concurrent actions would.
func forEach(n int, f func(i int)) {
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := range jobs {
				f(i)
			}
		})
	}
	for i := range n {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
}

// shortSleep keeps the client's waits (backoff, the injected Retry-After: 1) but
// shortens them, so the run stays within its CI budget; the policy is unchanged.
func shortSleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(min(d, 50*time.Millisecond))
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
