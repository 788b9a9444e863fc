package services

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/base"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
	"github.com/svcui/svcui/internal/ui/watch"
)

// editValues are bound to the edit form's fields.
type editValues struct {
	Plan, Cloud, DiskGB, Power, DOW, Time, IPFilter string
	Protect                                         bool
}

const (
	powerOn  = "on"
	powerOff = "off"
)

func currentEditValues(s models.Service) editValues {
	v := editValues{Plan: s.Plan, Cloud: s.CloudName, DiskGB: "", Power: powerOn, Protect: s.TerminationProtection,
		IPFilter: strings.Join(s.UserConfig.IPFilter(), ", ")}
	if s.DiskSpaceMB > 0 {
		v.DiskGB = diskGB(s.DiskSpaceMB)
	}
	if s.State == models.StatePowerOff {
		v.Power = powerOff
	}
	if s.Maintenance != nil {
		v.DOW, v.Time = s.Maintenance.DOW, models.ShortMaintenanceTime(s.Maintenance.Time)
	}
	return v
}

// powerOffNote is what power off does to this service (docs/platform.md, "Powering off").
func powerOffNote(s models.Service) string {
	note := "Power off removes the nodes and stops billing; data without a backup is lost"
	if s.ServiceType == models.TypeKafka {
		note += ", and Kafka topic data is always lost"
	}
	return note + ". A service powered off for long may be deleted. Power on restores from the latest backup (REBUILDING)."
}

// protectedPowerOff is the console's own refusal, before anything is sent (the
// platform would answer 403).
func protectedPowerOff(orig editValues, v *editValues) error {
	if v.Power == powerOff && orig.Power != powerOff && v.Protect {
		return fmt.Errorf("power off needs termination protection off: choose No here")
	}
	return nil
}

// editFlow is the edit form, then the review of what changes, then (power off, cloud
// migration) the service's name typed.
func (a *actions) editFlow(p editPrep) *components.Flow {
	s := p.Service
	orig := currentEditValues(s)
	v := &editValues{}
	*v = orig
	cur, _ := planByName(p.Plans, s.Plan)
	var planOpts []huh.Option[string]
	if _, ok := planByName(p.Plans, s.Plan); !ok {
		planOpts = append(planOpts, components.Option(s.Plan+" (current)", s.Plan))
	}
	for _, pl := range p.Plans {
		label := fmt.Sprintf("%-18s %s", pl.PlanName, monthly(pl))
		if pl.PlanName == s.Plan {
			label += " (current)"
		} else if cur.PriceUSD.Set {
			label += " (" + signedMonthly(pl.MonthlyUSD().Sub(cur.MonthlyUSD())) + ")"
		}
		planOpts = append(planOpts, components.Option(label, pl.PlanName))
	}
	dows := []huh.Option[string]{components.Option("(not set)", "")}
	if orig.DOW == "never" {
		dows = append(dows, components.Option("never", "never"))
	}
	for _, d := range models.Weekdays {
		dows = append(dows, components.Option(d, d))
	}
	diskOK := diskCheck(func() (int, string) {
		return s.DiskSpaceMB, "it is " + diskGB(s.DiskSpaceMB) + " GB now, and disk can only grow"
	})
	disk := huh.NewInput().Title(titleDiskEdit).Description(fmt.Sprintf("increase only; now %s GB", diskGB(s.DiskSpaceMB))).Value(&v.DiskGB).Validate(diskOK)
	mtime := huh.NewInput().Title(titleMaintenance).Description("HH:MM, like 03:00").Value(&v.Time).Validate(func(t string) error { return models.ValidateMaintenance("", t) })
	ipf := huh.NewInput().Title(titleIPFilterEdit).Description("comma-separated CIDRs").Value(&v.IPFilter).Validate(optionalCIDRs)
	powerDesc := "off: the nodes are removed, billing stops, data without a backup is lost"
	if s.ServiceType == models.TypeKafka {
		powerDesc = "off: the nodes are removed, billing stops, Kafka topic data is lost"
	}
	if s.TerminationProtection {
		powerDesc += "; refused while termination protection is on"
	}
	protect := huh.NewConfirm().Title(titleProtection).Value(&v.Protect).
		Validate(func(bool) error { return protectedPowerOff(orig, v) })
	// Two pages, so each fits a 24-line screen: what costs money or loses data first,
	// then maintenance and access.
	changes := huh.NewGroup(
		huh.NewSelect[string]().Title(titlePlan).Description("price difference per month against the current plan").Options(components.CurrentFirst(planOpts, s.Plan)...).Height(6).Value(&v.Plan),
		huh.NewSelect[string]().Title(titleCloud).Description("a new cloud migrates the service").Options(cloudOptions(p.Clouds, s.CloudName)...).Height(4).Value(&v.Cloud),
		disk,
		huh.NewSelect[string]().Title(titlePower).Description(powerDesc).Options(components.Option("on", powerOn), components.Option("off", powerOff)).Value(&v.Power),
		protect,
	)
	upkeep := huh.NewGroup(
		huh.NewSelect[string]().Title(titleMaintenanceDay).Options(dows...).Inline(true).Value(&v.DOW),
		mtime, ipf,
	)
	var fl *components.Flow
	title := "Edit " + s.ServiceName
	if p.Project != a.ctx.Project() {
		title += " in " + p.Project
	}
	form := components.NewForm(a.ctx, title, func() tea.Cmd {
		return a.submitEdit(fl, p, orig, *v)
	}, changes, upkeep).
		Live(disk, func() error { return diskOK(v.DiskGB) }).
		Live(protect, func() error { return protectedPowerOff(orig, v) }).
		Live(mtime, func() error { return models.ValidateMaintenance("", v.Time) }).
		Live(ipf, func() error { return optionalCIDRs(v.IPFilter) }).
		// As in create: names that other messages quote come last.
		Names("disk_space_mb", titleDiskEdit, explainMB).
		Names("user_config.ip_filter", titleIPFilterEdit, nil).
		Names("maintenance", titleMaintenance, nil).
		Names("termination_protection", titleProtection, nil).
		Names("powered", titlePower, nil).
		Names("plan", titlePlan, nil).
		Names("cloud", titleCloud, nil)
	fl = components.NewFlow(form)
	return fl
}

