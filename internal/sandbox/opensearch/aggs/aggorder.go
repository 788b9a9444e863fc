package aggs

import (
	"encoding/json"
	"sort"

	"github.com/svcui/svcui/internal/sandbox/opensearch/jsonval"
)

// aggOrder is the order in which a request named its aggregations, level by level: the engine
// answers sibling aggregations in request order, which a decoded map cannot tell.
type aggOrder struct {
	names []string
	subs  map[string]*aggOrder
}

// RequestOrder reads the aggregation names of a raw search body in the order they were written.
func RequestOrder(body []byte) *aggOrder {
	var o *aggOrder
	_ = jsonval.ForEachMember(body, func(key string, val json.RawMessage) {
		if key == "aggs" || key == "aggregations" {
			o = readAggOrder(val)
		}
	})
	return o
}

func readAggOrder(raw []byte) *aggOrder {
	o := &aggOrder{subs: map[string]*aggOrder{}}
	_ = jsonval.ForEachMember(raw, func(name string, body json.RawMessage) {
		o.names = append(o.names, name)
		_ = jsonval.ForEachMember(body, func(key string, val json.RawMessage) {
			if key == "aggs" || key == "aggregations" {
				o.subs[name] = readAggOrder(val)
			}
		})
	})
	return o
}

// Order puts parsed aggregations, and their sub-aggregations, in request order.
func Order(specs []*Spec, o *aggOrder) {
	if o == nil {
		return
	}
	pos := make(map[string]int, len(o.names))
	for i, n := range o.names {
		if _, seen := pos[n]; !seen {
			pos[n] = i
		}
	}
	rank := func(name string) int {
		if p, ok := pos[name]; ok {
			return p
		}
		return len(o.names) // not expected: parsed names all come from the same body
	}
	sort.SliceStable(specs, func(i, j int) bool { return rank(specs[i].Name) < rank(specs[j].Name) })
	for _, sp := range specs {
		Order(sp.Subs, o.subs[sp.Name])
	}
}
