package config

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"
	"unicode"
)

// TokenCommandTimeout bounds a profile's token_command.
const TokenCommandTimeout = 10 * time.Second

// maxStderr bounds how much of the command's standard error an error message quotes.
const maxStderr = 512

// RunTokenCommand runs command with `sh -c` and returns its trimmed standard output, which
// must be a single non-empty line. It gives up after TokenCommandTimeout (or when ctx ends).
// Errors carry the exit status and standard error, never what the command printed on
// standard output.
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
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	// A child the shell started may keep the pipes open after sh is killed; stop waiting for it.
	cmd.WaitDelay = time.Second
	err := cmd.Run()

	out := strings.TrimSpace(stdout.String())
	diag := scrub(strings.TrimSpace(stderr.String()), out)
	switch {
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
	if len(s) > maxStderr {
		s = strings.ToValidUTF8(s[:maxStderr], "") + "…"
	}
	return ": " + s
}