// submitEdit goes on to the review of what changed; nothing is sent from here.
func (a *actions) submitEdit(fl *components.Flow, p editPrep, orig, v editValues) tea.Cmd {
	req, off, any := updateRequest(orig, v)
	if !any {
		return common.Info("Nothing changed")
	}
	name := p.Service.ServiceName
	if off && v.Protect {
		return common.Error("Power off refused: termination protection is on for " + name + ". Remove it first (it protects against termination and shutdown).")
	}
	send := func() tea.Cmd { return a.update(p.Project, name, req) }
	typed := typedReason(p.Service, req)
	review := components.NewReview(a.ctx, "Edit "+name, reviewChanges(p, orig, v), func() tea.Cmd {
		if typed == "" {
			return send()
		}
		fl.Then(components.NewTypedConfirm(a.ctx, typedTitle(req)+" "+name, typed, name, send))
		return nil
	}, nil).WithFacts(serviceFacts(p, orig, v)...)
	fl.Then(review)
	return nil
}

// typedReason is what the typed confirmation says for a change that loses data or
// moves the service ("" when none is needed).
func typedReason(s models.Service, req models.UpdateServiceRequest) string {
	var parts []string
	if req.Powered != nil && !*req.Powered {
		parts = append(parts, powerOffNote(s))
	}
	if req.Cloud != nil {
		parts = append(parts, "Moving "+s.ServiceName+" from "+s.CloudName+" to "+*req.Cloud+" migrates it: it is REBALANCING while its data moves, and connections may drop briefly.")
	}
	return strings.Join(parts, " ")
}

func typedTitle(req models.UpdateServiceRequest) string {
	switch {
	case req.Powered != nil && !*req.Powered && req.Cloud != nil:
		return "Power off and migrate"
	case req.Cloud != nil:
		return "Migrate"
	}
	return "Power off"
}

// serviceFacts is what an edit's review is about: the service, its plan, cloud and disk
// as they are, and the monthly cost before and after the edit.
func serviceFacts(p editPrep, orig, v editValues) []components.Fact {
	s := p.Service
	facts := []components.Fact{
		{Label: "Service", Value: s.ServiceName + " (" + string(s.ServiceType) + ") in " + p.Project},
		{Label: "Plan", Value: orig.Plan},
		{Label: "Cloud", Value: orig.Cloud},
		{Label: "Disk", Value: gbText(orig.DiskGB)},
	}
	cost := "not listed for " + orig.Plan
	if before, ok := planByName(p.Plans, orig.Plan); ok && before.PriceUSD.Set {
		cost = monthly(before)
		if after, ok := planByName(p.Plans, v.Plan); ok && after.PriceUSD.Set && v.Plan != orig.Plan {
			cost += " now, " + monthly(after) + " after this edit"
		}
	}
	// The platform lists no price for disk beyond the plan's: say so rather than guess.
	facts = append(facts, components.Fact{Label: "Monthly cost", Value: cost + " (plan price; disk beyond the plan's is not priced by the platform)"})
	return facts
}

