package x

func a() int {
	return 1
}

func b() int {
	return 2
}

func reset() {
	flags = nil
}
