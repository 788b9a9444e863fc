package services

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
)

// cloudOptions lists clouds by region then name, the current one first when unknown.
// optionWidth is what a select option's label gets in a modal of the widest size
// (components.ModalWidth) after the field's border and cursor.
const optionWidth = 66

func cloudOptions(clouds []models.Cloud, current string) []huh.Option[string] {
	cs := append([]models.Cloud(nil), clouds...)
	sort.SliceStable(cs, func(i, j int) bool {
		if cs[i].GeoRegion != cs[j].GeoRegion {
			return cs[i].GeoRegion < cs[j].GeoRegion
		}
		return cs[i].CloudName < cs[j].CloudName
	})
	var opts []huh.Option[string]
	found := current == ""
	for _, c := range cs {
		label := c.CloudName
		if c.CloudDescription != "" {
			label += " — " + c.CloudDescription
		}
		opts = append(opts, huh.NewOption(ansi.Truncate(label, optionWidth, "…"), c.CloudName))
		found = found || c.CloudName == current
	}
	if !found {
		opts = append([]huh.Option[string]{huh.NewOption(current+" (current)", current)}, opts...)
	}
	return opts
}

// createTypeForm is the first create step: service type and cloud (the plans depend on both).
func (a *actions) createTypeForm(p createPrep) common.Modal {
	typ, cloud := p.Types[0].ServiceType, p.DefaultCloud
	if cloud == "" && len(p.Clouds) > 0 {
		cloud = p.Clouds[0].CloudName
	}
	var typeOpts []huh.Option[string]
	for _, t := range p.Types {
		label := t.ServiceType
		if t.LatestAvailableVersion != "" {
			label += " " + t.LatestAvailableVersion
		}
		if t.Description != "" {
			label += " — " + t.Description
		}
		typeOpts = append(typeOpts, huh.NewOption(ansi.Truncate(label, optionWidth, "…"), t.ServiceType))
	}
	cloudDesc := "the project's default cloud is preselected"
	if p.DefaultCloud == "" {
		cloudDesc = "the project has no default cloud"
	}
	api := a.ctx.API
	return components.NewForm(a.ctx, "Create service in "+p.Project+" (1/2)", func() tea.Cmd {
		t, c := typ, cloud
		return tea.Batch(common.Info("Loading plans of "+t+" in "+c+"…"), common.Fetch(a.req, "prep-plans", func(ctx context.Context) (planPrep, error) {
			plans, err := api.ListPlans(ctx, p.Project, t, c)
			return planPrep{Prep: p, Type: t, Cloud: c, Plans: plans}, err
		}))
	}, huh.NewGroup(
		huh.NewSelect[string]().Title("Service type").Description("with its latest version").Options(typeOpts...).Height(8).Value(&typ),
		huh.NewSelect[string]().Title("Cloud").Description(cloudDesc).Options(cloudOptions(p.Clouds, cloud)...).Height(8).Value(&cloud),
	))
}

// createValues are bound to the second create step's fields.
type createValues struct {
	Plan, Name, DiskGB, VPC, PGVersion, IPFilter string
	Protect, KafkaConnect, KafkaRest, Confirm    bool
}

func (a *actions) nameCheck(existing []string) func(string) error {
	return func(s string) error {
		if err := models.ValidateServiceName(s); err != nil {
			return err
		}
		for _, n := range existing {
			if n == s {
				return fmt.Errorf("a service named %s already exists in this project", s)
			}
		}
		return nil
	}
}

func diskCheck(min int) func(string) error {
	return func(s string) error {
		s = strings.TrimSpace(s)
		if s == "" {
			return nil
		}
		gb, err := strconv.Atoi(s)
		if err != nil || gb <= 0 {
			return fmt.Errorf("disk size must be a whole number of GB")
		}
		return models.ValidateDiskIncrease(min, gb*1024)
	}
}

