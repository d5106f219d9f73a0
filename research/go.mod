module github.com/patience-gym/patience/research

go 1.26

require (
	github.com/patience-gym/patience v1.0.0
	gonum.org/v1/gonum v0.17.0
)

replace github.com/patience-gym/patience => ../
