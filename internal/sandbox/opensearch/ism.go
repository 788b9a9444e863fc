package opensearch

import (
	"net/http"
	"strconv"

	"github.com/svcui/svcui/internal/jsonval"
)

const ismIndex = ".opendistro-ism-config"

// ismPolicy is an Index State Management policy document.
type ismPolicy struct {
	id          string
	version     int64
	seqNo       int64
	policy      map[string]any // the inner policy object as given (validated)
	lastUpdated int64
}

func validatePolicy(body map[string]any) (map[string]any, *apiError) {
	p, ok := asMap(body["policy"])
	if !ok {
		return nil, badRequest("Required [policy] object is missing")
	}
	for k := range body {
		if k != "policy" {
			return nil, parsingErr("Unknown field [%s] in policy request", k)
		}
	}
	states, ok := p["states"].([]any)
	if !ok || len(states) == 0 {
		return nil, badRequest("Policy must contain at least one state in [states]")
	}
	names := map[string]bool{}
	for _, s := range states {
		sm, ok := asMap(s)
		if !ok {
			return nil, badRequest("Each state must be an object")
		}
		n, _ := sm["name"].(string)
		if n == "" {
			return nil, badRequest("Each state must have a [name]")
		}
		if names[n] {
			return nil, badRequest("Policy contains duplicate state name [%s]", n)
		}
		names[n] = true
		if a, ok := sm["actions"]; ok {
			if _, isList := a.([]any); !isList {
				return nil, badRequest("[actions] of state [%s] must be an array", n)
			}
		}
	}
	def, _ := p["default_state"].(string)
	if def == "" {
		return nil, badRequest("Policy must have a [default_state]")
	}
	if !names[def] {
		return nil, badRequest("Policy default_state [%s] does not exist in states", def)
	}
	for _, s := range states {
		sm, _ := asMap(s)
		for _, t := range asList(sm["transitions"]) {
			tm, ok := asMap(t)
			if !ok {
				return nil, badRequest("Each transition must be an object")
			}
			target, _ := tm["state_name"].(string)
			if !names[target] {
				return nil, badRequest("Policy transition in state [%v] points to unknown state [%s]", sm["name"], target)
			}
		}
	}
	return p, nil
}

func (p *ismPolicy) view() obj {
	o := obj{{"policy_id", p.id}}
	desc, _ := p.policy["description"]
	o = append(o, kv{"description", desc}, kv{"last_updated_time", p.lastUpdated}, kv{"schema_version", 21})
	o = append(o, kv{"error_notification", p.policy["error_notification"]})
	o = append(o, kv{"default_state", p.policy["default_state"]}, kv{"states", p.policy["states"]})
	o = append(o, kv{"ism_template", p.policy["ism_template"]})
	return o
}

func (c *Cluster) putPolicy(w http.ResponseWriter, r *http.Request, id string, body []byte) {
	v, err := parseBody(body, true)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	m, _ := asMap(v)
	inner, err := validatePolicy(m)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	p, exists := c.policies[id]
	status := 201
	if exists {
		if sq := r.URL.Query().Get("if_seq_no"); sq != "" {
			n, _ := strconv.ParseInt(sq, 10, 64)
			if n != p.seqNo {
				e := errf(409, "version_conflict_engine_exception",
					"[%s]: version conflict, required seqNo [%d], primary term [1]. current document has seqNo [%d] and primary term [1]", id, n, p.seqNo)
				e.index = ismIndex
				c.fail(w, r, e)
				return
			}
		}
		status = 200
	} else {
		p = &ismPolicy{id: id}
		c.policies[id] = p
	}
	p.version++
	p.seqNo = c.nextPolicySeq()
	p.policy = inner
	p.lastUpdated = c.now().UnixMilli()
	c.reply(w, r, status, obj{{"_id", id}, {"_version", p.version}, {"_primary_term", 1}, {"_seq_no", p.seqNo},
		{"policy", obj{{"policy", p.view()}}}})
}

func (c *Cluster) nextPolicySeq() int64 {
	var max int64 = -1
	for _, p := range c.policies {
		if p.seqNo > max {
			max = p.seqNo
		}
	}
	return max + 1
}

func (c *Cluster) getPolicy(w http.ResponseWriter, r *http.Request, id string) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if id == "" {
		list := []obj{}
		for _, n := range jsonval.SortedKeys(c.policies) {
			p := c.policies[n]
			list = append(list, obj{{"_id", p.id}, {"_seq_no", p.seqNo}, {"_primary_term", 1}, {"policy", p.view()}})
		}
		c.reply(w, r, 200, obj{{"policies", list}, {"total_policies", len(list)}})
		return
	}
	p, ok := c.policies[id]
	if !ok {
		c.fail(w, r, errf(404, "status_exception", "Policy not found"))
		return
	}
	c.reply(w, r, 200, obj{{"_id", p.id}, {"_version", p.version}, {"_seq_no", p.seqNo}, {"_primary_term", 1}, {"policy", p.view()}})
}

