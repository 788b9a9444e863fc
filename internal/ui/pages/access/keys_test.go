package access

import (
	"testing"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/keys"
)

// The access views' actions share no key with each other or with the global set.
func TestAccessKeysNeverClash(t *testing.T) {
	ctx := newCtx(newFake(), models.RoleAdmin)
	ctx.Tabs = []string{"Projects", "Services", "Users", "Billing", "Search"}
	tg := target{Project: "acme-prod", Service: "svc", Type: models.TypeKafka}
	for name, v := range map[string]common.Keyed{
		"users": NewUsers(ctx, tg), "databases": NewDatabases(ctx, tg), "acl": NewACLs(ctx, tg), "topics": NewTopics(ctx, tg),
	} {
		for _, c := range keys.Clashes(v.Keys(), ctx.GlobalKeys()) {
			t.Errorf("%s: %s", name, c)
		}
	}
}
