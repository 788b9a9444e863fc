package config

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"unicode"
)

type fieldProblem struct{ key, msg string }

// problems lists what is wrong with p, each tied to the key it concerns.
func (p Profile) problems() []fieldProblem {
	var out []fieldProblem
	if p.APIURL != "" {
		if err := ValidateAPIURL(p.APIURL); err != nil {
			out = append(out, fieldProblem{"api_url", "api_url " + err.Error()})
		}
	}
	if p.Token != "" && p.TokenCommand != "" {
		out = append(out, fieldProblem{"token_command", "set either token or token_command, not both"})
	}
	if p.Token != "" && strings.ContainsFunc(p.Token, unicode.IsSpace) {
		// Never quote the token: say only what is wrong with it.
		out = append(out, fieldProblem{"token", "token contains white space"})
	}
	return out
}

// Validate reports the first problem of p, for callers that build a profile themselves
// (the welcome screen); Load reports all of them with line numbers.
func (p Profile) Validate() error {
	if ps := p.problems(); len(ps) > 0 {
		return errors.New(ps[0].msg)
	}
	return nil
}

// ValidateAPIURL accepts absolute http(s) URLs without credentials, query or fragment.
// Its errors never quote the URL, which may carry a password in its user part.
func ValidateAPIURL(raw string) error {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return errors.New("is not a valid URL")
	}
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return errors.New("must start with http:// or https://")
	case u.Host == "" || u.Hostname() == "":
		return errors.New("has no host")
	case u.User != nil:
		return errors.New("must not contain a user name or password; put the token in token or token_command")
	case u.RawQuery != "" || u.ForceQuery:
		return errors.New("must not have a query (?...)")
	case u.Fragment != "":
		return errors.New("must not have a fragment (#...)")
	}
	return nil
}

// NormalizeAPIURL trims white space and a trailing slash, so "https://h/" and "https://h"
// are the same endpoint.
func NormalizeAPIURL(raw string) string {
	return strings.TrimRight(strings.TrimSpace(raw), "/")
}

// validateProfileName accepts any printable name that is not blank.
func validateProfileName(name string) error {
	if strings.TrimSpace(name) == "" {
		return errors.New("a profile name is empty")
	}
	if strings.ContainsFunc(name, func(r rune) bool { return unicode.IsControl(r) || r == unicode.ReplacementChar }) {
		return fmt.Errorf("profile name %q contains control characters", truncate(name, 40))
	}
	return nil
}
