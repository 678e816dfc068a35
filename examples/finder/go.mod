module example.com/finder

go 1.22

require github.com/vigorvim/vigor v0.1.0