// createDetailsForm is the second step: plan with prices, name, options, then a summary.
func (a *actions) createDetailsForm(pp planPrep) common.Modal {
	v := &createValues{Plan: pp.Plans[0].PlanName, Confirm: true}
	var planOpts []huh.Option[string]
	for _, p := range pp.Plans {
		label := fmt.Sprintf("%-18s %s · %s", p.PlanName, hourly(p), monthly(p))
		switch {
		case p.NodeCount == 1:
			label += " · 1 node"
		case p.NodeCount > 1:
			label += fmt.Sprintf(" · %d nodes", p.NodeCount)
		}
		planOpts = append(planOpts, huh.NewOption(label, p.PlanName))
	}
	check := a.nameCheck(pp.Prep.Existing)
	name := huh.NewInput().Title("Name").Description("3-63 characters: lowercase letters, digits, hyphens").Value(&v.Name).Validate(check)
	disk := huh.NewInput().Title("Disk size in GB (optional)").Description("empty = the plan's size").Value(&v.DiskGB).Validate(diskCheck(1))
	vpc := huh.NewInput().Title("Project VPC id (optional)").Value(&v.VPC).Validate(models.ValidateVPCID)
	ipf := huh.NewInput().Title("IP filter (optional)").Description("comma-separated CIDRs, like 10.0.0.0/8, 192.168.1.0/24").Value(&v.IPFilter).Validate(optionalCIDRs)
	fields := []huh.Field{
		huh.NewSelect[string]().Title("Plan").Description("price per hour and per month (" + strconv.Itoa(models.HoursPerMonth) + " h)").Options(planOpts...).Height(6).Value(&v.Plan),
		name, disk,
		huh.NewConfirm().Title("Termination protection").Description("refuses delete and power off until removed").Value(&v.Protect),
		vpc,
	}
	switch pp.Type {
	case models.TypePG:
		fields = append(fields, huh.NewInput().Title("PostgreSQL version (optional)").Description("pg_version, e.g. 16").Value(&v.PGVersion))
	case models.TypeKafka:
		fields = append(fields,
			huh.NewConfirm().Title("Kafka Connect").Description("kafka_connect").Value(&v.KafkaConnect),
			huh.NewConfirm().Title("Kafka REST").Description("kafka_rest").Value(&v.KafkaRest))
	}
	fields = append(fields, ipf)
	project, typ, cloud := pp.Prep.Project, pp.Type, pp.Cloud
	build := func() models.CreateServiceRequest {
		req := models.CreateServiceRequest{ServiceName: strings.TrimSpace(v.Name), ServiceType: typ, Plan: v.Plan,
			Cloud: cloud, ProjectVPCID: strings.TrimSpace(v.VPC), TerminationProtection: v.Protect}
		if gb, err := strconv.Atoi(strings.TrimSpace(v.DiskGB)); err == nil && gb > 0 {
			req.DiskSpaceMB = gb * 1024
		}
		uc := models.UserConfig{}
		if s := strings.TrimSpace(v.PGVersion); s != "" {
			uc[models.UCPGVersion] = s
		}
		if typ == models.TypeKafka {
			uc[models.UCKafkaConnect], uc[models.UCKafkaRest] = v.KafkaConnect, v.KafkaRest
		}
		if strings.TrimSpace(v.IPFilter) != "" {
			uc[models.UCIPFilter] = cidrList(v.IPFilter)
		}
		if len(uc) > 0 {
			req.UserConfig = uc
		}
		return req
	}
	// The summary is the form's last page, so the cost is read before anything is sent.
	summary := huh.NewGroup(
		huh.NewNote().Title("Summary").DescriptionFunc(func() string {
			plan, _ := planByName(pp.Plans, v.Plan)
			return createSummary(build(), plan)
		}, v),
		huh.NewConfirm().Title("Create this service?").Affirmative("Create").Negative("Cancel").Value(&v.Confirm),
	)
	form := components.NewForm(a.ctx, "Create "+typ+" in "+project+" (2/2)", func() tea.Cmd {
		if !v.Confirm {
			return common.Info("Create service: cancelled")
		}
		return a.create(project, build())
	}, huh.NewGroup(fields...), summary)
	return form.Live(name, func() error {
		if v.Name == "" {
			return nil
		}
		return check(v.Name)
	}).Live(disk, func() error { return diskCheck(1)(v.DiskGB) }).
		Live(vpc, func() error { return models.ValidateVPCID(v.VPC) }).
		Live(ipf, func() error { return optionalCIDRs(v.IPFilter) })
}

func createSummary(req models.CreateServiceRequest, plan models.Plan) string {
	lines := []string{
		fmt.Sprintf("%s (%s), plan %s in %s.", req.ServiceName, req.ServiceType, req.Plan, req.Cloud),
		fmt.Sprintf("Cost: %s (%s × %d h), billed while it runs.", monthly(plan), hourly(plan), models.HoursPerMonth),
	}
	if req.DiskSpaceMB > 0 {
		lines = append(lines, fmt.Sprintf("Disk: %s GB.", diskGB(req.DiskSpaceMB)))
	}
	if req.TerminationProtection {
		lines = append(lines, "Termination protection: on.")
	}
	if req.ProjectVPCID != "" {
		lines = append(lines, "Project VPC: "+req.ProjectVPCID+".")
	}
	keys := make([]string, 0, len(req.UserConfig))
	for k := range req.UserConfig {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		lines = append(lines, fmt.Sprintf("%s: %v", k, req.UserConfig[k]))
	}
	return strings.Join(append(lines, "It starts as REBUILDING and turns RUNNING when its nodes are up."), "\n")
}

func (a *actions) create(project string, req models.CreateServiceRequest) tea.Cmd {
	api := a.ctx.API
	return tea.Batch(common.Info("Creating "+req.ServiceName+"…"), common.Fetch(a.req, "create", func(ctx context.Context) (changed, error) {
		s, err := api.CreateService(ctx, project, req)
		if err == nil && s.ServiceName == "" {
			s.ServiceName, s.ServiceType, s.Plan, s.CloudName = req.ServiceName, req.ServiceType, req.Plan, req.Cloud
			s.State = models.StateRebuilding
		}
		return changed{Project: project, Service: s, Created: true}, err
	}))
}

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
		v.DOW, v.Time = s.Maintenance.DOW, strings.TrimSuffix(s.Maintenance.Time, ":00")
		if len(s.Maintenance.Time) == 8 && !strings.HasSuffix(s.Maintenance.Time, ":00") {
			v.Time = s.Maintenance.Time
		}
	}
	return v
}

