package components_test

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"

	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
	"github.com/svcui/svcui/internal/ui/theme"
	"github.com/svcui/svcui/internal/ui/uitest/formfit"
)

// A form taller than the window keeps the focused field in view with its key help: the
// Kafka create form at 120×40 hid its last field ("IP filter") below the modal, with no
// focus bar and no key help, while 80×24 (bounded) and 160×50 (room enough) were fine.
func TestATallFormKeepsTheFocusedFieldInView(t *testing.T) {
	build := func() common.Modal {
		ctx := common.NewContext()
		ctx.Styles = theme.New(theme.Dark, true)
		var plan, name, disk, vpc, ipf string
		var protect, connect, rest bool
		plans := []huh.Option[string]{}
		for _, p := range []string{"startup-2", "business-4", "business-8", "premium-6", "premium-9", "premium-12", "premium-18"} {
			plans = append(plans, huh.NewOption(p+"   $0.41/h   $300/month", p))
		}
		return components.NewFlow(components.NewForm(ctx, "Create kafka in acme-prod (2/2)", func() tea.Cmd { return nil },
			huh.NewGroup(
				huh.NewSelect[string]().Title("Plan").Description("price per hour and per month (730 h)").Options(plans...).Height(6).Value(&plan),
				huh.NewInput().Title("Name").Description("3-63 characters: lowercase letters, digits, hyphens").Value(&name),
				huh.NewInput().Title("Disk (GB)").Description("empty = the plan's 600 GB; more costs more").Value(&disk),
				huh.NewConfirm().Title("Termination protection").Description("refuses delete and power off until removed").Value(&protect),
				huh.NewInput().Title("Project VPC id (optional)").Value(&vpc),
				huh.NewConfirm().Title("Kafka Connect").Description("kafka_connect").Value(&connect),
				huh.NewConfirm().Title("Kafka REST").Description("kafka_rest").Value(&rest),
				huh.NewInput().Title("IP filter").Description("comma-separated CIDRs, like 10.0.0.0/8, 192.168.1.0/24").Value(&ipf),
			)))
	}
	if misses := formfit.Misses(build); len(misses) > 0 {
		t.Fatalf("%d misses:\n%s", len(misses), strings.Join(misses, "\n"))
	}
}
