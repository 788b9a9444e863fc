package models

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
)

// FlexInt decodes an integer given either as a JSON number or as a string holding one;
// the real platform sends ports as strings in some places. It encodes as a number.
type FlexInt int

// UnmarshalJSON accepts 5432, "5432", null and "". Anything else is a
// *json.UnmarshalTypeError, so the decoder names the field it sits in.
func (f *FlexInt) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || string(b) == "null" {
		*f = 0
		return nil
	}
	if b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		s = strings.TrimSpace(s)
		if s == "" {
			*f = 0
			return nil
		}
		n, err := strconv.Atoi(s)
		if err != nil {
			return typeError("string", reflect.TypeFor[FlexInt]())
		}
		*f = FlexInt(n)
		return nil
	}
	var n json.Number
	if err := json.Unmarshal(b, &n); err != nil {
		return typeError(jsonKind(b), reflect.TypeFor[FlexInt]())
	}
	i, err := n.Int64()
	if err != nil {
		fl, ferr := n.Float64()
		if ferr != nil {
			return typeError("number", reflect.TypeFor[FlexInt]())
		}
		i = int64(fl)
	}
	*f = FlexInt(i)
	return nil
}

// EmailList decodes a list of e-mail addresses given either as strings or as objects
// with an "email" key (the real platform's shape for contact lists). It encodes as strings.
type EmailList []string

// UnmarshalJSON accepts ["a@x"], [{"email":"a@x"}], a single string, and null.
func (l *EmailList) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || string(b) == "null" {
		*l = nil
		return nil
	}
	if b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		if s == "" {
			*l = EmailList{}
		} else {
			*l = EmailList{s}
		}
		return nil
	}
	var raw []json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	out := make(EmailList, 0, len(raw))
	for _, r := range raw {
		var s string
		if json.Unmarshal(r, &s) == nil {
			out = append(out, s)
			continue
		}
		var o struct {
			Email string `json:"email"`
		}
		if json.Unmarshal(r, &o) == nil && o.Email != "" {
			out = append(out, o.Email)
		}
	}
	*l = out
	return nil
}

// Redacted is what real platforms send instead of a secret on reads.
const Redacted = "<redacted>"

// SecretAvailable reports whether s is a usable secret: not empty and not "<redacted>".
func SecretAvailable(s string) bool {
	return s != "" && s != Redacted
}
