package search

import (
	"context"
	"fmt"
	"sync"
)

// ReauthFunc gives the service user's current credentials, read again from their
// source (the platform's connection details), after the service refused the ones in use.
type ReauthFunc func(ctx context.Context) (user, password string, err error)

// WithReauth makes the client answer a 401 by calling f once and, when the user or
// password it gives differ, sending the request once more with them. They are kept
// for later requests. The retry is never repeated: a second 401 is the answer.
func WithReauth(f ReauthFunc) Option { return func(c *clientConfig) { c.reauth = f } }

// ReauthEvent says what happened when a 401 made the client ask for the credentials again.
type ReauthEvent struct {
	// OldUser was refused; NewUser is what the connection details give now.
	OldUser, NewUser string
	// Unchanged means the connection details still give the refused credentials,
	// so the request was not sent again.
	Unchanged bool
}

// Sentence tells the user what happened, e.g. "The password of avnadmin changed
// elsewhere; reconnected with the new one." It never contains a password.
func (e ReauthEvent) Sentence() string {
	switch {
	case e.Unchanged:
		return fmt.Sprintf("The service refused the password of %s, and the connection details still give that same password.", e.OldUser)
	case e.OldUser != e.NewUser:
		return fmt.Sprintf("The service user changed elsewhere from %s to %s; reconnected as %s.", e.OldUser, e.NewUser, e.NewUser)
	}
	return fmt.Sprintf("The password of %s changed elsewhere; reconnected with the new one.", e.NewUser)
}

// ReauthError means the service refused the credentials (401) and asking for them
// again failed.
type ReauthError struct {
	User string
	Err  error
}

func (e *ReauthError) Error() string {
	return fmt.Sprintf("the service refused the password of %s (401), and reading the connection details again failed: %v", e.User, e.Err)
}

func (e *ReauthError) Unwrap() error { return e.Err }

// credentials are the user and password requests are sent with. gen counts changes,
// so concurrent requests refused with the same old password ask for new ones once.
type credentials struct {
	mu       sync.Mutex
	user     string
	password string
	gen      uint64
	// refresh serialises calls of the ReauthFunc.
	refresh sync.Mutex
}

func (c *credentials) get() (user, password string, gen uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.user, c.password, c.gen
}

func (c *credentials) set(user, password string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.user, c.password = user, password
	c.gen++
}

// reauthenticate is called after user/password (read at generation gen) got a 401. When
// another request already replaced them it reuses the newer ones without asking again.
func (c *Client) reauthenticate(ctx context.Context, user, password string, gen uint64) (*ReauthEvent, string, string, error) {
	c.creds.refresh.Lock()
	defer c.creds.refresh.Unlock()
	nu, np, ngen := c.creds.get()
	if ngen == gen {
		var err error
		nu, np, err = c.cfg.reauth(ctx)
		if err != nil {
			return nil, "", "", &ReauthError{User: user, Err: redact(redact(err, password), np)}
		}
		if nu == "" {
			nu = user // a source that gives only a password keeps the user
		}
		if nu == user && np == password {
			return &ReauthEvent{OldUser: user, NewUser: user, Unchanged: true}, user, password, nil
		}
		c.creds.set(nu, np)
	}
	return &ReauthEvent{OldUser: user, NewUser: nu}, nu, np, nil
}
