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
	"github.com/svcui/svcui/internal/sandbox/opensearch/apierr"
	"github.com/svcui/svcui/internal/sandbox/opensearch/index"
	"github.com/svcui/svcui/internal/sandbox/opensearch/jsonout"
)

var rolloverName = regexp.MustCompile(`^(.*-)(\d+)$`)

// nextRolloverName is MetadataRolloverService's generated name: the number after the last '-'
// plus one, zero-padded to six digits.
func nextRolloverName(old string) (string, *apierr.Error) {
	m := rolloverName.FindStringSubmatch(old)
	if m == nil {
		return "", apierr.BadRequest("index name [%s] does not match pattern '^.*-\\d+$'", old)
	}
	n, err := strconv.Atoi(m[2])
	if err != nil {
		return "", apierr.BadRequest("index name [%s] does not match pattern '^.*-\\d+$'", old)
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
	m, _ := jsonval.Map(v)
	var conds map[string]any
	create := map[string]any{}
	for k, x := range m {
		switch k {
		case "conditions":
			if conds, _ = jsonval.Map(x); conds == nil && x != nil {
				c.fail(w, r, apierr.Parsing("[rollover] conditions must be an object"))
				return
			}
		case "settings", "mappings", "aliases":
			create[k] = x
		default:
			c.fail(w, r, apierr.WithLocation(apierr.Parsing("[rollover] unknown field [%s]", k), body))
			return
		}
	}
	dryRun := r.URL.Query().Get("dry_run") == "true" || (r.URL.Query().Has("dry_run") && r.URL.Query().Get("dry_run") == "")
	c.mu.Lock()
	defer c.mu.Unlock()
	ds := c.streams[alias]
	if ds != nil && newName != "" {
		c.fail(w, r, apierr.BadRequest("new index name may not be specified when rolling over a data stream"))
		return
	}
	if ds == nil && !c.isAlias(alias) {
		if _, isIndex := c.indices[alias]; isIndex {
			c.fail(w, r, apierr.BadRequest("rollover target [%s] is not an alias", alias))
			return
		}
		c.fail(w, r, apierr.BadRequest("rollover target [%s] does not exist", alias))
		return
	}
	var old *index.Index
	if ds != nil {
		old, newName = ds.indices[len(ds.indices)-1], backingName(ds.name, ds.generation+1)
	} else if old, err = c.writeIndexOf(alias); err != nil {
		c.fail(w, r, apierr.BadRequest("rollover target [%s] does not point to a write index", alias))
		return
	}
	if newName == "" {
		if newName, err = nextRolloverName(old.Name); err != nil {
			c.fail(w, r, err)
			return
		}
	}
	results := jsonout.Obj{}
	met := len(conds) == 0
	keys := jsonval.SortedKeys(conds)
	sort.Strings(keys)
	for _, k := range keys {
		s, _ := jsonval.String(conds[k])
		var ok bool
		switch k {
		case "max_docs":
			n, valid := jsonval.Int(conds[k])
			if !valid {
				c.fail(w, r, apierr.Parsing("[rollover] failed to parse field [max_docs]"))
				return
			}
			ok = old.LiveCount() >= n
		case "max_age":
			d, aerr := parseTimeValue("max_age", s)
			if aerr != nil {
				c.fail(w, r, aerr)
				return
			}
			ok = c.now().Sub(time.UnixMilli(old.Created)) >= d
		case "max_size", "max_primary_shard_size":
			n, valid := parseByteSize(s)
			if !valid {
				c.fail(w, r, apierr.BadRequest("failed to parse setting [%s] with value [%s] as a size in bytes: unit is missing or unrecognized", k, s))
				return
			}
			ok = old.StoreSize() >= n
		default:
			c.fail(w, r, apierr.Parsing("[conditions] unknown field [%s]", k))
			return
		}
		results = append(results, jsonout.KV{"[" + k + ": " + s + "]", ok})
		met = met || ok
	}
	out := func(rolled bool) jsonout.Obj {
		return jsonout.Obj{{"acknowledged", rolled}, {"shards_acknowledged", rolled}, {"old_index", old.Name}, {"new_index", newName},
			{"rolled_over", rolled}, {"dry_run", dryRun}, {"conditions", results}}
	}
	if dryRun || !met {
		c.reply(w, r, 200, out(false))
		return
	}
	if _, exists := c.indices[newName]; exists {
		e := apierr.Errf(400, "resource_already_exists_exception", "index [%s/%s] already exists", newName, c.indices[newName].UUID)
		e.Index = newName
		c.fail(w, r, e)
		return
	}
	if ds != nil { // a data stream's next generation (indices/data_stream/rollover.yaml)
		if _, err := c.rollStream(ds); err != nil {
			c.fail(w, r, err)
			return
		}
		old.Gen++
		c.reply(w, r, 200, out(true))
		return
	}
	ix, err := c.createIndex(newName, create)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	// An explicit write alias stays on the old index as a read alias; an implicit one moves.
	def := old.Aliases[alias]
	if def.IsWrite != nil && *def.IsWrite {
		f, t := false, true
		nd := *def
		nd.IsWrite = &t
		def.IsWrite = &f
		if ix.Aliases == nil {
			ix.Aliases = map[string]*index.AliasDef{}
		}
		ix.Aliases[alias] = &nd
	} else {
		delete(old.Aliases, alias)
		if ix.Aliases == nil {
			ix.Aliases = map[string]*index.AliasDef{}
		}
		nd := *def
		ix.Aliases[alias] = &nd
	}
	ix.Gen++
	old.Gen++
	c.reply(w, r, 200, out(true))
}
