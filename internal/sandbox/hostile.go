package sandbox

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/svcui/svcui/internal/models"
)

// The hostile data set (Options.Data "hostile", `svcui sandbox --data hostile`) is the
// demo data plus platform text carrying terminal control sequences in every place the
// console shows text, as a hostile or broken server could answer it. It exists for the
// console's sanitizer tests: feed every view through it and assert that none of these
// texts reaches the terminal raw (HostileTexts lists each with where it appears).
//
// Covered: C0 controls (NUL, BS, TAB, LF, VT, FF, CR, SO, SI, BEL, ESC), DEL, C1 controls
// as UTF-8 (U+0080, U+0085 NEL, U+0090 DCS, U+009B CSI, U+009C ST, U+009D OSC), CSI
// sequences (clear screen, erase line, cursor moves, SGR, alternate screen, hide cursor,
// device status and attribute requests that make a terminal type a reply), OSC with BEL
// and with ST terminators (window title, clipboard write, hyperlink), DCS, and a charset
// designation. JSON cannot carry a raw C1 byte (0x80–0x9f outside UTF-8: the client's
// decoder turns it into U+FFFD), so C1 controls come as the UTF-8 of U+0080–U+009F,
// which encoding/json writes unescaped. Names the client sends are not involved: this is
// what comes back.
//
// The demo projects stay as they are (only the account name they carry changes); the
// hostile text lives in:
//   - the account (account_name of every project, credits currency),
//   - a billing group HostileGroupName with its card, address and invoices,
//   - project "hostile-lab" (admin for the admin token), in that group, with services
//     pg-hostile (users, databases, host, maintenance, user_config), kafka-hostile
//     (users, topics, ACLs) and a service whose name, type and state are hostile,
//   - project HostileProjectName, where both tokens have hostile roles (read only),
//   - an extra cloud region and service type in the catalogue,
//   - refusals: any create whose name begins with "evil" answers 400 HostileRefusal.
const (
	HostileAccountName     = "Acme\x1b[2J\x1b[H Corp"                                       // CSI erase display, cursor home
	HostileGroupName       = "Evil\x1b]0;pwned\x07"                                         // OSC window title, BEL
	HostileCompany         = "\x1b]52;c;aGk=\x07"                                           // OSC 52 clipboard write
	HostileCardName        = "J. Doe\x1b]8;;https://evil.example/\x1b\\click\x1b]8;;\x1b\\" // OSC 8 hyperlink, ST
	HostileCardBrand       = "Visa\u009b2J"                                                 // C1 CSI erase display
	HostileAddressLine1    = "1 Main St\r\x1b[Kforged"                                      // CR, CSI erase line
	HostileAddressLine2    = "\x1bP+q544e\x1b\\"                                            // DCS termcap request, ST
	HostileCity            = "Hel\bsinki\x7f"                                               // BS, DEL
	HostileState           = "\u009d0;title\u009c"                                          // C1 OSC, C1 ST
	HostileZip             = "00100\x00"                                                    // NUL
	HostileVATID           = "FI\x1b[6n"                                                    // CSI device status report (the terminal answers)
	HostileCountryCode     = "F\x1b(0I"                                                     // ESC ( 0: DEC line-drawing charset
	HostileBillingEmail    = "billing@evil.example\x1b[8m"                                  // SGR conceal
	HostileCurrency        = "EUR\x1b[5m"                                                   // SGR blink (group, its projects, invoices)
	HostileCreditCurrency  = "USD\x1b]0;credits\x1b\\"                                      // OSC title, ST
	HostilePaymentMethod   = "card\x1b[?25l"                                                // hide cursor
	HostileInvoiceNumber   = "INV-\x07\x1b[1A001"                                           // BEL, cursor up
	HostileInvoiceState    = "unpaid\x1b[2J"                                                // CSI erase display
	HostileInvoiceState2   = "paid\u0085\u0080"                                             // C1 NEL, U+0080
	HostileBillingAddress  = "\x1b[?1049h\nforged row"                                      // alternate screen, LF
	HostileTechEmail       = "ops@evil.example\u0090q\u009c"                                // C1 DCS, C1 ST
	HostileProjectName     = "evil\x1b]0;pwned\x07\x1b[2J-proj"                             // project name: OSC title, clear
	HostileRole            = "owner\x1b]0;role\x07"                                         // project_membership role
	HostileDevRole         = "developer\x1b[7m"                                             // project_membership role (developer token)
	HostileDefaultCloud    = "aws-eu-west-1\x1b[3J"                                         // erase scrollback
	HostileHost            = "db\x1b[2J.evil.example"                                       // service host
	HostileMaintenanceDOW  = "sunday\x1b[31m"                                               // SGR red
	HostileMaintenanceTime = "03:00:00\x07"                                                 // BEL
	HostilePGVersion       = "16\x1b[1m"                                                    // user_config.pg_version
	HostileIPFilter        = "10.0.0.0/8\x1b[2J"                                            // user_config.ip_filter entry
	HostileUser            = "evil\x1b[2Juser"                                              // service user name
	HostileUser2           = "\x1b]0;u\x07"                                                 // service user name
	HostileUser3           = "tab\tuser\x0b\x0c"                                            // TAB, VT, FF
	HostileUserType        = "regular\x1b[7m"                                               // service user type
	HostileDatabase        = "db\x1b]0;db\x07"                                              // database name
	HostileDatabase2       = "db\x0eSO\x0f\u009b2J"                                         // SO, SI, C1 CSI
	HostileTopic           = "orders\x1b]0;t\x07"                                           // topic name
	HostileTopicState      = "ACTIVE\u009b2J"                                               // topic state
	HostileACLUser         = "evil\x1b[2J"                                                  // ACL username
	HostileACLTopic        = "t\u009b2J"                                                    // ACL topic
	HostileACLPermission   = "read\x1b[5m"                                                  // ACL permission
	HostileServiceName     = "evil\x1b[2J-svc"                                              // service name
	HostileServiceType     = "quantum\x1b]0;type\x07"                                       // service type (and connection_info key)
	HostileServiceState    = "RUNNING\x1b[2J"                                               // service state
	HostileCloudName       = "evil-cloud-1"                                                 // catalogue: a plain name, so it can be chosen
	HostileCloudDesc       = "Nowhere\x1b]0;cloud\x07 \u009b2J"                             // cloud_description
	HostileGeoRegion       = "\x1b[2Jregion"                                                // geo_region
	HostileTypeDesc        = "Quantum\x1b[?1049h DB"                                        // service type description
	HostileTypeVersion     = "1\x1b[0c"                                                     // latest_available_version: device attributes request
	HostileRefusal         = "Invalid name\x1b[2J\x1b[H: \x1b]0;pwned\x07the platform refuses\b\u009b31m evil names"
)

