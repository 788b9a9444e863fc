package jsoncolor

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
)

var seeds = []string{
	`{"level":"INFO","n":3,"ok":true,"x":null,"f":false}`,
	"{\n  \"a\" : [1, -2.5e+10, \"s\\\"q\", {\"b\": {}}],\n  \"c\": \"\\u00e9\"\n}\n",
	`[]`, `""`, `"key": "not a key in valid JSON, but text"`, `0`, `-0.0E-1`,
	`{"unterminated`, "\"line\nbreak\"", `{"a":tru}`, "\xff\xfe{", `\x1b]0;pwned`,
	`{"a" :"b"  ,  "c":[ "d" , "e" ] }`, `nullx`, `[1,2`, `"\\"`, `"\`,
}

// The tokens of any text concatenate back to it, and on valid JSON each token's kind is
// the one encoding/json's decoder gives that position (keys told from values).
func FuzzTokens(f *testing.F) {
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		toks := Tokens(s)
		var b strings.Builder
		for _, tk := range toks {
			if tk.Text == "" {
				t.Fatalf("empty token in %q", s)
			}
			b.WriteString(tk.Text)
		}
		if b.String() != s {
			t.Fatalf("tokens do not make the input:\n in  %q\n out %q", s, b.String())
		}
		if json.Valid([]byte(s)) {
			checkKinds(t, s, toks)
		}
	})
}

func TestSeeds(t *testing.T) {
	valid := 0
	for _, s := range seeds {
		toks := Tokens(s)
		var b strings.Builder
		for _, tk := range toks {
			b.WriteString(tk.Text)
		}
		if b.String() != s {
			t.Fatalf("lossy on %q", s)
		}
		if json.Valid([]byte(s)) {
			valid++
			checkKinds(t, s, toks)
		}
	}
	if valid < 6 {
		t.Fatalf("only %d valid seeds: the kind check is barely exercised", valid)
	}
}

// checkKinds walks encoding/json's token stream beside ours.
func checkKinds(t *testing.T, s string, toks []Token) {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	// Container stack: true for an object; keyNext says the next string in an object
	// is a key.
	var stack []bool
	keyNext := false
	var ours []Token
	for _, tk := range toks {
		switch {
		case tk.Kind == Space:
			if strings.Trim(tk.Text, " \t\r\n") != "" {
				t.Fatalf("space token %q in %q", tk.Text, s)
			}
		case tk.Kind == Punct && (tk.Text == "," || tk.Text == ":"):
			// the decoder does not report these
		default:
			ours = append(ours, tk)
		}
	}
	n := 0
	for {
		jt, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("decoder on valid %q: %v", s, err)
		}
		if n >= len(ours) {
			t.Fatalf("fewer tokens than the decoder's in %q", s)
		}
		tk := ours[n]
		n++
		inObject := len(stack) > 0 && stack[len(stack)-1]
		var want Kind
		switch v := jt.(type) {
		case json.Delim:
			want = Punct
			if tk.Text != v.String() {
				t.Fatalf("delimiter %q, want %q in %q", tk.Text, v, s)
			}
			switch v {
			case '{':
				stack, keyNext = append(stack, true), true
			case '[':
				stack = append(stack, false)
			default:
				stack = stack[:len(stack)-1]
				keyNext = len(stack) > 0 && stack[len(stack)-1]
			}
		case string:
			want = String
			if inObject && keyNext {
				want = Key
			}
			var got string
			if err := json.Unmarshal([]byte(tk.Text), &got); err != nil || got != v {
				t.Fatalf("string token %q is not %q in %q", tk.Text, v, s)
			}
		case json.Number:
			want = Number
			if tk.Text != string(v) {
				t.Fatalf("number token %q, want %q in %q", tk.Text, v, s)
			}
		case bool, nil:
			want = Literal
			if b, _ := json.Marshal(v); tk.Text != string(b) {
				t.Fatalf("literal token %q, want %s in %q", tk.Text, b, s)
			}
		}
		if tk.Kind != want {
			t.Fatalf("token %q is kind %d, want %d in %q", tk.Text, tk.Kind, want, s)
		}
		if _, isDelim := jt.(json.Delim); !isDelim && inObject {
			keyNext = !keyNext
		}
	}
	if n != len(ours) {
		t.Fatalf("%d tokens beyond the decoder's in %q: %q", len(ours)-n, s, ours[n:])
	}
}

func TestColourWrapsByKind(t *testing.T) {
	var st Styles
	st[Key] = [2]string{"<k>", "</k>"}
	st[String] = [2]string{"<s>", "</s>"}
	st[Punct] = [2]string{"<p>", "</p>"}
	got := Colour(`{"a": "b", "n": 1}`, &st)
	want := `<p>{</p><k>"a"</k><p>:</p> <s>"b"</s><p>,</p> <k>"n"</k><p>:</p> 1<p>}</p>`
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	if bytes.Contains([]byte(Colour("  \n", &st)), []byte("<")) {
		t.Fatal("space coloured")
	}
}
