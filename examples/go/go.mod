module github.com/v4a-dev/v4a/examples/go

go 1.21

require github.com/v4a-dev/v4a/bindings/go v0.0.0

// The binding in this repository (outside it: go get github.com/v4a-dev/v4a/bindings/go).
replace github.com/v4a-dev/v4a/bindings/go => ../../bindings/go