// HostileText is one hostile text and where the hostile data set answers it.
type HostileText struct {
	Where string
	Text  string
}

// HostileTexts lists every text of the hostile data set, for tests that assert on each.
var HostileTexts = []HostileText{
	{"account_name of every project", HostileAccountName},
	{"billing group name", HostileGroupName},
	{"billing group company", HostileCompany},
	{"billing group card_info.name", HostileCardName},
	{"billing group card_info.brand", HostileCardBrand},
	{"billing group address_lines[0]", HostileAddressLine1},
	{"billing group address_lines[1]", HostileAddressLine2},
	{"billing group city", HostileCity},
	{"billing group state", HostileState},
	{"billing group zip_code", HostileZip},
	{"billing group vat_id (and its projects')", HostileVATID},
	{"billing group country_code (and its projects')", HostileCountryCode},
	{"billing group billing_email", HostileBillingEmail},
	{"billing_currency of the group, its projects, estimates; invoice currency", HostileCurrency},
	{"credits currency", HostileCreditCurrency},
	{"billing group payment_method (and its projects')", HostilePaymentMethod},
	{"invoice number", HostileInvoiceNumber},
	{"invoice state", HostileInvoiceState},
	{"invoice state", HostileInvoiceState2},
	{"hostile-lab billing_address", HostileBillingAddress},
	{"hostile-lab tech_emails", HostileTechEmail},
	{"project name (list, breadcrumb, hosts of its services)", HostileProjectName},
	{"admin token's role in the hostile-named project", HostileRole},
	{"developer token's role in the hostile-named project", HostileDevRole},
	{"hostile-named project default_cloud", HostileDefaultCloud},
	{"pg-hostile host (service_uri, params, connection_info)", HostileHost},
	{"pg-hostile maintenance.dow", HostileMaintenanceDOW},
	{"pg-hostile maintenance.time", HostileMaintenanceTime},
	{"pg-hostile user_config.pg_version", HostilePGVersion},
	{"pg-hostile user_config.ip_filter[0]", HostileIPFilter},
	{"pg-hostile and kafka-hostile user name", HostileUser},
	{"pg-hostile user name", HostileUser2},
	{"pg-hostile user name", HostileUser3},
	{"pg-hostile user type", HostileUserType},
	{"pg-hostile database", HostileDatabase},
	{"pg-hostile database", HostileDatabase2},
	{"kafka-hostile topic name", HostileTopic},
	{"kafka-hostile topic state", HostileTopicState},
	{"kafka-hostile ACL username", HostileACLUser},
	{"kafka-hostile ACL topic", HostileACLTopic},
	{"kafka-hostile ACL permission", HostileACLPermission},
	{"hostile-lab service name (list, estimate)", HostileServiceName},
	{"that service's type", HostileServiceType},
	{"that service's state", HostileServiceState},
	{"cloud region cloud_description", HostileCloudDesc},
	{"cloud region geo_region", HostileGeoRegion},
	{"service type description", HostileTypeDesc},
	{"service type latest_available_version", HostileTypeVersion},
	{"400 message of any create whose name begins with evil", HostileRefusal},
}

