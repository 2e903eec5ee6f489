module github.com/signet-go/signet/server

go 1.26.0

replace github.com/signet-go/signet => ../

require github.com/signet-go/signet v0.0.0-00010101000000-000000000000
