package billing

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/uitest/formfit"
)

// The billing forms (a group's create and edit, assigning a project, the invoice's
// download folder), at every supported size with each field focused in turn: its title,
// its focus bar and the key help are on screen.
func TestEveryBillingFormFitsTheScreen(t *testing.T) {
	ctx, f := newFake(t)
	a := &actions{ctx: ctx, req: common.NewRequests()}
	inv := NewInvoices(ctx, f.BillingGroups()[0])
	for name, build := range map[string]func() common.Modal{
		"create group": func() common.Modal {
			return groupForm(ctx, "Create billing group", &groupValues{Currency: "USD"}, func() tea.Cmd { return nil })
		},
		"edit group": func() common.Modal {
			v := valuesOf(models.BillingGroup{BillingGroupName: "Acme Europe", BillingCurrency: "EUR", AddressLines: []string{"1 Main St", "Floor 2"}})
			return groupForm(ctx, "Edit billing group Acme Europe", &v, func() tea.Cmd { return nil })
		},
		"assign": func() common.Modal {
			return a.assignForm(assignPrep{Group: f.BillingGroups()[0], Projects: f.Projects()})
		},
		"download": func() common.Modal {
			return inv.folderModal(invoice{Invoice: models.Invoice{InvoiceNumber: "INV-1"}}, "/tmp")
		},
	} {
		if misses := formfit.Misses(build); len(misses) > 0 {
			t.Errorf("%s: %d misses:\n%s", name, len(misses), strings.Join(misses, "\n"))
		}
	}
}
