//go:build tools

// The programs of filippo.io/age v1.3.2 the interop tests build by import
// path (`go build filippo.io/age/cmd/age`), listed so that `go mod tidy`
// keeps what they need in go.mod and go.sum.
package main

import (
	_ "filippo.io/age/cmd/age"
	_ "filippo.io/age/cmd/age-inspect"
	_ "filippo.io/age/cmd/age-plugin-batchpass"
)
