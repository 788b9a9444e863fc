package common_test

import (
	"context"
	"testing"

	"github.com/svcui/svcui/internal/models"
	"github.com/svcui/svcui/internal/ui/common"
	"github.com/svcui/svcui/internal/ui/uitest"
	"github.com/svcui/svcui/internal/ui/uitest/fake"
)

// Views hold the client's reads only: no type assertion on ctx.API finds a write, and
// the one way to a write is a Write's Send, which the pipeline hands the writer.
func TestViewsReachTheWritesOnlyThroughThePipeline(t *testing.T) {
	ctx := common.NewContext()
	f := fake.New()
	f.AddProjects(models.Project{ProjectName: "x"})
	ctx.Connect(f)
	if _, ok := ctx.API.(common.Writer); ok {
		t.Fatal("ctx.API hands its writes to whoever asserts it")
	}
	if _, ok := ctx.API.(interface {
		DeleteProject(context.Context, string) error
	}); ok {
		t.Fatal("ctx.API has DeleteProject")
	}
	req := common.NewRequests()
	w := &common.Write[models.Project]{Verb: common.Delete, Noun: "project", Name: "x",
		Send: func(c context.Context, wr common.Writer) (models.Project, error) {
			return models.Project{}, wr.DeleteProject(c, "x")
		}}
	for _, m := range uitest.Run(common.SendWrite(ctx, req, w)) {
		common.HandleWrite[models.Project](ctx, req, m)
	}
	if f.Count(fake.DeleteProject, "x") != 1 {
		t.Fatalf("the pipeline's writer was not the client's: %v", f.Calls())
	}
}

// Kinds are values: two kinds of one name are two kinds, so a request cannot take over
// another's kind by spelling its name.
func TestKindsOfOneNameAreDistinct(t *testing.T) {
	a, b := common.NewKind("run"), common.NewKind("run")
	if a == b {
		t.Fatal("two kinds minted with one name are equal")
	}
	r := common.NewRequests()
	first := common.Fetch(r, a, func(context.Context) (int, error) { return 1, nil })
	second := common.Fetch(r, b, func(context.Context) (int, error) { return 2, nil })
	if !r.Current(first().(common.Result[int]).Addr) || !r.Current(second().(common.Result[int]).Addr) {
		t.Fatal("a request of another kind of the same name made the first stale")
	}
}
