package fake

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/common"
)

var bg = context.Background()

// Fail changes nothing, Lose changes the platform and answers the error, Clear goes
// back to answering; only the calls whose arguments match are touched.
func TestRulesFailLoseAndClear(t *testing.T) {
	f := New()
	refused := errors.New("Invalid username")
	f.On(CreateUser, "p", "pg").Fail(refused)
	if _, err := f.CreateUser(bg, "p", "pg", models.CreateUserRequest{Username: "a"}); !errors.Is(err, refused) {
		t.Fatalf("failed create answered %v", err)
	}
	if us, _ := f.ListUsers(bg, "p", "pg"); len(us) != 0 {
		t.Fatalf("a failed create made %v", us)
	}
	if _, err := f.CreateUser(bg, "p", "other", models.CreateUserRequest{Username: "a"}); err != nil {
		t.Fatalf("a rule for p/pg touched p/other: %v", err)
	}
	f.On(CreateUser, "p", "pg").Lose(ErrLost)
	if u, err := f.CreateUser(bg, "p", "pg", models.CreateUserRequest{Username: "b"}); !errors.Is(err, ErrLost) || u.Password != "" {
		t.Fatalf("lost create answered %+v, %v", u, err)
	}
	if us, _ := f.ListUsers(bg, "p", "pg"); len(us) != 1 || us[0].Username != "b" {
		t.Fatalf("a lost create did not land: %v", us)
	}
	f.On(CreateUser, "p", "pg").Clear()
	if u, err := f.CreateUser(bg, "p", "pg", models.CreateUserRequest{Username: "c"}); err != nil || u.Password != CreatedPassword("c") {
		t.Fatalf("after Clear: %+v, %v", u, err)
	}
	if got := f.Count(CreateUser, "p", "pg"); got != 3 {
		t.Fatalf("%d creates on p/pg logged, want 3", got)
	}
	if w := f.Writes(); len(w) != 4 || w[0].String() != "CreateUser p pg a" {
		t.Fatalf("writes %v", w)
	}
}

// A held call waits until released, and the test can wait until it is held.
func TestHoldBlocksUntilReleased(t *testing.T) {
	f := New()
	f.AddServices("p", models.Service{ServiceName: "s"})
	gate := f.On(UpdateService).Hold()
	done := make(chan error)
	go func() {
		_, err := f.UpdateService(bg, "p", "s", models.UpdateServiceRequest{Powered: models.Ptr(false)})
		done <- err
	}()
	gate.WaitHeld(1)
	select {
	case <-done:
		t.Fatal("a held call answered before it was released")
	default:
	}
	if s := f.Services("p")[0]; s.State == models.StatePowerOff {
		t.Fatal("a held write landed before it was released")
	}
	gate.Release()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if s := f.Services("p")[0]; s.State != models.StatePowerOff {
		t.Fatalf("released write did not land: %+v", s)
	}
}

// The platform's refusals are errors the context reads as such.
func TestConnectTeachesTheContextTheFakesErrors(t *testing.T) {
	f := New()
	ctx := common.NewContext()
	Connect(ctx, f)
	_, err := f.GetService(bg, "p", "nope")
	if !ctx.NotFound(err) || !ctx.OutcomeUnknown(fmt.Errorf("wrapped: %w", ErrLost)) {
		t.Fatalf("not found %v, lost not unknown", err)
	}
}

// Calls from many goroutines, with rules set meanwhile, are safe (run with -race).
func TestConcurrentUse(t *testing.T) {
	f := New()
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			svc := fmt.Sprintf("s%d", i)
			f.AddServices("p", models.Service{ServiceName: svc})
			f.On(DeleteUser, "p", svc).Fail(errors.New("no"))
			_, _ = f.CreateUser(bg, "p", svc, models.CreateUserRequest{Username: "u"})
			_, _ = f.ListServices(bg, "p")
			_, _ = f.ListServicesAcrossProjects(bg, []string{"p"})
			_ = f.Calls()
		}()
	}
	wg.Wait()
	if n := len(f.Services("p")); n != 8 {
		t.Fatalf("%d services", n)
	}
}

// A script moves one state per look, keeps the last, and "" takes the service away;
// a refused look moves nothing.
func TestScriptMovesOneStatePerLook(t *testing.T) {
	f := New()
	f.Script("p", "pg", models.StateRebuilding, models.StateRunning, "")
	f.On(ListServices, "p").Fail(errors.New("connection refused"))
	if _, err := f.ListServices(bg, "p"); err == nil {
		t.Fatal("the refused look answered")
	}
	f.On(ListServices, "p").Clear()
	var seen []models.ServiceState
	for range 4 {
		ss, _ := f.ListServices(bg, "p")
		if len(ss) == 0 {
			seen = append(seen, "gone")
			continue
		}
		seen = append(seen, ss[0].State)
	}
	if fmt.Sprint(seen) != fmt.Sprint([]models.ServiceState{models.StateRebuilding, models.StateRunning, "gone", "gone"}) {
		t.Fatalf("looks saw %v", seen)
	}
}
