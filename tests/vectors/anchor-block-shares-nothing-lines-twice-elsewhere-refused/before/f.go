func a() {
	x := 1
}

var z = 0

// b.
var b = 1
var c = 2

// b.
var b = 1
var c = 2
