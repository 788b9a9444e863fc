package models

import (
	"fmt"
	"net"
	"net/mail"
	"regexp"
	"strings"
)

// Validation functions return nil or an error whose message is a sentence a person can act
// on; forms call them as the user types and the sandbox uses the same rules.

var (
	projectNameRE  = regexp.MustCompile(`^[a-z0-9-]+$`)
	usernameRE     = regexp.MustCompile(`^[A-Za-z0-9_]+$`)
	countryCodeRE  = regexp.MustCompile(`^[A-Za-z]{2}$`)
	topicNameRE    = regexp.MustCompile(`^[A-Za-z0-9._-]+$`)
	databaseNameRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_$-]*$`)
	maintTimeRE    = regexp.MustCompile(`^([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9])?$`)
	vpcIDRE        = regexp.MustCompile(`^[A-Za-z0-9-]+$`)
)

func lengthError(field string, n, min, max int) error {
	if n < min {
		return fmt.Errorf("%s must be at least %d characters (it has %d)", field, min, n)
	}
	if n > max {
		return fmt.Errorf("%s must be at most %d characters (it has %d)", field, max, n)
	}
	return nil
}

// ValidateProjectName: 3-63 characters, lowercase letters, digits and hyphens.
func ValidateProjectName(s string) error {
	if err := lengthError("project name", len(s), 3, 63); err != nil {
		return err
	}
	if !projectNameRE.MatchString(s) {
		return fmt.Errorf("project name may contain only lowercase letters, digits and hyphens")
	}
	return nil
}

// ValidateServiceName: 3-63 characters. The spec gives no charset; the platform's
// convention (lowercase letters, digits, hyphens, starting with a letter) is enforced so
// that the name is usable in host names.
func ValidateServiceName(s string) error {
	if err := lengthError("service name", len(s), 3, 63); err != nil {
		return err
	}
	if !projectNameRE.MatchString(s) {
		return fmt.Errorf("service name may contain only lowercase letters, digits and hyphens")
	}
	if s[0] < 'a' || s[0] > 'z' {
		return fmt.Errorf("service name must start with a letter")
	}
	if strings.HasSuffix(s, "-") {
		return fmt.Errorf("service name must not end with a hyphen")
	}
	return nil
}

// ValidateUsername: 3-63 characters, letters, digits and underscores.
func ValidateUsername(s string) error {
	if err := lengthError("username", len(s), 3, 63); err != nil {
		return err
	}
	if !usernameRE.MatchString(s) {
		return fmt.Errorf("username may contain only letters, digits and underscores")
	}
	return nil
}

// ValidateCountryCode: two letters (ISO 3166-1 alpha-2); empty is allowed (optional field).
func ValidateCountryCode(s string) error {
	if s == "" {
		return nil
	}
	if !countryCodeRE.MatchString(s) {
		return fmt.Errorf("country code must be two letters, like FI or US")
	}
	return nil
}

// ValidateEmail checks one e-mail address.
func ValidateEmail(s string) error {
	s = strings.TrimSpace(s)
	if s == "" {
		return fmt.Errorf("e-mail address is empty")
	}
	a, err := mail.ParseAddress(s)
	if err != nil || a.Address != s || !strings.Contains(s[strings.LastIndexByte(s, '@')+1:], ".") {
		return fmt.Errorf("%q is not an e-mail address", s)
	}
	return nil
}

// SplitList splits a comma- or space-separated list typed in a form, dropping empties.
func SplitList(s string) []string {
	f := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\n' || r == '\t' || r == ';' })
	out := make([]string, 0, len(f))
	for _, x := range f {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}

// ValidateEmailList checks a comma-separated list of addresses (empty is allowed).
func ValidateEmailList(s string) error {
	for _, e := range SplitList(s) {
		if err := ValidateEmail(e); err != nil {
			return err
		}
	}
	return nil
}

// ValidateCIDR checks one IP filter entry: an IPv4 or IPv6 network in CIDR form, or a
// single address (which the platform treats as /32 or /128).
func ValidateCIDR(s string) error {
	s = strings.TrimSpace(s)
	if s == "" {
		return fmt.Errorf("IP filter entry is empty")
	}
	if strings.Contains(s, "/") {
		ip, n, err := net.ParseCIDR(s)
		if err != nil {
			return fmt.Errorf("%q is not a network in CIDR form, like 10.0.0.0/8", s)
		}
		if !ip.Equal(n.IP) {
			return fmt.Errorf("%q has host bits set; did you mean %s?", s, n.String())
		}
		return nil
	}
	if net.ParseIP(s) == nil {
		return fmt.Errorf("%q is not an IP address or a network like 10.0.0.0/8", s)
	}
	return nil
}

// ValidateCIDRList checks a comma-separated list of IP filter entries.
func ValidateCIDRList(s string) error {
	for _, e := range SplitList(s) {
		if err := ValidateCIDR(e); err != nil {
			return err
		}
	}
	return nil
}

// ValidateDiskIncrease checks that a new disk size only increases the current one.
func ValidateDiskIncrease(currentMB, newMB int) error {
	if newMB <= 0 {
		return fmt.Errorf("disk size must be a positive number of megabytes")
	}
	if newMB < currentMB {
		return fmt.Errorf("disk size can only increase: it is %d MB now, %d MB is smaller", currentMB, newMB)
	}
	return nil
}

// ValidateBillingGroupName: required, at most 128 characters.
func ValidateBillingGroupName(s string) error {
	if strings.TrimSpace(s) == "" {
		return fmt.Errorf("billing group name is required")
	}
	if len(s) > 128 {
		return fmt.Errorf("billing group name must be at most 128 characters")
	}
	return nil
}

// ValidateCurrency checks a currency code against the offered list.
func ValidateCurrency(s string) error {
	if s == "" {
		return nil
	}
	for _, c := range Currencies {
		if s == c {
			return nil
		}
	}
	return fmt.Errorf("currency must be one of %s", strings.Join(Currencies, ", "))
}

// ValidateTopicName: 1-249 characters of letters, digits, '.', '_' and '-' (Kafka's rule).
func ValidateTopicName(s string) error {
	if err := lengthError("topic name", len(s), 1, 249); err != nil {
		return err
	}
	if s == "." || s == ".." {
		return fmt.Errorf("topic name cannot be %q", s)
	}
	if !topicNameRE.MatchString(s) {
		return fmt.Errorf("topic name may contain only letters, digits, '.', '_' and '-'")
	}
	return nil
}

// ValidateACLTopic accepts a topic name, "*" (all topics), or a pattern with '*'.
func ValidateACLTopic(s string) error {
	if s == "*" {
		return nil
	}
	if s == "" {
		return fmt.Errorf("topic is required: a name, a pattern like logs-*, or * for all topics")
	}
	return ValidateTopicName(strings.ReplaceAll(s, "*", "x"))
}

// ValidateACLPermission checks a permission.
func ValidateACLPermission(p string) error {
	if ACLPermission(p).Known() {
		return nil
	}
	return fmt.Errorf("permission must be read, write, readwrite or admin")
}

// ValidateDatabaseName: 1-63 characters, starting with a letter or underscore.
func ValidateDatabaseName(s string) error {
	if err := lengthError("database name", len(s), 1, 63); err != nil {
		return err
	}
	if !databaseNameRE.MatchString(s) {
		return fmt.Errorf("database name must start with a letter or underscore and contain only letters, digits, '_', '$' and '-'")
	}
	return nil
}

// ValidatePartitions and ValidateReplication check topic sizes.
func ValidatePartitions(n int) error {
	if n < 1 || n > 1000 {
		return fmt.Errorf("partitions must be between 1 and 1000")
	}
	return nil
}

// ValidateReplication checks a topic's replication factor.
func ValidateReplication(n int) error {
	if n < 1 || n > 10 {
		return fmt.Errorf("replication must be between 1 and 10")
	}
	return nil
}

// Weekdays are the maintenance days in order.
var Weekdays = []string{"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"}

// ValidateMaintenance checks a maintenance window: dow a weekday name (or "never"), time
// HH:MM or HH:MM:SS in UTC.
func ValidateMaintenance(dow, t string) error {
	if dow != "" && dow != "never" {
		ok := false
		for _, d := range Weekdays {
			if strings.EqualFold(dow, d) {
				ok = true
			}
		}
		if !ok {
			return fmt.Errorf("maintenance day must be a weekday name like monday")
		}
	}
	if t != "" && !maintTimeRE.MatchString(t) {
		return fmt.Errorf("maintenance time must be HH:MM or HH:MM:SS in UTC, like 03:00")
	}
	return nil
}

// NormalizeMaintenanceTime turns HH:MM into HH:MM:SS.
func NormalizeMaintenanceTime(t string) string {
	if len(t) == 5 {
		return t + ":00"
	}
	return t
}

// ShortMaintenanceTime is the inverse for people: HH:MM:SS as HH:MM, as forms ask for
// it, unless it has seconds, which are kept so nothing is lost.
func ShortMaintenanceTime(t string) string {
	if len(t) == 8 && strings.HasSuffix(t, ":00") {
		return t[:5]
	}
	return t
}

// ValidateVPCID checks a project VPC id (optional).
func ValidateVPCID(s string) error {
	if s == "" {
		return nil
	}
	if len(s) > 64 || !vpcIDRE.MatchString(s) {
		return fmt.Errorf("project VPC id may contain only letters, digits and hyphens")
	}
	return nil
}
