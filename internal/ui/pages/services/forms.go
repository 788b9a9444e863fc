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
	"github.com/svcui/svcui/internal/ui/base"
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
		opts = append(opts, components.Option(ansi.Truncate(label, optionWidth, "…"), c.CloudName))
		found = found || c.CloudName == current
	}
	if !found {
		opts = append([]huh.Option[string]{components.Option(current+" (current)", current)}, opts...)
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
		typeOpts = append(typeOpts, components.Option(ansi.Truncate(label, optionWidth, "…"), t.ServiceType))
	}
	cloudDesc := "the project's default cloud is preselected"
	if p.DefaultCloud == "" {
		cloudDesc = "the project has no default cloud"
	}
	api := a.ctx.API
	return components.NewForm(a.ctx, "Create service in "+p.Project+" (1/2)", func() tea.Cmd {
		t, c := typ, cloud
		return common.Working("Loading plans of "+t+" in "+c+"…", common.Fetch(a.req, kindPrepPlans, func(ctx context.Context) (planPrep, error) {
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
	Protect, KafkaConnect, KafkaRest             bool
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

// diskCheck checks a disk size typed in GB against the smallest the console knows the
// platform takes (the plan's size on create, the current size on edit: disk only
// grows); why says where that floor comes from. The spec states no maximum.
func diskCheck(minMB func() (int, string)) func(string) error {
	return func(s string) error {
		s = strings.TrimSpace(s)
		if s == "" {
			return nil
		}
		gb, err := strconv.Atoi(s)
		if err != nil || gb <= 0 {
			return fmt.Errorf("disk size must be a whole number of GB")
		}
		if floor, why := minMB(); gb*1024 < floor {
			return fmt.Errorf("disk must be at least %s GB: %s", diskGB(floor), why)
		}
		return nil
	}
}

// explainMB adds the form's unit to a platform message in megabytes: "81920 MB is
// 80 GB, 40960 MB is 40 GB".
func explainMB(msg string) string {
	var parts []string
	seen := map[int]bool{}
	for _, f := range strings.FieldsFunc(msg, func(r rune) bool { return r < '0' || r > '9' }) {
		mb, err := strconv.Atoi(f)
		if err != nil || mb < 1024 || seen[mb] {
			continue
		}
		seen[mb] = true
		parts = append(parts, fmt.Sprintf("%d MB is %s GB", mb, diskGB(mb)))
	}
	return strings.Join(parts, ", ")
}

// createDetailsForm is the second step: plan with prices, name, options, then a summary.
func (a *actions) createDetailsForm(pp planPrep) *components.Flow {
	v := &createValues{Plan: pp.Plans[0].PlanName}
	var planOpts []huh.Option[string]
	for _, p := range pp.Plans {
		label := fmt.Sprintf("%-18s %s · %s", p.PlanName, hourly(p), monthly(p))
		switch {
		case p.NodeCount == 1:
			label += " · 1 node"
		case p.NodeCount > 1:
			label += fmt.Sprintf(" · %d nodes", p.NodeCount)
		}
		planOpts = append(planOpts, components.Option(label, p.PlanName))
	}
	// The plan's own size is the smallest disk it takes (the plans endpoint's figure).
	plan := components.Share(&v.Plan) // the disk check reads it from huh's validation command
	planDisk := func() (int, string) {
		p, _ := planByName(pp.Plans, plan.Get())
		return int(p.DiskSpaceMB), "the size of plan " + p.PlanName
	}
	check := a.nameCheck(pp.Prep.Existing)
	diskOK := diskCheck(planDisk)
	name := huh.NewInput().Title(titleName).Description("3-63 characters: lowercase letters, digits, hyphens").Value(&v.Name).Validate(check)
	disk := huh.NewInput().Title(titleDiskCreate).DescriptionFunc(func() string {
		if mb, _ := planDisk(); mb > 0 {
			return "empty = the plan's " + diskGB(mb) + " GB; more costs more"
		}
		return "empty = the plan's size"
	}, &v.Plan).Value(&v.DiskGB).Validate(diskOK)
	vpc := huh.NewInput().Title("Project VPC id (optional)").Value(&v.VPC).Validate(models.ValidateVPCID)
	ipf := huh.NewInput().Title(titleIPFilterCreate).Description("comma-separated CIDRs, like 10.0.0.0/8, 192.168.1.0/24").Value(&v.IPFilter).Validate(optionalCIDRs)
	fields := []huh.Field{
		huh.NewSelect[string]().Title(titlePlan).Description("price per hour and per month (" + strconv.Itoa(models.HoursPerMonth) + " h)").Options(planOpts...).Height(6).Accessor(plan),
		name, disk,
		huh.NewConfirm().Title(titleProtection).Description("refuses delete and power off until removed").Value(&v.Protect),
		vpc,
	}
	switch pp.Type {
	case models.TypePG:
		fields = append(fields, huh.NewInput().Title(titlePGVersion).Description("pg_version, e.g. 16").Value(&v.PGVersion))
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
	// The review is the last step, so the cost is read before anything is sent.
	var fl *components.Flow
	form := components.NewForm(a.ctx, "Create "+typ+" in "+project+" (2/2)", func() tea.Cmd {
		req := build()
		plan, _ := planByName(pp.Plans, req.Plan)
		fl.Then(components.NewReview(a.ctx, "Create "+req.ServiceName, nil, func() tea.Cmd {
			return a.createService(project, req)
		}, nil).WithFacts(createFacts(req, plan)...))
		return nil
	}, huh.NewGroup(fields...))
	fl = components.NewFlow(form)
	form.Live(name, func() error {
		if v.Name == "" {
			return nil
		}
		return check(v.Name)
	}).Live(disk, func() error { return diskOK(v.DiskGB) }).
		Live(vpc, func() error { return models.ValidateVPCID(v.VPC) }).
		Live(ipf, func() error { return optionalCIDRs(v.IPFilter) }).
		// The first name a message mentions wins, so those that other messages quote
		// ("plan startup-4 takes …") come last.
		Names("disk_space_mb", titleDiskCreate, explainMB).
		Names("user_config.pg_version", titlePGVersion, nil).
		Names("user_config.ip_filter", titleIPFilterCreate, nil).
		Names("project_vpc_id", "Project VPC id", nil).
		Names("termination_protection", titleProtection, nil).
		Names("service_name", titleName, nil).
		Names("plan", titlePlan, nil)
	return fl
}

// Field titles the platform's refusals are tied to (Form.Names).
const (
	titleName           = "Name"
	titlePlan           = "Plan"
	titleCloud          = "Cloud"
	titleDiskCreate     = "Disk size in GB (optional)"
	titleDiskEdit       = "Disk size in GB"
	titlePower          = "Power"
	titleProtection     = "Termination protection"
	titleMaintenanceDay = "Maintenance day"
	titleMaintenance    = "Maintenance time (UTC)"
	titlePGVersion      = "PostgreSQL version (optional)"
	titleIPFilterCreate = "IP filter (optional)"
	titleIPFilterEdit   = "IP filter"
)

// createFacts is the create's review: what is created where, and what it costs.
func createFacts(req models.CreateServiceRequest, plan models.Plan) []components.Fact {
	disk := "the plan's size"
	if plan.DiskSpaceMB > 0 {
		disk = diskGB(int(plan.DiskSpaceMB)) + " GB, the plan's size"
	}
	if req.DiskSpaceMB > 0 {
		disk = diskGB(req.DiskSpaceMB) + " GB"
	}
	cost := "not listed for " + req.Plan
	if plan.PriceUSD.Set {
		cost = fmt.Sprintf("%s (%s × %d h), billed while it runs", monthly(plan), hourly(plan), models.HoursPerMonth)
	}
	if req.DiskSpaceMB > int(plan.DiskSpaceMB) && plan.DiskSpaceMB > 0 {
		cost += "; disk beyond the plan's is not priced by the platform"
	}
	facts := []components.Fact{
		{Label: "Name", Value: req.ServiceName},
		{Label: "Type", Value: string(req.ServiceType)},
		{Label: "Plan", Value: req.Plan},
		{Label: "Cloud", Value: req.Cloud},
		{Label: "Disk", Value: disk},
		{Label: "Monthly cost", Value: cost},
		{Label: "Termination protection", Value: onOff(req.TerminationProtection)},
	}
	if req.ProjectVPCID != "" {
		facts = append(facts, components.Fact{Label: "Project VPC", Value: req.ProjectVPCID})
	}
	keys := make([]string, 0, len(req.UserConfig))
	for k := range req.UserConfig {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		facts = append(facts, components.Fact{Label: k, Value: fmt.Sprint(req.UserConfig[k])})
	}
	return append(facts, components.Fact{Label: "Then", Value: "REBUILDING until its nodes are up, then RUNNING"})
}

// createService sends the create; an error's answer still names the service, so a
// refusal or a lost answer can be told apart from the others.
func (a *actions) createService(project string, req models.CreateServiceRequest) tea.Cmd {
	return base.SendWrite(a.ctx, a.req, &base.Write[models.Service]{Verb: base.Create, Noun: "service", Name: req.ServiceName, Form: refusable(a.create),
		Send: func(ctx context.Context, wr common.Writer) (models.Service, error) {
			s, err := wr.CreateService(ctx, project, req)
			if err != nil || s.ServiceName == "" {
				s.ServiceName, s.ServiceType, s.Plan, s.CloudName = req.ServiceName, req.ServiceType, req.Plan, req.Cloud
				s.State = models.StateRebuilding
			}
			return s, err
		},
		Find:    a.find(project, req.ServiceName),
		Refused: watchFailed(a.ctx, project, req.ServiceName, "creation"),
		Done: func(s models.Service) tea.Cmd {
			a.create = nil
			a.target.upsert(project, s)
			a.target.created(project, s.ServiceName)
			// No state in the sentence: it would stay on screen after the state moved on
			// ("REBUILDING" under a row that says RUNNING). The watch says when it runs.
			return tea.Batch(common.Success("Created "+s.ServiceName+"; watching it until it runs"),
				watchStart(project, s, "creation"))
		},
	})
}
