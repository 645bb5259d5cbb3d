func a() {
	x := 1
	_ = x
}

// b does things.
// more docs.
// even more.
func b() {}
