// Package api is the typed client of the platform's management API (/v1).
//
// One Client serves the whole program: it adds the token to every call but GET
// /v1/clouds, retries what is safe to retry (reads on 429, 5xx and connection errors;
// writes only on 429 and when nothing reached the server), bounds concurrency with a
// shared limiter, collapses identical in-flight reads, and records the rate-limit
// headers for the console. Errors are *Error values that never carry the token or a
// password; Message turns any error into the sentence to show a person, Detail into
// the full account for the debug log.
//
// A write sent without a usable answer is of unknown outcome (IsOutcomeUnknown): it is
// never sent again; the Find helpers read the resource back. Answers are decoded as
// they arrive, in one pass; a list entry without a name or that cannot be read is
// left out, logged and reported (WithSkipReport), and no request is ever built from an
// empty name.
package api
