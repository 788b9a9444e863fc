package access

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/components"
)

// R with users marked is one plan for every marked user (the filter's hidden ones
// counted), never a reset of the one under the cursor.
func TestResetWithMarksPlansEveryMarkedUser(t *testing.T) {
	f := withUsers(models.ServiceUser{Username: "app_1", Type: "regular"}, models.ServiceUser{Username: "app_2", Type: "regular"},
		models.ServiceUser{Username: "avnadmin", Type: models.UserPrimary})
	u, _ := usersView(t, f, models.RoleAdmin)
	u.Update(tea.KeyMsg{Type: tea.KeyCtrlA})
	u.Table.SetFilter("app_1")
	_, cmd := u.Update(press("R"))
	plan, ok := modalOf(run(t, u, cmd)).(*components.Plan)
	if !ok {
		t.Fatal("no plan")
	}
	plan.SetSize(160, 50)
	v := ansi.Strip(plan.View())
	if plan.Sendable() != 3 || !strings.Contains(v, "Users: 3 (2 not shown)") || !strings.Contains(v, "the primary user") {
		t.Fatalf("plan:\n%s", v)
	}
}
