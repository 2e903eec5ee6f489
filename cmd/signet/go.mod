module github.com/signet-go/signet/cmd/signet

go 1.26.0

replace github.com/signet-go/signet => ../..

replace github.com/signet-go/signet/server => ../../server

require (
	github.com/redis/go-redis/v9 v9.23.0
	github.com/signet-go/signet v0.0.0-00010101000000-000000000000
	github.com/signet-go/signet/server v0.0.0-00010101000000-000000000000
)

require (
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	go.etcd.io/bbolt v1.5.0 // indirect
	go.uber.org/atomic v1.12.0 // indirect
	golang.org/x/crypto v0.58.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
)
