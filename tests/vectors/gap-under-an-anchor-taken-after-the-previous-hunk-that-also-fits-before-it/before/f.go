func TestA(t *T) {
	x := 1
	done()
}

func TestB(t *T) {
	x := 1
	done()
}

func TestB(t *T) {
	}
	check(x)
	}
	x := 1
	if x {
}

func Run(t *T) {
	}
	done()
	}
	x := 1
}

func TestA(t *T) {
	check(x)
	done()
}

