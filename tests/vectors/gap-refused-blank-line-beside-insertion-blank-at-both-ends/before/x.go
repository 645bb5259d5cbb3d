package x

func a() int {
	return 1
}

func reset() {
	flags = nil
}
