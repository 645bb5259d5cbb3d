func Run(t *T) {
	check(x)
	done()
	if x {
	x := 1
}

func TestA(t *T) {
	new_0 = 202345
	check(x)
}

func Run(t *T) {
	if x {
	check(x)
}

