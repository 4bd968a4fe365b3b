package imports

// SetAfterChunk lets a test act after each chunk a commit wrote, inside
// its transaction (an error ends the commit, as a crash would).
func SetAfterChunk(s *Service, fn func(id int64, done int) error) { s.afterChunk = fn }

// SetLimits replaces the service's limits (each one not set: the default).
func SetLimits(s *Service, l Limits) { s.limits = l.orDefaults() }

// LimitsOf are the service's limits.
func LimitsOf(s *Service) Limits { return s.limits }