// hostileLab is the hostile data set's project with a plain name.
const hostileLab = "hostile-lab"

// buildHostile adds the hostile text to the demo data (see the comment above).
func (s *Sandbox) buildHostile(now time.Time) {
	s.buildDemo(now)
	s.st.Hostile = true
	s.st.AccountName = HostileAccountName
	s.st.Credits.Currency = HostileCreditCurrency
	day := 24 * time.Hour

	g := &billingGroup{Group: models.BillingGroup{
		BillingGroupID:   s.newUUID(),
		BillingGroupName: HostileGroupName,
		AccountID:        s.st.AccountID,
		BillingCurrency:  HostileCurrency,
		BillingEmail:     models.EmailList{HostileBillingEmail},
		Company:          HostileCompany,
		AddressLines:     []string{HostileAddressLine1, HostileAddressLine2},
		City:             HostileCity,
		State:            HostileState,
		CountryCode:      HostileCountryCode,
		ZipCode:          HostileZip,
		VATID:            HostileVATID,
		PaymentMethod:    models.PaymentMethod(HostilePaymentMethod),
		CardInfo:         &models.CardInfo{Brand: HostileCardBrand, Last4: "6666", ExpMonth: 1, ExpYear: now.Year() + 1, Name: HostileCardName},
	}}
	g.Invoices = s.demoInvoices(now, "EVL", HostileCurrency, "666.00", "0", map[int]models.InvoiceState{0: models.InvoiceUnpaid})
	g.Invoices[0].Invoice.State = HostileInvoiceState
	g.Invoices[1].Invoice.State = HostileInvoiceState2
	g.Invoices[2].Invoice.InvoiceNumber = HostileInvoiceNumber
	s.st.Groups[g.Group.BillingGroupID] = g

	lab := s.addProject(hostileLab, "aws-eu-west-1", g.Group.BillingGroupID, models.RoleAdmin)
	lab.BillingAddress = HostileBillingAddress
	lab.TechEmails = []string{HostileTechEmail}

	pg := s.demoService(lab, "pg-hostile", models.TypePG, "startup-4", "aws-eu-west-1", now, 30*day)
	pg.Host = HostileHost
	pg.Maintenance = models.Maintenance{DOW: HostileMaintenanceDOW, Time: HostileMaintenanceTime}
	pg.UserConfig = map[string]any{models.UCPGVersion: HostilePGVersion, models.UCIPFilter: []any{HostileIPFilter}}
	for _, u := range []string{HostileUser, HostileUser2, HostileUser3} {
		s.demoUser(pg, u, "")
	}
	pg.Users[len(pg.Users)-1].Type = models.UserType(HostileUserType)
	pg.Databases = append(pg.Databases, HostileDatabase, HostileDatabase2)

	kafka := s.demoService(lab, "kafka-hostile", models.TypeKafka, "startup-4", "aws-eu-west-1", now, 20*day)
	s.demoUser(kafka, HostileUser, "")
	kafka.Topics = []*topic{{Name: HostileTopic, Partitions: 3, Replication: 2, Created: now.Add(-day), State: HostileTopicState}}
	kafka.ACLs = []models.ACL{{ID: s.newACLID(), Username: HostileACLUser, Topic: HostileACLTopic, Permission: models.ACLPermission(HostileACLPermission)}}

	odd := s.demoService(lab, HostileServiceName, models.TypeGrafana, "startup-4", "aws-eu-west-1", now, 10*day)
	odd.Type, odd.Phase = HostileServiceType, models.ServiceState(HostileServiceState)

	evil := s.addProject(HostileProjectName, HostileDefaultCloud, g.Group.BillingGroupID, models.Role(HostileRole))
	evil.Members[principalDeveloper] = models.Role(HostileDevRole)
	s.demoService(evil, "grafana-evil", models.TypeGrafana, "hobbyist", "aws-eu-west-1", now, 5*day)
}

