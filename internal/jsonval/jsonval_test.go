package jsonval

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestDecodeKeepsKeyOrderAndLastValue(t *testing.T) {
	v, err := Decode([]byte(`{"z":1,"a":{"y":true,"b":null},"z":2.50}`))
	if err != nil {
		t.Fatal(err)
	}
	o := v.(*Object)
	if got := keysOf(o); got != "z,a" {
		t.Fatalf("keys %q, want z,a (first place kept)", got)
	}
	if got := Compact(o); got != `{"z":2.50,"a":{"y":true,"b":null}}` {
		t.Fatalf("compact %s", got)
	}
	o.Delete("z")
	o.Set("c", []any{json.Number("1"), "x"})
	if got := Compact(o); got != `{"a":{"y":true,"b":null},"c":[1,"x"]}` {
		t.Fatalf("after edit %s", got)
	}
}

// A key with a control character stays valid JSON when written back (Go's quoting would
// write \a, which JSON does not have), and text is escaped as OpenSearch writes it: < > &
// as they are, where encoding/json would write \u003c.
func TestWriteEscapesAsTheEngineDoes(t *testing.T) {
	v, err := Decode([]byte(`{"ok":1,"bell\u0007key":"<b>&amp;</b>"}`))
	if err != nil {
		t.Fatal(err)
	}
	got := Compact(v)
	if !json.Valid([]byte(got)) {
		t.Fatalf("not JSON: %s", got)
	}
	if want := `{"ok":1,"bell\u0007key":"<b>&amp;</b>"}`; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
	if got := Compact(string([]byte{'a', 0xff})); got != `"a\ufffd"` {
		t.Fatalf("invalid UTF-8 written as %s", got)
	}
}

func TestDecodeRefusesDeepNestingAndTrailingData(t *testing.T) {
	deep := strings.Repeat("[", MaxDepth+2) + strings.Repeat("]", MaxDepth+2)
	if _, err := Decode([]byte(deep)); !errors.Is(err, ErrTooDeep) {
		t.Fatalf("deep: %v, want ErrTooDeep", err)
	}
	if _, err := Decode([]byte(`{} {}`)); err == nil {
		t.Fatal("trailing data accepted")
	}
}

func TestReadersAgreeOnNumbersAndText(t *testing.T) {
	if f, ok := Float(json.Number("1.5e3")); !ok || f != 1500 {
		t.Fatalf("Float(json.Number) = %v %v", f, ok)
	}
	if f, ok := Float(" 42 "); !ok || f != 42 {
		t.Fatalf("Float(string) = %v %v", f, ok)
	}
	if _, ok := Float(true); ok {
		t.Fatal("a bool read as a number")
	}
	for in, want := range map[any]int64{json.Number("7"): 7, "7": 7, json.Number("2.0"): 2, json.Number("9007199254740992"): 1 << 53} {
		if n, ok := Int64(in); !ok || n != want {
			t.Errorf("Int64(%#v) = %d %v, want %d", in, n, ok, want)
		}
	}
	for _, in := range []any{json.Number("2.5"), true, "x", json.Number("9007199254740993")} {
		if n, ok := Int64(in); ok {
			t.Errorf("Int64(%#v) = %d, want refused", in, n)
		}
	}
	if s, ok := String(json.Number("007")); !ok || s != "007" {
		t.Fatalf("String(json.Number) = %q, want as written", s)
	}
}

func keysOf(o *Object) string {
	var keys []string
	for _, m := range o.Members() {
		keys = append(keys, m.K)
	}
	return strings.Join(keys, ",")
}

// Past indexAfter members, repeated keys are found through the index: still first place,
// last value, and every key once.
func TestDecodeLargeObjectKeepsEachKeyOnce(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{`)
	for i := 0; i < 3*indexAfter; i++ {
		fmt.Fprintf(&b, `"k%d":%d,`, i, i)
	}
	fmt.Fprintf(&b, `"k0":"last","k%d":"late"}`, 2*indexAfter)
	v, err := Decode([]byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	o := v.(*Object)
	if o.Len() != 3*indexAfter || o.Members()[0].K != "k0" || o.Value("k0") != "last" || o.Value(fmt.Sprintf("k%d", 2*indexAfter)) != "late" {
		t.Fatalf("len %d, first %q, k0 %v", o.Len(), o.Members()[0].K, o.Value("k0"))
	}
}

// The sandbox builds answers as literals of the same type the console decodes.
func TestLiteralObjectsWriteInOrder(t *testing.T) {
	o := Object{{"took", 3}, {"hits", []Object{{{"_id", "a"}}, {{"_id", "b"}}}}, {"ratio", 0.5}}
	if got, want := Compact(o), `{"took":3,"hits":[{"_id":"a"},{"_id":"b"}],"ratio":0.5}`; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
}
