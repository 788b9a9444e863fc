package billing

import (
	"context"
	"fmt"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/base"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
)

// NewCredits builds the credits view of the current account: available, total and used
// credits (used = total - available, exact) and how much is left.
func NewCredits(ctx *common.Context) *Credits {
	return &Credits{base.NewDetail(ctx, base.DetailSpec[models.Credits]{
		Title: "Credits",
		Load: func() func(context.Context) (models.Credits, error) {
			api, account, project, explain := ctx.API, accountFor(ctx), ctx.Project(), explainer(ctx)
			return func(c context.Context) (models.Credits, error) {
				acc, err := resolveAccount(c, api, account, project)
				if err != nil {
					return models.Credits{}, explain(err)
				}
				cr, err := api.GetCredits(c, acc)
				return cr, explain(err)
			}
		},
		Sections: func(cr models.Credits) []components.Section { return creditSections(ctx, cr) },
	})}
}

// Credits is the account's credits.
type Credits struct{ *base.Detail[models.Credits] }

func (c *Credits) Update(msg tea.Msg) (common.View, tea.Cmd) { return c, c.Handle(msg) }

func creditSections(ctx *common.Context, cr models.Credits) []components.Section {
	if !cr.TotalCredits.Set && !cr.AvailableCredits.Set {
		return []components.Section{{Title: "Account credits", Fields: []components.Field{{Label: "Credits", Value: "This account has no credits."}}}}
	}
	used := cr.TotalCredits.Sub(cr.AvailableCredits)
	aligned := alignAmounts([]models.Amount{cr.AvailableCredits, cr.TotalCredits, used})
	w := 0
	for _, s := range aligned {
		w = max(w, len(s))
	}
	amount := func(s string) string { return fmt.Sprintf("%*s %s", w, s, cr.Currency) }
	return []components.Section{{Title: "Account credits", Fields: []components.Field{
		{Label: "Available", Value: amount(aligned[0])},
		{Label: "Total", Value: amount(aligned[1])},
		{Label: "Used", Value: amount(aligned[2])},
		// A detail's values are text: the gauge without its colour.
		{Label: "Left", Value: ansi.Strip(components.Gauge(ctx, amountFloat(cr.AvailableCredits), amountFloat(cr.TotalCredits), 30)) + " left"},
	}}}
}
