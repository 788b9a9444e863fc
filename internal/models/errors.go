package models

// ErrorBody is the platform's error body: {errors:[{message,status}], message}.
type ErrorBody struct {
	Errors  []ErrorItem `json:"errors"`
	Message string      `json:"message,omitempty"`
}

// ErrorItem is one entry of an error body.
type ErrorItem struct {
	Message string  `json:"message"`
	Status  FlexInt `json:"status"`
}

// NewErrorBody builds the body the sandbox sends: both the array and the top-level message.
func NewErrorBody(status int, message string) ErrorBody {
	return ErrorBody{Errors: []ErrorItem{{Message: message, Status: FlexInt(status)}}, Message: message}
}

// FirstMessage returns the message to show a person.
func (e ErrorBody) FirstMessage() string {
	for _, it := range e.Errors {
		if it.Message != "" {
			return it.Message
		}
	}
	return e.Message
}
