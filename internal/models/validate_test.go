package models

import (
	"strings"
	"testing"
)

func TestValidators(t *testing.T) {
	cases := []struct {
		name  string
		err   error
		wantS string // "" means valid
	}{
		{"project ok", ValidateProjectName("prod-eu-1"), ""},
		{"project short", ValidateProjectName("ab"), "at least 3"},
		{"project long", ValidateProjectName(strings.Repeat("a", 64)), "at most 63"},
		{"project upper", ValidateProjectName("Prod"), "lowercase"},
		{"service ok", ValidateServiceName("pg-main"), ""},
		{"service digit start", ValidateServiceName("1pg"), "start with a letter"},
		{"service underscore", ValidateServiceName("pg_main"), "lowercase letters"},
		{"user ok", ValidateUsername("app_user1"), ""},
		{"user dash", ValidateUsername("app-user"), "letters, digits and underscores"},
		{"user short", ValidateUsername("ab"), "at least 3"},
		{"country ok", ValidateCountryCode("FI"), ""},
		{"country bad", ValidateCountryCode("FIN"), "two letters"},
		{"email ok", ValidateEmail("ops@example.com"), ""},
		{"email bad", ValidateEmail("ops@"), "not an e-mail"},
		{"email name form", ValidateEmail("Ops <ops@example.com>"), "not an e-mail"},
		{"emails list", ValidateEmailList("a@x.io, b@y.io"), ""},
		{"emails list bad", ValidateEmailList("a@x.io, nope"), "nope"},
		{"cidr ok", ValidateCIDR("10.0.0.0/8"), ""},
		{"cidr v6", ValidateCIDR("2001:db8::/32"), ""},
		{"cidr host", ValidateCIDR("203.0.113.7"), ""},
		{"cidr host bits", ValidateCIDR("10.0.0.1/8"), "did you mean 10.0.0.0/8"},
		{"cidr junk", ValidateCIDR("10.0.0.0/33"), "CIDR"},
		{"disk grow", ValidateDiskIncrease(81920, 102400), ""},
		{"disk shrink", ValidateDiskIncrease(81920, 40960), "only increase: it is 81920 MB now"},
		{"bg name", ValidateBillingGroupName(" "), "required"},
		{"currency", ValidateCurrency("XYZ"), "currency must be one of"},
		{"topic ok", ValidateTopicName("orders.v1"), ""},
		{"topic bad", ValidateTopicName("orders v1"), "only letters"},
		{"acl all", ValidateACLTopic("*"), ""},
		{"acl pattern", ValidateACLTopic("logs-*"), ""},
		{"acl perm", ValidateACLPermission("own"), "read, write"},
		{"db ok", ValidateDatabaseName("analytics"), ""},
		{"db bad", ValidateDatabaseName("9lives"), "start with a letter"},
		{"maint ok", ValidateMaintenance("sunday", "03:00"), ""},
		{"maint day", ValidateMaintenance("funday", "03:00"), "weekday"},
		{"maint time", ValidateMaintenance("monday", "25:00"), "HH:MM"},
	}
	for _, c := range cases {
		if c.wantS == "" {
			if c.err != nil {
				t.Errorf("%s: unexpected error %v", c.name, c.err)
			}
			continue
		}
		if c.err == nil || !strings.Contains(c.err.Error(), c.wantS) {
			t.Errorf("%s: error %v, want it to contain %q", c.name, c.err, c.wantS)
		}
	}
}

func TestSplitList(t *testing.T) {
	got := SplitList(" a@x.io,b@y.io ;\n c@z.io ,, ")
	if strings.Join(got, "|") != "a@x.io|b@y.io|c@z.io" {
		t.Fatal(got)
	}
}
