package sandbox

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"

	"github.com/svcui/svcui/internal/models"
)

// apiError is a refusal: an HTTP status and the message the caller shows as it is.
type apiError struct {
	status  int
	message string
}

func (e *apiError) Error() string { return e.message }

func errorf(status int, format string, args ...any) *apiError {
	return &apiError{status: status, message: fmt.Sprintf(format, args...)}
}

func badRequest(format string, args ...any) *apiError {
	return errorf(http.StatusBadRequest, format, args...)
}

func notFound(format string, args ...any) *apiError {
	return errorf(http.StatusNotFound, format, args...)
}

func conflict(format string, args ...any) *apiError {
	return errorf(http.StatusConflict, format, args...)
}

func forbidden(format string, args ...any) *apiError {
	return errorf(http.StatusForbidden, format, args...)
}

// rawJSON is an answer already encoded as JSON.
type rawJSON []byte

// emptyBody is the answer of a successful delete: 200 and no body at all.
type emptyBody struct{}

// writeJSON answers status with v encoded as JSON and an exact Content-Length.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		b, _ = json.Marshal(models.NewErrorBody(status, "The sandbox could not encode its answer"))
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// writeError answers with the platform's error body.
func writeError(w http.ResponseWriter, status int, message string) {
	writeJSON(w, status, models.NewErrorBody(status, message))
}

// writeResult answers a handler's result: an *apiError, an empty delete answer or a body.
func writeResult(w http.ResponseWriter, body any, err error) {
	if err != nil {
		if ae, ok := err.(*apiError); ok {
			writeError(w, ae.status, ae.message)
			return
		}
		writeError(w, http.StatusInternalServerError, "The sandbox failed: "+err.Error())
		return
	}
	if _, ok := body.(emptyBody); ok {
		w.Header().Set("Content-Length", "0")
		w.WriteHeader(http.StatusOK)
		return
	}
	if raw, ok := body.(rawJSON); ok {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(len(raw)))
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(raw)
		return
	}
	writeJSON(w, http.StatusOK, body)
}
