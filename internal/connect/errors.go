package connect

import (
	"fmt"
	"strings"
)

// MissingClientError says that none of a service's clients is on PATH.
type MissingClientError struct {
	Clients  []string // program names looked for, in order of preference
	Packages []string // the Debian packages that usually provide them
}

func (e *MissingClientError) Error() string {
	what := e.Clients[0] + " is not installed here (not found on PATH)"
	if len(e.Clients) > 1 {
		what = "Neither " + orList(e.Clients, "nor") + " is installed here (none is on PATH)"
	}
	return fmt.Sprintf("%s; install the Debian package %s, then connect again", what, orList(e.Packages, "or"))
}

// NeedCredentialsError says that svcui does not know a password for the user.
type NeedCredentialsError struct {
	Service string
	User    string
	Primary bool // the service's primary user
}

func (e *NeedCredentialsError) Error() string {
	if e.Primary {
		return fmt.Sprintf("svcui does not know the password of %s, the primary user of %s (the platform did not return it); "+
			"create a user with c in the service's users and connect as that user, or reset %s's credentials with R "+
			"(applications using the current password will stop working)", e.User, e.Service, e.User)
	}
	return fmt.Sprintf("svcui does not know the password of %s: the platform shows a password only when a user is created "+
		"or its credentials are reset; reset %s's credentials with R in %s's users, or create a user with c, then connect again",
		e.User, e.User, e.Service)
}

// UnsupportedError says that svcui has no client for a service type.
type UnsupportedError struct {
	Service string
	Type    string
}

func (e *UnsupportedError) Error() string {
	return fmt.Sprintf("svcui has no client for %s services like %s; copy its connection URI instead (y on the URI line of the service's detail)",
		e.Type, e.Service)
}

// orList joins names as "a, b or c" (with "nor" after "Neither").
func orList(names []string, conj string) string {
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " " + conj + " " + names[len(names)-1]
}
