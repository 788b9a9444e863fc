package components

import "sync"

// Shared binds a form field to a variable that a validator of another field reads. huh
// runs validators in commands, off the program's goroutine, while the field's own
// updates write the variable on it: reads and writes go through a lock here (a plain
// Value(&v) binding would race).
type Shared[T any] struct {
	mu sync.Mutex
	p  *T
}

// Share binds p.
func Share[T any](p *T) *Shared[T] { return &Shared[T]{p: p} }

// Get implements huh.Accessor; validators call it too.
func (s *Shared[T]) Get() T {
	s.mu.Lock()
	defer s.mu.Unlock()
	return *s.p
}

// Set implements huh.Accessor.
func (s *Shared[T]) Set(v T) {
	s.mu.Lock()
	*s.p = v
	s.mu.Unlock()
}
