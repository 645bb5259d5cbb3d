func a() {
	x := 1

	return
}

// b does things.
// more docs.

// even more.
func b() {}
