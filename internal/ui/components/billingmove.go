package components

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/common"
)

// BillingMove is the review of moving a project to another billing group, the one
// review whichever way the move is made (Billing › group › p, or Projects › e): the
// group it leaves and the one it joins, and the currency its invoices change to. also
// are the other changes sent with it (an edit that changes more than the group).
func BillingMove(ctx *common.Context, p models.Project, to models.BillingGroup, also []Change, send func() tea.Cmd, back tea.Cmd) *Review {
	gname := to.BillingGroupName
	if gname == "" {
		gname = to.BillingGroupID
	}
	from := "no billing group"
	if p.BillingGroupID != "" {
		from = p.BillingGroupName
		if from == "" {
			from = p.BillingGroupID
		}
	}
	project := p.ProjectName
	note := "Invoices of " + gname + " include " + project + "'s costs from now on"
	if p.BillingGroupID != "" {
		note += "; " + from + " stops billing it"
	}
	changes := []Change{{Field: "Billing group of " + project, Old: from, New: gname, Note: note + ".", Warn: true}}
	if was, now := p.BillingCurrency, to.BillingCurrency; was != "" && now != "" && was != now {
		changes = append(changes, Change{Field: "Currency", Old: was, New: now,
			Note: project + " is billed in " + now + " from now on: its estimates and invoices change currency.", Warn: true})
	}
	return NewReview(ctx, "Move "+project+" to "+gname, append(changes, also...), send, back)
}
