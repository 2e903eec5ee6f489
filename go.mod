module github.com/signet-go/signet

go 1.26
