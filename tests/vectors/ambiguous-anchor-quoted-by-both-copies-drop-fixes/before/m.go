func Run(t *T) {
	done()
	done()
}

func TestA(t *T) {
	done()
	done()
}

func TestA(t *T) {
	done()
	done()
}

