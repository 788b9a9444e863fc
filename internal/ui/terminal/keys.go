package terminal

import "os"

// Keys reads the terminal and turns application-mode Home and End (ESC O H, ESC O F:
// what a terminal in keypad-transmit mode sends, and what some reach the console with
// over ssh or through a multiplexer) into the forms Bubble Tea v1 knows (ESC [ H,
// ESC [ F); it took them for alt+O followed by a letter. Both forms have three bytes,
// so the translation is in place. A sequence split across two reads is not seen
// (a terminal writes a key in one piece).
//
// Keys embeds the *os.File so Bubble Tea still sees a terminal (raw mode, cancellable
// reads).
type Keys struct{ *os.File }

// Read reads from the terminal and translates what it read.
func (k Keys) Read(p []byte) (int, error) {
	n, err := k.File.Read(p)
	translateKeys(p[:n])
	return n, err
}

func translateKeys(p []byte) {
	for i := 0; i+2 < len(p); i++ {
		if p[i] == 0x1b && p[i+1] == 'O' && (p[i+2] == 'H' || p[i+2] == 'F') {
			p[i+1] = '['
			i += 2
		}
	}
}
