package billing

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
)

// Credits shows the account's available and total credits with a gauge.
type Credits struct {
	ctx     *common.Context
	req     *common.Requests
	credits *models.Credits
	errTxt  string
	w, h    int
}

// NewCredits builds the credits view of the current account.
func NewCredits(ctx *common.Context) *Credits {
	return &Credits{ctx: ctx, req: common.NewRequests()}
}

func (c *Credits) Init() tea.Cmd { return c.load() }

func (c *Credits) load() tea.Cmd {
	api, account, project := c.ctx.API, accountFor(c.ctx), c.ctx.Project
	return common.Fetch(c.req, "credits", func(ctx context.Context) (models.Credits, error) {
		acc, err := resolveAccount(ctx, api, account, project)
		if err != nil {
			return models.Credits{}, err
		}
		return api.GetCredits(ctx, acc)
	})
}

func (c *Credits) Title() string                  { return "Credits" }
func (c *Credits) SetSize(w, h int)               { c.w, c.h = w, h }
func (c *Credits) Capturing() bool                { return false }
func (c *Credits) ID() int64                      { return c.req.ID }
func (c *Credits) RefreshInterval() time.Duration { return c.ctx.Refresh }
func (c *Credits) Refresh() tea.Cmd               { return c.load() }
func (c *Credits) Leave()                         { c.req.CancelAll() }
func (c *Credits) ShortHelp() []key.Binding       { return []key.Binding{c.ctx.Keys.Refresh} }
func (c *Credits) FullHelp() [][]key.Binding      { return [][]key.Binding{{c.ctx.Keys.Refresh}} }

func (c *Credits) Update(msg tea.Msg) (common.View, tea.Cmd) {
	switch msg := msg.(type) {
	case common.Result[models.Credits]:
		if !c.req.Current(msg.Addr) {
			return c, nil
		}
		if msg.Err != nil {
			c.errTxt = errorText(c.ctx, msg.Err)
			return c, common.Send(common.RefreshDone{Err: msg.Err})
		}
		cr := msg.Value
		c.credits, c.errTxt = &cr, ""
		return c, common.Send(common.RefreshDone{})
	case common.RefreshNow:
		return c, c.load()
	}
	return c, nil
}

// creditLines renders the credits: amounts aligned, used = total - available (exact).
func creditLines(ctx *common.Context, cr models.Credits, width int) []string {
	st := ctx.Styles
	if !cr.TotalCredits.Set && !cr.AvailableCredits.Set {
		return []string{"  This account has no credits."}
	}
	used := cr.TotalCredits.Sub(cr.AvailableCredits)
	aligned := alignAmounts([]models.Amount{cr.AvailableCredits, cr.TotalCredits, used})
	w := 0
	for _, s := range aligned {
		w = max(w, len(s))
	}
	cur := cr.Currency
	row := func(label, v string) string { return fmt.Sprintf("  %-10s %*s %s", label, w, v, cur) }
	return []string{
		st.Bold.Render("  Account credits"),
		"",
		row("Available", aligned[0]),
		row("Total", aligned[1]),
		row("Used", aligned[2]),
		"",
		"  " + components.Gauge(ctx, amountFloat(cr.AvailableCredits), amountFloat(cr.TotalCredits), min(50, max(12, width-4))) + " left",
	}
}

func (c *Credits) View() string {
	if c.credits == nil {
		return components.Placeholder(c.ctx, c.errTxt, "Loading credits…")
	}
	lines := creditLines(c.ctx, *c.credits, c.w)
	if c.errTxt != "" {
		lines = append(lines, "", c.ctx.Styles.Danger.Render("  ✗ "+c.errTxt))
	}
	if len(lines) > c.h && c.h > 0 {
		lines = lines[:c.h]
	}
	for i := range lines {
		lines[i] = ansi.Truncate(lines[i], c.w, "…")
	}
	return strings.Join(lines, "\n")
}
