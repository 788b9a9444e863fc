package opensearch

import (
	"net/http"

	"github.com/svcui/svcui/internal/sandbox/opensearch/apierr"
	"github.com/svcui/svcui/internal/sandbox/opensearch/jsonout"
)

// forcedRefresh reads the refresh parameter of a write. The emulation makes every write visible
// at once, so only the answer differs: "true" and an empty value refresh immediately and the
// engine says forced_refresh:true; "wait_for" waits for a scheduled refresh, so it does not;
// "false" (the default) does nothing. Anything else is refused as the engine refuses it.
func forcedRefresh(r *http.Request) (bool, *apierr.Error) {
	q := r.URL.Query()
	if !q.Has("refresh") {
		return false, nil
	}
	switch v := q.Get("refresh"); v {
	case "", "true":
		return true, nil
	case "false", "wait_for":
		return false, nil
	default:
		return false, apierr.BadRequest("Unknown value for refresh: [%s].", v)
	}
}

// withForcedRefresh adds forced_refresh:true where the engine writes it: right after "result".
func withForcedRefresh(o jsonout.Obj) jsonout.Obj {
	for i, m := range o {
		if m.K == "result" {
			out := make(jsonout.Obj, 0, len(o)+1)
			out = append(out, o[:i+1]...)
			out = append(out, jsonout.KV{"forced_refresh", true})
			return append(out, o[i+1:]...)
		}
	}
	return o
}
