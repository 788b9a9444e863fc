package services

import (
	"testing"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/keys"
)

// A service's detail answers keys by type (users, ACL, topics, databases, search):
// none shares a key with another of its actions or with the global set.
func TestDetailKeysNeverClash(t *testing.T) {
	ctx := common.NewContext()
	ctx.Tabs = []string{"Projects", "Services", "Users", "Billing", "Search"}
	d := NewDetail(ctx, "acme-prod", "svc")
	for _, typ := range []string{"", models.TypePG, models.TypeMySQL, models.TypeKafka, models.TypeOpenSearch,
		models.TypeCaching, models.TypeClickHouse, models.TypeGrafana} {
		d.Spec.Actions = d.actionsFor(typ)
		for _, c := range keys.Clashes(d.Keys(), ctx.GlobalKeys()) {
			t.Errorf("%q detail: %s", typ, c)
		}
	}
	if c := keys.Clashes(New(ctx).(common.Keyed).Keys(), ctx.GlobalKeys()); len(c) > 0 {
		t.Errorf("services list: %v", c)
	}
}
