func f() {
	if x {
		y = 1
	}
}
