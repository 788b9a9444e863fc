package access

import (
	"strings"
	"testing"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/uitest/formfit"
)

// The create forms of users, databases, ACL entries and topics, at every supported
// size with each field focused in turn: its title, its focus bar and the key help are
// on screen.
func TestEveryAccessFormFitsTheScreen(t *testing.T) {
	ctx := newCtx(newFake(), models.RoleAdmin)
	pg := target{Project: "acme-prod", Service: "pg-main", Type: models.TypePG}
	kafka := target{Project: "acme-prod", Service: "kafka-events", Type: models.TypeKafka}
	for name, build := range map[string]func() common.Modal{
		"user":     func() common.Modal { return NewUsers(ctx, kafka).form() },
		"database": func() common.Modal { return NewDatabases(ctx, pg).form() },
		"acl":      func() common.Modal { return NewACLs(ctx, kafka).form([]string{"avnadmin", "app", "reader"}) },
		"topic":    func() common.Modal { return NewTopics(ctx, kafka).form(3) },
	} {
		if misses := formfit.Misses(build); len(misses) > 0 {
			t.Errorf("%s: %d misses:\n%s", name, len(misses), strings.Join(misses, "\n"))
		}
	}
}
