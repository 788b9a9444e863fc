package sandbox

import (
	"bytes"
	"fmt"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/svcui/svcui/internal/models"
)

// endpoint is where a service is reached: its synthetic host, or the loopback search
// listener for an opensearch service served by this sandbox.
func (s *Sandbox) endpoint(p *project, sv *service) (string, int) {
	if sv.Type == models.TypeOpenSearch && sv.Search && s.opts.Search {
		if port := s.search.port(searchKey(p.Name, sv.Name)); port > 0 {
			return "127.0.0.1", port
		}
		if sv.SearchPort > 0 {
			return "127.0.0.1", sv.SearchPort
		}
	}
	return sv.Host, sv.Port
}

func defaultDatabase(serviceType string) string {
	if models.HasDatabases(serviceType) {
		return "defaultdb"
	}
	return ""
}

// serviceURI builds the connection URI of a service type; it carries the password.
func serviceURI(serviceType, user, password, host string, port int, db string) string {
	u := url.URL{User: url.UserPassword(user, password), Host: host + ":" + strconv.Itoa(port)}
	switch serviceType {
	case models.TypePG:
		u.Scheme, u.Path, u.RawQuery = "postgres", "/"+db, "sslmode=require"
	case models.TypeMySQL:
		u.Scheme, u.Path, u.RawQuery = "mysql", "/"+db, "ssl-mode=REQUIRED"
	case models.TypeKafka:
		u.Scheme = "kafka+ssl"
	case models.TypeCaching:
		u.Scheme = "rediss"
	default:
		u.Scheme = "https"
	}
	return u.String()
}

func copyConfig(m map[string]any) models.UserConfig {
	out := models.UserConfig{}
	for k, v := range m {
		if l, ok := v.([]any); ok {
			v = append([]any(nil), l...)
		}
		out[k] = v
	}
	return out
}

func (s *Sandbox) renderService(p *project, sv *service, now time.Time, detail bool) models.Service {
	cd := s.connection(p, sv)
	params := map[string]string{
		"host": cd.host, "port": strconv.Itoa(cd.port), "user": cd.user, "password": cd.password,
	}
	if cd.dbname != "" {
		params["dbname"] = cd.dbname
	}
	if cd.sslmode != "" {
		params["sslmode"] = cd.sslmode
	}
	if sv.Type == models.TypeOpenSearch {
		params["dashboards_uri"] = "https://" + sv.Host + ":443"
	}
	m := sv.Maintenance
	out := models.Service{
		ServiceName:           sv.Name,
		ServiceType:           sv.Type,
		State:                 sv.state(now),
		CloudName:             sv.Cloud,
		Plan:                  sv.Plan,
		ServiceURI:            cd.uri,
		ServiceURIParams:      params,
		CreateTime:            sv.CreateTime,
		UpdateTime:            sv.updateTime(now),
		NodeCount:             sv.NodeCount,
		DiskSpaceMB:           sv.DiskMB,
		TerminationProtection: sv.Protected,
		ProjectVPCID:          sv.VPCID,
		Maintenance:           &m,
		UserConfig:            copyConfig(sv.UserConfig),
	}
	if detail {
		out.ConnectionInfo = models.ConnectionInfoMap{sv.Type: {{
			Host: cd.host, Port: models.FlexInt(cd.port), DBName: cd.dbname, User: cd.user,
		}}}
	}
	return out
}

func (s *Sandbox) listServices(c *call) (any, error) {
	p, err := c.project(c.param("project"), accessRead, "list services")
	if err != nil {
		return nil, err
	}
	// Each service is encoded by its own MarshalJSON and the list assembled here:
	// encoding/json would otherwise re-scan every byte a MarshalJSON returns, which
	// costs a third of a list request.
	buf := bytes.NewBufferString(`{"services":[`)
	for i, sv := range p.sortedServices() {
		b, err := s.renderService(p, sv, c.now, false).MarshalJSON()
		if err != nil {
			return nil, err
		}
		if i > 0 {
			buf.WriteByte(',')
		}
		buf.Write(b)
	}
	buf.WriteString("]}")
	return rawJSON(buf.Bytes()), nil
}

func (s *Sandbox) getService(c *call) (any, error) {
	p, sv, err := c.service(accessRead, "read services")
	if err != nil {
		return nil, err
	}
	return map[string]any{"service": s.renderService(p, sv, c.now, true)}, nil
}

