package services

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"

	"github.com/svcui/svcui/internal/fleet"
	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/base"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
	"github.com/svcui/svcui/internal/ui/plans"
	"github.com/svcui/svcui/internal/ui/watch"
)

// Fleet work on marked services: one form of the fields they share, then one plan
// (plans.Open) of a row per service.

// unchanged is the form's "leave it as each service has it".
const unchanged = ""

// bulkValues are the bulk form's fields; unchanged (empty) leaves each service as it is.
type bulkValues struct {
	Plan, Power, Protect, DOW, Time string
	AddIPs, RemoveIPs               string
}

// priceKey finds a plan's price: plans are listed per service type and cloud.
type priceKey struct{ Type, Cloud string }

// priceBook is every listed plan of the marked services' types and clouds.
type priceBook map[priceKey]map[string]models.Plan

func (pb priceBook) monthly(typ, cloud, plan string) (models.Amount, bool) {
	p, ok := pb[priceKey{typ, cloud}][plan]
	if !ok || !p.PriceUSD.Set {
		return models.Amount{}, false
	}
	return p.MonthlyUSD(), true
}

// bulkPrep is what the bulk form needs: the marked services and the plans of their
// types and clouds.
type bulkPrep struct {
	Delete bool
	Marked base.Marked[entry]
	Prices priceBook
	// SameType is the type every marked service has ("" when they differ): only then
	// is a plan offered.
	SameType string
	Plans    []string
}

// startBulkEdit lists the plans of the marked services' types and clouds, then opens
// the bulk form.
func (a *actions) startBulk(m base.Marked[entry], del bool) tea.Cmd {
	what := "edit"
	if del {
		what = "delete"
	}
	for _, e := range m.Items {
		if cmd := a.refuse(e.Project, what); cmd != nil {
			return cmd
		}
	}
	api := a.ctx.API
	pairs := map[priceKey]string{} // → a project to ask in
	for _, e := range m.Items {
		pairs[priceKey{e.Service.ServiceType, e.Service.CloudName}] = e.Project
	}
	return common.Working(fmt.Sprintf("Loading the plans of %d marked services…", len(m.Items)), common.Fetch(a.req, kindPrepBulk, func(ctx context.Context) (bulkPrep, error) {
		p := bulkPrep{Delete: del, Marked: m, Prices: priceBook{}}
		for k, project := range pairs {
			pl, err := api.ListPlans(ctx, project, k.Type, k.Cloud)
			if err != nil {
				return p, err
			}
			byName := make(map[string]models.Plan, len(pl))
			for _, x := range pl {
				byName[x.PlanName] = x
			}
			p.Prices[k] = byName
		}
		p.SameType = sameType(m.Items)
		if p.SameType != "" {
			seen := map[string]bool{}
			for k, byName := range p.Prices {
				if k.Type != p.SameType {
					continue
				}
				for n := range byName {
					if !seen[n] {
						seen[n] = true
						p.Plans = append(p.Plans, n)
					}
				}
			}
			slices.Sort(p.Plans)
		}
		return p, nil
	}))
}

func sameType(es []entry) string {
	if len(es) == 0 {
		return ""
	}
	t := es[0].Service.ServiceType
	for _, e := range es[1:] {
		if e.Service.ServiceType != t {
			return ""
		}
	}
	return t
}

// bulkForm is one form of the fields the marked services share.
func (a *actions) bulkForm(p bulkPrep) common.Modal {
	v := &bulkValues{}
	keep := components.Option("(unchanged)", unchanged)
	var fields []huh.Field
	if p.SameType != "" && len(p.Plans) > 0 {
		opts := []huh.Option[string]{keep}
		for _, n := range p.Plans {
			opts = append(opts, components.Option(n, n))
		}
		fields = append(fields, huh.NewSelect[string]().Title(titlePlan).Description("every marked service is "+p.SameType).Options(opts...).Height(6).Value(&v.Plan))
	}
	fields = append(fields,
		huh.NewSelect[string]().Title(titlePower).Description("off: nodes removed, billing stops, Kafka topic data is lost").
			Options(keep, components.Option("on", powerOn), components.Option("off", powerOff)).Value(&v.Power),
		huh.NewSelect[string]().Title(titleProtection).Options(keep, components.Option("on", "on"), components.Option("off", "off")).Value(&v.Protect),
	)
	dows := []huh.Option[string]{keep}
	for _, d := range models.Weekdays {
		dows = append(dows, components.Option(d, d))
	}
	upkeep := []huh.Field{
		huh.NewSelect[string]().Title(titleMaintenanceDay).Options(dows...).Inline(true).Value(&v.DOW),
		huh.NewInput().Title(titleMaintenance).Description("HH:MM UTC; empty keeps each service's time").Value(&v.Time).
			Validate(func(t string) error { return models.ValidateMaintenance("", strings.TrimSpace(t)) }),
		huh.NewInput().Title("IP filter: add").Description("comma-separated CIDRs added to each service's filter").Value(&v.AddIPs).Validate(optionalCIDRs),
		huh.NewInput().Title("IP filter: remove").Description("comma-separated CIDRs removed from each").Value(&v.RemoveIPs).Validate(optionalCIDRs),
	}
	title := fmt.Sprintf("Edit %d marked services", len(p.Marked.Items))
	return components.NewForm(a.ctx, title, func() tea.Cmd {
		plan := planEdit(p, *v, a.ctx.Now)
		return plans.Open(a.ctx, plan, p.Marked.Hidden, false)
	}, huh.NewGroup(fields...), huh.NewGroup(upkeep...))
}

