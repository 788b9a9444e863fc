package billing

import (
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/components"
)

// groupValues are bound to the create/edit form's fields (lists as typed text).
type groupValues struct {
	Name, Currency, Company, Emails, Address, City, State, Zip, Country, VAT string
}

func valuesOf(b models.BillingGroup) groupValues {
	return groupValues{
		Name: b.BillingGroupName, Currency: b.BillingCurrency, Company: b.Company,
		Emails: strings.Join(b.BillingEmail, ", "), Address: strings.Join(b.AddressLines, "\n"),
		City: b.City, State: b.State, Zip: b.ZipCode, Country: b.CountryCode, VAT: b.VATID,
	}
}

// groupField is one field of a billing group as the form shows it, the platform names
// it (in requests and refusals) and the review compares it.
type groupField struct {
	title, api string
	value      func(*groupValues) *string
	// norm is the value as sent and compared: trimmed, codes upper-cased, lists cleaned.
	norm func(string) string
	set  func(r *models.BillingGroupRequest, norm string)
}

func str(dst func(*models.BillingGroupRequest) **string) func(*models.BillingGroupRequest, string) {
	return func(r *models.BillingGroupRequest, s string) { *dst(r) = models.Ptr(s) }
}

func upper(s string) string { return strings.ToUpper(strings.TrimSpace(s)) }

// groupFields are in the form's order.
var groupFields = []groupField{
	{"Name", "billing_group_name", func(v *groupValues) *string { return &v.Name }, strings.TrimSpace,
		str(func(r *models.BillingGroupRequest) **string { return &r.BillingGroupName })},
	{"Currency", "billing_currency", func(v *groupValues) *string { return &v.Currency }, upper,
		str(func(r *models.BillingGroupRequest) **string { return &r.BillingCurrency })},
	{"Company", "company", func(v *groupValues) *string { return &v.Company }, strings.TrimSpace,
		str(func(r *models.BillingGroupRequest) **string { return &r.Company })},
	{"Billing e-mails", "billing_email", func(v *groupValues) *string { return &v.Emails },
		func(s string) string { return strings.Join(models.SplitList(s), ", ") },
		func(r *models.BillingGroupRequest, s string) {
			r.BillingEmail = models.Ptr(nonNil(models.SplitList(s)))
		}},
	{"Address lines", "address_lines", func(v *groupValues) *string { return &v.Address },
		func(s string) string { return strings.Join(addressLines(s), "\n") },
		func(r *models.BillingGroupRequest, s string) { r.AddressLines = models.Ptr(nonNil(addressLines(s))) }},
	{"City", "city", func(v *groupValues) *string { return &v.City }, strings.TrimSpace,
		str(func(r *models.BillingGroupRequest) **string { return &r.City })},
	{"State or province", "state", func(v *groupValues) *string { return &v.State }, strings.TrimSpace,
		str(func(r *models.BillingGroupRequest) **string { return &r.State })},
	{"ZIP code", "zip_code", func(v *groupValues) *string { return &v.Zip }, strings.TrimSpace,
		str(func(r *models.BillingGroupRequest) **string { return &r.ZipCode })},
	{"Country code", "country_code", func(v *groupValues) *string { return &v.Country }, upper,
		str(func(r *models.BillingGroupRequest) **string { return &r.CountryCode })},
	{"VAT id", "vat_id", func(v *groupValues) *string { return &v.VAT }, strings.TrimSpace,
		str(func(r *models.BillingGroupRequest) **string { return &r.VATID })},
}

func fieldTitled(title string) groupField {
	for _, f := range groupFields {
		if f.title == title {
			return f
		}
	}
	panic("billing: no group field titled " + title)
}

// request builds a create/update body; with orig set, only changed fields are sent.
func request(v groupValues, orig *groupValues) (models.BillingGroupRequest, bool) {
	var r models.BillingGroupRequest
	changed := false
	for _, f := range groupFields {
		now := f.norm(*f.value(&v))
		if orig != nil && now == f.norm(*f.value(orig)) || orig == nil && now == "" {
			continue
		}
		f.set(&r, now)
		changed = true
	}
	return r, changed
}

// groupChanges is the edit's review: each changed field old → new.
func groupChanges(orig, v groupValues) []components.Change {
	var out []components.Change
	for _, f := range groupFields {
		was, now := f.norm(*f.value(&orig)), f.norm(*f.value(&v))
		if was == now {
			continue
		}
		c := components.Change{Field: f.title, Old: oneLine(was), New: oneLine(now)}
		switch f.api {
		case "billing_currency":
			c.Warn, c.Note = true, "Invoices from now on are issued in "+now+"."
		case "billing_email":
			c.Note = "Invoices and billing notices go to these addresses."
		}
		out = append(out, c)
	}
	return out
}

func oneLine(s string) string { return strings.ReplaceAll(s, "\n", " / ") }

func addressLines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func optionalEmails(s string) error {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	return models.ValidateEmailList(s)
}

func countryCode(s string) error { return models.ValidateCountryCode(upper(s)) }

func currencyOptions(current string) []huh.Option[string] {
	opts := make([]huh.Option[string], 0, len(models.Currencies)+1)
	known := current == ""
	for _, c := range models.Currencies {
		opts = append(opts, components.Option(c, c))
		known = known || c == current
	}
	if !known {
		opts = append([]huh.Option[string]{components.Option(current+" (current)", current)}, opts...)
	}
	return opts
}

// groupForm builds the form shared by create and edit: every field of the spec,
// validated as typed (pure checks only), each tied to the name the platform's refusals
// use, so a refused form shows the message at its field.
func groupForm(ctx *common.Context, title string, v *groupValues, submit func() tea.Cmd) *components.Form {
	nameCheck := func() error {
		if v.Name == "" {
			return nil // nothing typed yet: no error before the first key
		}
		return models.ValidateBillingGroupName(v.Name)
	}
	if v.Currency == "" {
		v.Currency = models.Currencies[0]
	}
	input := func(title string) *huh.Input {
		f := fieldTitled(title)
		return huh.NewInput().Title(f.title).Value(f.value(v))
	}
	name := input("Name").Description("required").Validate(models.ValidateBillingGroupName)
	emails := input("Billing e-mails").Description("comma-separated").Validate(optionalEmails)
	country := input("Country code").Description("two letters, like FI or US").CharLimit(2).Validate(countryCode)
	first := huh.NewGroup(
		name,
		huh.NewSelect[string]().Title("Currency").Options(components.CurrentFirst(currencyOptions(v.Currency), v.Currency)...).Height(5).Value(&v.Currency).Validate(models.ValidateCurrency),
		input("Company"),
		emails,
	)
	second := huh.NewGroup(
		huh.NewText().Title("Address lines").Description("one per line (alt+enter for a new line)").Lines(3).Value(&v.Address),
		input("City"),
		input("State or province"),
		input("ZIP code"),
		country,
		input("VAT id").Description("may be empty"),
	)
	form := components.NewForm(ctx, title, submit, first, second).
		Live(name, nameCheck).
		Live(emails, func() error { return optionalEmails(v.Emails) }).
		Live(country, func() error { return countryCode(v.Country) })
	for _, f := range groupFields {
		form.Names(f.api, f.title, nil)
	}
	// A 409 names no field, but it is about the name: "Billing group X already exists".
	return form.Names("already exists", "Name", nil)
}