func (a *actions) editForm(p editPrep) common.Modal {
	s := p.Service
	orig := currentEditValues(s)
	v := &editValues{}
	*v = orig
	cur, _ := planByName(p.Plans, s.Plan)
	var planOpts []huh.Option[string]
	if _, ok := planByName(p.Plans, s.Plan); !ok {
		planOpts = append(planOpts, huh.NewOption(s.Plan+" (current)", s.Plan))
	}
	for _, pl := range p.Plans {
		label := fmt.Sprintf("%-18s %s", pl.PlanName, monthly(pl))
		if pl.PlanName == s.Plan {
			label += " (current)"
		} else if cur.PriceUSD.Set {
			diff := pl.MonthlyUSD().Sub(cur.MonthlyUSD())
			sign := "+"
			if diff.Value.IsNegative() {
				sign = ""
			}
			label += " (" + sign + "$" + diff.FormatNumber() + "/month)"
		}
		planOpts = append(planOpts, huh.NewOption(label, pl.PlanName))
	}
	dows := []huh.Option[string]{huh.NewOption("(not set)", "")}
	if orig.DOW == "never" {
		dows = append(dows, huh.NewOption("never", "never"))
	}
	for _, d := range models.Weekdays {
		dows = append(dows, huh.NewOption(d, d))
	}
	diskMin := s.DiskSpaceMB
	disk := huh.NewInput().Title("Disk size in GB").Description(fmt.Sprintf("increase only; now %s GB", diskGB(s.DiskSpaceMB))).Value(&v.DiskGB).Validate(diskCheck(diskMin))
	mtime := huh.NewInput().Title("Maintenance time (UTC)").Description("HH:MM, like 03:00").Value(&v.Time).Validate(func(t string) error { return models.ValidateMaintenance("", t) })
	ipf := huh.NewInput().Title("IP filter").Description("comma-separated CIDRs").Value(&v.IPFilter).Validate(optionalCIDRs)
	powerDesc := "Power off removes the nodes and stops billing; data without a backup is lost"
	if s.ServiceType == models.TypeKafka {
		powerDesc += ", and Kafka topic data is always lost"
	}
	powerDesc += ". A service powered off for long may be deleted. Power on restores from the latest backup (REBUILDING)."
	if s.TerminationProtection {
		powerDesc += " Refused while termination protection is on."
	}
	fields := []huh.Field{
		huh.NewSelect[string]().Title("Plan").Description("price difference per month against the current plan").Options(planOpts...).Height(6).Value(&v.Plan),
		huh.NewSelect[string]().Title("Cloud").Description("Changing the cloud migrates the service: it is REBALANCING while data moves, connections may drop briefly.").
			Options(cloudOptions(p.Clouds, s.CloudName)...).Height(6).Value(&v.Cloud),
		disk,
		huh.NewSelect[string]().Title("Power").Description(powerDesc).Options(huh.NewOption("on", powerOn), huh.NewOption("off", powerOff)).Value(&v.Power),
		huh.NewConfirm().Title("Termination protection").Value(&v.Protect),
		huh.NewSelect[string]().Title("Maintenance day").Options(dows...).Height(5).Value(&v.DOW),
		mtime, ipf,
	}
	project, name := p.Project, s.ServiceName
	return components.NewForm(a.ctx, "Edit "+name, func() tea.Cmd {
		return a.submitEdit(project, name, orig, *v)
	}, huh.NewGroup(fields...)).
		Live(disk, func() error { return diskCheck(diskMin)(v.DiskGB) }).
		Live(mtime, func() error { return models.ValidateMaintenance("", v.Time) }).
		Live(ipf, func() error { return optionalCIDRs(v.IPFilter) })
}

// submitEdit sends what changed, refusing a power off under termination protection
// before any request (the platform would answer 403).
func (a *actions) submitEdit(project, name string, orig, v editValues) tea.Cmd {
	req, off, any := updateRequest(orig, v)
	if !any {
		return common.Info("Nothing changed")
	}
	if off && v.Protect {
		return common.Error("Power off refused: termination protection is on for " + name + ". Remove it first (it protects against termination and shutdown).")
	}
	return a.update(project, name, req)
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
	api := a.ctx.API
	return tea.Batch(common.Info("Saving "+name+"…"), common.Fetch(a.req, "update", func(ctx context.Context) (changed, error) {
		// Removing protection and powering off in one edit: the protection change must
		// land first, or the platform refuses the power off.
		if req.Powered != nil && !*req.Powered && req.TerminationProtection != nil && !*req.TerminationProtection {
			first := models.UpdateServiceRequest{TerminationProtection: req.TerminationProtection}
			if _, err := api.UpdateService(ctx, project, name, first); err != nil {
				return changed{}, err
			}
			req.TerminationProtection = nil
		}
		s, err := api.UpdateService(ctx, project, name, req)
		return changed{Project: project, Service: s}, err
	}))
}