// catalogueClouds is the regions answered: the catalogue's, and a hostile one in the
// hostile data set.
func (s *Sandbox) catalogueClouds() []models.Cloud {
	if !s.st.Hostile {
		return clouds
	}
	return append(append([]models.Cloud{}, clouds...), models.Cloud{
		CloudName: HostileCloudName, CloudDescription: HostileCloudDesc, GeoLatitude: 0, GeoLongitude: 0, GeoRegion: HostileGeoRegion,
	})
}

// catalogueServiceTypes is the service types answered, likewise.
func (s *Sandbox) catalogueServiceTypes() []models.ServiceType {
	if !s.st.Hostile {
		return serviceTypes
	}
	return append(append([]models.ServiceType{}, serviceTypes...), models.ServiceType{
		ServiceType: "quantum", Description: HostileTypeDesc, LatestAvailableVersion: HostileTypeVersion,
	})
}

// hostileNameFields are the fields that name what a POST creates.
var hostileNameFields = []string{"project", "service_name", "username", "database", "topic_name", "billing_group_name"}

// hostileRefusal refuses, in the hostile data set, a create whose name begins with
// "evil", with a message full of control sequences.
func (s *Sandbox) hostileRefusal(method string, body []byte) error {
	if !s.st.Hostile || method != "POST" || len(body) == 0 {
		return nil
	}
	var fields map[string]any
	if json.Unmarshal(body, &fields) != nil {
		return nil
	}
	for _, f := range hostileNameFields {
		if name, ok := fields[f].(string); ok && strings.HasPrefix(name, "evil") {
			return badRequest("%s", HostileRefusal)
		}
	}
	return nil
}
