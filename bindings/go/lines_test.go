package v4a

const bom = "\ufeff"

// lines is a text split at LF, CRLF and lone CR: each line's content, and whether the last
// line has a terminator. The tests use it to rebuild texts from structured diffs.
type lines struct {
	text       []string
	lastHasEOL bool
}

func splitLines(s string) lines {
	var l lines
	start := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\n':
			l.text = append(l.text, s[start:i])
			start = i + 1
		case '\r':
			l.text = append(l.text, s[start:i])
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
			start = i + 1
		}
	}
	l.lastHasEOL = true
	if start < len(s) {
		l.text = append(l.text, s[start:])
		l.lastHasEOL = false
	}
	return l
}