func (c *Cluster) deletePolicy(w http.ResponseWriter, r *http.Request, id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	p, ok := c.policies[id]
	if !ok {
		c.reply(w, r, 404, obj{{"_index", ismIndex}, {"_id", id}, {"_version", 1}, {"result", "not_found"},
			{"forced_refresh", true}, {"_shards", shardsInfo()}, {"_seq_no", c.nextPolicySeq()}, {"_primary_term", 1}})
		return
	}
	delete(c.policies, id)
	c.reply(w, r, 200, obj{{"_index", ismIndex}, {"_id", id}, {"_version", p.version + 1}, {"result", "deleted"},
		{"forced_refresh", true}, {"_shards", shardsInfo()}, {"_seq_no", p.seqNo + 1}, {"_primary_term", 1}})
}

func shardsInfo() obj {
	return obj{{"total", 2}, {"successful", 1}, {"failed", 0}}
}

// ismTarget reads the index of /_plugins/_ism/{add,remove}[/{index}] (path, else ?index=).
func ismTarget(r *http.Request, pathIndex string) string {
	if pathIndex != "" {
		return pathIndex
	}
	return r.URL.Query().Get("index")
}

// handleISMAdd answers POST /_plugins/_ism/add[/{index}] {"policy_id"}: the indices become managed
// by the policy (TransportAddPolicyAction); an index that already has one is a failed index.
func (c *Cluster) handleISMAdd(w http.ResponseWriter, r *http.Request, pathIndex string, body []byte) {
	v, err := parseBody(body, true)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	m, _ := asMap(v)
	id, _ := jsonval.String(m["policy_id"])
	if id == "" {
		c.fail(w, r, badRequest("Missing policy_id"))
		return
	}
	expr := ismTarget(r, pathIndex)
	if expr == "" {
		c.fail(w, r, badRequest("Missing indices"))
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.policies[id]; !ok {
		c.fail(w, r, errf(404, "status_exception", "Could not find policy=%s", id))
		return
	}
	targets, err := c.resolve(expr, false)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	updated, failed := 0, []obj{}
	for _, ix := range targets {
		if ix.ismPolicy != "" {
			failed = append(failed, obj{{"index_name", ix.name}, {"index_uuid", ix.uuid},
				{"reason", "This index already has a policy, use the update policy API to update index policies"}})
			continue
		}
		ix.ismPolicy = id
		updated++
	}
	c.reply(w, r, 200, obj{{"updated_indices", updated}, {"failures", len(failed) > 0}, {"failed_indices", failed}})
}

// handleISMRemove answers POST /_plugins/_ism/remove[/{index}].
func (c *Cluster) handleISMRemove(w http.ResponseWriter, r *http.Request, pathIndex string) {
	expr := ismTarget(r, pathIndex)
	if expr == "" {
		c.fail(w, r, badRequest("Missing indices"))
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	targets, err := c.resolve(expr, false)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	updated, failed := 0, []obj{}
	for _, ix := range targets {
		if ix.ismPolicy == "" {
			failed = append(failed, obj{{"index_name", ix.name}, {"index_uuid", ix.uuid}, {"reason", "This index does not have a policy to remove"}})
			continue
		}
		ix.ismPolicy = ""
		updated++
	}
	c.reply(w, r, 200, obj{{"updated_indices", updated}, {"failures", len(failed) > 0}, {"failed_indices", failed}})
}

// handleISMExplain answers GET/POST /_plugins/_ism/explain[/{index}]. The emulation runs no ISM
// job, so a managed index shows what the plugin shows before its job first runs: the policy id
// and enabled, without state or action.
func (c *Cluster) handleISMExplain(w http.ResponseWriter, r *http.Request, pathIndex string) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	var targets []*index
	if pathIndex != "" {
		var err *apiError
		if targets, err = c.resolve(pathIndex, false); err != nil {
			c.fail(w, r, err)
			return
		}
	} else {
		for _, ix := range c.sortedIndices() {
			if ix.ismPolicy != "" {
				targets = append(targets, ix)
			}
		}
	}
	out := obj{}
	managed := 0
	for _, ix := range targets {
		if ix.ismPolicy == "" {
			out = append(out, kv{ix.name, obj{{"index.plugins.index_state_management.policy_id", nil},
				{"index.opendistro.index_state_management.policy_id", nil}, {"enabled", nil}}})
			continue
		}
		managed++
		out = append(out, kv{ix.name, obj{{"index.plugins.index_state_management.policy_id", ix.ismPolicy},
			{"index.opendistro.index_state_management.policy_id", ix.ismPolicy},
			{"index", ix.name}, {"index_uuid", ix.uuid}, {"policy_id", ix.ismPolicy}, {"enabled", true}}})
	}
	c.reply(w, r, 200, append(out, kv{"total_managed_indices", managed}))
}
