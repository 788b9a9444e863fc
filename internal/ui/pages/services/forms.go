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
func (a *actions) createDetailsForm(pp planPrep) *components.Form {
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
		return a.createService(project, build())
	}, huh.NewGroup(fields...), summary)
	return form.Live(name, func() error {
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

// createService sends the create; an error's answer still names the service, so a
// refusal or a lost answer can be told apart from the others.
func (a *actions) createService(project string, req models.CreateServiceRequest) tea.Cmd {
	api := a.ctx.API
	return tea.Batch(common.Info("Creating "+req.ServiceName+"…"), common.Fetch(a.req, "create", func(ctx context.Context) (changed, error) {
		s, err := api.CreateService(ctx, project, req)
		if err != nil || s.ServiceName == "" {
			s.ServiceName, s.ServiceType, s.Plan, s.CloudName = req.ServiceName, req.ServiceType, req.Plan, req.Cloud
			s.State = models.StateRebuilding
		}
		return changed{Project: project, Service: s, Created: true, Watch: "creation"}, err
	}))
}
