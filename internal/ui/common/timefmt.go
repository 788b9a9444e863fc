package common

import (
	"fmt"
	"time"
)

// Ago renders an elapsed duration coarsely: "just now", "12s ago", "3m ago", "5h ago", "4d ago".
func Ago(d time.Duration) string {
	switch {
	case d < time.Second:
		return "just now"
	case d < time.Minute:
		return fmt.Sprintf("%ds ago", int(d/time.Second))
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d/time.Minute))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh ago", int(d/time.Hour))
	}
	return fmt.Sprintf("%dd ago", int(d/(24*time.Hour)))
}

// For renders how long something has lasted: "for 2m 10s", "for 3h 5m", "for 2d 4h".
func For(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	switch {
	case d < time.Minute:
		return fmt.Sprintf("for %ds", int(d/time.Second))
	case d < time.Hour:
		return fmt.Sprintf("for %dm %ds", int(d/time.Minute), int(d%time.Minute/time.Second))
	case d < 24*time.Hour:
		return fmt.Sprintf("for %dh %dm", int(d/time.Hour), int(d%time.Hour/time.Minute))
	}
	return fmt.Sprintf("for %dd %dh", int(d/(24*time.Hour)), int(d%(24*time.Hour)/time.Hour))
}

// ForMinutes is For to the minute ("for <1m", "for 2m", "for 1h 5m"): what --no-motion
// shows, so a time on screen changes at most once a minute.
func ForMinutes(d time.Duration) string {
	if d < time.Minute {
		return "for <1m"
	}
	if d < time.Hour {
		return fmt.Sprintf("for %dm", int(d/time.Minute))
	}
	return For(d)
}

// Age renders a timestamp's age compactly for tables: "3m", "5h", "12d"; "—" when unknown.
func Age(now, t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	d := now.Sub(t)
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d/time.Second))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d/time.Minute))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh", int(d/time.Hour))
	}
	return fmt.Sprintf("%dd", int(d/(24*time.Hour)))
}
