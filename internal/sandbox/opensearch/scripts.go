package opensearch

import "github.com/svcui/svcui/internal/sandbox/opensearch/painless"

// parseScript reads an update's "script" (package painless), answering failures as the engine.
func parseScript(v any) (*painless.Script, *apiError) {
	s, err := painless.Parse(v)
	if err != nil {
		return nil, scriptAPIError(err)
	}
	return s, nil
}

// runScript runs a script on a source; it returns ctx.op ("index", "noop" or "delete").
func runScript(s *painless.Script, src map[string]any) (string, *apiError) {
	op, err := s.Run(src)
	if err != nil {
		return "", scriptAPIError(err)
	}
	return op, nil
}

// scriptAPIError renders a painless failure; a script_exception carries script_stack, script,
// lang, position and caused_by, as ScriptException.toXContent writes them.
func scriptAPIError(e *painless.Error) *apiError {
	ae := newErr(e.Status, e.Type, e.Reason)
	if e.Type == "script_exception" {
		ae.extra = obj{{"script_stack", []any{e.Stmt, "^---- HERE"}}, {"script", e.Script}, {"lang", "painless"},
			{"position", obj{{"offset", e.Start}, {"start", e.Start}, {"end", e.End}}}}
		ae.causedBy = newErr(e.Status, e.CauseType, e.CauseReason)
	}
	return ae
}
