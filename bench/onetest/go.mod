module example.com/onetest

go 1.19
