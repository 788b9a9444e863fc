package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
)

func encodeBody(in any) ([]byte, error) { return json.Marshal(in) }

var (
	errNotObject  = errors.New("the answer is not a JSON object")
	errMissingKey = errors.New("the answer lacks the expected field")
)

// decodeKey reads the value under key of a JSON object answer in one pass (the other
// keys are skipped). A missing key (or null for a non-list value) makes the answer
// unreadable; a null list is an empty list.
func decodeKey[T any](body []byte, key string, nullOK bool) (T, error) {
	var zero T
	dec := json.NewDecoder(bytes.NewReader(body))
	tok, err := dec.Token()
	if err != nil {
		return zero, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return zero, errNotObject
	}
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return zero, err
		}
		if k, _ := kt.(string); k != key {
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return zero, err
			}
			continue
		}
		var v *T
		if err := dec.Decode(&v); err != nil {
			return zero, err
		}
		if v == nil {
			if nullOK {
				return zero, nil
			}
			return zero, fmt.Errorf("%w %q (it is null)", errMissingKey, key)
		}
		return *v, nil
	}
	if _, err := dec.Token(); err != nil { // the closing brace: a truncated answer fails here
		return zero, err
	}
	return zero, fmt.Errorf("%w %q", errMissingKey, key)
}

// decodeFlat reads an answer that is the object itself (connection info, estimate,
// credits).
func decodeFlat[T any](body []byte) (T, error) {
	var v T
	b := bytes.TrimSpace(body)
	if len(b) == 0 || b[0] != '{' {
		return v, errNotObject
	}
	if err := json.Unmarshal(b, &v); err != nil {
		var zero T
		return zero, err
	}
	return v, nil
}

// getList performs a GET and returns the list under key.
func getList[T any](c *Client, ctx context.Context, path string, query url.Values, key string) ([]T, error) {
	resp, err := c.call(ctx, http.MethodGet, path, query, nil)
	if err != nil {
		return nil, err
	}
	v, err := decodeKey[[]T](resp.body, key, true)
	if err != nil {
		return nil, c.unreadable(http.MethodGet, path, resp.status, err)
	}
	return v, nil
}

// doObject performs a call and returns the object under key.
func doObject[T any](c *Client, ctx context.Context, method, path string, in any, key string) (T, error) {
	var zero T
	resp, err := c.call(ctx, method, path, nil, in)
	if err != nil {
		return zero, err
	}
	v, err := decodeKey[T](resp.body, key, false)
	if err != nil {
		return zero, c.unreadable(method, path, resp.status, err)
	}
	return v, nil
}

// getFlat performs a GET whose answer is the object itself.
func getFlat[T any](c *Client, ctx context.Context, path string) (T, error) {
	var zero T
	resp, err := c.call(ctx, http.MethodGet, path, nil, nil)
	if err != nil {
		return zero, err
	}
	v, err := decodeFlat[T](resp.body)
	if err != nil {
		return zero, c.unreadable(http.MethodGet, path, resp.status, err)
	}
	return v, nil
}

// doNoContent performs a call whose success answer carries nothing we need: an empty
// body, {"message": ...}, or anything else that is JSON. A non-JSON success body is
// still accepted for deletes (the spec promises an empty body; anything else is noise).
func doNoContent(c *Client, ctx context.Context, method, path string, in any) error {
	resp, err := c.call(ctx, method, path, nil, in)
	if err != nil {
		return err
	}
	b := bytes.TrimSpace(resp.body)
	if len(b) == 0 || method == http.MethodDelete {
		return nil
	}
	if !json.Valid(b) {
		return c.unreadable(method, path, resp.status, errors.New("the answer is not JSON"))
	}
	return nil
}

// seg escapes one path segment.
func seg(s string) string { return url.PathEscape(s) }

func isMissingKey(err error) bool { return errors.Is(err, errMissingKey) }
