package safe

import (
	"encoding/json"
	"reflect"
	"testing"
)

// A document with a bidi override or a control in a string is copied with the
// characters escaped as JSON escapes them: the copy decodes to the same data, and the
// clipboard's Copy has nothing left to remove.
func TestJSONEscapesWhatCopyWouldRemove(t *testing.T) {
	doc := "{\n  \"name\": \"report\u202egpj.exe\",\n  \"zw\": \"a\u200bb\\u001b\x1b\u0085\"\n}"
	got := JSON(doc)
	want := "{\n  \"name\": \"report\\u202egpj.exe\",\n  \"zw\": \"a\\u200bb\\u001b\\u001b\\u0085\"\n}"
	if got != want {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
	var a, b any
	if err := json.Unmarshal([]byte(got), &a); err != nil {
		t.Fatal(err)
	}
	_ = json.Unmarshal([]byte("{\"name\": \"report\u202egpj.exe\", \"zw\": \"a\u200bb\\u001b\\u001b\u0085\"}"), &b)
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("the copy is other data: %v vs %v", a, b)
	}
	if out, removed := Copy(got); removed != 0 || out != got {
		t.Fatalf("Copy still removed %d characters", removed)
	}
	if s := "{\"plain\": \"text ✓\"}"; JSON(s) != s {
		t.Fatal("plain JSON changed")
	}
}
