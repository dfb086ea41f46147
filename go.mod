module github.com/ptbatch/ptbatch

go 1.26.0

require gonum.org/v1/gonum v0.17.0

require golang.org/x/sys v0.49.0 // indirect
