func TestA(t *T) {
	if x {
	}
}

func TestA(t *T) {
	check(x)
	done()
	check(x)
}
