module example.com/flakesweep-demo

go 1.19
