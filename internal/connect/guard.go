package connect

import (
	"os"
	"os/signal"
	"syscall"
)

// guarded are the signals the guard watches while a session's files exist.
var guarded = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// guard watches for signals to svcui until the returned function is called. SIGINT is
// the client's (Ctrl-C reaches both processes) and changes nothing. SIGTERM and SIGHUP end
// the session: the files go at once, then the client gets the same signal (cmd.Cancel).
// Catching SIGHUP also keeps svcui alive long enough to do that.
func (s *Session) guard() (disarm func()) {
	sigc := make(chan os.Signal, 1)
	stop := make(chan struct{})
	signal.Notify(sigc, guarded...)
	go func() {
		for {
			select {
			case sig := <-sigc:
				if sig == os.Interrupt {
					continue
				}
				s.mu.Lock()
				if s.sig == nil {
					s.sig = sig
				}
				s.mu.Unlock()
				_ = s.removeFiles()
				s.cancel()
			case <-stop:
				return
			}
		}
	}()
	return func() {
		signal.Stop(sigc)
		close(stop)
	}
}
