module github.com/patience-gym/patience

go 1.26
