package common_test

import (
	"testing"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/common"
)

// The session is read through getters; only the root's writer changes it. What the
// project list teaches (roles, accounts) is kept in the cache, and the session's role
// and account are read from it: listing projects writes no session field.
func TestTheSessionIsWrittenOnlyByTheRootsWriter(t *testing.T) {
	ctx, root := common.NewRootContext()
	ctx.ProfileAccount = "acc-profile"
	if ctx.AccountID() != "acc-profile" {
		t.Fatalf("account before a project: %q", ctx.AccountID())
	}
	root.SetProject("acme-prod")
	ctx.SetProjects(models.ProjectList{Projects: []models.Project{{ProjectName: "acme-prod", AccountID: "acc-1"}},
		Membership: map[string]models.Role{"acme-prod": models.RoleDeveloper}})
	if ctx.Project() != "acme-prod" || ctx.Role() != models.RoleDeveloper || ctx.AccountID() != "acc-1" {
		t.Fatalf("session: %q %q %q", ctx.Project(), ctx.Role(), ctx.AccountID())
	}
	// A writer is bound to the context it was made with: another cannot touch this one.
	_, other := common.NewRootContext()
	other.SetProject("elsewhere")
	root.SetBillingGroup("bg-1", "Acme Europe")
	if ctx.Project() != "acme-prod" || ctx.BillingGroupID() != "bg-1" {
		t.Fatalf("another writer changed this session: %q %q", ctx.Project(), ctx.BillingGroupID())
	}
	var _ common.Session = ctx // views see the getters
}
