package main

func f(x bool) {
	if !x {
		return
	}
	if x {
		println("x")
	}
}
