package opensearch

import (
	"fmt"
	"net/http"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/svcui/svcui/internal/jsonval"
)

var rolloverName = regexp.MustCompile(`^(.*-)(\d+)$`)

// nextRolloverName is MetadataRolloverService's generated name: the number after the last '-'
// plus one, zero-padded to six digits.
func nextRolloverName(old string) (string, *apiError) {
	m := rolloverName.FindStringSubmatch(old)
	if m == nil {
		return "", badRequest("index name [%s] does not match pattern '^.*-\\d+$'", old)
	}
	n, err := strconv.Atoi(m[2])
	if err != nil {
		return "", badRequest("index name [%s] does not match pattern '^.*-\\d+$'", old)
	}
	return fmt.Sprintf("%s%06d", m[1], n+1), nil
}

// parseByteSize reads "5gb", "500mb", "1024b".
func parseByteSize(s string) (int64, bool) {
	t := strings.ToLower(strings.TrimSpace(s))
	for _, u := range []struct {
		suffix string
		mult   float64
	}{{"pb", 1 << 50}, {"tb", 1 << 40}, {"gb", 1 << 30}, {"mb", 1 << 20}, {"kb", 1 << 10}, {"b", 1}} {
		if num, ok := strings.CutSuffix(t, u.suffix); ok {
			f, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
			return int64(f * u.mult), err == nil && f >= 0
		}
	}
	return 0, false
}

// handleRollover answers POST /{alias}/_rollover[/{new_index}]: when the conditions hold (or none
// are given) a new index is created and the alias's writes move to it (RolloverResponse).
func (c *Cluster) handleRollover(w http.ResponseWriter, r *http.Request, alias, newName string, body []byte) {
	v, err := parseBody(body, false)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	m, _ := asMap(v)
	var conds map[string]any
	create := map[string]any{}
	for k, x := range m {
		switch k {
		case "conditions":
			if conds, _ = asMap(x); conds == nil && x != nil {
				c.fail(w, r, parsingErr("[rollover] conditions must be an object"))
				return
			}
		case "settings", "mappings", "aliases":
			create[k] = x
		default:
			c.fail(w, r, withLocation(parsingErr("[rollover] unknown field [%s]", k), body))
			return
		}
	}
	dryRun := r.URL.Query().Get("dry_run") == "true" || (r.URL.Query().Has("dry_run") && r.URL.Query().Get("dry_run") == "")
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.isAlias(alias) {
		if _, isIndex := c.indices[alias]; isIndex {
			c.fail(w, r, badRequest("rollover target [%s] is not an alias", alias))
			return
		}
		c.fail(w, r, badRequest("rollover target [%s] does not exist", alias))
		return
	}
	old, err := c.writeIndexOf(alias)
	if err != nil {
		c.fail(w, r, badRequest("rollover target [%s] does not point to a write index", alias))
		return
	}
	if newName == "" {
		if newName, err = nextRolloverName(old.name); err != nil {
			c.fail(w, r, err)
			return
		}
	}
	results := obj{}
	met := len(conds) == 0
	keys := jsonval.SortedKeys(conds)
	sort.Strings(keys)
	for _, k := range keys {
		s, _ := jsonval.String(conds[k])
		var ok bool
		switch k {
		case "max_docs":
			n, valid := asInt(conds[k])
			if !valid {
				c.fail(w, r, parsingErr("[rollover] failed to parse field [max_docs]"))
				return
			}
			ok = old.liveCount() >= n
		case "max_age":
			d, aerr := parseTimeValue("max_age", s)
			if aerr != nil {
				c.fail(w, r, aerr)
				return
			}
			ok = c.now().Sub(time.UnixMilli(old.created)) >= d
		case "max_size", "max_primary_shard_size":
			n, valid := parseByteSize(s)
			if !valid {
				c.fail(w, r, badRequest("failed to parse setting [%s] with value [%s] as a size in bytes: unit is missing or unrecognized", k, s))
				return
			}
			ok = old.storeSize() >= n
		default:
			c.fail(w, r, parsingErr("[conditions] unknown field [%s]", k))
			return
		}
		results = append(results, kv{"[" + k + ": " + s + "]", ok})
		met = met || ok
	}
	out := func(rolled bool) obj {
		return obj{{"acknowledged", rolled}, {"shards_acknowledged", rolled}, {"old_index", old.name}, {"new_index", newName},
			{"rolled_over", rolled}, {"dry_run", dryRun}, {"conditions", results}}
	}
	if dryRun || !met {
		c.reply(w, r, 200, out(false))
		return
	}
	if _, exists := c.indices[newName]; exists {
		e := errf(400, "resource_already_exists_exception", "index [%s/%s] already exists", newName, c.indices[newName].uuid)
		e.index = newName
		c.fail(w, r, e)
		return
	}
	ix, err := c.createIndex(newName, create)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	// An explicit write alias stays on the old index as a read alias; an implicit one moves.
	def := old.aliases[alias]
	if def.isWrite != nil && *def.isWrite {
		f, t := false, true
		nd := *def
		nd.isWrite = &t
		def.isWrite = &f
		if ix.aliases == nil {
			ix.aliases = map[string]*aliasDef{}
		}
		ix.aliases[alias] = &nd
	} else {
		delete(old.aliases, alias)
		if ix.aliases == nil {
			ix.aliases = map[string]*aliasDef{}
		}
		nd := *def
		ix.aliases[alias] = &nd
	}
	ix.gen++
	old.gen++
	c.reply(w, r, 200, out(true))
}
