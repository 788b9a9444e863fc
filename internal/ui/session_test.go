package ui

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/svcui/svcui/internal/ui/common"
)

// The session (current project, service, billing group) has one owner, the root: views
// and components read it and change it only by sending a message. This test reads
// every non-test file outside the root and fails on any assignment to a session field
// of a context.
func TestViewsNeverWriteTheSession(t *testing.T) {
	fields := map[string]bool{}
	st := reflect.TypeOf(common.Session{})
	for i := 0; i < st.NumField(); i++ {
		fields[st.Field(i).Name] = true
	}
	found := 0
	for _, dir := range []string{"pages", "components", "base"} {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
			if err != nil {
				return err
			}
			found++
			ast.Inspect(f, func(n ast.Node) bool {
				var lhs []ast.Expr
				switch n := n.(type) {
				case *ast.AssignStmt:
					lhs = n.Lhs
				case *ast.IncDecStmt:
					lhs = []ast.Expr{n.X}
				}
				for _, e := range lhs {
					sel, ok := e.(*ast.SelectorExpr)
					if !ok || !fields[sel.Sel.Name] || !isContext(sel.X) {
						continue
					}
					t.Errorf("%s: writes the session's %s; send SelectProject, SelectService, SelectBillingGroup or Gone instead", path, sel.Sel.Name)
				}
				return true
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if found < 20 {
		t.Fatalf("read only %d files: the walk is not looking where the views are", found)
	}
}

// isContext: ctx, Ctx, a.ctx, v.Ctx, c.Session …
func isContext(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name == "ctx" || e.Name == "Ctx" || e.Name == "c"
	case *ast.SelectorExpr:
		return e.Sel.Name == "ctx" || e.Sel.Name == "Ctx" || e.Sel.Name == "Session"
	}
	return false
}
