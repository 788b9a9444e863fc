package models

// The platform's enumerations are open: an unknown value is kept as it came and shown
// as it is, never mapped to a default. Each type has a Known method for callers that
// need to tell the documented values apart.

// ServiceState is a service's lifecycle state.
type ServiceState string

// Documented service states.
const (
	StateRunning     ServiceState = "RUNNING"
	StateRebuilding  ServiceState = "REBUILDING"
	StateRebalancing ServiceState = "REBALANCING"
	StatePowerOff    ServiceState = "POWEROFF"
)

// Known reports whether s is one of the documented states.
func (s ServiceState) Known() bool {
	switch s {
	case StateRunning, StateRebuilding, StateRebalancing, StatePowerOff:
		return true
	}
	return false
}

// InProgress reports a transitional state (REBUILDING and REBALANCING are treated alike).
func (s ServiceState) InProgress() bool {
	return s == StateRebuilding || s == StateRebalancing
}

// UserType is a service user's type.
type UserType string

// Documented user types.
const (
	UserPrimary UserType = "primary"
	UserRegular UserType = "regular"
	UserAdmin   UserType = "admin"
)

// Known reports whether t is a documented user type.
func (t UserType) Known() bool {
	return t == UserPrimary || t == UserRegular || t == UserAdmin
}

// ACLPermission is a Kafka ACL permission.
type ACLPermission string

// Documented ACL permissions.
const (
	PermRead      ACLPermission = "read"
	PermWrite     ACLPermission = "write"
	PermReadWrite ACLPermission = "readwrite"
	PermAdmin     ACLPermission = "admin"
)

// ACLPermissions lists the documented permissions in the order forms offer them.
var ACLPermissions = []ACLPermission{PermRead, PermWrite, PermReadWrite, PermAdmin}

// Known reports whether p is a documented permission.
func (p ACLPermission) Known() bool {
	for _, k := range ACLPermissions {
		if p == k {
			return true
		}
	}
	return false
}

// InvoiceState is an invoice's state.
type InvoiceState string

// Documented invoice states.
const (
	InvoiceUnpaid        InvoiceState = "unpaid"
	InvoicePaid          InvoiceState = "paid"
	InvoiceVoid          InvoiceState = "void"
	InvoiceUncollectible InvoiceState = "uncollectible"
)

// InvoiceStates lists the documented invoice states.
var InvoiceStates = []InvoiceState{InvoiceUnpaid, InvoicePaid, InvoiceVoid, InvoiceUncollectible}

// Known reports whether s is a documented invoice state.
func (s InvoiceState) Known() bool {
	for _, k := range InvoiceStates {
		if s == k {
			return true
		}
	}
	return false
}

// PaymentMethod is a billing group's payment method.
type PaymentMethod string

// Documented payment methods.
const (
	PaymentCard    PaymentMethod = "card"
	PaymentPaypal  PaymentMethod = "paypal"
	PaymentPartner PaymentMethod = "partner"
)

// PaymentMethods lists the documented payment methods.
var PaymentMethods = []PaymentMethod{PaymentCard, PaymentPaypal, PaymentPartner}

// Known reports whether m is a documented payment method.
func (m PaymentMethod) Known() bool {
	return m == PaymentCard || m == PaymentPaypal || m == PaymentPartner
}

// Role is the caller's role in a project; real platforms have more than the two seen in
// the spec, so any string is kept.
type Role string

// Documented roles.
const (
	RoleAdmin     Role = "admin"
	RoleDeveloper Role = "developer"
)

// CanAdminister reports whether the role may change projects and services (sandbox rule:
// only admin; unknown roles are assumed not to, and the platform has the last word).
func (r Role) CanAdminister() bool { return r == RoleAdmin }

// CanManageAccess reports whether the role may create or reset service users, topics,
// databases and ACLs (admin and developer).
func (r Role) CanManageAccess() bool { return r == RoleAdmin || r == RoleDeveloper }

// Service types named by the spec. The list is open-ended.
const (
	TypePG         = "pg"
	TypeMySQL      = "mysql"
	TypeKafka      = "kafka"
	TypeOpenSearch = "opensearch"
	TypeCaching    = "caching"
	TypeClickHouse = "clickhouse"
	TypeGrafana    = "grafana"
)

// KnownServiceTypes lists the service types the spec names.
var KnownServiceTypes = []string{TypePG, TypeMySQL, TypeKafka, TypeOpenSearch, TypeCaching, TypeClickHouse, TypeGrafana}

// AuthenticationMethods gives the password authentication choices a service type offers
// when creating a user; nil when the type has no choice.
func AuthenticationMethods(serviceType string) []string {
	switch serviceType {
	case TypePG:
		return []string{"scram-sha-256"}
	case TypeMySQL:
		return []string{"caching_sha2_password"}
	}
	return nil
}

// HasDatabases reports whether a service type has databases (relational services).
func HasDatabases(serviceType string) bool {
	return serviceType == TypePG || serviceType == TypeMySQL
}
