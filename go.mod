module github.com/realdrift/realdrift

go 1.26.8
