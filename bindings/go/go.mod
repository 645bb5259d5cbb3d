module github.com/v4a-dev/v4a/bindings/go

go 1.21
