func TestA(t *T) {
	check(x)
	done()
	done()
	x := 1
}

func Run(t *T) {
	if x {
	}
	if x {
	check(x)
}

