package main

func usage() {
	text := `
}
{ {
`
	println(text)
	run(2)
}

func other() {
	run(2)
}
