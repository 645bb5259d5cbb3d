package handlers

func first() {
	setup()
	log.Print("extra one")
	log.Print("extra two")
	run(config)
	teardown()
}

func second() {
	setup()
	run(config)
	log.Print("other one")
	log.Print("other two")
	teardown()
}
