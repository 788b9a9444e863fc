package api

import "github.com/svcui/svcui/internal/models"

// interner makes the entries of one list share the strings that repeat from entry to
// entry (account, cloud, currency, plan, state, role): 80,000 projects of one account
// then hold one "Acme Corp", not 80,000. Bounded, so a list of unique values costs a
// map of at most maxInterned entries.
type interner struct {
	m       map[string]string
	amounts map[amountKey]models.Amount
}

// amountKey identifies an amount exactly, trailing zeros included ("0.00" is not "0").
type amountKey struct {
	coef int64
	exp  int32
}

const maxInterned = 4096

func newInterner() *interner {
	return &interner{m: make(map[string]string), amounts: make(map[amountKey]models.Amount)}
}

// amount shares equal amounts: their decimals are never changed in place, so sharing
// one is safe.
func (in *interner) amount(a *models.Amount) {
	if !a.Set || a.Value.NumDigits() > 18 {
		return
	}
	k := amountKey{a.Value.CoefficientInt64(), a.Value.Exponent()}
	if v, ok := in.amounts[k]; ok {
		*a = v
		return
	}
	if len(in.amounts) < maxInterned {
		in.amounts[k] = *a
	}
}

func (in *interner) str(p *string) {
	if v, ok := in.m[*p]; ok {
		*p = v
		return
	}
	if len(in.m) < maxInterned {
		in.m[*p] = *p
	}
}

// entry shares the repeating fields of a decoded list entry; types without such
// fields are left alone.
func (in *interner) entry(v any) {
	switch e := v.(type) {
	case **models.ProjectSummary:
		in.entry(*e)
	case *models.ProjectSummary:
		for _, p := range []*string{&e.AccountID, &e.DefaultCloud, &e.BillingCurrency, &e.BillingGroupID, &e.BillingGroupName} {
			in.str(p)
		}
		in.amount(&e.AvailableCredits)
	case *models.Project:
		for _, p := range []*string{&e.AccountID, &e.AccountName, &e.DefaultCloud, &e.BillingCurrency,
			&e.BillingGroupID, &e.BillingGroupName, &e.PaymentMethod, &e.CountryCode} {
			in.str(p)
		}
		in.amount(&e.EstimatedBalance)
		in.amount(&e.AvailableCredits)
	case *models.Service:
		for _, p := range []*string{&e.ServiceType, &e.CloudName, &e.Plan, &e.ProjectVPCID} {
			in.str(p)
		}
		s := string(e.State)
		in.str(&s)
		e.State = models.ServiceState(s)
	case *models.ServiceUser:
		t := string(e.Type)
		in.str(&t)
		e.Type = models.UserType(t)
		in.str(&e.Authentication)
	case *models.ACL:
		in.str(&e.Username)
		in.str(&e.Topic)
		p := string(e.Permission)
		in.str(&p)
		e.Permission = models.ACLPermission(p)
	case *models.Topic:
		in.str(&e.State)
	}
}
