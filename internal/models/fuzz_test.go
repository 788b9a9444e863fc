package models

import (
	"encoding/json"
	"testing"
)

// The decoders face whatever a platform (or a proxy in front of it) sends: none may panic.
func FuzzDecoders(f *testing.F) {
	for _, s := range []string{
		`{"service_name":"x","connection_info":{"pg":["postgres://u:p@h:1/d"]},"node_count":"2"}`,
		`{"connection_info":{"a":{"host":"h","port":"x"}}}`,
		`{"card_info":{"brand":1,"exp_month":{}}}`,
		`{"estimated_balance":1e999,"billing_emails":[1,{"email":2}]}`,
		`{"period_begin":"2026-13-45"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var s Service
		_ = json.Unmarshal(b, &s)
		_, _ = json.Marshal(s)
		_ = s.UserConfig.IPFilter()
		_ = s.UserConfig.PGVersion()
		var p Project
		_ = json.Unmarshal(b, &p)
		var bg BillingGroup
		if json.Unmarshal(b, &bg) == nil && bg.CardInfo != nil {
			_ = bg.CardInfo.Summary()
		}
		var inv Invoice
		if json.Unmarshal(b, &inv) == nil {
			_ = inv.Period()
			_ = inv.TotalIncVAT.Format(inv.Currency)
		}
		var ci ConnectionInfo
		_ = json.Unmarshal(b, &ci)
		var pl ProjectList
		_ = json.Unmarshal(b, &pl)
	})
}

func FuzzValidators(f *testing.F) {
	for _, s := range []string{"pg-main", "10.0.0.0/8", "a@b.io", "", "*", "monday"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		_ = ValidateProjectName(s)
		_ = ValidateServiceName(s)
		_ = ValidateUsername(s)
		_ = ValidateCountryCode(s)
		_ = ValidateEmail(s)
		_ = ValidateEmailList(s)
		_ = ValidateCIDR(s)
		_ = ValidateCIDRList(s)
		_ = ValidateACLTopic(s)
		_ = ValidateDatabaseName(s)
		_ = ValidateMaintenance(s, s)
		_ = MaskURI(s)
		_, _ = EndpointFromURI(s)
		if a, err := ParseAmount(s); err == nil {
			_ = a.FormatNumber()
		}
	})
}