// planEdit is the plan of a bulk edit: per service what changes, what it costs a month
// more or less, what it implies, or why it is skipped.
func planEdit(p bulkPrep, v bulkValues, now func() time.Time) fleet.Plan {
	out := fleet.Plan{ID: fleet.NewID(now()), Created: now(), Noun: "service",
		Title: fmt.Sprintf("Edit %d services", len(p.Marked.Items)), Rows: make([]fleet.Row, 0, len(p.Marked.Items))}
	add, remove := models.SplitList(v.AddIPs), models.SplitList(v.RemoveIPs)
	var total models.Amount
	total.Set = true
	unpriced := 0
	for _, e := range p.Marked.Items {
		r, diff, priced := planServiceEdit(p.Prices, e, v, add, remove)
		if r.Skip == "" && priced {
			total = total.Add(diff)
		} else if r.Skip == "" {
			unpriced++
		}
		out.Rows = append(out.Rows, r)
	}
	out.Total = signedMonthly(total.Cents())
	if unpriced > 0 {
		out.Total += fmt.Sprintf(" (%d not priced: the platform lists no price for their plan)", unpriced)
	}
	return out
}

// planServiceEdit is one service's row.
func planServiceEdit(prices priceBook, e entry, v bulkValues, add, remove []string) (fleet.Row, models.Amount, bool) {
	s := e.Service
	r := fleet.Row{Op: fleet.OpServiceUpdate, Project: e.Project, Service: s.ServiceName, State: fleet.StatePending}
	req := models.UpdateServiceRequest{}
	var change, notes []string
	zero := models.Amount{Set: true}
	diff, priced := zero, true
	cur, curOK := prices.monthly(s.ServiceType, s.CloudName, s.Plan)
	off := s.State == models.StatePowerOff
	protect := s.TerminationProtection
	if v.Protect != unchanged && (v.Protect == "on") != s.TerminationProtection {
		protect = v.Protect == "on"
		req.TerminationProtection = models.Ptr(protect)
		change = append(change, "protection "+onOff(s.TerminationProtection)+" → "+v.Protect)
		if !protect {
			notes = append(notes, "delete and power off are no longer refused")
		}
	}
	if v.Plan != unchanged && v.Plan != s.Plan {
		next, ok := prices[priceKey{s.ServiceType, s.CloudName}][v.Plan]
		switch {
		case !ok:
			r.Skip = "plan " + v.Plan + " is not offered in " + s.CloudName
		case int(next.DiskSpaceMB) > 0 && int(next.DiskSpaceMB) < s.DiskSpaceMB:
			r.Skip = fmt.Sprintf("disk cannot shrink: %s has %s GB, the service %s GB", v.Plan, diskGB(int(next.DiskSpaceMB)), diskGB(s.DiskSpaceMB))
		default:
			req.Plan = models.Ptr(v.Plan)
			change = append(change, "plan "+s.Plan+" → "+v.Plan)
			after, okA := prices.monthly(s.ServiceType, s.CloudName, v.Plan)
			if curOK && okA {
				diff = after.Sub(cur)
			} else {
				priced = false
			}
		}
	}
	if v.Power != unchanged && (v.Power == powerOff) != off {
		if v.Power == powerOff {
			if protect {
				r.Skip = "termination protection is on: power off is refused; set protection off in this plan or remove it first"
			}
			req.Powered = models.Ptr(false)
			change = append(change, "power on → off")
			if s.ServiceType == models.TypeKafka {
				notes = append(notes, "power off loses Kafka topic data")
			} else {
				notes = append(notes, "power off loses data without a backup")
			}
			if curOK {
				diff = zero.Sub(cur)
			} else {
				priced = false
			}
		} else {
			req.Powered = models.Ptr(true)
			change = append(change, "power off → on")
			notes = append(notes, "rebuilt from the latest backup")
			if curOK {
				diff = cur
			} else {
				priced = false
			}
		}
	}
	if v.DOW != unchanged || strings.TrimSpace(v.Time) != "" {
		m := models.Maintenance{}
		if s.Maintenance != nil {
			m = *s.Maintenance
		}
		next := m
		if v.DOW != unchanged {
			next.DOW = v.DOW
		}
		if t := strings.TrimSpace(v.Time); t != "" {
			next.Time = models.NormalizeMaintenanceTime(t)
		}
		if next.Time == "" {
			next.Time = "00:00:00"
		}
		if next.DOW != m.DOW || models.NormalizeMaintenanceTime(next.Time) != models.NormalizeMaintenanceTime(m.Time) {
			req.Maintenance = &next
			change = append(change, "maintenance "+maintText(editValues{DOW: m.DOW, Time: models.ShortMaintenanceTime(m.Time)})+" → "+
				maintText(editValues{DOW: next.DOW, Time: models.ShortMaintenanceTime(next.Time)}))
		}
	}
	if len(add) > 0 || len(remove) > 0 {
		have := s.UserConfig.IPFilter()
		next := make([]string, 0, len(have)+len(add))
		for _, c := range have {
			if !slices.Contains(remove, c) {
				next = append(next, c)
			}
		}
		for _, c := range add {
			if !slices.Contains(next, c) {
				next = append(next, c)
			}
		}
		if !slices.Equal(have, next) {
			list := make([]any, len(next))
			for i, c := range next {
				list[i] = c
			}
			req.UserConfig = models.UserConfig{models.UCIPFilter: list}
			change = append(change, fmt.Sprintf("ip filter %d → %d entries", len(have), len(next)))
		}
	}
	if r.Skip == "" && len(change) == 0 {
		r.Skip = "already so: nothing to change"
	}
	r.Update = &req
	r.Change, r.Notes = strings.Join(change, " · "), notes
	if r.Skip != "" {
		r.State = fleet.StateSkipped
		return r, zero, true
	}
	if priced {
		r.Cost = signedMonthly(diff.Cents())
	} else {
		r.Cost = "not priced"
	}
	return r, diff, priced
}