// reviewChanges lists each changed field old → new, with the monthly price of a plan
// change (hourly × 730, exact) and what a change does when that is not obvious.
func reviewChanges(p editPrep, orig, v editValues) []components.Change {
	s := p.Service
	var out []components.Change
	if v.Plan != orig.Plan {
		c := components.Change{Field: "Plan", Old: orig.Plan, New: v.Plan, Warn: true}
		before, okB := planByName(p.Plans, orig.Plan)
		after, okA := planByName(p.Plans, v.Plan)
		switch {
		case okB && okA && before.PriceUSD.Set && after.PriceUSD.Set:
			diff := after.MonthlyUSD().Sub(before.MonthlyUSD())
			c.Note = monthly(before) + " → " + monthly(after) + " (" + signedMonthly(diff) + ")"
			c.Warn = !diff.Value.IsNegative()
		case okA && after.PriceUSD.Set:
			c.Note = monthly(after) + "; the price of " + orig.Plan + " is not listed, so the difference is unknown"
		}
		out = append(out, c)
		if okB && okA {
			out = append(out, downgrade(s, before, after)...)
		}
	}
	if v.Cloud != orig.Cloud {
		out = append(out, components.Change{Field: "Cloud", Old: orig.Cloud, New: v.Cloud, Note: "migrates the service: REBALANCING while its data moves", Warn: true})
	}
	if after, ok := planByName(p.Plans, v.Plan); ok && v.Plan != orig.Plan && strings.TrimSpace(v.DiskGB) == orig.DiskGB &&
		int(after.DiskSpaceMB) > s.DiskSpaceMB {
		// The platform grows the disk to the new plan's size.
		out = append(out, components.Change{Field: "Disk", Old: gbText(orig.DiskGB), New: diskGB(int(after.DiskSpaceMB)) + " GB",
			Note: "plan " + v.Plan + " takes at least " + diskGB(int(after.DiskSpaceMB)) + " GB; disk only grows and cannot be made smaller again", Warn: true})
	}
	if strings.TrimSpace(v.DiskGB) != orig.DiskGB {
		out = append(out, components.Change{Field: "Disk", Old: gbText(orig.DiskGB), New: gbText(strings.TrimSpace(v.DiskGB)),
			Note: "disk only grows: it cannot be made smaller again, and more disk costs more", Warn: true})
	}
	if v.Power != orig.Power {
		c := components.Change{Field: "Power", Old: orig.Power, New: v.Power}
		if v.Power == powerOff {
			c.Note, c.Warn = powerOffNote(s), true
		} else {
			c.Note = "restores from the latest backup (REBUILDING); billing starts again"
		}
		out = append(out, c)
	}
	if v.Protect != orig.Protect {
		c := components.Change{Field: "Termination protection", Old: onOff(orig.Protect), New: onOff(v.Protect)}
		if !v.Protect {
			c.Note, c.Warn = "delete and power off are no longer refused", true
		}
		out = append(out, c)
	}
	if v.DOW != orig.DOW || v.Time != orig.Time {
		out = append(out, components.Change{Field: "Maintenance", Old: maintText(orig), New: maintText(v)})
	}
	if v.IPFilter != orig.IPFilter {
		c := components.Change{Field: "IP filter", Old: orig.IPFilter, New: v.IPFilter, Warn: true,
			Note: "connections from addresses outside it are refused"}
		if strings.TrimSpace(v.IPFilter) == "" {
			c.Note = "no filter: the platform's default applies"
		}
		out = append(out, c)
	}
	return out
}

