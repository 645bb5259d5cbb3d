package main

func usage() {
	text := `
}
{ {
`
	println(text)
	run(4)
}

func other() {
	run(2)
}