// validateUserConfig checks the user_config keys the spec names, per service type; any
// other key is refused, like a schema would.
func validateUserConfig(serviceType string, uc map[string]any) error {
	keys := make([]string, 0, len(uc))
	for k := range uc {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := uc[k]
		if v == nil {
			continue // null removes a setting on update
		}
		field := "user_config." + k
		switch k {
		case models.UCIPFilter:
			list, ok := v.([]any)
			if !ok {
				return badRequest("Field %q must be an array of CIDR strings", field)
			}
			for i, e := range list {
				entry, ok := e.(string)
				if obj, isObj := e.(map[string]any); isObj {
					entry, ok = obj["network"].(string)
				}
				if !ok {
					return badRequest("Field %s[%d] must be a CIDR string like 10.0.0.0/8", field, i)
				}
				if err := models.ValidateCIDR(entry); err != nil {
					return fieldError(field, err)
				}
			}
		case models.UCPGVersion:
			if serviceType != models.TypePG {
				return badRequest("Invalid %s: pg_version is a setting of pg services, not of %s services", field, serviceType)
			}
			ver, ok := v.(string)
			if !ok {
				return badRequest("Field %q must be a string like \"16\"", field)
			}
			switch ver {
			case "13", "14", "15", "16", "17":
			default:
				return badRequest("Invalid %s: %q is not a supported PostgreSQL version (13 to 17)", field, ver)
			}
		case models.UCKafkaConnect, models.UCKafkaRest:
			if serviceType != models.TypeKafka {
				return badRequest("Invalid %s: %s is a setting of kafka services, not of %s services", field, k, serviceType)
			}
			if _, ok := v.(bool); !ok {
				return badRequest("Field %q must be a boolean", field)
			}
		default:
			return badRequest("Unknown field %q: %s services have no such setting (known: ip_filter%s)", field, serviceType, extraKeys(serviceType))
		}
	}
	return nil
}

func extraKeys(serviceType string) string {
	switch serviceType {
	case models.TypePG:
		return ", pg_version"
	case models.TypeKafka:
		return ", kafka_connect, kafka_rest"
	}
	return ""
}

func planNames(serviceType string) string {
	var names []string
	for _, d := range planDefs {
		if typeOffersPlan(serviceType, d) {
			names = append(names, d.Name)
		}
	}
	return strings.Join(names, ", ")
}

func (s *Sandbox) createService(c *call) (any, error) {
	var req models.CreateServiceRequest
	if err := c.decode(&req, "service_name", "service_type", "plan", "cloud"); err != nil {
		return nil, err
	}
	p, err := c.project(c.param("project"), accessAdmin, "create services")
	if err != nil {
		return nil, err
	}
	if err := models.ValidateServiceName(req.ServiceName); err != nil {
		return nil, fieldError("service_name", err)
	}
	if !knownServiceType(req.ServiceType) {
		return nil, badRequest("Invalid service_type: %q is not a service type; see GET /v1/service_types", req.ServiceType)
	}
	plan, ok := findPlan(req.ServiceType, req.Plan)
	if !ok {
		return nil, badRequest("Invalid plan: %q is not a plan of %s services (plans: %s)", req.Plan, req.ServiceType, planNames(req.ServiceType))
	}
	if !knownCloud(req.Cloud) {
		return nil, badRequest("Invalid cloud: %q is not a cloud region; see GET /v1/clouds", req.Cloud)
	}
	if !planAvailable(req.ServiceType, plan, req.Cloud) {
		return nil, badRequest("Invalid plan: %s is not offered in %s", req.Plan, req.Cloud)
	}
	disk := plan.DiskMB
	if req.DiskSpaceMB != 0 {
		if req.DiskSpaceMB < plan.DiskMB || req.DiskSpaceMB > plan.DiskMB*10 {
			return nil, badRequest("Invalid disk_space_mb: plan %s takes %d to %d MB, not %d", plan.Name, plan.DiskMB, plan.DiskMB*10, req.DiskSpaceMB)
		}
		disk = req.DiskSpaceMB
	}
	if err := models.ValidateVPCID(req.ProjectVPCID); err != nil {
		return nil, fieldError("project_vpc_id", err)
	}
	if err := validateUserConfig(req.ServiceType, req.UserConfig); err != nil {
		return nil, err
	}
	if p.Services[req.ServiceName] != nil {
		return nil, conflict("Service %s already exists in project %s", req.ServiceName, p.Name)
	}
	sv := s.newService(p, req.ServiceName, req.ServiceType, plan, req.Cloud, c.now)
	sv.DiskMB = disk
	sv.Protected = req.TerminationProtection
	sv.VPCID = req.ProjectVPCID
	for k, v := range req.UserConfig {
		if v != nil {
			sv.UserConfig[k] = v
		}
	}
	s.startTransition(sv, models.StateRebuilding, c.now)
	p.Services[sv.Name] = sv
	s.startSearch(p, sv)
	return map[string]any{"service": s.renderService(p, sv, c.now, true)}, nil
}

// newService builds a service with its primary user, default database and maintenance
// window. Callers hold the write lock (it draws from the generator).
func (s *Sandbox) newService(p *project, name, serviceType string, plan planDef, cloud string, now time.Time) *service {
	sv := &service{
		Name:       name,
		Type:       serviceType,
		Plan:       plan.Name,
		Cloud:      cloud,
		DiskMB:     plan.DiskMB,
		NodeCount:  nodeCount(serviceType, plan),
		CreateTime: now,
		UpdateTime: now,
		Phase:      models.StateRunning,
		Host:       name + "-" + p.Name + ".svc.sandbox.test",
		Port:       defaultPort(serviceType),
		UserConfig: map[string]any{},
		Maintenance: models.Maintenance{
			DOW:  models.Weekdays[s.rng.IntN(7)],
			Time: fmt.Sprintf("%02d:%02d:00", s.rng.IntN(24), s.rng.IntN(4)*15),
		},
		Users:  []*serviceUser{{Username: "avnadmin", Type: models.UserPrimary, Password: s.newPassword()}},
		Search: serviceType == models.TypeOpenSearch,
	}
	if db := defaultDatabase(serviceType); db != "" {
		sv.Databases = []string{db}
	}
	return sv
}

const passwordAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

// newPassword returns a password shaped like the platform's: AVNS_ and 20 characters.
// Callers hold the write lock.
func (s *Sandbox) newPassword() string {
	b := make([]byte, 25)
	copy(b, "AVNS_")
	for i := 5; i < len(b); i++ {
		b[i] = passwordAlphabet[s.rng.IntN(len(passwordAlphabet))]
	}
	return string(b)
}

func (s *Sandbox) updateService(c *call) (any, error) {
	var req models.UpdateServiceRequest
	if err := c.decode(&req); err != nil {
		return nil, err
	}
	p, sv, err := c.service(accessAdmin, "change services")
	if err != nil {
		return nil, err
	}
	sv.settle(c.now)

	// Validate the whole request first, so a refusal changes nothing.
	cloud := sv.Cloud
	if req.Cloud != nil {
		if !knownCloud(*req.Cloud) {
			return nil, badRequest("Invalid cloud: %q is not a cloud region; see GET /v1/clouds", *req.Cloud)
		}
		cloud = *req.Cloud
	}
	planName := sv.Plan
	if req.Plan != nil {
		planName = *req.Plan
	}
	plan, ok := findPlan(sv.Type, planName)
	if !ok {
		return nil, badRequest("Invalid plan: %q is not a plan of %s services (plans: %s)", planName, sv.Type, planNames(sv.Type))
	}
	if !planAvailable(sv.Type, plan, cloud) {
		return nil, badRequest("Invalid plan: %s is not offered in %s", plan.Name, cloud)
	}
	if req.DiskSpaceMB != nil {
		if err := models.ValidateDiskIncrease(sv.DiskMB, *req.DiskSpaceMB); err != nil {
			return nil, fieldError("disk_space_mb", err)
		}
	}
	protected := sv.Protected
	if req.TerminationProtection != nil {
		protected = *req.TerminationProtection
	}
	if req.Powered != nil && !*req.Powered && sv.Phase != models.StatePowerOff && protected {
		return nil, forbidden("Service is protected against termination and shutdown. Remove termination protection first.")
	}
	if req.Maintenance != nil {
		if err := models.ValidateMaintenance(req.Maintenance.DOW, req.Maintenance.Time); err != nil {
			return nil, fieldError("maintenance", err)
		}
	}
	if req.UserConfig != nil {
		if err := validateUserConfig(sv.Type, req.UserConfig); err != nil {
			return nil, err
		}
	}

	changed := false
	if req.TerminationProtection != nil && *req.TerminationProtection != sv.Protected {
		sv.Protected = *req.TerminationProtection
		changed = true
	}
	if req.DiskSpaceMB != nil && *req.DiskSpaceMB != sv.DiskMB {
		sv.DiskMB = *req.DiskSpaceMB
		changed = true
	}
	if req.Maintenance != nil {
		if req.Maintenance.DOW != "" {
			sv.Maintenance.DOW = strings.ToLower(req.Maintenance.DOW)
		}
		if req.Maintenance.Time != "" {
			sv.Maintenance.Time = models.NormalizeMaintenanceTime(req.Maintenance.Time)
		}
		changed = true
	}
	for k, v := range req.UserConfig {
		if v == nil {
			delete(sv.UserConfig, k)
		} else {
			sv.UserConfig[k] = v
		}
		changed = true
	}
	moved := false
	if plan.Name != sv.Plan {
		sv.Plan = plan.Name
		sv.NodeCount = nodeCount(sv.Type, plan)
		if sv.DiskMB < plan.DiskMB {
			sv.DiskMB = plan.DiskMB
		}
		moved = true
	}
	if cloud != sv.Cloud {
		sv.Cloud = cloud
		moved = true
	}
	if changed || moved {
		sv.UpdateTime = c.now
	}
	if req.Powered != nil {
		switch {
		case !*req.Powered && sv.Phase != models.StatePowerOff:
			s.powerOff(p, sv, c.now)
		case *req.Powered && sv.Phase == models.StatePowerOff:
			s.powerOn(p, sv, c.now)
			moved = false // the rebuild covers the plan or cloud change
		}
	}
	if moved && sv.Phase != models.StatePowerOff {
		s.startTransition(sv, models.StateRebalancing, c.now)
	}
	return map[string]any{"service": s.renderService(p, sv, c.now, true)}, nil
}

func (s *Sandbox) deleteService(c *call) (any, error) {
	p, sv, err := c.service(accessAdmin, "delete services")
	if err != nil {
		return nil, err
	}
	if sv.Protected {
		return nil, forbidden("Service is protected against termination and shutdown. Remove termination protection first.")
	}
	delete(p.Services, sv.Name)
	s.search.remove(searchKey(p.Name, sv.Name))
	return emptyBody{}, nil
}