// downgrade says what a smaller plan takes away besides money: nodes (one node is no
// longer highly available) and a disk the new plan does not include (disk never
// shrinks, so the service keeps it).
func downgrade(s models.Service, before, after models.Plan) []components.Change {
	var out []components.Change
	if b, a := int(before.NodeCount), int(after.NodeCount); a > 0 && b > a {
		c := components.Change{Field: "Nodes", Old: strconv.Itoa(b), New: strconv.Itoa(a), Warn: true,
			Note: "fewer nodes carry the same load"}
		if a == 1 {
			c.Note = "no more high availability: one node, so a node failure or a maintenance update stops the service until it is rebuilt"
		}
		out = append(out, c)
	}
	if include := int(after.DiskSpaceMB); include > 0 && s.DiskSpaceMB > include {
		out = append(out, components.Change{Field: "Disk", Old: diskGB(s.DiskSpaceMB) + " GB", New: diskGB(s.DiskSpaceMB) + " GB (kept)", Warn: true,
			Note: "larger than the " + diskGB(include) + " GB plan " + after.PlanName + " includes: disk never shrinks, so the service keeps " +
				diskGB(s.DiskSpaceMB) + " GB on a plan made for " + diskGB(include) + " GB"})
	}
	return out
}

func signedMonthly(diff models.Amount) string {
	sign := "+"
	if diff.Value.IsNegative() {
		sign = "-"
		diff.Value = diff.Value.Neg()
	}
	return sign + "$" + diff.Cents().FormatNumber() + "/month"
}

func gbText(gb string) string {
	if gb == "" {
		return ""
	}
	return gb + " GB"
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

func maintText(v editValues) string {
	if when := strings.TrimSpace(v.DOW + " " + v.Time); when != "" {
		return when + " UTC"
	}
	return "not set"
}

// updateRequest sends only what changed; off reports a request to power off.
func updateRequest(orig, v editValues) (req models.UpdateServiceRequest, off, any bool) {
	if v.Plan != orig.Plan && v.Plan != "" {
		req.Plan, any = models.Ptr(v.Plan), true
	}
	if v.Cloud != orig.Cloud && v.Cloud != "" {
		req.Cloud, any = models.Ptr(v.Cloud), true
	}
	if strings.TrimSpace(v.DiskGB) != orig.DiskGB {
		if gb, err := strconv.Atoi(strings.TrimSpace(v.DiskGB)); err == nil && gb > 0 {
			req.DiskSpaceMB, any = models.Ptr(gb*1024), true
		}
	}
	if v.Power != orig.Power {
		req.Powered, any = models.Ptr(v.Power == powerOn), true
		off = v.Power == powerOff
	}
	if v.Protect != orig.Protect {
		req.TerminationProtection, any = models.Ptr(v.Protect), true
	}
	if v.DOW != orig.DOW || v.Time != orig.Time {
		req.Maintenance, any = &models.Maintenance{DOW: v.DOW, Time: models.NormalizeMaintenanceTime(strings.TrimSpace(v.Time))}, true
	}
	if v.IPFilter != orig.IPFilter {
		req.UserConfig, any = models.UserConfig{models.UCIPFilter: cidrList(v.IPFilter)}, true
	}
	return req, off, any
}

func (a *actions) update(project, name string, req models.UpdateServiceRequest) tea.Cmd {
	return base.SendWrite(a.ctx, a.req, &base.Write[models.Service]{Verb: base.Update, Noun: "service", Name: name, Form: refusable(a.edit),
		Send: func(ctx context.Context, wr common.Writer) (models.Service, error) {
			out := models.Service{ServiceName: name}
			// Removing protection and powering off in one edit: the protection change must
			// land first, or the platform refuses the power off.
			if req.Powered != nil && !*req.Powered && req.TerminationProtection != nil && !*req.TerminationProtection {
				first := models.UpdateServiceRequest{TerminationProtection: req.TerminationProtection}
				if _, err := wr.UpdateService(ctx, project, name, first); err != nil {
					return out, err
				}
				req.TerminationProtection = nil
			}
			s, err := wr.UpdateService(ctx, project, name, req)
			if err == nil {
				out = s
				if s.ServiceName == "" {
					out.ServiceName = name
				}
			}
			return out, err
		},
		Find:    a.find(project, name),
		Show:    func(s models.Service) { a.target.upsert(project, s) },
		Refused: watchFailed(a.ctx, project, name, watch.Reason(req)),
		Done: func(s models.Service) tea.Cmd {
			a.edit = nil
			a.target.upsert(project, s)
			text := "Saved " + s.ServiceName
			if s.State != "" {
				text += " (" + string(s.State) + ")"
			}
			return tea.Batch(common.Success(text), watchStart(project, s, watch.Reason(req)))
		},
	})
}
