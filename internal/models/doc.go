// Package models holds the platform's resources as Go types: the fields and JSON tags of
// the spec, the enums (service state, user type, ACL permission, invoice state, payment
// method, role) with unknown values kept as they come, the validation rules of the spec's
// Limits, money as exact decimals, and the tolerant decoders the real platform needs.
//
// Nothing here performs I/O; both the API client and the sandbox share these types.
package models
