package services

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/svcui/svcui/internal/fleet"
	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/base"
	"github.com/svcui/svcui/internal/ui/watch"
)

func bulkFixture(n int) bulkPrep {
	price := func(p string) models.Amount { return models.Amount{Value: decimal.RequireFromString(p), Set: true} }
	prices := priceBook{
		{"kafka", "aws-eu-west-1"}: {"startup-4": {PlanName: "startup-4", PriceUSD: price("0.5"), DiskSpaceMB: 80 * 1024},
			"business-4": {PlanName: "business-4", PriceUSD: price("1.5"), DiskSpaceMB: 160 * 1024}},
		{"pg", "aws-eu-west-1"}: {"startup-4": {PlanName: "startup-4", PriceUSD: price("0.25"), DiskSpaceMB: 80 * 1024}},
	}
	var m base.Marked[entry]
	for i := 0; i < n; i++ {
		s := models.Service{ServiceName: fmt.Sprintf("svc-%04d", i), ServiceType: "kafka", CloudName: "aws-eu-west-1", Plan: "business-4",
			State: models.StateRunning, DiskSpaceMB: 160 * 1024, Maintenance: &models.Maintenance{DOW: "saturday", Time: "03:00:00"},
			UserConfig: models.UserConfig{models.UCIPFilter: []any{"10.0.0.0/8"}}}
		if i%2 == 1 {
			s.ServiceType, s.Plan, s.DiskSpaceMB = "pg", "startup-4", 80*1024
		}
		if i%10 == 3 {
			s.TerminationProtection = true
		}
		m.Items = append(m.Items, entry{Project: fmt.Sprintf("p%d", i%5), Service: s})
		m.Hidden = append(m.Hidden, i%5 == 0)
	}
	return bulkPrep{Marked: m, Prices: prices}
}

// Power off: the cost falls by each plan's price, Kafka is said to lose its topic data,
// a protected service is skipped with why; the total adds the rows.
func TestPlanPowerOffCostsAndSkips(t *testing.T) {
	p := planEdit(bulkFixture(4), bulkValues{Power: powerOff, AddIPs: "192.168.0.0/16"}, func() time.Time { return time.Unix(0, 0) })
	if len(p.Rows) != 4 {
		t.Fatal(len(p.Rows))
	}
	r0, r3 := p.Rows[0], p.Rows[3]
	if r0.Cost != "-$1,095.00/month" || !strings.Contains(strings.Join(r0.Notes, ";"), "Kafka topic data") || r0.Update.Powered == nil || *r0.Update.Powered {
		t.Fatalf("row 0: %+v", r0)
	}
	if fmt.Sprint(r0.Update.UserConfig.IPFilter()) != "[10.0.0.0/8 192.168.0.0/16]" {
		t.Fatalf("ip filter %v", r0.Update.UserConfig.IPFilter())
	}
	if r3.State != fleet.StateSkipped || !strings.Contains(r3.Skip, "termination protection is on") {
		t.Fatalf("row 3: %+v", r3)
	}
	// 1,095.00 twice (kafka business-4) + 182.50 (pg startup-4); row 3 is skipped.
	if p.Total != "-$2,372.50/month" {
		t.Fatalf("total %q", p.Total)
	}
}

// A plan that would shrink the disk is skipped up front; the plan is offered only to
// services of one type.
func TestPlanRefusesADiskDowngrade(t *testing.T) {
	prep := bulkFixture(1)
	p := planEdit(prep, bulkValues{Plan: "startup-4"}, time.Now)
	if r := p.Rows[0]; r.State != fleet.StateSkipped || !strings.Contains(r.Skip, "disk cannot shrink") {
		t.Fatalf("%+v", r)
	}
	if sameType(bulkFixture(2).Marked.Items) != "" || sameType(bulkFixture(1).Marked.Items) != "kafka" {
		t.Fatal("sameType")
	}
}

// The figure: planning 1,000 marked services (form values → plan rows with
// costs) ≤ 50 ms.
func BenchmarkPlan1000Services(b *testing.B) {
	prep := bulkFixture(1000)
	v := bulkValues{Protect: "on", DOW: "sunday", Power: powerOff}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if p := planEdit(prep, v, time.Now); len(p.Rows) != 1000 {
			b.Fatal(len(p.Rows))
		}
	}
}

// w with services marked watches every marked one.
func TestWatchMarkedWatchesEach(t *testing.T) {
	var n int
	for _, m := range run(watchMarked(bulkFixture(7).Marked)) {
		if _, ok := m.(watch.Start); ok {
			n++
		}
	}
	if n != 7 {
		t.Fatalf("%d watches", n)
	}
}
