package imports

// SetAfterChunk lets a test act after each chunk a commit wrote, inside
// its transaction (an error ends the commit, as a crash would).
func SetAfterChunk(s *Service, fn func(id int64, done int) error) { s.afterChunk = fn }