// planDelete plans deleting every marked service; a protected one is skipped.
func planDelete(p bulkPrep, now time.Time) fleet.Plan {
	m := p.Marked
	out := fleet.Plan{ID: fleet.NewID(now), Created: now, Noun: "service", Title: fmt.Sprintf("Delete %d services", len(m.Items))}
	total := models.Amount{Set: true}
	unpriced := 0
	for _, e := range m.Items {
		r := fleet.Row{Op: fleet.OpServiceDelete, Project: e.Project, Service: e.Service.ServiceName, State: fleet.StatePending,
			Change: "delete (" + e.Service.ServiceType + ", " + e.Service.Plan + ")",
			Notes:  []string{"nodes, data, backups and users are removed for good"}}
		if e.Service.TerminationProtection {
			r.Skip, r.State = "termination protection is on: remove it before a delete", fleet.StateSkipped
		} else if cur, ok := p.Prices.monthly(e.Service.ServiceType, e.Service.CloudName, e.Service.Plan); ok && e.Service.State != models.StatePowerOff {
			diff := models.Amount{Set: true}.Sub(cur)
			r.Cost, total = signedMonthly(diff.Cents()), total.Add(diff)
		} else if e.Service.State == models.StatePowerOff {
			r.Cost = signedMonthly(models.Amount{Set: true})
		} else {
			r.Cost, unpriced = "not priced", unpriced+1
		}
		out.Rows = append(out.Rows, r)
	}
	out.Total = signedMonthly(total.Cents())
	if unpriced > 0 {
		out.Total += fmt.Sprintf(" (%d not priced)", unpriced)
	}
	return out
}

// openBulk opens what a bulk preparation was for: the edit form, or the delete plan.
func (a *actions) openBulk(p bulkPrep) common.Modal {
	if p.Delete {
		m, _ := plans.NewModal(a.ctx, planDelete(p, a.ctx.Now()), p.Marked.Hidden, false)
		return m
	}
	return a.bulkForm(p)
}

// watchMarked watches every marked service.
func watchMarked(m base.Marked[entry]) tea.Cmd {
	cmds := make([]tea.Cmd, 0, len(m.Items)+1)
	for _, e := range m.Items {
		cmds = append(cmds, common.Send(watch.Start{Project: e.Project, Service: e.Service.ServiceName, Reason: "marked", State: e.Service.State}))
	}
	return tea.Batch(append(cmds, common.Info(fmt.Sprintf("Watching %d marked services", len(m.Items))))...)
}
