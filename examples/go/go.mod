module github.com/v4a-dev/v4a/examples/go

go 1.21

require github.com/v4a-dev/v4a/bindings/go v0.0.0

// The binding in this repository (build the library first: cargo build --release).
replace github.com/v4a-dev/v4a/bindings/go => ../../bindings/go
