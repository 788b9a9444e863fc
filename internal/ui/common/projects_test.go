package common_test

import (
	"testing"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/common"
)

// Roles and accounts are read from the listed projects themselves, found by name: a
// refresh's items answer at once (the names' order is kept when no name changed), a
// project the list does not have is unknown, and another profile forgets them all.
func TestRolesAndAccountsAreReadFromTheListedProjects(t *testing.T) {
	ctx := common.NewContext()
	type project struct {
		name, account string
		role          models.Role
	}
	set := func(ps ...project) {
		ctx.SetProjectsOf(len(ps), func(i int) (string, string, models.Role) { return ps[i].name, ps[i].account, ps[i].role })
	}
	set(project{"beta", "acc-2", models.RoleAdmin}, project{"alpha", "acc-1", models.RoleDeveloper})
	if r, ok := ctx.RoleOf("alpha"); !ok || r != models.RoleDeveloper || ctx.AccountOf("beta") != "acc-2" || ctx.CanAdminister("alpha") {
		t.Fatalf("alpha %q %v, beta's account %q", r, ok, ctx.AccountOf("beta"))
	}
	if _, ok := ctx.RoleOf("gamma"); ok || ctx.AccountOf("gamma") != "" || !ctx.CanAdminister("gamma") {
		t.Fatal("a project the list does not have is known")
	}
	names := ctx.ProjectNames
	set(project{"beta", "acc-2", models.RoleDeveloper}, project{"alpha", "acc-9", models.RoleAdmin})
	if &ctx.ProjectNames[0] != &names[0] {
		t.Error("a refresh that renamed nothing made the names again")
	}
	if r, _ := ctx.RoleOf("beta"); r != models.RoleDeveloper || ctx.AccountOf("alpha") != "acc-9" {
		t.Fatalf("after the refresh: beta %q, alpha's account %q", r, ctx.AccountOf("alpha"))
	}
	set(project{"delta", "acc-4", models.RoleAdmin}, project{"beta", "acc-2", models.RoleDeveloper})
	if r, ok := ctx.RoleOf("delta"); !ok || r != models.RoleAdmin || len(ctx.ProjectNames) != 2 || ctx.ProjectNames[0] != "beta" {
		t.Fatalf("after a rename: %v, delta %q", ctx.ProjectNames, r)
	}
	if _, ok := ctx.RoleOf("alpha"); ok {
		t.Error("a project gone from the list is still known")
	}
	ctx.ForgetProjects()
	if _, ok := ctx.RoleOf("beta"); ok || len(ctx.ProjectNames) != 0 {
		t.Error("another profile kept the projects")
	}
}
