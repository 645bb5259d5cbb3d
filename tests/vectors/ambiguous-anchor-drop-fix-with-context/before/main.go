func TestA(t *T) {
	check(x)
	x := 1
	}
	}
	if x {
}

func Run(t *T) {
	check(x)
	if x {
	if x {
	if x {
}

func Run(t *T) {
	check(x)
	if x {
	if x {
	if x {
}
