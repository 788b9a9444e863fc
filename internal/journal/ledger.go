package journal

import (
	"slices"
	"time"
)

// The ledger keeps, for every service's line of a project's estimate, the last cost
// the journal read in each month: the month to date at its end is that month's bill,
// which the platform's invoices (no lines) cannot say by project and service. The
// lines themselves make no entries: they move every hour on every service.

// LedgerMonths is how many months of costs a line keeps.
const LedgerMonths = 13

type monthCost struct {
	Month string `json:"m"` // "2026-10" (UTC)
	Cost  string `json:"c"`
}

// ledgerKey is one line of one project's estimate.
type ledgerKey struct{ project, service string }

func monthOf(t time.Time) string { return t.UTC().Format("2006-01") }

// record keeps the costs of a project's estimate read at at. The caller holds mu.
func (j *Journal) record(project string, items []Item, at time.Time) {
	if j.ledger == nil {
		j.ledger = map[ledgerKey][]monthCost{}
	}
	m := monthOf(at)
	for _, it := range items {
		k := ledgerKey{project, it.name}
		line := j.ledger[k]
		cost := it.Value(KindEstimate, "cost")
		if n := len(line); n > 0 && line[n-1].Month == m {
			line[n-1].Cost = cost
			continue
		}
		line = append(line, monthCost{m, cost})
		if len(line) > LedgerMonths {
			line = slices.Delete(line, 0, len(line)-LedgerMonths)
		}
		j.ledger[k] = line
	}
}

// MonthCost is the last cost the journal read in the month of t for a service's line
// of a project's estimate (EstimateTotal for the whole project); ok is false when it
// read none that month.
func (j *Journal) MonthCost(project, service string, t time.Time) (string, bool) {
	j.mu.Lock()
	defer j.mu.Unlock()
	m := monthOf(t)
	for _, c := range j.ledger[ledgerKey{project, service}] {
		if c.Month == m {
			return c.Cost, true
		}
	}
	return "", false
}

// LedgerLines lists the services of a project's estimate the ledger has costs of.
func (j *Journal) LedgerLines(project string) []string {
	j.mu.Lock()
	defer j.mu.Unlock()
	var out []string
	for k := range j.ledger {
		if k.project == project {
			out = append(out, k.service)
		}
	}
	slices.Sort(out)
	return out
}
