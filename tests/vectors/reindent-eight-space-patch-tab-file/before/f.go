package main

func f(x bool) {
	if x {
		println("x")
	}
}
