// Package api is the typed client of the platform's management API (/v1).
//
// One Client serves the whole program: it adds the token to every call but GET
// /v1/clouds, retries what is safe to retry (reads on 429, 5xx and connection errors;
// writes only on 429 and when nothing reached the server), bounds concurrency with a
// shared limiter, collapses identical in-flight reads, and records the rate-limit
// headers for the console. Errors are *Error values that never carry the token or a
// password; Message turns any error into the sentence to show a person.
package api
