package uitest

import (
	"sync"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/common"
)

// Tests stand in for the root, which holds the only writer of a context's session:
// NewContext makes a context whose writer Session finds again. A context the program
// made is not here, so a view cannot reach the real session's writer through this.
var writers sync.Map // *common.Context → *common.SessionWriter

// NewContext is common.NewContext whose session a test may set with Session.
func NewContext() *common.Context {
	c, w := common.NewRootContext()
	writers.Store(c, w)
	return c
}

// Roles makes ctx know, as a project list would, the caller's role in these projects
// (and only these: they become the context's project names).
func Roles(ctx *common.Context, roles map[string]models.Role) {
	ps := make([]models.Project, 0, len(roles))
	for name := range roles {
		ps = append(ps, models.Project{ProjectName: name})
	}
	ctx.SetProjects(models.ProjectList{Projects: ps, Membership: roles})
}

// Session is the writer of a context made by NewContext (nil for any other).
func Session(c *common.Context) *common.SessionWriter {
	w, _ := writers.Load(c)
	sw, _ := w.(*common.SessionWriter)
	return sw
}
