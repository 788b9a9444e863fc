package search

import (
	"errors"
	"strings"
	"testing"
)

func TestTargetFromServiceURI(t *testing.T) {
	cases := []struct {
		in         string
		host       string
		port       int
		user, pass string
	}{
		{"https://avnadmin:pw@os-demo.example.com:24947", "os-demo.example.com", 24947, "avnadmin", "pw"},
		{"https://os-demo.example.com:9200", "os-demo.example.com", 9200, "", ""},
		{"https://avnadmin:pw@os-demo.example.com", "os-demo.example.com", 443, "avnadmin", "pw"},
		{"avnadmin:pw@os-demo.example.com:1234", "os-demo.example.com", 1234, "avnadmin", "pw"},
		{"  HTTPS://u@h:1/  ", "h", 1, "u", ""},
		{"https://u:p%40ss@[::1]:9200", "::1", 9200, "u", "p@ss"},
	}
	for _, c := range cases {
		tg, err := TargetFromServiceURI(c.in, "PEM")
		if err != nil {
			t.Fatalf("%q: %v", c.in, err)
		}
		if tg.Host != c.host || tg.Port != c.port || tg.Username != c.user || tg.Password != c.pass || tg.CACertPEM != "PEM" {
			t.Fatalf("%q → %+v", c.in, tg)
		}
	}
}

func TestTargetFromServiceURIErrorsHideThePassword(t *testing.T) {
	bad := []string{"", "http://u:hunter2secret@h:1", "https://u:hunter2secret@:1", "https://u:hunter2secret@h:99999", "https://u:hunter2secret@h:x1", "https://u:hunter2secret@h%zz:1"}
	for _, in := range bad {
		_, err := TargetFromServiceURI(in, "")
		if err == nil {
			t.Fatalf("%q accepted", in)
		}
		if !errors.Is(err, ErrInvalidServiceURI) {
			t.Fatalf("%q: error not wrapping ErrInvalidServiceURI: %v", in, err)
		}
		if strings.Contains(err.Error(), "hunter2secret") {
			t.Fatalf("%q: error leaks password: %v", in, err)
		}
	}
}

func TestTargetStringHidesPassword(t *testing.T) {
	tg := Target{Host: "h", Port: 9200, Username: "u", Password: "hunter2secret"}
	if s := tg.String(); strings.Contains(s, "hunter2secret") || s != "https://u@h:9200" {
		t.Fatalf("String() = %q", s)
	}
	if tg.BaseURL() != "https://h:9200" {
		t.Fatalf("BaseURL() = %q", tg.BaseURL())
	}
	if (Target{Host: "::1"}).BaseURL() != "https://[::1]:443" {
		t.Fatal("IPv6 base URL not bracketed")
	}
}
