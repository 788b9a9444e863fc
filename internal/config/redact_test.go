package config

import (
	"bytes"
	"fmt"
	"log/slog"
	"strings"
	"testing"
)

func TestSecretsNeverPrinted(t *testing.T) {
	const secret = "svcv1-very-secret-token"
	p := Profile{APIURL: "https://h", Token: secret, TokenCommand: "echo " + secret}
	s := Settings{ProfileName: "p", APIURL: "https://h", Token: secret, TokenSource: TokenFromProfile}
	cfg := &Config{Profiles: map[string]Profile{"p": p}}

	var out bytes.Buffer
	for _, v := range []any{p, &p, s, &s, cfg, *cfg, s.Redacted(), p.Redacted()} {
		for _, verb := range []string{"%v", "%+v", "%#v", "%s"} {
			fmt.Fprintf(&out, verb+"\n", v)
		}
	}
	logger := slog.New(slog.NewTextHandler(&out, nil))
	logger.Info("settings", "settings", s, "profile", p)
	slog.New(slog.NewJSONHandler(&out, nil)).Info("settings", "settings", s, "profile", p)

	if strings.Contains(out.String(), secret) {
		t.Fatalf("a secret was printed:\n%s", out.String())
	}
	if !strings.Contains(out.String(), Mask) {
		t.Fatal("the mask never appears: nothing was actually formatted")
	}
	// Redacted copies leave the original usable.
	if s.Redacted().Token != Mask || s.Token != secret || p.Redacted().Token != Mask || p.Token != secret {
		t.Error("Redacted must mask a copy only")
	}
	if (Settings{}).Redacted().Token != "" {
		t.Error("an empty token must stay empty, not look configured")
	}
}
