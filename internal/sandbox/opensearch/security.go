package opensearch

import (
	"net/http"

	"github.com/svcui/svcui/internal/jsonval"
)

// role is a security plugin role.
type role struct {
	reserved bool
	static   bool
	body     map[string]any // cluster_permissions, index_permissions, tenant_permissions, description
}

var roleKeys = map[string]bool{"cluster_permissions": true, "index_permissions": true, "tenant_permissions": true, "description": true}

func builtinRoles() map[string]*role {
	return map[string]*role{
		"all_access": {reserved: true, static: true, body: map[string]any{
			"description":         "Allow full access to all indices and all cluster APIs",
			"cluster_permissions": []any{"*"},
			"index_permissions":   []any{map[string]any{"index_patterns": []any{"*"}, "allowed_actions": []any{"*"}}},
			"tenant_permissions":  []any{map[string]any{"tenant_patterns": []any{"*"}, "allowed_actions": []any{"kibana_all_write"}}},
		}},
		"readall": {reserved: true, static: true, body: map[string]any{
			"description":         "Provide the minimum permissions for to readall indices",
			"cluster_permissions": []any{"cluster_composite_ops_ro"},
			"index_permissions":   []any{map[string]any{"index_patterns": []any{"*"}, "allowed_actions": []any{"read"}}},
		}},
	}
}

func secReply(c *Cluster, w http.ResponseWriter, r *http.Request, status int, st, msg string) {
	c.reply(w, r, status, obj{{"status", st}, {"message", msg}})
}

func validateRole(body map[string]any) (map[string]any, string) {
	var bad []string
	for k := range body {
		if !roleKeys[k] {
			bad = append(bad, k)
		}
	}
	if len(bad) > 0 {
		return nil, "Invalid configuration: unknown keys " + joinSorted(bad)
	}
	for _, k := range []string{"cluster_permissions", "tenant_permissions"} {
		if v, ok := body[k]; ok {
			if _, isList := v.([]any); !isList {
				return nil, "Wrong datatype: [" + k + "] must be an array"
			}
		}
	}
	if v, ok := body["index_permissions"]; ok {
		l, isList := v.([]any)
		if !isList {
			return nil, "Wrong datatype: [index_permissions] must be an array"
		}
		for _, p := range l {
			pm, ok := asMap(p)
			if !ok {
				return nil, "Wrong datatype: each entry of [index_permissions] must be an object"
			}
			if _, ok := pm["index_patterns"].([]any); !ok {
				return nil, "Wrong datatype: [index_permissions.index_patterns] must be an array"
			}
			if a, ok := pm["allowed_actions"]; ok {
				if _, isList := a.([]any); !isList {
					return nil, "Wrong datatype: [index_permissions.allowed_actions] must be an array"
				}
			}
		}
	}
	return body, ""
}

func joinSorted(l []string) string {
	m := map[string]bool{}
	for _, s := range l {
		m[s] = true
	}
	out := "["
	for i, k := range jsonval.SortedKeys(m) {
		if i > 0 {
			out += ", "
		}
		out += k
	}
	return out + "]"
}

func (ro *role) view() obj {
	ip := []any{}
	for _, p := range asList(ro.body["index_permissions"]) {
		pm, _ := asMap(p)
		e := obj{{"index_patterns", orEmpty(pm["index_patterns"])}, {"fls", orEmpty(pm["fls"])}, {"masked_fields", orEmpty(pm["masked_fields"])},
			{"allowed_actions", orEmpty(pm["allowed_actions"])}}
		if dls, ok := pm["dls"]; ok {
			e = append(e, kv{"dls", dls})
		}
		ip = append(ip, e)
	}
	o := obj{{"reserved", ro.reserved}, {"hidden", false}}
	if d, ok := ro.body["description"]; ok {
		o = append(o, kv{"description", d})
	}
	o = append(o, kv{"cluster_permissions", orEmpty(ro.body["cluster_permissions"])}, kv{"index_permissions", ip},
		kv{"tenant_permissions", orEmpty(ro.body["tenant_permissions"])}, kv{"static", ro.static})
	return o
}

func orEmpty(v any) any {
	if v == nil {
		return []any{}
	}
	return v
}

func (c *Cluster) putRole(w http.ResponseWriter, r *http.Request, name string, body []byte) {
	v, err := parseBody(body, true)
	if err != nil {
		c.reply(w, r, 400, obj{{"status", "error"}, {"reason", "Unable to parse content"}})
		return
	}
	m, ok := asMap(v)
	if !ok {
		c.reply(w, r, 400, obj{{"status", "error"}, {"reason", "Unable to parse content"}})
		return
	}
	m, reason := validateRole(m)
	if reason != "" {
		c.reply(w, r, 400, obj{{"status", "error"}, {"reason", reason}})
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	old, exists := c.roles[name]
	if exists && old.reserved {
		secReply(c, w, r, 403, "FORBIDDEN", "Resource '"+name+"' is reserved.")
		return
	}
	c.roles[name] = &role{body: m}
	if exists {
		secReply(c, w, r, 200, "OK", "'"+name+"' updated.")
		return
	}
	secReply(c, w, r, 201, "CREATED", "'"+name+"' created.")
}

func (c *Cluster) getRoles(w http.ResponseWriter, r *http.Request, name string) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if name != "" {
		ro, ok := c.roles[name]
		if !ok {
			secReply(c, w, r, 404, "NOT_FOUND", "Resource '"+name+"' not found.")
			return
		}
		c.reply(w, r, 200, obj{{name, ro.view()}})
		return
	}
	o := obj{}
	for _, n := range jsonval.SortedKeys(c.roles) {
		o = append(o, kv{n, c.roles[n].view()})
	}
	c.reply(w, r, 200, o)
}

func (c *Cluster) deleteRole(w http.ResponseWriter, r *http.Request, name string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	ro, ok := c.roles[name]
	switch {
	case !ok:
		secReply(c, w, r, 404, "NOT_FOUND", "Resource '"+name+"' not found.")
	case ro.reserved:
		secReply(c, w, r, 403, "FORBIDDEN", "Resource '"+name+"' is reserved.")
	default:
		delete(c.roles, name)
		secReply(c, w, r, 200, "OK", "'"+name+"' deleted.")
	}
}
