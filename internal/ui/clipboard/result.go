package clipboard

// Level says how sure svcui can be that a copy landed where the user can paste from.
type Level int

const (
	// Failed: nothing was copied.
	Failed Level = iota
	// Sent: an OSC 52 escape went to the terminal; whether it lands depends on the terminal
	// (and on the multiplexer in between), which svcui cannot observe.
	Sent
	// Copied: the value is stored where the user can paste from: the system clipboard, or
	// tmux's paste buffer.
	Copied
)

// String names the level for logs and tests.
func (l Level) String() string {
	switch l {
	case Sent:
		return "sent"
	case Copied:
		return "copied"
	}
	return "failed"
}

// Method names how a copy was done.
type Method string

// Methods a copy can take; None when the copy was off or failed before anything was sent.
const (
	None        Method = ""
	NativeCopy  Method = "native"           // the system clipboard (atotto: pbcopy, xclip, xsel, wl-copy, …)
	TmuxBuffer  Method = "tmux load-buffer" // `tmux load-buffer -w -`: tmux's buffer, then OSC 52 from tmux
	RawOSC52    Method = "osc52"            // OSC 52 written to the terminal
	ScreenOSC52 Method = "osc52 screen"     // OSC 52 inside GNU screen's DCS passthrough
	FarOSC52    Method = "osc52 far"        // raw and screen-wrapped OSC 52, for a multiplexer across SSH
)

// Result says what a copy did. It never contains the copied value.
type Result struct {
	// Text is one sentence saying what was done and what it depends on, for the footer or
	// the modal that asked for the copy.
	Text   string
	Level  Level
	Method Method
	// OK is Level == Copied: kept for callers that only tell success from a warning. A
	// Sent result is not OK, so no caller shows "✓" for a copy that may not have landed.
	OK bool
}

func result(level Level, method Method, text string) Result {
	return Result{Text: text, Level: level, Method: method, OK: level == Copied}
}
