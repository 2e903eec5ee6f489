module github.com/signet-go/signet/cmd/signet

go 1.26.0

replace github.com/signet-go/signet => ../..

replace github.com/signet-go/signet/server => ../../server

require github.com/signet-go/signet v0.0.0-00010101000000-000000000000

require (
	golang.org/x/crypto v0.58.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
)
