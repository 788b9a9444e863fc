package config

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"regexp"
	"strings"
	"time"
	"unicode"

	"github.com/charmbracelet/x/ansi"
)

// TokenCommandTimeout bounds a profile's token_command.
const TokenCommandTimeout = 10 * time.Second

// maxStderr bounds how much of the first line of the command's standard error an error
// message quotes.
const maxStderr = 200

// maxStdout bounds the command's standard output: a token is a few hundred bytes, and
// the output was once read whole (500 MB printed: 2 GiB resident).
const maxStdout = 64 << 10

// keptStderr is how much of the command's standard error is kept to find its first line.
const keptStderr = 4 << 10

// RunTokenCommand runs command with `sh -c` and returns its trimmed standard output, which
// must be a single non-empty line. It gives up after TokenCommandTimeout (or when ctx ends).
// Errors carry the exit status and the first line of standard error, never what the
// command printed on standard output; that line is cut to 200 characters, its control
// characters and escape sequences removed and anything token-shaped masked (a failing
// command may print the token there). More than 64 KiB of output is an error.
func RunTokenCommand(ctx context.Context, command string) (string, error) {
	return runTokenCommand(ctx, command, TokenCommandTimeout)
}

func runTokenCommand(ctx context.Context, command string, timeout time.Duration) (string, error) {
	if strings.TrimSpace(command) == "" {
		return "", errors.New("token_command is empty")
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	cmd := exec.CommandContext(ctx, "sh", "-c", command)
	stdout := &capped{max: maxStdout, refuse: true}
	stderr := &capped{max: keptStderr}
	cmd.Stdout = stdout
	cmd.Stderr = stderr
	ownGroup(cmd)
	// A child the shell started may keep the pipes open after sh is killed; stop waiting for it.
	cmd.WaitDelay = time.Second
	err := cmd.Run()

	out := strings.TrimSpace(stdout.String())
	diag := firstLine(scrub(stderr.String(), out))
	switch {
	case stdout.over:
		// The command may have died of the closed pipe: the size is the reason.
		return "", fmt.Errorf("token_command printed more than %d KiB on standard output; it must print only the token%s", maxStdout>>10, withStderr(diag))
	case ctx.Err() != nil && errors.Is(context.Cause(ctx), context.DeadlineExceeded):
		return "", fmt.Errorf("token_command did not finish within %s%s", timeout, withStderr(diag))
	case ctx.Err() != nil:
		return "", fmt.Errorf("token_command stopped: %w", ctx.Err())
	case err != nil:
		var exitErr *exec.ExitError
		if errors.As(err, &exitErr) {
			return "", fmt.Errorf("token_command failed (exit status %d)%s", exitErr.ExitCode(), withStderr(diag))
		}
		return "", fmt.Errorf("token_command could not run: %v", err)
	case out == "":
		return "", fmt.Errorf("token_command printed nothing on standard output%s", withStderr(diag))
	case strings.ContainsFunc(out, unicode.IsSpace):
		return "", errors.New("token_command printed more than one word; it must print only the token (for pass(1): pass show NAME | head -n1)")
	}
	return out, nil
}

// scrub removes anything the command printed on standard output from its standard error,
// in case a chatty command echoes the secret there too.
func scrub(stderr, stdout string) string {
	for _, secret := range append([]string{stdout}, strings.Fields(stdout)...) {
		if len(secret) >= 4 { // shorter strings would blank out ordinary words
			stderr = strings.ReplaceAll(stderr, secret, "<redacted>")
		}
	}
	return stderr
}

func withStderr(s string) string {
	if s == "" {
		return ""
	}
	return ": " + s
}

// tokenShaped is a run that may be a secret: 16 or more characters of the base64 and
// hex alphabets (with the URL-safe ones) and dots, so a token of short dot-separated
// segments (a JWT's header.payload.signature) is one run.
var tokenShaped = regexp.MustCompile(`[A-Za-z0-9+/=_.-]{16,}`)

// firstLine is the first non-blank line of a command's standard error made fit to
// show: escape sequences and control characters removed, token-shaped runs masked as
// ***, at most maxStderr characters.
func firstLine(s string) string {
	s = ansi.Strip(strings.ToValidUTF8(s, "?"))
	var line string
	for l := range strings.FieldsFuncSeq(s, func(r rune) bool { return r == '\n' || r == '\r' }) {
		if l = strings.TrimSpace(l); l != "" {
			line = l
			break
		}
	}
	line = strings.Map(func(r rune) rune {
		switch {
		case r == '\t':
			return ' '
		case unicode.IsControl(r), r == '\u2028', r == '\u2029', unicode.Is(unicode.Bidi_Control, r):
			return -1
		}
		return r
	}, line)
	line = tokenShaped.ReplaceAllString(line, "***")
	if r := []rune(line); len(r) > maxStderr {
		line = string(r[:maxStderr]) + "…"
	}
	return strings.TrimSpace(line)
}

// capped keeps the first max bytes written to it. Past them it drops the rest, or,
// with refuse, fails the write, which closes the pipe so the command stops.
type capped struct {
	buf    bytes.Buffer
	max    int
	refuse bool
	over   bool
}

var errTooMuchOutput = errors.New("too much output")

func (c *capped) Write(p []byte) (int, error) {
	room := c.max - c.buf.Len()
	if len(p) > room {
		c.over = true
		c.buf.Write(p[:max(room, 0)])
		if c.refuse {
			return max(room, 0), errTooMuchOutput
		}
		return len(p), nil
	}
	return c.buf.Write(p)
}

func (c *capped) String() string { return c.buf.String() }
