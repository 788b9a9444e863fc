package opensearch

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// The demo load indexes each generated document with a parsed source built from its
// values (sourceOf and the source methods), not parsed back from its JSON: that source
// must be exactly what parseSource reads from the JSON, for every document of the demo.
func TestDemoSourcesAreTheirJSONReadBack(t *testing.T) {
	check := func(what string, doc any, got map[string]any) {
		t.Helper()
		raw, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		want, aerr := parseSource(raw)
		if aerr != nil {
			t.Fatalf("%s: %s", what, aerr.Reason)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: the source built from the values differs from its JSON read back:\n%#v\n%#v", what, got, want)
		}
	}
	rng := rand.New(rand.NewPCG(42, 0x5eed))
	for _, l := range demoLogs(rng, testNow, 5000) {
		check("log", l, l.source())
	}
	for _, p := range demoProducts(rng, testNow, 200) {
		check("product", p, sourceOf(p))
	}
	for _, e := range webLogs(rand.New(rand.NewPCG(42, webLogStream)), testNow, demoWebLogs) {
		check("web log", e, e.source())
	}
	for _, f := range []float64{0, -0.5, 1e-7, 123456789e15, 1e21, 0.1 + 0.2} {
		check("float", map[string]any{"f": f}, sourceOf(map[string]any{"f": f}))
	}
}

// fillPlaceholders fills every template of the demo as a strings.Replacer would.
func TestFillPlaceholdersIsTheReplacers(t *testing.T) {
	oldnew := []string{"{order}", "ORD-1", "{user}", "u-1", "{amount}", "9.99", "{cart}", "c-1", "{n}", "7",
		"{country}", "DE", "{promo}", "VIP15", "{sku}", "SKU-1", "{ms}", "250", "{card}", "0042", "{score}", "77",
		"{query}", "yoga mat", "{category}", "Toys", "{ip}", "203.0.113.9", "{id}", "1234", "{hash}", "3f9a1c2e"}
	tpls := []string{"", "{", "}", "{}", "{nope} {n}", "{{n}}", "${amount}{amount}", "x{n", "{n}{n}"}
	for _, s := range demoServices {
		for _, l := range [][]string{s.info, s.warn, s.errs, s.debug} {
			tpls = append(tpls, l...)
		}
	}
	for _, r := range webRoutes {
		tpls = append(tpls, r.path)
	}
	r := strings.NewReplacer(oldnew...)
	for _, tpl := range tpls {
		if got, want := fillPlaceholders(tpl, oldnew...), r.Replace(tpl); got != want {
			t.Errorf("%q: %q, the Replacer gives %q", tpl, got, want)
		}
	}
}
