package opensearch

import (
	"github.com/svcui/svcui/internal/sandbox/opensearch/apierr"
	"github.com/svcui/svcui/internal/sandbox/opensearch/jsonout"
	"github.com/svcui/svcui/internal/sandbox/opensearch/painless"
)

// parseScript reads an update's "script" (package painless), answering failures as the engine.
func parseScript(v any) (*painless.Script, *apierr.Error) {
	s, err := painless.Parse(v)
	if err != nil {
		return nil, scriptAPIError(err)
	}
	return s, nil
}

// runScript runs a script on a source; it returns ctx.op ("index", "noop" or "delete").
func runScript(s *painless.Script, src map[string]any) (string, *apierr.Error) {
	op, err := s.Run(src)
	if err != nil {
		return "", scriptAPIError(err)
	}
	return op, nil
}

// scriptAPIError renders a painless failure; a script_exception carries script_stack, script,
// lang, position and caused_by, as ScriptException.toXContent writes them.
func scriptAPIError(e *painless.Error) *apierr.Error {
	ae := apierr.New(e.Status, e.Type, e.Reason)
	if e.Type == "script_exception" {
		ae.Extra = jsonout.Obj{{"script_stack", []any{e.Stmt, "^---- HERE"}}, {"script", e.Script}, {"lang", "painless"},
			{"position", jsonout.Obj{{"offset", e.Start}, {"start", e.Start}, {"end", e.End}}}}
		ae.CausedBy = apierr.New(e.Status, e.CauseType, e.CauseReason)
	}
	return ae
}
