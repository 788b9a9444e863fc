package aggs

import (
	"encoding/json"
	"sort"

	"github.com/svcui/svcui/internal/jsonval"
)

// Order is the order in which a request named its aggregations, level by level: the engine
// answers sibling aggregations in request order, which a decoded map cannot tell.
type Order struct {
	names []string
	subs  map[string]*Order
}

// ReadOrder reads the aggregation names of a raw search body in the order they were written.
func ReadOrder(body []byte) *Order {
	var o *Order
	_ = jsonval.ForEachMember(body, func(key string, val json.RawMessage) {
		if key == "aggs" || key == "aggregations" {
			o = readAggOrder(val)
		}
	})
	return o
}

func readAggOrder(raw []byte) *Order {
	o := &Order{subs: map[string]*Order{}}
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

// SortByRequest puts parsed aggregations, and their sub-aggregations, in request order.
func SortByRequest(specs []*Spec, o *Order) {
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
		SortByRequest(sp.Subs, o.subs[sp.Name])
	}
}
